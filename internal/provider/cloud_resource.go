package provider

import (
	"context"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

var (
	_ resource.ResourceWithConfigure      = (*cloudResource)(nil)
	_ resource.ResourceWithImportState    = (*cloudResource)(nil)
	_ resource.ResourceWithValidateConfig = (*cloudResource)(nil)
)

// cloudTimeouts are the waits of astra_cloud: until a new or updated cloud is running.
var cloudTimeouts = attrs.TimeoutDefaults{Create: 10 * time.Minute, Update: 10 * time.Minute}

// cloudPutArgs are the arguments whose change makes an update PUT the cloud (the casing of
// cloud_type and timeouts send nothing).
var cloudPutArgs = []string{"credential_id", "default_bucket_id"}

// cloudFields maps the API's field names in invalidFields to attributes.
var cloudFields = map[string]string{
	"name": "name", "cloudType": "cloud_type", "credentialID": "credential_id", "defaultBucketID": "default_bucket_id",
}

// newCloudResource is astra_cloud.
func newCloudResource() resource.Resource { return &cloudResource{} }

type cloudResource struct{ clientHolder }

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

func cloudAttributes(ctx context.Context) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "Astra ID of the cloud.",
			PlanModifiers:       []planmodifier.String{attrs.KeepUnlessChanged()},
		},
		"name": schema.StringAttribute{
			Required:            true,
			MarkdownDescription: "Name of the cloud, 1 to 63 printable ASCII characters. Changing this forces a new resource.",
			Validators:          []validator.String{validate.ResourceName(63)},
			PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		"cloud_type": schema.StringAttribute{
			Required: true,
			MarkdownDescription: "Type of the cloud: `private`, `gcp`, `azure` or `aws`, matched case-insensitively (the " +
				"service answers `GCP`, `Azure`, `AWS`); the casing written here is kept, so it never shows as a change. " +
				"Changing the type forces a new resource; changing only its casing does not.",
			Validators:    []validator.String{stringvalidator.OneOfCaseInsensitive(cloudTypes...)},
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplaceIf(cloudTypeChanged, "A different cloud type forces a new resource; a change of case does not.", "A different cloud type forces a new resource; a change of case does not.")},
		},
		"credential_id": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "ID of the service-account credential Astra Control uses to discover the cloud's clusters. " +
				"Required for `gcp`, `azure` and `aws`. Updated in place (the service then rediscovers the cloud); " +
				"removing the argument leaves the service's value unchanged. Never forces a new resource.",
			Validators:    []validator.String{validate.UUID()},
			PlanModifiers: []planmodifier.String{attrs.KeepUnlessChanged()},
		},
		"default_bucket_id": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "ID of the bucket backups of this cloud's clusters go to by default. Updated in place; " +
				"removing the argument leaves the service's value unchanged. Never forces a new resource.",
			Validators:    []validator.String{validate.UUID()},
			PlanModifiers: []planmodifier.String{attrs.KeepUnlessChanged()},
		},
		// A new credential makes the service discover the cloud again; nothing else moves its state.
		"state": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "State of the cloud: `pending`, `discovering`, `running`, `failed`, `removed` or `unknown`.",
			PlanModifiers:       []planmodifier.String{attrs.KeepUnlessChanged("credential_id")},
		},
		"state_unready": schema.ListAttribute{
			Computed:            true,
			ElementType:         types.StringType,
			MarkdownDescription: "The service's reasons why the cloud is not `running`.",
			PlanModifiers:       []planmodifier.List{attrs.KeepUnlessChanged("credential_id")},
		},
		"metadata": attrs.MetadataSchema(cloudPutArgs...),
		"timeouts": attrs.TimeoutsSchema(ctx, cloudTimeouts),
	}
}

// cloudTypeChanged replaces the cloud only when the type itself changes, not its casing.
func cloudTypeChanged(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = !strings.EqualFold(req.StateValue.ValueString(), req.PlanValue.ValueString())
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
	var plan cloudModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	client := r.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, d := plan.Timeouts.Create(ctx, cloudTimeouts.Create)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	body := cloudCreateRequest(plan.cloudValues)
	sent := time.Now()
	cloud, err := client.CreateCloud(ctx, body)
	cloud = createdOrAdopted(ctx, &resp.Diagnostics, "cloud "+body.Name, "Cannot create the cloud", cloudFields, cloud, err,
		lostCreate[astra.Cloud]{sent: sent, claims: r.claims(), stamp: cloudStamp, settle: client.RequestTimeout(),
			find: func() (*astra.Cloud, error) { return client.FindCloud(ctx, body.Name) }})
	if cloud == nil {
		return
	}
	// Recorded before the wait, so a failed wait taints the cloud instead of orphaning it.
	r.recordAndWait(ctx, timeout, &plan, cloud, &resp.State, &resp.Diagnostics,
		"The cloud is recorded in state as tainted: the next apply deletes it and creates it again.")
}

// recordAndWait records the service's answer in state, then waits until the cloud is
// running and records what it last saw.
func (r *cloudResource) recordAndWait(ctx context.Context, timeout time.Duration, m *cloudModel, answer *astra.Cloud,
	state *tfsdk.State, diags *diag.Diagnostics, aftermath string) {
	m.readFrom(answer)
	if diags.Append(state.Set(ctx, m)...); diags.HasError() {
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
		m.readFrom(cloud)
		diags.Append(state.Set(ctx, m)...)
	}
	if err != nil {
		addWaitError(diags, "Cloud did not become running", err, timeout, aftermath)
	}
}

func (r *cloudResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state cloudModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	client := r.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	id := state.ID.ValueString()
	cloud := readOrForget(ctx, resp, "astra_cloud", id, "the cloud",
		func() (*astra.Cloud, error) { return client.GetCloud(ctx, id) }, nil)
	if cloud == nil {
		return
	}
	state.readFrom(cloud)
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

func (r *cloudResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, prior cloudModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	client := r.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, d := plan.Timeouts.Update(ctx, cloudTimeouts.Update)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !cloudNeedsPut(plan.cloudValues, prior.cloudValues) {
		// Only the casing of cloud_type or the timeouts changed: nothing to send.
		prior.CloudType, prior.Timeouts = plan.CloudType, plan.Timeouts
		resp.Diagnostics.Append(resp.State.Set(ctx, prior)...)
		return
	}
	id := plan.ID.ValueString()
	cloud, err := client.GetCloud(ctx, id)
	if err != nil {
		addAPIError(&resp.Diagnostics, "Cannot read the cloud before updating it", err, nil)
		return
	}
	applyCloudUpdate(cloud, plan.cloudValues)
	cloud, err = client.UpdateCloud(ctx, cloud)
	if err != nil {
		addAPIError(&resp.Diagnostics, "Cannot update the cloud", err, cloudFields)
		return
	}
	r.recordAndWait(ctx, timeout, &plan, cloud, &resp.State, &resp.Diagnostics,
		"The new settings are applied and recorded in state; the cloud has not reported running since.")
	resp.Diagnostics.Append(recordPlanned(req.Plan, &resp.State)...)
}

// cloudNeedsPut reports whether an in-place argument differs from what the service holds.
func cloudNeedsPut(plan, prior cloudValues) bool {
	changed := func(p, s types.String) bool { return !p.IsUnknown() && !p.IsNull() && !p.Equal(s) }
	return changed(plan.CredentialID, prior.CredentialID) || changed(plan.DefaultBucketID, prior.DefaultBucketID)
}

func (r *cloudResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state cloudModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	client := r.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
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
