package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

var (
	_ resource.ResourceWithConfigure   = (*appMirrorResource)(nil)
	_ resource.ResourceWithImportState = (*appMirrorResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*appMirrorResource)(nil)
)

// appMirrorResource is astra_app_mirror: a relationship whose direction and failover are
// in-place changes (a plan never deletes it for a failover or a reverse), whose sides the
// configuration names once (a reverse by the action keeps the plan quiet).
type appMirrorResource struct{ clientHolder }

// newAppMirrorResource is astra_app_mirror.
func newAppMirrorResource() resource.Resource { return &appMirrorResource{} }

func (r *appMirrorResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_app_mirror"
}

func (r *appMirrorResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attributes := appMirrorAttributes()
	attributes["timeouts"] = attrs.TimeoutsSchema(ctx, appMirrorTimeouts)
	resp.Schema = schema.Schema{
		Version: appMirrorSchemaVersion,
		MarkdownDescription: "An app replicated with SnapMirror to another managed cluster (`POST /k8s/v1/appMirrors`, " +
			"Astra Control Center with ONTAP on both clusters). Create waits until the relationship is `established` " +
			"(bounded by `timeouts.create`; when the wait ends the error gives the health details). " +
			"`desired_state = \"failed_over\"` in place is a failover (the plan warns which app becomes writable on which " +
			"cluster); back to `established` is a resync that overwrites the destination. Reverse and resync from " +
			"either side are the `astra_app_mirror_reverse` and `astra_app_mirror_resync` actions (Terraform 1.14+), or, " +
			"under OpenTofu and older Terraform, swapping the two sides in the configuration. No failover, resync or " +
			"reverse ever plans a replacement. Destroy deletes the relationship; what else Astra Control removes with it " +
			"is disputed (research notes §4.12): the provider reads the destination app afterwards and warns when it " +
			"remains. Imports by ID.",
		Attributes: attributes,
	}
}

func (r *appMirrorResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, client, ok := fromPlan[appMirrorModel](ctx, &r.clientHolder, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, ok := timeoutOf(ctx, plan.Timeouts, creating, appMirrorTimeouts, &resp.Diagnostics)
	if !ok {
		return
	}
	sourceCluster := ""
	if isSet(plan.NamespaceMapping) { // the mapping names each side's cluster
		app, err := client.GetApp(ctx, plan.SourceAppID.ValueString())
		if err != nil {
			addAPIError(&resp.Diagnostics, "Cannot read the source app", err, nil)
			return
		}
		sourceCluster = app.ClusterID
	}
	body := appMirrorCreateRequest(ctx, plan.appMirrorValues, sourceCluster, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	sent := time.Now()
	m, err := client.CreateAppMirror(ctx, body)
	what := fmt.Sprintf("the replication of app %s to cluster %s", body.SourceAppID, body.DestinationClusterID)
	m = createdOrAdopted(ctx, &resp.Diagnostics, what, "Cannot replicate the app", appMirrorAPIFields, m, err,
		lostCreate[astra.AppMirror]{sent: sent, claims: r.claims(), stamp: appMirrorStamp, settle: client.RequestTimeout(),
			find: func(ctx context.Context) (*astra.AppMirror, error) {
				return client.FindAppMirror(ctx, body.SourceAppID, body.DestinationClusterID)
			}})
	if m == nil {
		return
	}
	r.record(ctx, &plan, m, &resp.State, &resp.Diagnostics) // kept (tainted) if the wait fails: nothing orphaned
	if got := waitMirror(ctx, r.waitSchedule(), client, m.ID, astra.MirrorEstablished, timeout,
		"Replication not established", &resp.Diagnostics); got != nil {
		r.record(ctx, &plan, got, &resp.State, &resp.Diagnostics)
	}
}

func (r *appMirrorResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, client, ok := fromState[appMirrorModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	id := state.ID.ValueString()
	m := readOrForget(ctx, resp, "astra_app_mirror", id, "the app mirror",
		func() (*astra.AppMirror, error) { return client.GetAppMirror(ctx, id) }, mirrorGone)
	if m == nil {
		return
	}
	r.record(ctx, &state, m, &resp.State, &resp.Diagnostics)
}

// Update carries out what the plan changes, from the relationship as it is now: a reverse
// (the sides swapped), a failover, a resync; nothing for a timeouts change or a change the
// service already made (an interrupted wait's next apply only waits).
func (r *appMirrorResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, client, ok := fromPlan[appMirrorModel](ctx, &r.clientHolder, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	var prior appMirrorModel
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	timeout, ok := timeoutOf(ctx, plan.Timeouts, updating, appMirrorTimeouts, &resp.Diagnostics)
	if !ok {
		return
	}
	swapped := plan.SourceAppID.ValueString() != prior.SourceAppID.ValueString() // the configuration swapped the sides
	m := runMirrorStep(ctx, r.waitSchedule(), client, prior.ID.ValueString(), func(m *astra.AppMirror) (mirrorStep, diag.Diagnostics) {
		wantSource := m.SourceAppID
		if swapped {
			wantSource = plan.SourceAppID.ValueString()
		}
		step := mirrorStepFor(m, wantSource, plan.DesiredState.ValueString())
		return step, step.refusal(m)
	}, timeout, &resp.Diagnostics)
	if m != nil {
		r.record(ctx, &plan, m, &resp.State, &resp.Diagnostics)
	}
}

// Delete deletes the relationship and waits until it is gone, then reads the destination
// app: the spec and Center's docs disagree on whether it goes too (research notes §4.12),
// so one that remains is named in a warning, never unmanaged implicitly.
func (r *appMirrorResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, client, ok := fromState[appMirrorModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, ok := timeoutOf(ctx, state.Timeouts, deleting, appMirrorTimeouts, &resp.Diagnostics)
	if !ok {
		return
	}
	id := state.ID.ValueString()
	if err := client.DeleteAppMirror(ctx, id); err != nil && !astra.IsNotFound(err) {
		addAPIError(&resp.Diagnostics, "Cannot delete the app mirror", err, nil)
		return
	}
	waitCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	_, err := astra.Wait(waitCtx, r.waitSchedule(), func(ctx context.Context) (*astra.AppMirror, error) {
		m, err := client.GetAppMirror(ctx, id)
		if err == nil && strings.EqualFold(m.State, astra.MirrorDeleted) {
			return nil, nil
		}
		return m, err
	}, func(m *astra.AppMirror) (bool, error) { return false, nil })
	if err != nil && !astra.IsNotFound(err) {
		resp.Diagnostics.AddError("App mirror not deleted", fmt.Sprintf("Astra Control was asked to delete the "+
			"relationship %s, but it is not gone yet: %v. It goes on deleting it; apply (or destroy) again to wait "+
			"for it.", id, err))
		return
	}
	warnDestinationLeft(context.WithoutCancel(ctx), client, state.appMirrorValues, &resp.Diagnostics)
}

// warnDestinationLeft names the replica app that remains after the relationship went.
func warnDestinationLeft(ctx context.Context, client *astra.Client, v appMirrorValues, diags *diag.Diagnostics) {
	current := v.CurrentSourceAppID.ValueString()
	replica, cluster := v.DestinationAppID.ValueString(), v.DestinationClusterID.ValueString()
	if current != "" && current != v.SourceAppID.ValueString() { // reversed: the configured source was the replica
		replica, cluster = v.SourceAppID.ValueString(), v.SourceClusterID.ValueString()
	}
	if replica == "" {
		return
	}
	app, err := client.GetApp(ctx, replica)
	switch {
	case astra.IsNotFound(err):
		return
	case err != nil:
		diags.AddWarning("Replica app not checked", fmt.Sprintf("The relationship is deleted. Reading the app it "+
			"replicated to (%s, cluster %s) failed: %v. Check in Astra Control whether that app and its volumes remain.",
			replica, cluster, err))
	case !isRemoved(app.State):
		diags.AddWarning("Replica app remains", fmt.Sprintf("The relationship is deleted, but Astra Control still "+
			"manages the app it replicated to: %q (%s) on cluster %s, state %s. Astra Control's documentation and its API "+
			"disagree on whether deleting a relationship removes the replica's volumes and app: check the namespace on "+
			"that cluster, and unmanage the app (or import it as an astra_app) if you do not want it. The provider never "+
			"unmanages it by itself.", app.Name, replica, cluster, app.State))
	}
}

func (r *appMirrorResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// record writes the service's answer to state, seen from m's configured source.
func (r *appMirrorResource) record(ctx context.Context, m *appMirrorModel, got *astra.AppMirror, state *tfsdk.State, diags *diag.Diagnostics) {
	m.appMirrorValues = appMirrorFrom(got, m.appMirrorValues)
	diags.Append(setState(ctx, state, m)...)
}

func appMirrorStamp(m *astra.AppMirror) objectStamp {
	return objectStamp{Kind: "app mirror", ID: m.ID, Created: m.Metadata.CreationTimestamp}
}

// appMirrorAPIFields maps the service's field names to the attributes.
var appMirrorAPIFields = map[string]string{
	"sourceAppID": "source_app_id", "destinationClusterID": "destination_cluster_id",
	"namespaceMapping": "namespace_mapping", "storageClasses": "destination_storage_class", "stateDesired": "desired_state",
}

// waitMirror waits until the relationship is in state, within timeout. When the wait ends
// early it adds summary with the last state and the health details; the last answer read
// is returned either way (nil when none was).
func waitMirror(ctx context.Context, sched astra.Schedule, client *astra.Client, id, state string, timeout time.Duration,
	summary string, diags *diag.Diagnostics) *astra.AppMirror {
	waitCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	got, err := astra.Wait(waitCtx, sched, func(ctx context.Context) (*astra.AppMirror, error) {
		return client.GetAppMirror(ctx, id)
	}, astra.AppMirrorIn(state))
	if err == nil {
		if strings.EqualFold(got.HealthState, "critical") {
			_, described := got.Describe()
			diags.AddWarning("Replication unhealthy", fmt.Sprintf("The relationship %s is %s, but its health is critical: %s.", id, state, described))
		}
		return got
	}
	var timedOut *astra.WaitTimeoutError
	switch {
	case errors.As(err, &timedOut) && ctx.Err() != nil:
		diags.AddError(summary, fmt.Sprintf("Interrupted while waiting for the relationship %s to be %s (%s). Only the "+
			"wait stopped: Astra Control goes on. The state records what was last read; apply again to wait for it "+
			"(nothing is sent twice).", id, state, lastSeen(timedOut.LastState)))
	case errors.As(err, &timedOut):
		diags.AddError(summary, fmt.Sprintf("Timed out after %s waiting for the relationship %s to be %s (%s). "+
			"Replication has no failed state: a critical healthState and its details, in parentheses, say what is wrong. Astra Control "+
			"goes on; raise the timeout, or fix the cause and apply again.", timeout, id, state, lastSeen(timedOut.LastState)))
	default:
		addAPIError(diags, summary, err, nil)
	}
	return got
}
