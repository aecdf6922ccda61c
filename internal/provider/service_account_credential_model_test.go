package provider

import (
	"context"
	"encoding/base64"
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
)

// testServiceAccountSecret is the private key of the test key files; no diagnostic may hold it.
const testServiceAccountSecret = "-----BEGIN PRIVATE KEY-----sa-fake-key-not-a-secret"

// gcpKeyFile is a GCP service-account key file with the members Astra Control needs.
func gcpKeyFile() string {
	return `{"type":"service_account","project_id":"p","client_email":"astra@p.iam.gserviceaccount.com","private_key":"` +
		testServiceAccountSecret + `"}`
}

func TestServiceAccountCredentialFrom(t *testing.T) {
	labels := func(credType, cloud string) astra.Metadata {
		return astra.Metadata{Labels: []astra.Label{{Name: astra.LabelCredType, Value: credType}, {Name: astra.LabelCloudName, Value: cloud}}}
	}
	prior := serviceAccountCredentialModel{
		CloudType: types.StringValue("gcp"), ServiceAccountJSON: types.StringValue("kept"),
		ServiceAccountJSONWO: types.StringValue("never stored"), ServiceAccountJSONWOVersion: types.StringValue("4"),
	}
	m, err := serviceAccountCredentialFrom(&astra.Credential{ID: testCredentialID, Name: "gcp-sa", KeyType: "generic",
		Metadata: labels("service-account", "GCP")}, prior)
	if err != nil {
		t.Fatal(err)
	}
	if m.ID.ValueString() != testCredentialID || m.Name.ValueString() != "gcp-sa" || m.CloudType.ValueString() != "gcp" {
		t.Errorf("identity or cloud not read (the casing written must be kept): %+v", m)
	}
	if m.ServiceAccountJSON.ValueString() != "kept" || m.ServiceAccountJSONWOVersion.ValueString() != "4" || !m.ServiceAccountJSONWO.IsNull() {
		t.Errorf("the key file's arguments: %+v", m)
	}
	// An import has no prior cloud_type: the label, in the schema's spelling.
	imported, err := serviceAccountCredentialFrom(&astra.Credential{ID: testCredentialID, KeyType: "generic", Metadata: labels("service-account", "Azure")},
		serviceAccountCredentialModel{CloudType: types.StringNull()})
	if err != nil || imported.CloudType.ValueString() != "azure" {
		t.Errorf("imported cloud_type = %v (%v), want azure", imported.CloudType, err)
	}
	for _, c := range []astra.Credential{
		{ID: "x", KeyType: "s3", Metadata: labels("s3", "s3")},
		{ID: "x", KeyType: "kubeconfig"},
		{ID: "x", KeyType: "generic", Metadata: labels("AzureContainer", "Azure")},
	} {
		if _, err := serviceAccountCredentialFrom(&c, serviceAccountCredentialModel{}); !errors.Is(err, errNotServiceAccountCredential) {
			t.Errorf("%s %v: %v, want errNotServiceAccountCredential", c.KeyType, c.Metadata.Labels, err)
		}
	}
}

func TestServiceAccountCredentialCreateRequest(t *testing.T) {
	for _, cloud := range []string{"gcp", "Azure", "AWS"} {
		plan := serviceAccountCredentialModel{Name: types.StringValue("sa"), CloudType: types.StringValue(cloud), ServiceAccountJSON: types.StringNull()}
		var diags diag.Diagnostics
		body, ok := serviceAccountCredentialCreateRequest(plan, serviceAccountCredentialModel{ServiceAccountJSONWO: types.StringValue(gcpKeyFile())}, &diags)
		if !ok {
			t.Fatalf("%s: %v", cloud, diags)
		}
		wantLabels := []astra.Label{{Name: astra.LabelCredType, Value: "service-account"}, {Name: astra.LabelCloudName, Value: astra.ServiceAccountCloudName(cloud)}}
		if body.KeyType != "generic" || !reflect.DeepEqual(body.KeyStore, map[string]string{"base64": base64.StdEncoding.EncodeToString([]byte(gcpKeyFile()))}) ||
			!reflect.DeepEqual(body.Labels, wantLabels) || wantLabels[1].Value == "" {
			t.Errorf("%s: body %v labels %v", cloud, body, body.Labels)
		}
	}
	var diags diag.Diagnostics
	plan := serviceAccountCredentialModel{Name: types.StringValue("sa"), CloudType: types.StringValue("gcp"),
		ServiceAccountJSON: types.StringValue(`{"private_key":"` + testServiceAccountSecret + `"}`)}
	if _, ok := serviceAccountCredentialCreateRequest(plan, serviceAccountCredentialModel{}, &diags); ok {
		t.Fatal("a GCP key file without type was accepted")
	}
	if text := diagnosticsText(diags); !strings.Contains(text, "The value of `service_account_json` is not a usable service account key file") ||
		strings.Contains(text, "sa-fake-key") {
		t.Errorf("diagnostics %q", text)
	}
}

// serviceAccountConfig is a configuration of astra_service_account_credential for ValidateConfig.
func serviceAccountConfig(t *testing.T, cloudType string, plain, wo tftypes.Value) tfsdk.Config {
	t.Helper()
	var r serviceAccountCredentialResource
	var sresp resource.SchemaResponse
	r.Schema(context.Background(), resource.SchemaRequest{}, &sresp)
	objType := sresp.Schema.Type().TerraformType(context.Background()).(tftypes.Object)
	vals := map[string]tftypes.Value{}
	for name, typ := range objType.AttributeTypes {
		vals[name] = tftypes.NewValue(typ, nil)
	}
	vals["name"] = tftypes.NewValue(tftypes.String, "sa")
	vals["cloud_type"] = tftypes.NewValue(tftypes.String, cloudType)
	vals["service_account_json"], vals["service_account_json_wo"] = plain, wo
	if !wo.IsNull() {
		vals["service_account_json_wo_version"] = tftypes.NewValue(tftypes.String, "1")
	}
	return tfsdk.Config{Schema: sresp.Schema, Raw: tftypes.NewValue(objType, vals)}
}

// TestServiceAccountCredentialValidateConfig: both arguments are checked against cloud_type,
// the error names the argument and never quotes the key file.
func TestServiceAccountCredentialValidateConfig(t *testing.T) {
	none := tftypes.NewValue(tftypes.String, nil)
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	noType := `{"client_email":"a","private_key":"` + testServiceAccountSecret + `"}`
	tests := []struct {
		name, cloud string
		plain, wo   tftypes.Value
		writeOnly   bool
		want        string
	}{
		{"gcp key file", "gcp", str(gcpKeyFile()), none, true, ""},
		{"gcp without type", "GCP", str(noType), none, true, "The value of `service_account_json` is not a usable service account key file: a GCP key file needs \"type\": \"service_account\""},
		{"aws without gcp members", "aws", str(noType), none, true, ""},
		{"not an object", "azure", str(`"` + testServiceAccountSecret + `"`), none, true, "is JSON but not an object"},
		{"write-only without type", "gcp", none, str(noType), true, "The value of `service_account_json_wo` is not a usable service account key file"},
		{"write-only on an old CLI", "gcp", none, str(gcpKeyFile()), false, "Write-only arguments need a newer CLI"},
		{"unknown cloud: JSON only", "", none, str(noType), true, ""},
	}
	for _, tt := range tests {
		cfg := serviceAccountConfig(t, tt.cloud, tt.plain, tt.wo)
		if tt.cloud == "" {
			cfg = serviceAccountConfig(t, "gcp", tt.plain, tt.wo)
			cfg.Raw = replaceAttr(t, cfg.Raw, "cloud_type", tftypes.NewValue(tftypes.String, tftypes.UnknownValue))
		}
		resp := &resource.ValidateConfigResponse{}
		req := resource.ValidateConfigRequest{Config: cfg}
		req.ClientCapabilities.WriteOnlyAttributesAllowed = tt.writeOnly
		(&serviceAccountCredentialResource{}).ValidateConfig(context.Background(), req, resp)
		text := diagnosticsText(resp.Diagnostics)
		if tt.want == "" && resp.Diagnostics.HasError() || tt.want != "" && !strings.Contains(text, tt.want) {
			t.Errorf("%s: diagnostics %q, want %q", tt.name, text, tt.want)
		}
		if strings.Contains(text, "sa-fake-key") {
			t.Errorf("%s: the diagnostic quotes the key file", tt.name)
		}
	}
}

// replaceAttr is the object v with its attribute name set to to.
func replaceAttr(t *testing.T, v tftypes.Value, name string, to tftypes.Value) tftypes.Value {
	t.Helper()
	var vals map[string]tftypes.Value
	if err := v.As(&vals); err != nil {
		t.Fatal(err)
	}
	vals[name] = to
	return tftypes.NewValue(v.Type(), vals)
}
