package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

var (
	_ resource.ResourceWithConfigure      = (*kubeconfigCredentialResource)(nil)
	_ resource.ResourceWithImportState    = (*kubeconfigCredentialResource)(nil)
	_ resource.ResourceWithValidateConfig = (*kubeconfigCredentialResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*kubeconfigCredentialResource)(nil)
)

type kubeconfigCredentialResource struct{ clientHolder }

// newKubeconfigCredentialResource is astra_kubeconfig_credential.
func newKubeconfigCredentialResource() resource.Resource { return &kubeconfigCredentialResource{} }

func (r *kubeconfigCredentialResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_kubeconfig_credential"
}

func (r *kubeconfigCredentialResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: kubeconfigCredentialSchemaVersion,
		MarkdownDescription: "A kubeconfig credential (`POST /core/v1/credentials`, key type `kubeconfig`): what Astra Control " +
			"uses to reach a private cluster added with `astra_cluster`. The kubeconfig is checked at plan time (YAML or JSON, " +
			"exactly one cluster and one context), converted to JSON and base64-encoded as the API requires. " +
			"Changing it rotates the credential in place. Set the kubeconfig either with `kubeconfig` (sensitive: hidden in " +
			"plans and logs, but stored in state) or with the write-only `kubeconfig_wo` (Terraform 1.11 or later: never stored).",
		Attributes: kubeconfigCredentialAttributes(),
	}
}

// ValidateConfig checks kubeconfig_wo, which attribute validators of an old CLI's plan never see.
func (r *kubeconfigCredentialResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	kubeconfigSecret.validateWriteOnly(ctx, req, resp, "Invalid kubeconfig", validate.CheckKubeconfig)
}

// kubeconfigCredentialPlanRules: a new credential needs a name and a kubeconfig, and a
// rename sends the kubeconfig again (a PUT replaces the whole credential).
var kubeconfigCredentialPlanRules = credentialPlanRules{
	typeName: "astra_kubeconfig_credential", secret: kubeconfigSecret, requiredToCreate: []string{"name"},
}

// kubeconfigCredentialKind is what the resource manages.
var kubeconfigCredentialKind = credentialKind{
	typeName: "astra_kubeconfig_credential", kind: "a kubeconfig credential", accepts: `credentials of key type "kubeconfig"`,
}

// ModifyPlan applies kubeconfigCredentialPlanRules. An imported credential may leave the
// kubeconfig out: it keeps the one Astra Control holds.
func (r *kubeconfigCredentialResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	kubeconfigCredentialPlanRules.modifyPlan(ctx, req, resp)
}

func (r *kubeconfigCredentialResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan kubeconfigCredentialModel
	client, body, ok := prepareCredential(ctx, &r.clientHolder, req.Plan, req.Config, &plan, kubeconfigCredentialCreateRequest, &resp.Diagnostics)
	if !ok {
		return
	}
	if cred := r.createCredential(ctx, client, body, "kubeconfig credential", kubeconfigCredentialAPIFields, &resp.Diagnostics); cred != nil {
		r.recordAnswer(ctx, &plan, cred, &resp.State, &resp.Diagnostics)
	}
}

func (r *kubeconfigCredentialResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state kubeconfigCredentialModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if cred := r.readCredential(ctx, req, resp, "astra_kubeconfig_credential", "kubeconfig credential"); cred != nil {
		r.recordAnswer(ctx, &state, cred, &resp.State, &resp.Diagnostics)
	}
}

func (r *kubeconfigCredentialResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if kubeconfigCredentialPlanRules.leftConfiguration(ctx, req, resp) {
		return
	}
	var plan kubeconfigCredentialModel
	client, body, ok := prepareCredential(ctx, &r.clientHolder, req.Plan, req.Config, &plan, kubeconfigCredentialCreateRequest, &resp.Diagnostics)
	if !ok {
		return
	}
	cred := rotateCredential(ctx, client, plan.ID.ValueString(), body, "kubeconfig credential", kubeconfigCredentialAPIFields, &resp.Diagnostics)
	if cred == nil {
		return
	}
	r.recordAnswer(ctx, &plan, cred, &resp.State, &resp.Diagnostics)
	resp.Diagnostics.Append(recordPlanned(req.Plan, &resp.State)...)
}

func (r *kubeconfigCredentialResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	r.deleteCredential(ctx, req, resp, "kubeconfig credential")
}

func (r *kubeconfigCredentialResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// recordAnswer writes the model converted from the service's answer to state; m holds the
// prior model (the plan, or the state) and then what was recorded.
func (r *kubeconfigCredentialResource) recordAnswer(ctx context.Context, m *kubeconfigCredentialModel, cred *astra.Credential, state *tfsdk.State, diags *diag.Diagnostics) {
	recordCredential(ctx, m, cred, kubeconfigCredentialFrom, kubeconfigCredentialKind, state, diags)
}
