package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
	"github.com/astra-control/terraform-provider-astra/internal/testutil"
)

// TestAccProvider_validation: each invalid provider argument stops `plan` with a diagnostic
// that names it and says what is expected.
func TestAccProvider_validation(t *testing.T) {
	a := newAccTarget(t)
	resourceHCL := clusterHCL(a.cloudID(), arg("credential_id", testCredentialID))
	cases := []struct {
		args string
		want *regexp.Regexp
	}{
		{`endpoint = "ftp://astra.example.com"`, errorPhrases("Invalid http(s) URL", `"ftp://astra.example.com" is not an http(s) URL`)},
		{`account_id = "acme"`, errorPhrases("Invalid UUID", `"acme" is not a UUID`)},
		{`ca_certificate = "not a certificate"`, errorPhrases("Invalid PEM certificate bundle", "the value is not a PEM bundle")},
		{`request_timeout = "10"`, errorPhrases("Invalid duration", `"10" is not a duration`)},
		{`api_version = "2.0"`, errorPhrases("Invalid Attribute Value Match", `api_version value must be one of: ["1.0" "1.1"`, `got: "2.0"`)},
		{"ca_certificate_file = \"/ca.pem\"\n  insecure_skip_verify = false\n  ca_certificate = " + fmt.Sprintf("%q", testutil.SelfSignedCertPEM(t)),
			errorPhrases("Invalid Attribute Combination", `Attribute "ca_certificate_file" cannot be specified when "ca_certificate" is specified`)},
	}
	var steps []resource.TestStep
	for _, c := range cases {
		steps = append(steps, resource.TestStep{
			Config:      fmt.Sprintf("provider \"astra\" {\n  %s\n}\n", c.args) + resourceHCL,
			PlanOnly:    true,
			ExpectError: c.want,
		})
	}
	a.test(resource.TestCase{Steps: steps})
}

// TestAccProvider_missingCredentials: without an account and a token (in HCL or the
// environment) the first API call fails with an error that names both and their variables.
func TestAccProvider_missingCredentials(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("an environment without ASTRA_ACCOUNT_ID and ASTRA_API_TOKEN")
	a.test(resource.TestCase{Steps: []resource.TestStep{{
		Config: fmt.Sprintf("provider \"astra\" {\n  endpoint = %q\n}\n", a.url) + clusterHCL(a.cloudID(), arg("credential_id", testCredentialID)),
		ExpectError: errorPhrases("Astra Control provider not ready",
			"The provider configuration is missing account_id (ASTRA_ACCOUNT_ID) and api_token (ASTRA_API_TOKEN)"),
	}}})
}

// TestAccProvider_tls: an Astra Control Center behind a self-signed certificate is refused
// until the provider trusts it with ca_certificate (or, with a warning, skips verification).
func TestAccProvider_tls(t *testing.T) {
	a := newAccTarget(t, withTLS())
	a.requireSim("a server with a self-signed certificate")
	cred := a.kubeconfigCredential("kube-tls", "behind-tls")
	resourceHCL := clusterHCL(a.cloudID(), arg("credential_id", cred))
	untrusted := fmt.Sprintf("provider \"astra\" {\n  endpoint = %q\n  account_id = %q\n  api_token = %q\n%%s}\n", a.url, a.sim.AccountID(), astrasim.DefaultToken)
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{
				Config:      fmt.Sprintf(untrusted, "") + resourceHCL,
				ExpectError: errorPhrases("Cannot add the cluster", "TLS certificate is not trusted", "certificate signed by unknown authority"),
			},
			{
				Config:            a.config(resourceHCL),
				ConfigStateChecks: []statecheck.StateCheck{expectString("state", "running")},
			},
			{
				Config:           fmt.Sprintf(untrusted, "  insecure_skip_verify = true\n") + resourceHCL,
				ConfigPlanChecks: emptyPlan(),
			},
		},
	})
}
