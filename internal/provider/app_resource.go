package provider

import (
	"context"
	"fmt"
	"sort"
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
	_ resource.ResourceWithConfigure   = (*appResource)(nil)
	_ resource.ResourceWithImportState = (*appResource)(nil)
	_ knownanswers.PlanChecker         = (*appResource)(nil)
)

type appResource struct{ clientHolder }

// newAppResource is astra_app.
func newAppResource() resource.Resource { return &appResource{} }

func (r *appResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_app"
}

func (r *appResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attributes := appAttributes()
	attributes["source"] = appSourceAttribute()
	attributes["timeouts"] = attrs.TimeoutsSchema(ctx, appTimeouts)
	attributes["delete_backups_on_destroy"] = deleteBackupsOnDestroyAttribute()
	attributes["wait_for_ready"] = schema.BoolAttribute{
		Optional: true,
		Computed: true,
		Default:  booldefault.StaticBool(true),
		MarkdownDescription: "Whether create waits, within `timeouts`, until the app's `state` is `ready`. Defaults to " +
			"`true`; a policy can only be added to a ready app. Changing it sends nothing to Astra Control.",
	}
	resp.Schema = schema.Schema{
		Version: appSchemaVersion,
		MarkdownDescription: "An application of a managed cluster (`POST /k8s/v2/apps`): the namespaces (or the labelled " +
			"parts of them) and cluster-scoped resources Astra Control protects together. Create waits (see " +
			"`wait_for_ready`) until the app is `ready`, and fails with the service's `state_details` when it is " +
			"`failed`, leaving it in state, tainted. Destroy unmanages the app (its workloads stay on the cluster) and " +
			"waits until it is gone. Protect it with `astra_protection_policy`; `protection_state` shows the outcome. With " +
			"`source`, the app is created as a clone of another app, live or from a snapshot or a backup.",
		Attributes: attributes,
	}
}

// CheckPlan (the resource's ModifyPlan, see knownanswers.PlanChecker) warns when the plan replaces the
// app (warnAppReplacement) and checks, when the cluster is known and the scope changes,
// that Astra Control manages it and that every namespace exists on it.
func (r *appResource) CheckPlan(ctx context.Context, req knownanswers.PlanRequest) diag.Diagnostics {
	var diags diag.Diagnostics
	client := r.configuredClient()
	if client == nil {
		return nil
	}
	var plan appModel
	diags.Append(planGet(ctx, req.Plan, &plan)...)
	if diags.HasError() {
		return diags
	}
	if !req.State.Raw.IsNull() {
		var prior appModel
		diags.Append(stateGet(ctx, req.State, &prior)...)
		because := appReplacedBy(plan.appValues, prior.appValues)
		if because == nil && (plan.Source.IsUnknown() || !plan.Source.Equal(prior.Source)) {
			p := path.Root("source")
			because = &p
		}
		if diags.HasError() || because == nil {
			return diags // the scope does not change: nothing to check
		}
		warnAppReplacement(ctx, client, *because, prior.appValues, &diags)
	}
	if src, clone := appSourceOf(plan.Source); clone && len(src.StorageClassMapping) > 0 && !versionAtLeast(client.ClusterVersion(), "1.4") {
		diags.AddAttributeError(path.Root("source").AtName("storage_class_mapping"), "Argument needs api_version 1.4",
			"A clone's storage_class_mapping is app version 2.2, which cluster API 1.4 (Astra Control 23.05) and later have; the "+
				"provider's api_version is "+client.ClusterVersion()+". Raise api_version (or ASTRA_API_VERSION) to 1.4 or later, "+
				"or remove storage_class_mapping. "+reachVersion("1.4"))
	}
	if !isSet(plan.ClusterID) {
		return diags
	}
	if managed, err := client.GetManagedCluster(ctx, plan.ClusterID.ValueString()); astra.IsNotFound(err) || (err == nil && !isManaged(managed)) {
		diags.AddAttributeError(path.Root("cluster_id"), "Not a managed cluster",
			fmt.Sprintf("cluster_id %q names no cluster that Astra Control manages now. An app lives on a managed cluster: "+
				"set cluster_id to an astra_managed_cluster's id (astra_managed_cluster.<name>.id). A managed cluster has its "+
				"cluster's ID, but only a reference to the astra_managed_cluster makes Terraform bring the cluster under "+
				"management before it creates the app, and remove the app before it unmanages the cluster.", plan.ClusterID.ValueString()))
		return diags
	}
	if plan.NamespaceScopedResources.IsUnknown() || plan.Source.IsUnknown() {
		return diags
	}
	namespaces, err := client.ListNamespaces(ctx, plan.ClusterID.ValueString())
	if err != nil {
		return diags // the cluster may not be managed yet; the service checks at apply
	}
	if src, clone := appSourceOf(plan.Source); clone {
		checkClone(ctx, client, plan.appValues, plan.Source, src, namespaces, &diags)
		return diags
	}
	checkAppNamespaces(plan.ClusterID.ValueString(), namespaces, plan.NamespaceScopedResources, &diags)
	return diags
}

func scopeNames(scope []astra.NamespaceScope) []string {
	out := make([]string, 0, len(scope))
	for _, r := range scope {
		out = append(out, r.Namespace)
	}
	return out
}

// describeScope writes a scope as HCL.
func describeScope(scope []astra.NamespaceScope) string {
	parts := make([]string, 0, len(scope))
	for _, r := range scope {
		sels := make([]string, 0, len(r.LabelSelectors))
		for _, s := range r.LabelSelectors {
			sels = append(sels, fmt.Sprintf("%q", s))
		}
		parts = append(parts, fmt.Sprintf("{ namespace = %q, label_selectors = [%s] }", r.Namespace, strings.Join(sels, ", ")))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// checkAppNamespaces adds an error on each namespace the managed cluster does not have.
func checkAppNamespaces(clusterID string, namespaces []astra.Namespace, scope types.Set, diags *diag.Diagnostics) {
	have := map[string]bool{}
	var names []string
	for _, n := range namespaces {
		if !strings.EqualFold(n.NamespaceState, "removed") {
			have[n.Name] = true
			names = append(names, n.Name)
		}
	}
	sort.Strings(names)
	// A token whose role bindings are limited to some namespaces is shown only those
	// (issue 47): the namespace may exist outside them.
	scopeHint := " Astra Control lists only the namespaces the provider's token may see: if its user's role binding is " +
		"limited to some namespaces (role constraints), a namespace outside them is not listed, and an admin must widen " +
		"the binding (astra_role_binding's namespace_constraints) first."
	for _, o := range setObjects(scope) {
		ns, ok := o.Attributes()["namespace"].(types.String)
		if !ok || !isSet(ns) || have[ns.ValueString()] {
			continue
		}
		diags.AddAttributeError(path.Root("namespace_scoped_resources").AtSetValue(o).AtName("namespace"), "Unknown namespace",
			fmt.Sprintf("Managed cluster %s has no namespace %q; its namespaces are: %s. Set namespace to one of them "+
				"(create the namespace on the cluster first if it is new).%s", clusterID, ns.ValueString(), strings.Join(names, ", "), scopeHint))
	}
}

func (r *appResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, client, ok := fromPlan[appModel](ctx, &r.clientHolder, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, ok := timeoutOf(ctx, plan.Timeouts, creating, appTimeouts, &resp.Diagnostics)
	if !ok {
		return
	}
	body := appCreateRequest(plan.appValues)
	sent := time.Now()
	var app *astra.App
	var err error
	find := func(ctx context.Context) (*astra.App, error) { return findApp(ctx, client, body.ClusterID, body.Name) }
	if src, clone := appSourceOf(plan.Source); clone {
		app, err = r.createClone(ctx, client, timeout, plan.appValues, src)
		find = func(ctx context.Context) (*astra.App, error) {
			return findClone(ctx, client, body.ClusterID, body.Name, src.AppID)
		}
	} else {
		app, err = client.CreateApp(ctx, body)
	}
	if astra.IsConflict(err) && astra.ProblemNumber(err) == problemAppExists {
		addExists(&resp.Diagnostics, "App already exists", "astra_app", existingApp(ctx, client, body),
			"the astra_apps data source lists the apps of a cluster", err)
		return
	}
	app = createdOrAdopted(ctx, &resp.Diagnostics, "app "+body.Name, "Cannot create the app", appAPIFields, app, err,
		lostCreate[astra.App]{sent: sent, claims: r.claims(), stamp: appStamp, settle: client.RequestTimeout(),
			find: find})
	if app == nil {
		return
	}
	// Recorded before the wait, so a failed wait taints the app instead of orphaning it.
	aftermath := "The app is recorded in state as tainted (with its state_details): the next apply unmanages it and manages it again."
	if _, clone := appSourceOf(plan.Source); clone {
		aftermath = cloneWaitAftermath
	}
	r.recordAndWait(ctx, client, timeout, &plan, app, &resp.State, &resp.Diagnostics, aftermath)
}

// findClone is findApp for a clone whose answer was lost: an app of that name that is not a
// clone of sourceAppID was not created by this request (an app made by hand in the same
// seconds), so it is never adopted; the outcome stays unknown and says why.
func findClone(ctx context.Context, client *astra.Client, clusterID, name, sourceAppID string) (*astra.App, error) {
	found, err := findApp(ctx, client, clusterID, name)
	if err != nil || found == nil || found.SourceAppID == sourceAppID {
		return found, err
	}
	return nil, fmt.Errorf("app %s named %q on cluster %s is not a clone of app %s (its source app: %q), so it is not the clone this request created",
		found.ID, name, clusterID, sourceAppID, found.SourceAppID)
}

// createClone POSTs the clone of src: the source app is read first for its cluster, which
// the service wants beside it (sourceClusterID). A clone from a snapshot or backup still
// being taken (one whose create wait ended early) is asked again, within timeout, until the
// service accepts it (opPostClone: 164 or 148).
func (r *appResource) createClone(ctx context.Context, client *astra.Client, timeout time.Duration, plan appValues,
	src appSource) (*astra.App, error) {
	source, err := client.GetApp(ctx, src.AppID)
	if err != nil {
		return nil, fmt.Errorf("reading the source app %s: %w", src.AppID, err)
	}
	postCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return postWhileBusy(postCtx, r.waitSchedule(), opPostClone, func(ctx context.Context) (*astra.App, error) {
		return client.CloneApp(ctx, appCloneRequest(plan, src, source.ClusterID))
	})
}

func (r *appResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, client, ok := fromState[appModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	id := state.ID.ValueString()
	app := readOrForget(ctx, resp, "astra_app", id, "the app", func() (*astra.App, error) { return client.GetApp(ctx, id) }, nil)
	if app == nil {
		return
	}
	if state.WaitForReady.IsNull() { // imported: the default, so the next plan is empty
		state.WaitForReady = types.BoolValue(true)
	}
	if state.DeleteBackupsOnDestroy.IsNull() { // imported, or recorded before the attribute existed
		state.DeleteBackupsOnDestroy = types.BoolValue(false)
	}
	r.recordAnswer(ctx, &state, app, &resp.State, &resp.Diagnostics)
}

// Update renames the app or changes its labels: a fresh GET, what the plan changes applied
// to it, one PUT of the whole app, within timeouts.update.
func (r *appResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, client, ok := fromPlan[appModel](ctx, &r.clientHolder, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, ok := timeoutOf(ctx, plan.Timeouts, updating, appTimeouts, &resp.Diagnostics)
	if !ok {
		return
	}
	inPlace(ctx, req, resp, appPutArgs, func(change appModel) bool {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		id := plan.ID.ValueString()
		app := updateFromFreshCopy(ctx, &resp.Diagnostics, client, "app", id, appAPIFields,
			func(ctx context.Context) (*astra.App, error) { return client.GetApp(ctx, id) },
			func(a *astra.App) { applyAppPlan(a, change.appValues) },
			client.UpdateApp)
		if app == nil {
			return false
		}
		r.recordAnswer(ctx, &plan, app, &resp.State, &resp.Diagnostics)
		return true
	})
}

// Delete unmanages the app and waits for a 404. While the service refuses because the
// app is busy or a snapshot or backup of it runs (problems 112, 164, 148, 157: see
// app_unmanage.go), the request is repeated until it is accepted or the timeout ends;
// any other refusal fails at once with the service's reasons.
func (r *appResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, client, ok := fromState[appModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, ok := timeoutOf(ctx, state.Timeouts, deleting, appTimeouts, &resp.Diagnostics)
	if !ok {
		return
	}
	id := state.ID.ValueString()
	waitCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	backups := backupsOnDestroy{client: client, appID: id}
	if !backups.prepare(waitCtx, r.waitSchedule(), timeout, state.DeleteBackupsOnDestroy, &resp.Diagnostics) {
		return
	}
	hint := func(err error) string { return unmanageRefusedHint(err, state.DeleteBackupsOnDestroy) }
	if !unmanageApp(waitCtx, r.waitSchedule(), client, id, timeout, hint, &resp.Diagnostics) {
		return
	}
	if _, err := astra.Wait(waitCtx, r.waitSchedule(), appGone(client, id), func(a *astra.App) (bool, error) { return a == nil, nil }); err != nil {
		addWaitError(&resp.Diagnostics, "App not unmanaged", err, timeout,
			"Astra Control accepted the unmanage request; the app stays in state until it is gone. Destroy again to check.")
		return
	}
	backups.warnKept(context.WithoutCancel(ctx), state.Name.ValueString(), &resp.Diagnostics)
}

func (r *appResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// recordAnswer writes the model converted from the service's answer to state.
func (r *appResource) recordAnswer(ctx context.Context, m *appModel, answer *astra.App, state *tfsdk.State, diags *diag.Diagnostics) {
	m.appValues = appFrom(answer, m.appValues)
	diags.Append(setState(ctx, state, m)...)
}

// recordAndWait records the answer, then waits until the app is ready and records what it
// last saw (a failed app with its state_details).
func (r *appResource) recordAndWait(ctx context.Context, client *astra.Client, timeout time.Duration, m *appModel,
	answer *astra.App, state *tfsdk.State, diags *diag.Diagnostics, aftermath string) {
	if r.recordAnswer(ctx, m, answer, state, diags); diags.HasError() || !m.WaitForReady.ValueBool() {
		return
	}
	id := m.ID.ValueString()
	waitAndRecord(ctx, r.waitSchedule(), timeout, answer, func(ctx context.Context) (*astra.App, error) { return client.GetApp(ctx, id) },
		astra.AppReady, func(a *astra.App) { r.recordAnswer(ctx, m, a, state, diags) }, diags, "App did not become ready", aftermath)
}

// Problems of an app that is busy for a while: a DELETE is asked again until they pass.
const (
	problemAppNotReady        = 112
	problemUnexpectedAppState = 164
)

// appGone reads the app, nil once it is gone (a 404).
func appGone(client *astra.Client, id string) func(context.Context) (*astra.App, error) {
	return func(ctx context.Context) (*astra.App, error) {
		a, err := client.GetApp(ctx, id)
		if astra.IsNotFound(err) {
			return nil, nil
		}
		return a, err
	}
}

// findApp finds the app a POST with a lost answer may have made: the one of that name on
// that cluster, nil if none.
func findApp(ctx context.Context, client *astra.Client, clusterID, name string) (*astra.App, error) {
	apps, err := client.ListApps(ctx, astra.ListOptions{Filters: []astra.Filter{astra.Eq("name", name)}})
	if err != nil {
		return nil, err
	}
	for i := range apps {
		if apps[i].Name == name && apps[i].ClusterID == clusterID {
			return &apps[i], nil
		}
	}
	return nil, nil
}

func appStamp(a *astra.App) objectStamp {
	return objectStamp{Kind: "app", ID: a.ID, Created: a.Metadata.CreationTimestamp}
}

// existingApp is the app a 409/121 refers to: the app of that name on the cluster.
func existingApp(ctx context.Context, client *astra.Client, body astra.AppCreate) *existing {
	a, err := findApp(ctx, client, body.ClusterID, body.Name)
	if err != nil || a == nil {
		return nil
	}
	return &existing{what: fmt.Sprintf("the app %q (state %s) on cluster %s", a.Name, a.State, body.ClusterID), id: a.ID}
}
