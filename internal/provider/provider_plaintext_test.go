package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
	"github.com/astra-control/terraform-provider-astra/internal/provider/config"
)

// TestAccProvider_plaintextEndpoint: an http:// endpoint on a host that is not a loopback
// address stops the plan with an error that says why and names the fix; the opt-in, in HCL
// or in the environment, lets the same plan through. The plan only creates a credential, so
// no request is made to the unreachable example host. (Loopback http is what every other
// acceptance test uses: the simulator.)
func TestAccProvider_plaintextEndpoint(t *testing.T) {
	a := newAccTarget(t, serial()) // serial: the test changes the environment
	t.Setenv(config.EnvAllowPlaintext, "")
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig.yaml")
	if err := os.WriteFile(kubeconfig, a.kubeconfig("plaintext"), 0o600); err != nil {
		t.Fatal(err)
	}
	block := func(extra string) string {
		return fmt.Sprintf("provider \"astra\" {\n  endpoint   = \"http://astra.example.com\"\n  account_id = %q\n  api_token  = \"t\"\n%s}\n",
			astrasim.DefaultAccountID, extra) + credentialHCL("plaintext", kubeconfig)
	}
	a.test(resource.TestCase{Steps: []resource.TestStep{
		{
			Config:   block(""),
			PlanOnly: true,
			ExpectError: errorPhrases("Plaintext endpoint refused",
				`endpoint "http://astra.example.com" is plain http to a host that is not a loopback address: every request `+
					`carries the API token, which would cross the network in clear text. Use https (for example `+
					`"https://astra.example.com") or, for a test installation only, set allow_plaintext_endpoint = true `+
					`(or ASTRA_ALLOW_PLAINTEXT_ENDPOINT=true).`),
		},
		{
			Config:             block("  allow_plaintext_endpoint = true\n"),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		},
		{
			PreConfig:          func() { t.Setenv(config.EnvAllowPlaintext, "true") },
			Config:             block(""),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		},
	}})
}
