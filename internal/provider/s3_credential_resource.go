package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"

	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
)

var (
	_ resource.ResourceWithConfigure      = (*s3CredentialResource)(nil)
	_ resource.ResourceWithImportState    = (*s3CredentialResource)(nil)
	_ resource.ResourceWithValidateConfig = (*s3CredentialResource)(nil)
	_ knownanswers.PlanChecker            = (*s3CredentialResource)(nil)
)

type s3CredentialResource struct {
	credentialResource[s3CredentialModel]
}

// newS3CredentialResource is astra_s3_credential.
func newS3CredentialResource() resource.Resource {
	return &s3CredentialResource{newCredentialResource(s3CredentialSpec)}
}

// s3CredentialSpec: the kind, converters and plan rules. A new credential needs a name and
// the key pair; a rotation or a rename sends the whole pair (a PUT replaces the whole
// credential).
var s3CredentialSpec = credentialSpec[s3CredentialModel]{
	kind:   credentialKind{typeName: "astra_s3_credential", kind: "an S3 credential", accepts: `credentials of key type "s3"`},
	what:   "S3 credential",
	rules:  credentialPlanRules{secret: s3Secret, requiredToCreate: []string{"name"}, sentWithSecret: []string{"access_key_id"}},
	fields: s3CredentialAPIFields, body: s3CredentialCreateRequest, from: s3CredentialFrom,
	id: func(m s3CredentialModel) string { return m.ID.ValueString() },
}

func (r *s3CredentialResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_s3_credential"
}

func (r *s3CredentialResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: s3CredentialSchemaVersion,
		MarkdownDescription: "An object store's key pair (`POST /core/v1/credentials`, key type `s3`): what a bucket of an " +
			"S3-compatible provider (`ontap-s3`, `storagegrid-s3`, `generic-s3`, `aws`) uses. Sent as NetApp's clients send " +
			"it: the key store holds the access key ID and the secret, each base64-encoded, with the labels `credType` and " +
			"`cloudName` set to `s3`. Changing the key pair rotates the credential in place. Set the secret either with " +
			"`secret_access_key` (sensitive: hidden in plans and logs, but stored in state) or with the write-only " +
			"`secret_access_key_wo` (Terraform 1.11 or later: never stored). Astra Control never returns the key store.",
		Attributes: s3CredentialAttributes(),
	}
}

// ValidateConfig refuses secret_access_key_wo from a CLI that cannot send it.
func (r *s3CredentialResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	s3Secret.validateWriteOnly(ctx, req, resp, "Invalid secret access key", nil)
}
