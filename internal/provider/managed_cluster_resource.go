package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

var (
	_ resource.ResourceWithConfigure   = (*managedClusterResource)(nil)
	_ resource.ResourceWithImportState = (*managedClusterResource)(nil)
	_ knownanswers.PlanChecker         = (*managedClusterResource)(nil)
	_ knownanswers.AnswerBytesReader   = (*managedClusterResource)(nil)
)

type managedClusterResource struct{ clientHolder }

// newManagedClusterResource is astra_managed_cluster.
func newManagedClusterResource() resource.Resource { return &managedClusterResource{} }

func (r *managedClusterResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_managed_cluster"
}

func (r *managedClusterResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attributes := managedClusterAttributes()
	attributes["timeouts"] = attrs.TimeoutsSchema(ctx, managedClusterTimeouts)
	attributes["wait_for_running"] = schema.BoolAttribute{
		Optional: true,
		Computed: true,
		Default:  booldefault.StaticBool(true),
		MarkdownDescription: "Whether create and update wait, within `timeouts`, until `managed_state` is `managed` and " +
			"`state` is `running`. Defaults to `true`. Set it to `false` to return as soon as Astra Control accepted the " +
			"request (managing a large cluster can take many minutes; a later refresh shows the outcome). Changing it " +
			"sends nothing to Astra Control. Added in schema version 1: state written before it reads as `true`.",
	}
	resp.Schema = schema.Schema{
		Version: managedClusterSchemaVersion,
		MarkdownDescription: "Brings a cluster under Astra Control management (`POST /topology/v1/managedClusters`): a " +
			"private cluster added with `astra_cluster`, or a cluster Astra Control discovered in a public cloud. Create " +
			"waits (see `wait_for_running`) until `managed_state` is `managed` and `state` is `running`, and fails at once with the service's " +
			"reasons when the cluster is `failed` or `ineligible`. Destroy unmanages the cluster and waits until it is no " +
			"longer managed; the cluster itself stays (destroy its `astra_cluster` to remove a private one). Astra " +
			"Control refuses to unmanage a cluster that still has managed applications.",
		Attributes: attributes,
	}
}

// CheckPlan (the resource's ModifyPlan, see knownanswers.PlanChecker) checks, when the values are known, what only the service can tell: the
// storage class must be one of the cluster's, and default_bucket_id needs api_version 1.7, a
// bucket that exists and a cluster with the neptuneV1 capability.
func (r *managedClusterResource) CheckPlan(ctx context.Context, req knownanswers.PlanRequest) diag.Diagnostics {
	resp := &resource.ModifyPlanResponse{}
	r.planProblems(ctx, req, resp)
	return resp.Diagnostics
}

func (r *managedClusterResource) planProblems(ctx context.Context, req knownanswers.PlanRequest, resp *resource.ModifyPlanResponse) {
	client := r.configuredClient()
	if client == nil || req.Unchanged {
		// Every check below compares a planned or configured value with the prior one, and a
		// configured value is the planned one or null: an unchanged plan leaves none to make.
		return
	}
	// Whole models, not GetAttribute: its path walks were a twentieth of a fleet plan's
	// allocations.
	var plan, config, prior managedClusterModel
	resp.Diagnostics.Append(planGet(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(configGet(ctx, req.Config, &config)...)
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(stateGet(ctx, req.State, &prior)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	// Only a bucket the apply would send needs 1.7: an imported managed cluster keeps the
	// default bucket Astra Control reported, whatever api_version reads it.
	bucket, priorBucket := config.DefaultBucketID, prior.DefaultBucketID
	if isSet(bucket) && !bucket.Equal(priorBucket) && !versionAtLeast(client.ClusterVersion(), "1.7") {
		resp.Diagnostics.AddAttributeError(path.Root("default_bucket_id"), "Argument needs api_version 1.7",
			"default_bucket_id needs managed cluster API version 1.7, which the provider sends with api_version 1.7; the "+
				"provider's api_version is "+client.ClusterVersion()+". Raise api_version (or ASTRA_API_VERSION) to 1.7, or remove default_bucket_id. "+
				reachVersion("1.7"))
	}
	if resp.Diagnostics.HasError() {
		return // refused already: the cluster is not worth a read
	}
	priorCluster := prior.ClusterID
	if problems := referenceProblems(ctx, r.seen(), []reference{{attribute: "cluster_id", what: "cluster",
		listedBy: "astra_cluster resources, the astra_clusters data source and `GET /topology/v1/clusters`",
		get:      func(ctx context.Context, id string) error { _, err := client.GetCluster(ctx, "", id); return err }}},
		map[string]types.String{"cluster_id": plan.ClusterID}, map[string]types.String{"cluster_id": priorCluster}); len(problems) > 0 {
		addProblems(&resp.Diagnostics, problems)
		return
	}
	if defaultBucketProblems(ctx, client, r.seen(), plan.ClusterID, bucket, priorBucket, &resp.Diagnostics); resp.Diagnostics.HasError() {
		return
	}
	if r.storageClassChanges(ctx, req.State, plan) && isSet(plan.ClusterID) {
		classes, err := client.ListStorageClasses(ctx, "", plan.ClusterID.ValueString())
		if err != nil {
			return // the cluster may not be reachable yet; apply checks again
		}
		checkStorageClass(classes, plan.ClusterID.ValueString(), plan.DefaultStorageClass.ValueString(), &resp.Diagnostics)
	}
}

func (r *managedClusterResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, client, ok := fromPlan[managedClusterModel](ctx, &r.clientHolder, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, ok := timeoutOf(ctx, plan.Timeouts, creating, managedClusterTimeouts, &resp.Diagnostics)
	if !ok || !r.applyTimeCheckStorageClass(ctx, client, plan.managedClusterValues, &resp.Diagnostics) {
		return
	}
	id := plan.ClusterID.ValueString()
	sent := time.Now()
	mc, err := client.CreateManagedCluster(ctx, managedClusterCreateRequest(plan.managedClusterValues))
	err = client.ExplainVersion(ctx, err)
	mc = createdOrAdopted(ctx, &resp.Diagnostics, "the managed cluster "+id, "Cannot manage cluster "+id, managedClusterAPIFields, mc, err,
		lostCreate[astra.ManagedCluster]{sent: sent, claims: r.claims(), stamp: managedClusterStamp, settle: client.RequestTimeout(),
			find: func(ctx context.Context) (*astra.ManagedCluster, error) { return findManagedCluster(ctx, client, id) }})
	if mc == nil {
		return
	}
	// Recorded before the wait, so a failed wait taints the managed cluster instead of
	// leaving one Terraform does not know.
	r.recordAndWait(ctx, client, timeout, &plan, mc, &resp.State, resp.Private, &resp.Diagnostics,
		"The managed cluster is recorded in state as tainted: the next apply unmanages it and manages it again. "+
			"Fix the cause first (for an ineligible cluster, the reasons above).")
}

func (r *managedClusterResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, client, ok := fromState[managedClusterModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	id := state.ID.ValueString()
	mc := readOrForget(ctx, resp, "astra_managed_cluster", id, "the managed cluster",
		func() (*astra.ManagedCluster, error) { return client.GetManagedCluster(ctx, id) }, managedClusterForgotten)
	if mc == nil {
		return
	}
	if state.WaitForRunning.IsNull() { // imported: the default, so the next plan is empty
		state.WaitForRunning = types.BoolValue(true)
	}
	r.recordAnswer(ctx, &state, mc, &resp.State, resp.Private, &resp.Diagnostics)
	warnUnreachable(&resp.Diagnostics, "astra_managed_cluster", mc.Name, mc.ID, mc.ClusterStatus)
}

func (r *managedClusterResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, client, ok := fromPlan[managedClusterModel](ctx, &r.clientHolder, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, ok := timeoutOf(ctx, plan.Timeouts, updating, managedClusterTimeouts, &resp.Diagnostics)
	if !ok {
		return
	}
	inPlace(ctx, req, resp, managedClusterPutArgs, func(change managedClusterModel) bool {
		if r.storageClassChanges(ctx, req.State, plan) && !r.applyTimeCheckStorageClass(ctx, client, plan.managedClusterValues, &resp.Diagnostics) {
			return false
		}
		id := plan.ID.ValueString()
		mc := updateFromFreshCopy(ctx, &resp.Diagnostics, client, "managed cluster", id, managedClusterAPIFields,
			func(ctx context.Context) (*astra.ManagedCluster, error) { return client.GetManagedCluster(ctx, id) },
			func(m *astra.ManagedCluster) { applyManagedClusterPlan(m, change.managedClusterValues) },
			func(ctx context.Context, m *astra.ManagedCluster) (*astra.ManagedCluster, error) {
				updated, err := client.UpdateManagedCluster(ctx, m)
				return updated, client.ExplainVersion(ctx, err)
			})
		if mc == nil {
			return false
		}
		r.recordAndWait(ctx, client, timeout, &plan, mc, &resp.State, resp.Private, &resp.Diagnostics,
			"The new settings are applied and recorded in state; the cluster has not reported managed and running since.")
		return true
	})
}

func (r *managedClusterResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, client, ok := fromState[managedClusterModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, ok := timeoutOf(ctx, state.Timeouts, deleting, managedClusterTimeouts, &resp.Diagnostics)
	if !ok {
		return
	}
	id := state.ID.ValueString()
	current, err := client.GetManagedCluster(astra.OwnRead(ctx), id)
	switch {
	case astra.IsNotFound(err):
		return
	case err != nil:
		addAPIError(&resp.Diagnostics, "Cannot read the managed cluster before unmanaging it", err, nil)
		return
	case current.InUse.Value():
		addInUse(&resp.Diagnostics, id, appNamesOn(ctx, client, id), nil)
		return
	}
	if err := client.DeleteManagedCluster(ctx, id); err != nil && !astra.IsNotFound(err) && !unmanageAccepted(ctx, client, id, err) {
		if astra.IsConflict(err) && inUseConflict(err) {
			addInUse(&resp.Diagnostics, id, appNamesOn(ctx, client, id), err)
			return
		}
		addAPIError(&resp.Diagnostics, "Cannot unmanage cluster "+id, err, nil)
		return
	}
	waitCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	_, err = astra.Wait(waitCtx, r.waitSchedule(), clusterGone(client, "", id), unmanagedOrGone)
	if err != nil {
		addWaitError(&resp.Diagnostics, "Cluster not unmanaged", err, timeout,
			"Astra Control accepted the unmanage request; the managed cluster stays in state until it is unmanaged. Destroy again to check.")
	}
}

func (r *managedClusterResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// recordAnswer writes the model converted from the service's answer to state; the
// resource's own settings (timeouts, wait_for_running) stay as m holds them.
func (r *managedClusterResource) recordAnswer(ctx context.Context, m *managedClusterModel, answer *astra.ManagedCluster, state *tfsdk.State, private privateKeys, diags *diag.Diagnostics) {
	m.managedClusterValues = managedClusterFrom(answer)
	diags.Append(setState(ctx, state, m)...)
	// A removed or failed cluster is not noted: every refresh then reads it and warns.
	if isUnreachable(answer.State) == "" {
		knownanswers.RecordAnswer(ctx, private, answer, *state, diags)
	}
}

// ReadAnswer is the object Read converts (knownanswers.AnswerReader): not one it forgets.
func (r *managedClusterResource) ReadAnswer(ctx context.Context, ids map[string]string) (any, bool) {
	return answerOfBytes(ctx, r, ids)
}

// ReadAnswerBytes is that object as the service sent it (knownanswers.AnswerBytesReader).
func (r *managedClusterResource) ReadAnswerBytes(ctx context.Context, ids map[string]string) ([]byte, bool) {
	return readBytesWith(&r.clientHolder, func(c *astra.Client) (json.RawMessage, error) { return c.GetManagedClusterJSON(ctx, ids["id"]) })
}

// AnswerFrom decodes it, and answers nothing for a cluster Read forgets (knownanswers.AnswerBytesReader).
func (r *managedClusterResource) AnswerFrom(_ context.Context, raw []byte) (any, bool) {
	return answerFrom(&r.clientHolder, raw, func(_ *astra.Client, m *astra.ManagedCluster) bool { return managedClusterForgotten(m) })
}

// managedClusterForgotten: the service may keep answering for a cluster it no longer
// manages (public clouds); Read removes it from state.
func managedClusterForgotten(m *astra.ManagedCluster) bool { return !isManaged(m) }

// recordAndWait records the service's answer in state, then waits until the cluster is
// managed and running and records what it last saw.
func (r *managedClusterResource) recordAndWait(ctx context.Context, client *astra.Client, timeout time.Duration, m *managedClusterModel,
	answer *astra.ManagedCluster, state *tfsdk.State, private privateKeys, diags *diag.Diagnostics, aftermath string) {
	if r.recordAnswer(ctx, m, answer, state, private, diags); diags.HasError() || !m.WaitForRunning.ValueBool() {
		return
	}
	waitCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	id := m.ID.ValueString()
	// The answer may already say managed and running: then nothing is polled.
	mc, err := astra.WaitFrom(waitCtx, r.waitSchedule(), answer, func(ctx context.Context) (*astra.ManagedCluster, error) {
		return client.GetManagedCluster(ctx, id)
	}, astra.ManagedClusterReady)
	if mc != nil {
		r.recordAnswer(ctx, m, mc, state, private, diags)
	}
	if err != nil {
		addWaitError(diags, "Cluster did not become managed and running", err, timeout, aftermath)
	}
}

// storageClassChanges reports whether the plan sets a storage class the state does not hold.
func (r *managedClusterResource) storageClassChanges(ctx context.Context, state tfsdk.State, plan managedClusterModel) bool {
	if !isSet(plan.DefaultStorageClass) {
		return false
	}
	if state.Raw.IsNull() {
		return true
	}
	var prior types.String
	if d := state.GetAttribute(ctx, path.Root("default_storage_class"), &prior); d.HasError() {
		return true
	}
	return !prior.Equal(plan.DefaultStorageClass)
}

// applyTimeCheckStorageClass repeats the plan-time check when the cluster did not exist at
// plan time (its ID was unknown).
func (r *managedClusterResource) applyTimeCheckStorageClass(ctx context.Context, client *astra.Client, plan managedClusterValues, diags *diag.Diagnostics) bool {
	if !isSet(plan.DefaultStorageClass) {
		return true
	}
	classes, err := client.ListStorageClasses(ctx, "", plan.ClusterID.ValueString())
	if err != nil {
		addAPIError(diags, "Cannot list the cluster's storage classes", err, nil)
		return false
	}
	return checkStorageClass(classes, plan.ClusterID.ValueString(), plan.DefaultStorageClass.ValueString(), diags)
}

// checkStorageClass adds an error on default_storage_class unless the cluster has it.
func checkStorageClass(classes []astra.StorageClass, clusterID, id string, diags *diag.Diagnostics) bool {
	if _, ok := findStorageClass(classes, id); ok {
		return true
	}
	diags.AddAttributeError(path.Root("default_storage_class"), "Unknown storage class",
		"Cluster "+clusterID+" has no storage class with ID \""+id+"\"; "+storageClassChoices(classes)+
			". Set default_storage_class to one of these IDs (the astra_storage_classes data source lists them).")
	return false
}

// findManagedCluster reads the managed cluster a POST with a lost answer may have made: its
// ID is the cluster's, so it can simply be read; nil when the cluster is not managed.
func findManagedCluster(ctx context.Context, client *astra.Client, id string) (*astra.ManagedCluster, error) {
	mc, err := client.GetManagedCluster(ctx, id)
	switch {
	case astra.IsNotFound(err):
		return nil, nil
	case err != nil:
		return nil, err
	case !isManaged(mc):
		return nil, nil
	}
	return mc, nil
}

// inUseConflict reports whether the service refused an unmanage because of managed apps.
func inUseConflict(err error) bool {
	var apiErr *astra.APIError
	if !errors.As(err, &apiErr) {
		return false
	}
	for _, f := range apiErr.InvalidFields {
		if f.Name == "inUse" {
			return true
		}
	}
	return false
}

// appNamesOn names the apps managed on a cluster, "" when they cannot be listed.
func appNamesOn(ctx context.Context, client *astra.Client, clusterID string) string {
	apps, err := client.ListApps(ctx, astra.ListOptions{})
	if err != nil {
		return ""
	}
	var names []string
	for _, a := range apps {
		if a.ClusterID == clusterID {
			names = append(names, fmt.Sprintf("%s (%s)", a.Name, a.ID))
		}
	}
	return strings.Join(names, ", ")
}

// addInUse explains why a cluster with managed applications cannot be unmanaged, naming
// them when apps is not empty.
func addInUse(diags *diag.Diagnostics, id, apps string, err error) {
	detail := "Cluster " + id + " has managed applications (in_use is true), and Astra Control does not unmanage a " +
		"cluster while it manages applications on it. Unmanage those applications first (destroy their astra_app " +
		"resources, or unmanage them in the Astra Control UI or API), then destroy again."
	if apps != "" {
		detail += "\n\nManaged applications: " + apps + "."
	}
	if err != nil {
		detail += "\n\n" + err.Error()
	}
	diags.AddError("Cannot unmanage a cluster that has managed applications", detail)
}

// managedClusterStamp: managing a cluster creates no object, it starts a transition; the
// managed timestamp says when it ended (none while it is still under way).
func managedClusterStamp(m *astra.ManagedCluster) objectStamp {
	return objectStamp{Kind: "managed cluster", ID: m.ID, Created: m.ManagedTimestamp, Starting: m.ManagedTimestamp == ""}
}
