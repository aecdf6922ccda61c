package provider

import (
	"encoding/base64"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

func TestS3CredentialFrom(t *testing.T) {
	prior := s3CredentialModel{
		AccessKeyID: types.StringValue("AKIA"), SecretAccessKey: types.StringValue("kept"),
		SecretAccessKeyWO: types.StringValue("never stored"), SecretAccessKeyWOVersion: types.StringValue("2"),
	}
	m, err := s3CredentialFrom(&astra.Credential{ID: testCredentialID, Name: "backups", KeyType: "s3",
		Metadata: astra.Metadata{CreationTimestamp: "2024-05-01T10:00:00Z"}}, prior)
	if err != nil {
		t.Fatal(err)
	}
	if m.ID.ValueString() != testCredentialID || m.Name.ValueString() != "backups" {
		t.Errorf("identity not read: %+v", m)
	}
	if m.AccessKeyID.ValueString() != "AKIA" || m.SecretAccessKey.ValueString() != "kept" || m.SecretAccessKeyWOVersion.ValueString() != "2" {
		t.Errorf("the key pair's arguments must keep what the model held (the service never returns them): %+v", m)
	}
	if !m.SecretAccessKeyWO.IsNull() {
		t.Errorf("secret_access_key_wo must be null in state, got %v", m.SecretAccessKeyWO)
	}
	for _, keyType := range []string{"kubeconfig", "generic"} {
		if _, err := s3CredentialFrom(&astra.Credential{ID: "x", KeyType: keyType}, s3CredentialModel{}); !errors.Is(err, errNotS3Credential) {
			t.Errorf("key type %s: %v, want errNotS3Credential", keyType, err)
		}
	}
}

// TestS3CredentialCreateRequest: the body NetApp's toolkit sends, from the plain secret or
// the write-only one; without a secret, an error that quotes nothing.
func TestS3CredentialCreateRequest(t *testing.T) {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	wantLabels := []astra.Label{{Name: astra.LabelCredType, Value: "s3"}, {Name: astra.LabelCloudName, Value: "s3"}}
	for _, tt := range []struct {
		name      string
		plan, cfg s3CredentialModel
		secret    string
	}{
		{"plain", s3CredentialModel{SecretAccessKey: types.StringValue("plain-secret")}, s3CredentialModel{}, "plain-secret"},
		{"write-only", s3CredentialModel{SecretAccessKey: types.StringNull()}, s3CredentialModel{SecretAccessKeyWO: types.StringValue("wo-secret")}, "wo-secret"},
	} {
		tt.plan.Name, tt.plan.AccessKeyID = types.StringValue("backups"), types.StringValue("AKIA-ID")
		var diags diag.Diagnostics
		body, ok := s3CredentialCreateRequest(tt.plan, tt.cfg, &diags)
		if !ok || diags.HasError() {
			t.Fatalf("%s: %v", tt.name, diags)
		}
		want := map[string]string{"accessKey": b64("AKIA-ID"), "accessSecret": b64(tt.secret)}
		if body.Name != "backups" || body.KeyType != "s3" || !reflect.DeepEqual(body.KeyStore, want) || !reflect.DeepEqual(body.Labels, wantLabels) {
			t.Errorf("%s: body %#v, key store %v", tt.name, body, body.KeyStore)
		}
	}
	var diags diag.Diagnostics
	if _, ok := s3CredentialCreateRequest(s3CredentialModel{Name: types.StringValue("x"), AccessKeyID: types.StringValue("AKIA-ID")}, s3CredentialModel{}, &diags); ok ||
		!strings.Contains(diagnosticsText(diags), "Neither secret_access_key nor secret_access_key_wo holds a value") {
		t.Errorf("no secret: %v", diags)
	}
	diags = nil
	if _, ok := s3CredentialCreateRequest(s3CredentialModel{Name: types.StringValue("x"), SecretAccessKey: types.StringValue("s")}, s3CredentialModel{}, &diags); ok ||
		!strings.Contains(diagnosticsText(diags), "access_key_id holds no value") {
		t.Errorf("no access key ID: %v", diags)
	}
}
