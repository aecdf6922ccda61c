package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

var (
	_ resource.ResourceWithConfigure      = (*s3CredentialResource)(nil)
	_ resource.ResourceWithImportState    = (*s3CredentialResource)(nil)
	_ resource.ResourceWithValidateConfig = (*s3CredentialResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*s3CredentialResource)(nil)
)

type s3CredentialResource struct{ clientHolder }

// newS3CredentialResource is astra_s3_credential.
func newS3CredentialResource() resource.Resource { return &s3CredentialResource{} }

// s3CredentialPlanRules: a new credential needs a name and the key pair; a rotation or a
// rename sends the whole pair (a PUT replaces the whole credential).
var s3CredentialPlanRules = credentialPlanRules{
	typeName: "astra_s3_credential", secret: s3Secret, requiredToCreate: []string{"name"}, sentWithSecret: []string{"access_key_id"},
}

// s3CredentialKind is what the resource manages.
var s3CredentialKind = credentialKind{
	typeName: "astra_s3_credential", kind: "an S3 credential", accepts: `credentials of key type "s3"`,
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

// ModifyPlan applies s3CredentialPlanRules. An imported credential may leave the key pair
// out: it keeps the one Astra Control holds.
func (r *s3CredentialResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	s3CredentialPlanRules.modifyPlan(ctx, req, resp)
}

func (r *s3CredentialResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan s3CredentialModel
	client, body, ok := prepareCredential(ctx, &r.clientHolder, req.Plan, req.Config, &plan, s3CredentialCreateRequest, &resp.Diagnostics)
	if !ok {
		return
	}
	if cred := r.createCredential(ctx, client, body, "S3 credential", s3CredentialAPIFields, &resp.Diagnostics); cred != nil {
		r.recordAnswer(ctx, &plan, cred, &resp.State, &resp.Diagnostics)
	}
}

func (r *s3CredentialResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state s3CredentialModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if cred := r.readCredential(ctx, req, resp, "astra_s3_credential", "S3 credential"); cred != nil {
		r.recordAnswer(ctx, &state, cred, &resp.State, &resp.Diagnostics)
	}
}

// Update rotates the key pair, renames, or both, in one PUT.
func (r *s3CredentialResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if s3CredentialPlanRules.leftConfiguration(ctx, req, resp) {
		return
	}
	var plan s3CredentialModel
	client, body, ok := prepareCredential(ctx, &r.clientHolder, req.Plan, req.Config, &plan, s3CredentialCreateRequest, &resp.Diagnostics)
	if !ok {
		return
	}
	cred := rotateCredential(ctx, client, plan.ID.ValueString(), body, "S3 credential", s3CredentialAPIFields, &resp.Diagnostics)
	if cred == nil {
		return
	}
	r.recordAnswer(ctx, &plan, cred, &resp.State, &resp.Diagnostics)
	resp.Diagnostics.Append(recordPlanned(req.Plan, &resp.State)...)
}

func (r *s3CredentialResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	r.deleteCredential(ctx, req, resp, "S3 credential")
}

func (r *s3CredentialResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// recordAnswer writes the model converted from the service's answer to state; m holds the
// prior model (the plan, or the state) and then what was recorded.
func (r *s3CredentialResource) recordAnswer(ctx context.Context, m *s3CredentialModel, cred *astra.Credential, state *tfsdk.State, diags *diag.Diagnostics) {
	recordCredential(ctx, m, cred, s3CredentialFrom, s3CredentialKind, state, diags)
}
