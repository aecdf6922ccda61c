package provider

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
	"github.com/astra-control/terraform-provider-astra/internal/provider/config"
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
	endpoint := a.url
	if !a.simulated() { // real mode runs tests one at a time, so the environment may change
		endpoint = os.Getenv(config.EnvEndpoint)
		t.Setenv(config.EnvAccountID, "")
		t.Setenv(config.EnvAPIToken, "")
	}
	a.test(resource.TestCase{Steps: []resource.TestStep{{
		Config: fmt.Sprintf("provider \"astra\" {\n  endpoint = %q\n}\n", endpoint) + clusterHCL(a.cloudID(), arg("credential_id", testCredentialID)),
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
				Config: fmt.Sprintf(untrusted, "") + resourceHCL,
				ExpectError: errorPhrases("Cannot add the cluster", "TLS certificate is not trusted", "certificate signed by unknown authority",
					"ca_certificate_file or ca_certificate argument (or ASTRA_CA_CERTIFICATE_FILE)", "test installation only, insecure_skip_verify = true"),
			},
			{
				Config:            a.config(resourceHCL),
				ConfigStateChecks: []statecheck.StateCheck{expectString(clusterAddr, "state", "running")},
			},
			{
				Config:           fmt.Sprintf(untrusted, "  insecure_skip_verify = true\n") + resourceHCL,
				ConfigPlanChecks: emptyPlan(),
			},
		},
	})
}

// configureWith runs the provider's Configure on a provider block; values maps argument
// names to values, and the string "(unknown)" stands for a value known only at apply.
func configureWith(t *testing.T, p fwprovider.Provider, values map[string]string) *fwprovider.ConfigureResponse {
	t.Helper()
	ctx := context.Background()
	var schemaResp fwprovider.SchemaResponse
	p.Schema(ctx, fwprovider.SchemaRequest{}, &schemaResp)
	objType, ok := schemaResp.Schema.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		t.Fatal("the provider schema is not an object")
	}
	raw := map[string]tftypes.Value{}
	for name, typ := range objType.AttributeTypes {
		v, set := values[name]
		switch {
		case !set:
			raw[name] = tftypes.NewValue(typ, nil)
		case v == "(unknown)":
			raw[name] = tftypes.NewValue(typ, tftypes.UnknownValue)
		default:
			raw[name] = tftypes.NewValue(typ, v)
		}
	}
	resp := &fwprovider.ConfigureResponse{}
	p.Configure(ctx, fwprovider.ConfigureRequest{
		TerraformVersion: "1.5.7",
		Config:           tfsdk.Config{Schema: schemaResp.Schema, Raw: tftypes.NewValue(objType, raw)},
	}, resp)
	return resp
}

func TestConfigureHandsTheClientAndTheWaitScheduleToResources(t *testing.T) {
	testutil.ClearAstraEnvironment(t)
	schedule := astra.Schedule{Min: 3 * time.Millisecond, Max: 7 * time.Millisecond, Multiplier: 2}
	p := New("1.2.3", WithWaitSchedule(schedule), WithRetryWait(time.Millisecond, 2*time.Millisecond))()
	resp := configureWith(t, p, map[string]string{
		"endpoint": "https://astra.example.com", "account_id": astrasim.DefaultAccountID, "api_token": "t", "api_version": "1.7",
	})
	if resp.Diagnostics.HasError() {
		t.Fatalf("diagnostics: %v", resp.Diagnostics)
	}
	data, ok := resp.ResourceData.(*providerData)
	if !ok || resp.DataSourceData != resp.ResourceData {
		t.Fatalf("ResourceData %T, DataSourceData %T: want the same *providerData", resp.ResourceData, resp.DataSourceData)
	}
	client, diags := data.clients.Client()
	if diags.HasError() || client == nil || client.ClusterVersion() != "1.7" {
		t.Fatalf("client %v (version %q), diagnostics %v", client, client.ClusterVersion(), diags)
	}
	if !reflect.DeepEqual(data.wait, schedule) {
		t.Fatalf("wait schedule %+v, want %+v", data.wait, schedule)
	}
	holder := clientHolder{data: data}
	if !reflect.DeepEqual(holder.waitSchedule(), schedule) || holder.configuredClient() != client {
		t.Fatal("clientHolder does not hand out the provider's schedule and client")
	}
}

func TestConfigureDefaultsToTheProductionWaitSchedule(t *testing.T) {
	testutil.ClearAstraEnvironment(t)
	resp := configureWith(t, New("1.2.3")(), map[string]string{"account_id": astrasim.DefaultAccountID, "api_token": "t"})
	if data, ok := resp.ResourceData.(*providerData); !ok || !reflect.DeepEqual(data.wait, astra.DefaultSchedule()) {
		t.Fatalf("wait schedule %+v, want astra.DefaultSchedule()", data.wait)
	}
	if !reflect.DeepEqual((&clientHolder{}).waitSchedule(), astra.DefaultSchedule()) {
		t.Fatal("an unconfigured resource must wait on the default schedule")
	}
}

func TestConfigureDefersValuesKnownOnlyAtApply(t *testing.T) {
	testutil.ClearAstraEnvironment(t)
	resp := configureWith(t, New("1.2.3")(), map[string]string{"account_id": "(unknown)", "api_token": "t"})
	if resp.Diagnostics.HasError() {
		t.Fatalf("an unknown value must not fail Configure: %v", resp.Diagnostics)
	}
	data, ok := resp.ResourceData.(*providerData)
	if !ok {
		t.Fatalf("ResourceData is %T", resp.ResourceData)
	}
	holder := clientHolder{data: data}
	var diags diag.Diagnostics
	if holder.client(&diags) != nil || !strings.Contains(diags[0].Detail(), "depends on values that are not known yet") {
		t.Fatalf("client of a deferred configuration: %v", diags)
	}
	if holder.configuredClient() != nil {
		t.Fatal("plan-time checks must see no client while the configuration is deferred")
	}
}

func TestConfigureRejectsInvalidEnvironment(t *testing.T) {
	testutil.ClearAstraEnvironment(t)
	t.Setenv(config.EnvRequestTimeout, "soon")
	resp := configureWith(t, New("1.2.3")(), map[string]string{"account_id": astrasim.DefaultAccountID, "api_token": "t"})
	if !resp.Diagnostics.HasError() || resp.ResourceData != nil || !strings.Contains(resp.Diagnostics[0].Summary(), "Invalid ASTRA_REQUEST_TIMEOUT") {
		t.Fatalf("diagnostics %v, data %v", resp.Diagnostics, resp.ResourceData)
	}
}
