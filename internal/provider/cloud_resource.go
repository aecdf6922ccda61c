package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
)

var (
	_ resource.ResourceWithConfigure      = (*cloudResource)(nil)
	_ resource.ResourceWithImportState    = (*cloudResource)(nil)
	_ resource.ResourceWithValidateConfig = (*cloudResource)(nil)
)

type cloudResource struct{ clientHolder }

// newCloudResource is astra_cloud.
func newCloudResource() resource.Resource { return &cloudResource{} }

func (r *cloudResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_cloud"
}

func (r *cloudResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: cloudSchemaVersion,
		MarkdownDescription: "A cloud in Astra Control (`POST /topology/v1/clouds`): the `private` cloud that holds clusters " +
			"added with a kubeconfig, or a public cloud (`gcp`, `azure`, `aws`) whose Kubernetes clusters Astra Control " +
			"discovers with the cloud's service-account credential. Creation waits until the cloud is `running`. " +
			"Destroying a cloud also removes its unmanaged clusters on the service side; the service refuses while " +
			"clusters in it are managed.",
		Attributes: cloudAttributes(ctx),
	}
}

// ValidateConfig requires a credential for public clouds.
func (r *cloudResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cloudType, credentialID types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("cloud_type"), &cloudType)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("credential_id"), &credentialID)...)
	if resp.Diagnostics.HasError() || cloudType.IsUnknown() || credentialID.IsUnknown() {
		return
	}
	if isPublicCloudType(cloudType.ValueString()) && credentialID.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("credential_id"), "Missing credential_id",
			"A "+cloudType.ValueString()+" cloud needs credential_id: the ID of the service-account credential Astra Control "+
				"uses to discover its clusters. Only a private cloud has none.")
	}
}

func (r *cloudResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, client, ok := fromPlan[cloudModel](ctx, &r.clientHolder, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, ok := timeoutOf(ctx, plan.Timeouts, creating, cloudTimeouts, &resp.Diagnostics)
	if !ok {
		return
	}
	body := cloudCreateRequest(plan.cloudValues)
	sent := time.Now()
	cloud, err := client.CreateCloud(ctx, body)
	cloud = createdOrAdopted(ctx, &resp.Diagnostics, "cloud "+body.Name, "Cannot create the cloud", cloudAPIFields, cloud, err,
		lostCreate[astra.Cloud]{sent: sent, claims: r.claims(), stamp: cloudStamp, settle: client.RequestTimeout(),
			find: func(ctx context.Context) (*astra.Cloud, error) { return client.FindCloud(ctx, body.Name) }})
	if cloud == nil {
		return
	}
	// Recorded before the wait, so a failed wait taints the cloud instead of orphaning it.
	r.recordAndWait(ctx, timeout, &plan, cloud, &resp.State, resp.Private, &resp.Diagnostics,
		"The cloud is recorded in state as tainted: the next apply deletes it and creates it again.")
}

func (r *cloudResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, client, ok := fromState[cloudModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	id := state.ID.ValueString()
	cloud := readOrForget(ctx, resp, "astra_cloud", id, "the cloud",
		func() (*astra.Cloud, error) { return client.GetCloud(ctx, id) }, nil)
	if cloud == nil {
		return
	}
	r.recordAnswer(ctx, &state, cloud, &resp.State, resp.Private, &resp.Diagnostics)
}

func (r *cloudResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, client, ok := fromPlan[cloudModel](ctx, &r.clientHolder, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	var prior cloudModel
	resp.Diagnostics.Append(stateGet(ctx, req.State, &prior)...)
	timeout, ok := timeoutOf(ctx, plan.Timeouts, updating, cloudTimeouts, &resp.Diagnostics)
	if !ok {
		return
	}
	if !cloudNeedsPut(plan.cloudValues, prior.cloudValues) {
		// Only the casing of cloud_type or the timeouts changed: nothing to send.
		prior.CloudType, prior.Timeouts = plan.CloudType, plan.Timeouts
		resp.Diagnostics.Append(resp.State.Set(ctx, prior)...)
		return
	}
	var change cloudModel
	resp.Diagnostics.Append(planForFreshCopy(req, &resp.Diagnostics, cloudPutArgs...).Get(ctx, &change)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := plan.ID.ValueString()
	cloud := updateFromFreshCopy(ctx, &resp.Diagnostics, client, "cloud", id, cloudAPIFields,
		func(ctx context.Context) (*astra.Cloud, error) { return client.GetCloud(ctx, id) },
		func(c *astra.Cloud) { applyCloudPlan(c, change.cloudValues) },
		client.UpdateCloud)
	if cloud == nil {
		return
	}
	r.recordAndWait(ctx, timeout, &plan, cloud, &resp.State, resp.Private, &resp.Diagnostics,
		"The new settings are applied and recorded in state; the cloud has not reported running since.")
	resp.Diagnostics.Append(recordPlanned(req.Plan, &resp.State)...)
}

func (r *cloudResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, client, ok := fromState[cloudModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	err := client.DeleteCloud(ctx, state.ID.ValueString())
	switch {
	case err == nil || astra.IsNotFound(err):
	case astra.IsConflict(err):
		resp.Diagnostics.AddError("Cannot delete the cloud while it has managed clusters",
			"Astra Control refuses to delete cloud "+state.ID.ValueString()+" while clusters in it are managed. Unmanage them "+
				"first (destroy their astra_managed_cluster resources), then destroy the cloud again.\n\n"+err.Error())
	default:
		addAPIError(&resp.Diagnostics, "Cannot delete the cloud", err, nil)
	}
}

func (r *cloudResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// recordAnswer writes the model converted from the service's answer to state; m holds the
// prior model (the plan, or the state) and then what was recorded.
func (r *cloudResource) recordAnswer(ctx context.Context, m *cloudModel, answer *astra.Cloud, state *tfsdk.State, private privateKeys, diags *diag.Diagnostics) {
	m.cloudValues = cloudFrom(answer, m.cloudValues)
	diags.Append(setState(ctx, state, m)...)
	knownanswers.RecordAnswer(ctx, private, answer, *state, diags)
}

// ReadAnswer is the object Read converts (knownanswers.AnswerReader).
func (r *cloudResource) ReadAnswer(ctx context.Context, ids map[string]string) (any, bool) {
	return readWith(&r.clientHolder, func(c *astra.Client) (*astra.Cloud, error) { return c.GetCloud(ctx, ids["id"]) }, nil)
}

// recordAndWait records the service's answer in state, then waits until the cloud is
// running and records what it last saw.
func (r *cloudResource) recordAndWait(ctx context.Context, timeout time.Duration, m *cloudModel, answer *astra.Cloud,
	state *tfsdk.State, private privateKeys, diags *diag.Diagnostics, aftermath string) {
	if r.recordAnswer(ctx, m, answer, state, private, diags); diags.HasError() {
		return
	}
	client := r.client(diags)
	if diags.HasError() {
		return
	}
	waitCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	id := m.ID.ValueString()
	cloud, err := astra.WaitFrom(waitCtx, r.waitSchedule(), answer, func(ctx context.Context) (*astra.Cloud, error) {
		return client.GetCloud(ctx, id)
	}, cloudRunning)
	if cloud != nil {
		r.recordAnswer(ctx, m, cloud, state, private, diags)
	}
	if err != nil {
		addWaitError(diags, "Cloud did not become running", err, timeout, aftermath)
	}
}

// cloudNeedsPut reports whether an in-place argument differs from what the service holds.
func cloudNeedsPut(plan, prior cloudValues) bool {
	changed := func(p, s types.String) bool { return !p.IsUnknown() && !p.IsNull() && !p.Equal(s) }
	return changed(plan.CredentialID, prior.CredentialID) || changed(plan.DefaultBucketID, prior.DefaultBucketID)
}

func cloudStamp(c *astra.Cloud) objectStamp {
	return objectStamp{Kind: "cloud", ID: c.ID, Created: c.Metadata.CreationTimestamp}
}
