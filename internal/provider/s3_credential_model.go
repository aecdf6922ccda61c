package provider

import (
	"errors"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

// s3CredentialModel is astra_s3_credential as the framework decodes it.
type s3CredentialModel struct {
	ID                       types.String `tfsdk:"id"`
	Name                     types.String `tfsdk:"name"`
	AccessKeyID              types.String `tfsdk:"access_key_id"`
	SecretAccessKey          types.String `tfsdk:"secret_access_key"`
	SecretAccessKeyWO        types.String `tfsdk:"secret_access_key_wo"`
	SecretAccessKeyWOVersion types.String `tfsdk:"secret_access_key_wo_version"`
	Metadata                 types.Object `tfsdk:"metadata"`
}

// s3CredentialAPIFields maps the API's field names in invalidFields to attributes.
var s3CredentialAPIFields = map[string]string{
	"name": "name", "keyStore": "secret_access_key", "keyStore.accessKey": "access_key_id", "keyStore.accessSecret": "secret_access_key",
}

// errNotS3Credential is returned for a credential of another key type.
var errNotS3Credential = errors.New("not an S3 credential")

// s3CredentialFrom converts what the service reports. The key pair is never returned, so
// its arguments keep what prior (the plan, or the state) holds.
func s3CredentialFrom(c *astra.Credential, prior s3CredentialModel) (s3CredentialModel, error) {
	if c.KeyType != "" && !strings.EqualFold(c.KeyType, astra.KeyTypeS3) {
		return prior, errNotS3Credential
	}
	out := prior
	out.ID = types.StringValue(c.ID)
	out.Name = types.StringValue(c.Name)
	out.Metadata = attrs.MetadataValue(c.Metadata)
	out.SecretAccessKeyWO = types.StringNull() // write-only values are never kept in state
	return out, nil
}

// s3CredentialCreateRequest is the body for the key pair of the plan and the configuration
// (the write-only secret exists only there): the POST body, and the PUT body of a rotation.
func s3CredentialCreateRequest(plan, cfg s3CredentialModel, diags *diag.Diagnostics) (astra.CredentialCreate, bool) {
	secret, ok := secretText(plan.SecretAccessKey, cfg.SecretAccessKeyWO)
	if !ok {
		s3Secret.noSecret(diags)
		return astra.CredentialCreate{}, false
	}
	if plan.AccessKeyID.IsNull() || plan.AccessKeyID.IsUnknown() {
		diags.AddError("No access_key_id", "access_key_id holds no value at apply time; the key store needs it with the secret. "+s3Secret.howToSet)
		return astra.CredentialCreate{}, false
	}
	return astra.S3Credential(plan.Name.ValueString(), plan.AccessKeyID.ValueString(), secret), true
}
