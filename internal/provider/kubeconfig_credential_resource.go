package provider

import (
	"context"
	"time"

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
			"plans and logs, but stored in state) or with the write-only `kubeconfig_wo` (Terraform 1.11 or later, OpenTofu 1.11 or later: never stored).",
		Attributes: kubeconfigCredentialAttributes(),
	}
}

// ValidateConfig checks kubeconfig_wo: write-only values never reach attribute validators
// of an old CLI's plan, and an old CLI cannot send them at all.
func (r *kubeconfigCredentialResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var wo kubeconfigCredentialModel
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("kubeconfig_wo"), &wo.KubeconfigWO)...)
	if resp.Diagnostics.HasError() || wo.KubeconfigWO.IsNull() {
		return
	}
	if !req.ClientCapabilities.WriteOnlyAttributesAllowed {
		resp.Diagnostics.AddAttributeError(path.Root("kubeconfig_wo"), "Write-only arguments need a newer CLI",
			"kubeconfig_wo is a write-only argument, which needs Terraform 1.11 or later or OpenTofu 1.11 or later. This CLI does not support them: set `kubeconfig` instead (it is marked "+
				"sensitive, so it never shows in plans or logs, but it is stored in state), or upgrade the CLI.")
		return
	}
	if wo.KubeconfigWO.IsUnknown() {
		return
	}
	if err := validate.CheckKubeconfig(wo.KubeconfigWO.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("kubeconfig_wo"), "Invalid kubeconfig", err.Error())
	}
}

// ModifyPlan enforces what the API needs and the schema cannot say: a new credential needs
// a name and a kubeconfig, and a rename sends the kubeconfig again (a PUT replaces the whole
// credential). An imported credential may leave the kubeconfig out: Astra Control never
// returns it, so it cannot be generated, and leaving it out keeps the one Astra holds.
func (r *kubeconfigCredentialResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var cfg kubeconfigCredentialModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	hasKubeconfig := !cfg.Kubeconfig.IsNull() || !cfg.KubeconfigWO.IsNull()
	if req.State.Raw.IsNull() {
		if cfg.Name.IsNull() {
			resp.Diagnostics.AddAttributeError(path.Root("name"), "Missing name",
				"A new astra_kubeconfig_credential needs `name`. Only a credential imported from Astra Control may leave it out.")
		}
		if !hasKubeconfig {
			resp.Diagnostics.AddAttributeError(path.Root("kubeconfig"), "Missing kubeconfig", missingKubeconfigDetail+
				" Only a credential imported from Astra Control may leave both out: it keeps the kubeconfig Astra Control holds.")
		}
		return
	}
	var prior, plan kubeconfigCredentialModel
	if hasKubeconfig {
		resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
		if text, ok := kubeconfigText(cfg, cfg); ok && !resp.Diagnostics.HasError() {
			warnServerChange(ctx, r.configuredClient(), prior.ID.ValueString(), prior.Name.ValueString(),
				priorKubeconfigServer(ctx, prior, req.Private), text, &resp.Diagnostics)
		}
		return
	}
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if !resp.Diagnostics.HasError() && !plan.Name.IsUnknown() && !plan.Name.Equal(prior.Name) {
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Renaming needs the kubeconfig",
			"Astra Control replaces the whole credential on update and never returns its kubeconfig, so a rename "+
				"must send it again. "+missingKubeconfigDetail)
	}
}

func (r *kubeconfigCredentialResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan kubeconfigCredentialModel
	client, body, ok := r.prepare(ctx, req.Plan, req.Config, &plan, &resp.Diagnostics)
	if !ok {
		return
	}
	sent := time.Now()
	cred, err := client.CreateCredential(ctx, body)
	cred = createdOrAdopted(ctx, &resp.Diagnostics, "kubeconfig credential "+body.Name, "Cannot create the kubeconfig credential",
		kubeconfigCredentialAPIFields, cred, err, lostCreate[astra.Credential]{sent: sent, claims: r.claims(), stamp: credentialStamp, settle: client.RequestTimeout(),
			find: func() (*astra.Credential, error) { return client.FindCredential(ctx, body.Name) }})
	if cred == nil {
		return
	}
	r.recordAnswer(ctx, &plan, cred, &resp.State, &resp.Diagnostics)
	recordKubeconfigServer(ctx, resp.Private, body, &resp.Diagnostics)
}

func (r *kubeconfigCredentialResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state kubeconfigCredentialModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	client := r.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	id := state.ID.ValueString()
	cred := readOrForget(ctx, resp, "astra_kubeconfig_credential", id, "the kubeconfig credential",
		func() (*astra.Credential, error) { return client.GetCredential(ctx, id) }, nil)
	if cred == nil {
		return
	}
	r.recordAnswer(ctx, &state, cred, &resp.State, &resp.Diagnostics)
}

func (r *kubeconfigCredentialResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if kubeconfigLeftConfiguration(ctx, req, resp) {
		return
	}
	var plan kubeconfigCredentialModel
	client, body, ok := r.prepare(ctx, req.Plan, req.Config, &plan, &resp.Diagnostics)
	if !ok {
		return
	}
	id := plan.ID.ValueString()
	current, err := client.GetCredential(ctx, id)
	if err != nil {
		addAPIError(&resp.Diagnostics, "Cannot read the kubeconfig credential before rotating it", err, nil)
		return
	}
	body.Labels = mergeCredentialLabels(current.Metadata.Labels, body.Labels)
	body.Extra = current.Extra // what a newer Astra Control stores, sent back unchanged
	cred, err := client.UpdateCredential(ctx, id, body)
	if err != nil {
		addAPIError(&resp.Diagnostics, "Cannot update the kubeconfig credential", err, kubeconfigCredentialAPIFields)
		return
	}
	r.recordAnswer(ctx, &plan, cred, &resp.State, &resp.Diagnostics)
	recordKubeconfigServer(ctx, resp.Private, body, &resp.Diagnostics)
	resp.Diagnostics.Append(recordPlanned(req.Plan, &resp.State)...)
}

func (r *kubeconfigCredentialResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state kubeconfigCredentialModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	client := r.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := client.DeleteCredential(ctx, state.ID.ValueString()); err != nil && !astra.IsNotFound(err) {
		addAPIError(&resp.Diagnostics, "Cannot delete the kubeconfig credential", err, nil)
	}
}

func (r *kubeconfigCredentialResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// recordAnswer writes the model converted from the service's answer to state; m holds the
// prior model (the plan, or the state) and then what was recorded.
func (r *kubeconfigCredentialResource) recordAnswer(ctx context.Context, m *kubeconfigCredentialModel, cred *astra.Credential, state *tfsdk.State, diags *diag.Diagnostics) {
	out, err := kubeconfigCredentialFrom(cred, *m)
	if err != nil {
		diags.AddError("Not a kubeconfig credential",
			"Credential "+cred.ID+" has key type \""+cred.KeyType+"\"; astra_kubeconfig_credential manages only credentials "+
				"of key type \"kubeconfig\". Import a kubeconfig credential's ID instead.")
		return
	}
	*m = out
	diags.Append(state.Set(ctx, m)...)
}

// prepare reads the plan into plan and builds the POST/PUT body from it (kubeconfig) or
// from the configuration (kubeconfig_wo, which only the configuration holds); a parse
// error goes on the attribute that holds the kubeconfig.
func (r *kubeconfigCredentialResource) prepare(ctx context.Context, planned tfsdk.Plan, config tfsdk.Config,
	plan *kubeconfigCredentialModel, diags *diag.Diagnostics) (*astra.Client, astra.CredentialCreate, bool) {
	var cfg kubeconfigCredentialModel
	diags.Append(planned.Get(ctx, plan)...)
	diags.Append(config.Get(ctx, &cfg)...)
	client := r.client(diags)
	if diags.HasError() {
		return nil, astra.CredentialCreate{}, false
	}
	body, ok := kubeconfigCredentialCreateRequest(*plan, cfg, diags)
	return client, body, ok
}

// kubeconfigLeftConfiguration handles an update with no kubeconfig to send (the argument was
// removed; ModifyPlan refused a rename without one): Astra Control keeps the kubeconfig it
// holds, so only state changes, without a request.
func kubeconfigLeftConfiguration(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) bool {
	var plan, cfg, prior kubeconfigCredentialModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	if resp.Diagnostics.HasError() {
		return true
	}
	if _, ok := kubeconfigText(plan, cfg); ok || !plan.Name.Equal(prior.Name) {
		return false
	}
	prior.Kubeconfig, prior.KubeconfigWOVersion = plan.Kubeconfig, plan.KubeconfigWOVersion
	resp.Diagnostics.Append(resp.State.Set(ctx, prior)...)
	return true
}

// missingKubeconfigDetail says how to supply a kubeconfig, in every error that needs one.
const missingKubeconfigDetail = "Set `kubeconfig` (for example `file(\"cluster.kubeconfig.yaml\")`; stored in state, " +
	"marked sensitive) or `kubeconfig_wo` with `kubeconfig_wo_version` (Terraform 1.11 or later, OpenTofu 1.11 or later: " +
	"never stored)."
