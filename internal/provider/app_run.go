package provider

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

// What astra_app_snapshot and astra_app_backup share: both are runs of an app, taken once
// and never changed, living under their app (/k8s/v1/apps/{app_id}/appSnaps/{id}, …/appBackups/{id}),
// so both are identified by { app_id, id } and import as "<app_id>/<id>".

// appRunIdentitySchema is the identity { app_id, id } of a snapshot or backup.
func appRunIdentitySchema(what string) identityschema.Schema {
	return identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"app_id": identityschema.StringAttribute{RequiredForImport: true, Description: "ID of the app the " + what + " is taken of."},
		"id":     identityschema.StringAttribute{RequiredForImport: true, Description: "ID of the " + what + "."},
	}}
}

// importAppRun takes "<app_id>/<id>", or an identity { app_id, id }, into state (a snapshot,
// a backup or a policy: what), once client (when configured) finds both parts
// (checkAppChildImport).
func importAppRun(ctx context.Context, client *astra.Client, typeName, what string, get appChildGetter,
	req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	var appID, id string
	if req.ID != "" {
		var ok bool
		appID, id, ok = strings.Cut(req.ID, "/")
		if !ok || validate.CheckUUID(appID) != nil || validate.CheckUUID(id) != nil {
			resp.Diagnostics.AddError("Invalid import ID",
				"Import an "+typeName+" as \"<app_id>/<id>\": the app's ID and the "+what+"'s ID, both UUIDs, "+
					"separated by a slash; got \""+req.ID+"\".")
			return
		}
	} else {
		var ident policyIdentity // the same { app_id, id } as a policy's
		resp.Diagnostics.Append(req.Identity.Get(ctx, &ident)...)
		if resp.Diagnostics.HasError() {
			return
		}
		appID, id = ident.AppID.ValueString(), ident.ID.ValueString()
	}
	if checkAppChildImport(ctx, client, typeName, what, appID, id, get, &resp.Diagnostics); resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("app_id"), appID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	setPolicyIdentity(ctx, resp.Identity, appID, id, &resp.Diagnostics)
}

// postWhileBusy sends a snapshot, backup or clone POST until the service stops refusing it
// because a run is in progress (refusalWait for op: a policy's snapshot, another resource's
// of the same apply, the snapshot or backup a clone is made from); that refusal applied
// nothing, so asking again is safe. It returns the last outcome; ctx bounds the asking.
func postWhileBusy[T any](ctx context.Context, schedule astra.Schedule, op runOp, post func(context.Context) (*T, error)) (*T, error) {
	every := max(schedule.Max, schedule.Min, 10*time.Millisecond)
	for {
		obj, err := post(ctx)
		if refusalOf(op, err) != refusalWait {
			return obj, err
		}
		select {
		case <-ctx.Done():
			return obj, err
		case <-time.After(every):
		}
	}
}

// deleteAppRun deletes a snapshot or backup and waits until reading it answers 404. While
// the service refuses because a run is in progress (this one, interrupted while it was
// being taken, a backup still pending, or a backup being taken from this snapshot: refusalOf
// op), the DELETE is asked again until it is accepted or the timeout ends. A running backup
// is not waited for: the service cancels it on DELETE.
func deleteAppRun(ctx context.Context, schedule astra.Schedule, timeout time.Duration, op runOp, what, id string,
	remove func(context.Context) error, get func(context.Context) error, diags *diag.Diagnostics) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	summary := "Cannot delete the " + what
	aftermath := "The " + what + " stays in state; destroy again once Astra Control accepts deleting it."
	_, err := astra.Wait(ctx, schedule, func(ctx context.Context) (bool, error) {
		err := remove(ctx)
		switch {
		case err == nil || astra.IsNotFound(err):
			return true, nil
		case refusalOf(op, err) != refusalFail:
			return false, nil // ask again once the run ends or runs
		}
		return false, err
	}, func(done bool) (bool, error) { return done, nil })
	var apiErr *astra.APIError
	switch {
	case errors.As(err, &apiErr):
		diags.AddError(summary, "Astra Control refused to delete "+what+" "+id+": "+apiErr.Error()+"\n\n"+aftermath)
		return
	case err != nil:
		addWaitError(diags, summary, err, timeout, aftermath)
		return
	}
	if _, err := astra.Wait(ctx, schedule, func(ctx context.Context) (bool, error) {
		err := get(ctx)
		if astra.IsNotFound(err) {
			return true, nil
		}
		return false, err
	}, func(gone bool) (bool, error) { return gone, nil }); err != nil {
		addWaitError(diags, capitalize(what)+" not deleted", err, timeout,
			"Astra Control accepted the delete request; the "+what+" stays in state until it is gone. Destroy again to check.")
	}
}

// isRemoved reports a snapshot or backup the service reports as removed: gone, for Read.
func isRemoved(state string) bool { return strings.EqualFold(strings.TrimSpace(state), "removed") }

// isFailed reports a snapshot or backup the service reports as failed.
func isFailed(state string) bool { return strings.EqualFold(strings.TrimSpace(state), "failed") }

// appRunFilter is what astra_app_snapshots and astra_app_backups select by: a state, and
// on demand (no schedule) or taken by a policy. A null filter selects everything.
type appRunFilter struct {
	State    types.String
	OnDemand types.Bool
}

// appRun is what the data sources read of a snapshot or backup to filter and order it.
type appRun struct {
	state, scheduleID, created, id string
}

func (f appRunFilter) keeps(r appRun) bool {
	if isSet(f.State) && !strings.EqualFold(r.state, f.State.ValueString()) {
		return false
	}
	return !isSet(f.OnDemand) || f.OnDemand.ValueBool() == (r.scheduleID == "")
}

// selectAppRuns keeps the items the filter selects, oldest first (then by ID), and returns
// the index among them of the newest completed one, -1 if none.
func selectAppRuns[T any](items []T, run func(T) appRun, f appRunFilter) ([]T, int) {
	var kept []T
	for _, it := range items {
		if f.keeps(run(it)) {
			kept = append(kept, it)
		}
	}
	sort.SliceStable(kept, func(i, j int) bool {
		a, b := run(kept[i]), run(kept[j])
		if ta, tb := createdAt(a.created), createdAt(b.created); !ta.Equal(tb) {
			return ta.Before(tb)
		}
		return a.id < b.id
	})
	latest := -1
	for i := range kept {
		if strings.EqualFold(run(kept[i]).state, "completed") {
			latest = i // the last completed one in creation order is the newest
		}
	}
	return kept, latest
}

// createdAt reads a creation timestamp; one that cannot be read sorts first.
func createdAt(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// appRunListAttributes are the arguments astra_app_snapshots and astra_app_backups share,
// with the list (plural) and latest_completed of items of the given attributes.
func appRunListAttributes(what, plural string, item map[string]dschema.Attribute) map[string]dschema.Attribute {
	return map[string]dschema.Attribute{
		"app_id": dschema.StringAttribute{
			Required:            true,
			MarkdownDescription: "ID of the app whose " + what + "s are listed (an `astra_app`'s `id`).",
			Validators:          []validator.String{validate.UUID()},
		},
		"state": dschema.StringAttribute{
			Optional: true,
			MarkdownDescription: "Only the " + what + "s in this state, such as `completed`, `failed`, `running` or " +
				"`pending` (compared without regard to case).",
		},
		"on_demand": dschema.BoolAttribute{
			Optional: true,
			MarkdownDescription: "`true`: only the " + what + "s taken on demand (no `schedule_id`: an `astra_app_" + what +
				"`, or taken by hand); `false`: only those a protection policy took. Unset: both.",
		},
		plural: computedList("The matching "+what+"s, oldest first (by creation time, then ID).", item),
		"latest_completed": dschema.SingleNestedAttribute{
			Computed: true,
			MarkdownDescription: "The newest `completed` " + what + " among the matching ones; null when there is " +
				"none. For example the " + what + " to clone or restore from.",
			Attributes: item,
		},
	}
}

// appRunListValues are the list and latest_completed of a plural data source, from its
// selected items (selectAppRuns).
func appRunListValues[T any](ctx context.Context, item map[string]dschema.Attribute, kept []T, latest int, diags *diag.Diagnostics) (types.List, types.Object) {
	list, d := objectList(ctx, item, kept)
	diags.Append(d...)
	objectType, ok := dschema.NestedAttributeObject{Attributes: item}.Type().(types.ObjectType)
	if !ok {
		diags.AddError("Unexpected item type", "The items of a list attribute are not objects. This is a bug in the provider; please report it.")
		return list, types.ObjectNull(nil)
	}
	attrTypes := objectType.AttrTypes
	if latest < 0 {
		return list, types.ObjectNull(attrTypes)
	}
	obj, d := types.ObjectValueFrom(ctx, attrTypes, kept[latest])
	diags.Append(d...)
	return list, obj
}

// addUnknownApp is a plural data source's error for an app_id that names no app.
func addUnknownApp(diags *diag.Diagnostics, appID string) {
	diags.AddAttributeError(path.Root("app_id"), "Unknown app",
		"Astra Control has no app with ID \""+appID+"\". Set app_id to an astra_app's id (the astra_apps data source lists them).")
}

// checkAppRunPlan is the plan check of a snapshot or backup (knownanswers.PlanChecker): a
// warning on a run a create wait left in progress or failed (warnUnsettledRun), and, when
// the configuration sets a bucket_id the apply would send, a snapshot's needs
// needsVersion (appSnap 1.3, api_version 1.7; "" for none), and the bucket must exist.
func checkAppRunPlan(ctx context.Context, client *astra.Client, req knownanswers.PlanRequest, what, needsVersion string) diag.Diagnostics {
	var diags diag.Diagnostics
	warnUnsettledRun(ctx, req, what, &diags)
	if client == nil {
		return nil
	}
	var bucket, prior types.String
	diags.Append(req.Config.GetAttribute(ctx, path.Root("bucket_id"), &bucket)...)
	if !req.State.Raw.IsNull() {
		diags.Append(req.State.GetAttribute(ctx, path.Root("bucket_id"), &prior)...)
	}
	if diags.HasError() || !isSet(bucket) || bucket.Equal(prior) {
		return diags
	}
	if needsVersion != "" && !versionAtLeast(client.ClusterVersion(), needsVersion) {
		diags.AddAttributeError(path.Root("bucket_id"), "Argument needs api_version "+needsVersion,
			"A "+what+"'s bucket_id needs the "+what+" version of Astra Control 24.02, which the provider sends with api_version "+
				needsVersion+"; the provider's api_version is "+client.ClusterVersion()+". Raise api_version (or ASTRA_API_VERSION) to "+
				needsVersion+", or remove bucket_id to let Astra Control decide. "+reachVersion(needsVersion))
		return diags
	}
	if exists, err := bucketExists(ctx, client, bucket.ValueString()); err == nil && !exists {
		diags.AddAttributeError(path.Root("bucket_id"), "Unknown bucket",
			"Astra Control has no bucket with ID \""+bucket.ValueString()+"\". Set bucket_id to an astra_bucket's id "+
				"(the astra_buckets data source lists them), or remove it to let Astra Control choose.")
	}
	return diags
}

// appRunCalls are what a snapshot's and a backup's create and read differ in: the client's
// calls for one app, bound by the resource, and the names its messages use.
type appRunCalls[T any] struct {
	kind          string // "snapshot" or "backup"
	existsProblem int    // the problem of a name the app already uses
	postOp        runOp  // the POST's refusals (runRefusals)
	post          func(ctx context.Context) (*T, error)
	get           func(ctx context.Context, id string) (*T, error)
	find          func(ctx context.Context, name string) (*T, error)
	completed     func(*T) (bool, error)
	stamp         func(*T) objectStamp
	id            func(*T) string
	state         func(*T) string
	existing      func(ctx context.Context, name string) *existing
}

// createAppRun takes a snapshot or backup named name and waits, within timeout, until it is
// completed: it asks again while another run of the app is in progress, names the existing
// one when the name is taken, finds a run whose POST answer was lost, and records the run
// (record) before the wait, so that a wait that fails or ends early never orphans it: a
// failed run is tainted, one still running is kept untainted (reportRunWait).
func createAppRun[T any](ctx context.Context, h *clientHolder, client *astra.Client, timeout time.Duration, name string,
	calls appRunCalls[T], record func(*T), diags *diag.Diagnostics) {
	deadline := time.Now().Add(timeout)
	postCtx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	sent := time.Now()
	run, err := postWhileBusy(postCtx, h.waitSchedule(), calls.postOp, calls.post)
	title := capitalize(calls.kind)
	if astra.IsConflict(err) && astra.ProblemNumber(err) == calls.existsProblem {
		addExists(diags, title+" already exists", "astra_app_"+calls.kind, calls.existing(ctx, name),
			"the astra_app_"+calls.kind+"s data source lists the app's "+calls.kind+"s; the import ID is <app_id>/<id>", err)
		return
	}
	run = createdOrAdopted(ctx, diags, calls.kind+" "+name, "Cannot take the "+calls.kind, appRunAPIFields, run, err,
		lostCreate[T]{sent: sent, claims: h.claims(), stamp: calls.stamp, settle: client.RequestTimeout(),
			find: func(ctx context.Context) (*T, error) { return calls.find(ctx, name) }})
	if run == nil {
		return
	}
	record(run)
	if diags.HasError() {
		return
	}
	id := calls.id(run)
	// The wait has what is left of the timeout (the POST may have waited for another run);
	// a timeout is reported as the configured one.
	waitCtx, cancelWait := context.WithDeadline(ctx, deadline)
	defer cancelWait()
	last, err := astra.WaitFrom(waitCtx, h.waitSchedule(), run,
		func(ctx context.Context) (*T, error) { return calls.get(ctx, id) }, calls.completed)
	if last == run {
		last = readBackRun(ctx, calls, id, run)
	}
	seen := ""
	if last != nil {
		record(last)
		seen = calls.state(last)
	}
	reportRunWait(diags, calls.kind, seen, err, timeout, false)
}

// readBackRun is the run as a GET answers it, when the wait ended on the POST answer (it
// already decided, or no GET came back): a backup's POST answer has no totalBytes,
// progress, timestamps or snapshotID (NetApp's captured answers). If the GET fails the
// POST answer is kept; a refresh reads the rest.
func readBackRun[T any](ctx context.Context, calls appRunCalls[T], id string, answer *T) *T {
	if got, err := calls.get(ctx, id); err == nil && got != nil {
		return got
	}
	return answer
}

// reportRunWait reports how the wait for a run ended, when it did not end completed. A run
// Astra Control reports failed is an error: Create's taints it, so the next apply deletes
// it and takes it again. A wait that ended early (timeouts.create, an interrupt, reads that
// failed) is only a warning from Create: Terraform taints every object a create returns an
// error with, and would delete a run Astra Control goes on taking, however long it took,
// on the next apply. Kept untainted in state with its state, it is read again by the next
// plan, which keeps it once completed, waits for it while it runs, and replaces it only if
// it failed (planAppRun). resumed is Update's wait (planAppRun's), whose errors taint
// nothing: there a wait that ended early is an error, holding dependents back.
func reportRunWait(diags *diag.Diagnostics, kind, seen string, err error, timeout time.Duration, resumed bool) {
	if err == nil {
		return
	}
	unlisted := unlistedRunState(kind, seen)
	title := capitalize(kind)
	var terminal *astra.TerminalStateError
	if errors.As(err, &terminal) {
		aftermath := "The " + kind + " is recorded in state as tainted (with its state and state_details): the next apply deletes it and takes it again."
		if resumed {
			aftermath = "The " + kind + " is recorded in state as failed (with its state_details): the next apply deletes it and takes it again."
		}
		addWaitError(diags, title+" did not complete", err, timeout, aftermath)
		return
	}
	if resumed {
		addWaitError(diags, title+" did not complete", err, timeout, unlisted+"The "+kind+" stays in state, not tainted, with its state: "+
			"Astra Control goes on taking it. The next apply waits for it again, keeps it once completed, and replaces it only if it failed.")
		return
	}
	var ended diag.Diagnostics
	addWaitError(&ended, title+" still running: kept", err, timeout, unlisted+runKeptAftermath(kind))
	for _, d := range ended {
		diags.AddWarning(d.Summary(), d.Detail())
	}
}

// runKeptAftermath says what becomes of a run whose create wait ended early, and what of
// the resources that depend on it.
func runKeptAftermath(kind string) string {
	return "The " + kind + " is recorded in state, not tainted, with its state (such as running): Astra Control goes on " +
		"taking it, and nothing is lost. The next plan reads it again: once completed it is kept as it is (no change); " +
		"while it still runs, the next apply waits for it (an update in place that sends nothing, within timeouts.create); " +
		"only a " + kind + " that failed is replaced. Resources that depend on it go ahead in this apply while it is " +
		"still running: to hold one back, give it a precondition that this " + kind + "'s state is \"completed\". " +
		"To wait longer next time, raise timeouts.create."
}

// runInProgress reports a snapshot or backup state that Astra Control is still taking:
// neither completed, failed nor removed (pending, running, discovering, …).
func runInProgress(state string) bool {
	s := strings.TrimSpace(state)
	return s != "" && !strings.EqualFold(s, "completed") && !isFailed(s) && !isRemoved(s)
}

// unsettledRun is the state of the prior run a plan keeps (not a create, not a destroy),
// when that run is in progress or failed: a create wait that ended early left it so
// (reportRunWait). "" otherwise.
func unsettledRun(ctx context.Context, state tfsdk.State, plan tfsdk.Plan) string {
	if state.Raw.IsNull() || plan.Raw.IsNull() {
		return ""
	}
	var s types.String
	if d := state.GetAttribute(ctx, path.Root("state"), &s); d.HasError() || !isSet(s) {
		return ""
	}
	if v := s.ValueString(); runInProgress(v) || isFailed(v) {
		return v
	}
	return ""
}

// warnUnsettledRun is the plan check's warning on a run unsettledRun finds, saying what the
// apply does with it. It is also what sends the plan to the framework, past the known
// answers, so that planAppRun runs (knownanswers answers only plans its checker is silent on).
func warnUnsettledRun(ctx context.Context, req knownanswers.PlanRequest, kind string, diags *diag.Diagnostics) {
	state := unsettledRun(ctx, req.State, req.Plan)
	if state == "" {
		return
	}
	var id types.String
	diags.Append(req.State.GetAttribute(ctx, path.Root("id"), &id)...)
	if isFailed(state) {
		diags.AddAttributeWarning(path.Root("state"), capitalize(kind)+" failed: replaced",
			fmt.Sprintf("Astra Control reports %s %s as failed since its create wait ended early (see state_details). The apply "+
				"deletes it and takes it again.", kind, id.ValueString()))
		return
	}
	diags.AddAttributeWarning(path.Root("state"), capitalize(kind)+" still running: the apply waits for it",
		fmt.Sprintf("Astra Control is still taking %s %s (state %s): its create wait ended early. Unless the plan replaces it, "+
			"the apply waits, within timeouts.create, until it has completed (an update in place that sends nothing), and "+
			"resources that depend on it wait with it. It is kept, not taken again; only a %s that failed is replaced.",
			kind, id.ValueString(), state, kind))
}

// planAppRun is the ModifyPlan of a snapshot or backup: the plan checks, then, for a run a
// create wait left in progress or failed (unsettledRun), what the service will report
// afterwards is unknown, so that the apply waits for a run in progress (an update: Update
// resumes the wait) and replaces a failed one (state forces replacement; the plan of an
// unchanged prior state would otherwise keep it).
func planAppRun(ctx context.Context, checker knownanswers.PlanChecker, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	knownanswers.ModifyPlan(ctx, checker, req, resp)
	state := unsettledRun(ctx, req.State, req.Plan)
	if state == "" || resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(unknownServiceValues(&resp.Plan)...)
	if isFailed(state) {
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("state"))
	}
}

// unknownServiceValues marks unknown every attribute the service alone sets (computed, not
// an argument), but the ID: what a run reports once it has settled.
func unknownServiceValues(plan *tfsdk.Plan) diag.Diagnostics {
	service := map[string]bool{}
	for name, a := range plan.Schema.GetAttributes() {
		service[name] = name != "id" && a.IsComputed() && !a.IsOptional() && !a.IsRequired()
	}
	raw, err := tftypes.Transform(plan.Raw, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if steps := p.Steps(); len(steps) == 1 {
			if name, ok := steps[0].(tftypes.AttributeName); ok && service[string(name)] {
				return tftypes.NewValue(v.Type(), tftypes.UnknownValue), nil
			}
		}
		return v, nil
	})
	var diags diag.Diagnostics
	if err != nil {
		diags.AddError("Cannot plan the run", "Marking the values the service sets unknown failed: "+err.Error()+
			". This is a bug in the provider; please report it.")
		return diags
	}
	plan.Raw = raw
	return diags
}

// resumeAppRun is Update's wait for a run a create wait left in progress (planAppRun plans
// it): it reads the run, then waits within timeout until it has completed, recording what
// it last saw. A run that fails or a wait that ends early is an error (reportRunWait).
func resumeAppRun[T any](ctx context.Context, h *clientHolder, timeout time.Duration, id string, calls appRunCalls[T],
	record func(*T), diags *diag.Diagnostics) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	run, err := calls.get(ctx, id)
	if err != nil {
		addWaitError(diags, capitalize(calls.kind)+" did not complete", err, timeout,
			"The "+calls.kind+" stays in state as it was; the next apply reads it again.")
		return
	}
	last, err := astra.WaitFrom(ctx, h.waitSchedule(), run, func(ctx context.Context) (*T, error) { return calls.get(ctx, id) },
		calls.completed)
	seen := ""
	if last != nil {
		record(last)
		seen = calls.state(last)
	}
	reportRunWait(diags, calls.kind, seen, err, timeout, true)
}

// readAppRun reads the run id of the state's app, forgetting it when it is gone or removed;
// nil when forgotten or failed.
func readAppRun[T any](ctx context.Context, resp *resource.ReadResponse, id string, calls appRunCalls[T]) *T {
	return readOrForget(ctx, resp, "astra_app_"+calls.kind, id, "the "+calls.kind,
		func() (*T, error) { return calls.get(ctx, id) },
		func(run *T) bool { return isRemoved(calls.state(run)) })
}

// appRunModel is what updateAppRun reads of a snapshot's or backup's model.
type appRunModel interface {
	run() (appID, id, state string)
	timeoutsValue() *timeouts.Value
}

func (m *appBackupModel) run() (appID, id, state string) {
	return m.AppID.ValueString(), m.ID.ValueString(), m.State.ValueString()
}
func (m *appBackupModel) timeoutsValue() *timeouts.Value { return &m.Timeouts }

func (m *appSnapshotModel) run() (appID, id, state string) {
	return m.AppID.ValueString(), m.ID.ValueString(), m.State.ValueString()
}
func (m *appSnapshotModel) timeoutsValue() *timeouts.Value { return &m.Timeouts }

// updateAppRun is a snapshot's or backup's Update. For a run a create wait left in progress
// (planAppRun planned the update) it resumes the wait, within timeouts.create, and records
// what it last saw; otherwise only timeouts change, and nothing is sent. The identity is set
// again: a CLI before 1.12 keeps none, and the framework wants one back.
func updateAppRun[M any, P interface {
	*M
	appRunModel
}, T any](ctx context.Context, h *clientHolder, req resource.UpdateRequest, resp *resource.UpdateResponse,
	defaults attrs.TimeoutDefaults, callsFor func(*astra.Client, string) appRunCalls[T], record func(m *M, appID string, run *T)) {
	prior, client, ok := fromState[M](ctx, h, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	if appID, id, state := P(&prior).run(); runInProgress(state) {
		var plan M
		resp.Diagnostics.Append(planGet(ctx, req.Plan, &plan)...)
		*P(&prior).timeoutsValue() = *P(&plan).timeoutsValue()
		timeout, ok := timeoutOf(ctx, *P(&plan).timeoutsValue(), creating, defaults, &resp.Diagnostics)
		if !ok {
			return
		}
		resp.Diagnostics.Append(setState(ctx, &resp.State, &prior)...) // what stays if the run cannot be read
		setPolicyIdentity(ctx, resp.Identity, appID, id, &resp.Diagnostics)
		calls := callsFor(client, appID)
		resumeAppRun(ctx, h, timeout, id, calls, func(run *T) { record(&prior, appID, run) }, &resp.Diagnostics)
		return
	}
	inPlace(ctx, req, resp, nil, func(M) bool { return true })
	var m M
	if resp.Diagnostics.Append(stateGet(ctx, resp.State, &m)...); !resp.Diagnostics.HasError() {
		appID, id, _ := P(&m).run()
		setPolicyIdentity(ctx, resp.Identity, appID, id, &resp.Diagnostics)
	}
}
