package provider

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// testSecret is the token of the test kubeconfigs; no diagnostic may ever contain it.
const testSecret = "sim-fake-token-not-a-secret"

func testKubeconfig() string {
	return string(astrasim.TestKubeconfig("prod-east", "https://prod-east.example.com:6443"))
}

// twoClusterKubeconfig is parseable but holds two clusters, which Astra refuses.
func twoClusterKubeconfig() string {
	return strings.Replace(testKubeconfig(), "clusters:\n", "clusters:\n- name: second\n  cluster:\n    server: https://second.example.com\n", 1)
}

func TestKubeconfigCredentialFrom(t *testing.T) {
	valid := astra.Bool(true)
	prior := kubeconfigCredentialModel{
		Kubeconfig: types.StringValue("kept"), KubeconfigWO: types.StringValue("never stored"),
		KubeconfigWOVersion: types.StringValue("3"),
	}
	m, err := kubeconfigCredentialFrom(&astra.Credential{
		ID: testCredentialID, Name: "prod-east", KeyType: "kubeconfig", Valid: &valid,
		Metadata: astra.Metadata{CreationTimestamp: "2024-05-01T10:00:00Z", CreatedBy: "u-1"},
	}, prior)
	if err != nil {
		t.Fatal(err)
	}
	if m.ID.ValueString() != testCredentialID || m.Name.ValueString() != "prod-east" || !m.Valid.ValueBool() {
		t.Errorf("identity not read: %+v", m)
	}
	if m.Kubeconfig.ValueString() != "kept" || m.KubeconfigWOVersion.ValueString() != "3" {
		t.Errorf("the kubeconfig arguments must keep what the model held (the service never returns them): %+v", m)
	}
	if !m.KubeconfigWO.IsNull() {
		t.Errorf("kubeconfig_wo must be null in state, got %v", m.KubeconfigWO)
	}
	if got := m.Metadata.Attributes()["creation_timestamp"]; !got.Equal(types.StringValue("2024-05-01T10:00:00Z")) {
		t.Errorf("metadata.creation_timestamp = %v", got)
	}

	if _, err := kubeconfigCredentialFrom(&astra.Credential{ID: "x", KeyType: "generic"}, kubeconfigCredentialModel{}); !errors.Is(err, errNotKubeconfigCredential) {
		t.Errorf("a generic credential must be refused, got %v", err)
	}
}

func TestKubeconfigText(t *testing.T) {
	null := kubeconfigCredentialModel{Kubeconfig: types.StringNull(), KubeconfigWO: types.StringNull()}
	withPlain, withWO := null, null
	withPlain.Kubeconfig = types.StringValue("plain")
	withWO.KubeconfigWO = types.StringValue("write-only")
	tests := []struct {
		name         string
		plan, config kubeconfigCredentialModel
		want         string
		ok           bool
	}{
		{"kubeconfig from the plan", withPlain, withPlain, "plain", true},
		{"kubeconfig_wo from the configuration", null, withWO, "write-only", true},
		{"neither", null, null, "", false},
	}
	for _, tt := range tests {
		if got, ok := kubeconfigText(tt.plan, tt.config); got != tt.want || ok != tt.ok {
			t.Errorf("%s: got (%q, %v), want (%q, %v)", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

// The body the resource sends: the kubeconfig as compact JSON, base64-encoded.
func TestKubeconfigCredentialBody(t *testing.T) {
	body, err := astra.KubeconfigCredential("prod-east", []byte(testKubeconfig()))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := base64.StdEncoding.DecodeString(body.KeyStore["base64"])
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil || doc["current-context"] != "prod-east" {
		t.Fatalf("keyStore.base64 is not the kubeconfig as JSON: %v %v", doc, err)
	}
	if body.KeyType != "kubeconfig" || body.Name != "prod-east" {
		t.Fatalf("body = %v", body)
	}
}

func TestMergeCredentialLabels(t *testing.T) {
	read := []astra.Label{{Name: astra.LabelCredType, Value: "kubeconfig"}, {Name: astra.ReadOnlyLabelPrefix + "clusterID", Value: testClusterID}}
	built := []astra.Label{{Name: astra.LabelCredType, Value: "kubeconfig"}, {Name: astra.LabelCloudName, Value: "private"}}
	want := []astra.Label{read[0], read[1], built[1]}
	if got := mergeCredentialLabels(read, built); !reflect.DeepEqual(got, want) {
		t.Fatalf("mergeCredentialLabels = %v, want %v", got, want)
	}
}

// credentialConfig is a configuration of astra_kubeconfig_credential for ValidateConfig.
func credentialConfig(t *testing.T, kubeconfigWO tftypes.Value) tfsdk.Config {
	t.Helper()
	var r kubeconfigCredentialResource
	var sresp resource.SchemaResponse
	r.Schema(context.Background(), resource.SchemaRequest{}, &sresp)
	objType, ok := sresp.Schema.Type().TerraformType(context.Background()).(tftypes.Object)
	if !ok {
		t.Fatal("the schema's type is not an object")
	}
	vals := map[string]tftypes.Value{}
	for name, typ := range objType.AttributeTypes {
		vals[name] = tftypes.NewValue(typ, nil)
	}
	vals["name"] = tftypes.NewValue(tftypes.String, "prod-east")
	vals["kubeconfig_wo"] = kubeconfigWO
	vals["kubeconfig_wo_version"] = tftypes.NewValue(tftypes.String, "1")
	return tfsdk.Config{Schema: sresp.Schema, Raw: tftypes.NewValue(objType, vals)}
}

func TestKubeconfigCredentialValidateConfig(t *testing.T) {
	tests := []struct {
		name      string
		wo        tftypes.Value
		writeOnly bool
		want      string
	}{
		{"old CLI", tftypes.NewValue(tftypes.String, testKubeconfig()), false, "Write-only arguments need a newer CLI"},
		{"invalid kubeconfig_wo", tftypes.NewValue(tftypes.String, twoClusterKubeconfig()), true, "Invalid kubeconfig"},
		{"valid kubeconfig_wo", tftypes.NewValue(tftypes.String, testKubeconfig()), true, ""},
		{"unknown kubeconfig_wo", tftypes.NewValue(tftypes.String, tftypes.UnknownValue), true, ""},
		{"no kubeconfig_wo on an old CLI", tftypes.NewValue(tftypes.String, nil), false, ""},
	}
	for _, tt := range tests {
		resp := &resource.ValidateConfigResponse{}
		req := resource.ValidateConfigRequest{Config: credentialConfig(t, tt.wo)}
		req.ClientCapabilities.WriteOnlyAttributesAllowed = tt.writeOnly
		(&kubeconfigCredentialResource{}).ValidateConfig(context.Background(), req, resp)
		text := diagnosticsText(resp.Diagnostics)
		if tt.want == "" && resp.Diagnostics.HasError() || tt.want != "" && !strings.Contains(text, tt.want) {
			t.Errorf("%s: diagnostics %q, want %q", tt.name, text, tt.want)
		}
		if tt.name == "old CLI" && !strings.Contains(text, "set `kubeconfig` instead") {
			t.Errorf("the old-CLI error must say to use kubeconfig: %q", text)
		}
		if strings.Contains(text, testSecret) {
			t.Errorf("%s: the diagnostic quotes the kubeconfig", tt.name)
		}
	}
}

// diagnosticsText joins severity, summary and detail of every diagnostic, for assertions.
func diagnosticsText(diags diag.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		b.WriteString(d.Severity().String() + ": " + d.Summary() + ": " + d.Detail() + "\n")
	}
	return b.String()
}
