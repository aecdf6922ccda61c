package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

var (
	_ action.ActionWithConfigure  = (*appRestoreAction)(nil)
	_ action.ActionWithModifyPlan = (*appRestoreAction)(nil)
)

// appRestoreTimeout: a restore from a backup copies every volume back from the object store.
const appRestoreTimeout = 2 * time.Hour

// appRestoreAction is astra_app_restore: restore an app in place from one of its snapshots
// or backups. It overwrites the app, so it runs only when invoked or triggered explicitly.
type appRestoreAction struct{ actionHolder }

func newAppRestoreAction() action.Action { return &appRestoreAction{} }

type appRestoreActionModel struct {
	AppID      types.String `tfsdk:"app_id"`
	SnapshotID types.String `tfsdk:"snapshot_id"`
	BackupID   types.String `tfsdk:"backup_id"`
	Timeout    types.String `tfsdk:"timeout"`
	Filter     types.Object `tfsdk:"restore_filter"` // action_app_restore_filter.go
}

func (a *appRestoreAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_app_restore"
}

func (a *appRestoreAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	exactlyOne := stringvalidator.ExactlyOneOf(path.MatchRoot("snapshot_id"), path.MatchRoot("backup_id"))
	resp.Schema = schema.Schema{
		MarkdownDescription: "Restores an app **in place** from one of its snapshots or backups (`PUT /k8s/v2/apps/{app_id}` " +
			"with the header `forceUpdate: true`) and waits until the app is `ready` again, reporting its state; a restore " +
			"that fails fails the action with the service's reasons. The plan checks, when the IDs are known, that the " +
			"snapshot or backup is one of the app's and is completed.\n\n" +
			"**It overwrites the app:** every Kubernetes resource of the app's namespaces (deployments, config maps, " +
			"secrets, ...) is replaced by its copy in the snapshot or backup, and every persistent volume of the app is " +
			"replaced by its data at that time. Changes made since then are lost, and the app is unavailable while it is " +
			"`restoring`. To look at old data without touching the app, clone it instead (`astra_app` with `source`).\n\n" +
			"It runs only when asked: `terraform apply -invoke=action.astra_app_restore.<name>`, or an `action_trigger` " +
			"you write for it. Terraform 1.14 or later; OpenTofu has no actions.\n\n" +
			"The restore request is never sent twice: when its answer is lost (a gateway error, a dropped connection), the " +
			"action reads the app instead. If the app is `restoring`, or names this snapshot or backup as restored from " +
			"since the request, it waits for that restore and reports it; otherwise it fails saying that nothing shows " +
			"the restore was applied, and you invoke it again once you have checked.",
		Attributes: map[string]schema.Attribute{
			"app_id": appIDAttribute("to restore"),
			"snapshot_id": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "ID of a completed snapshot of the app to restore from. Exactly one of `snapshot_id` and `backup_id`.",
				Validators:          []validator.String{validate.UUID(), exactlyOne},
			},
			"backup_id": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "ID of a completed backup of the app to restore from (the `astra_app_backups` data source finds the newest).",
				Validators:          []validator.String{validate.UUID()},
			},
			"timeout":        actionTimeoutAttribute("the app to be ready again", appRestoreTimeout),
			"restore_filter": restoreFilterAttribute(),
		},
	}
}

// ModifyPlan checks at plan time, when the IDs are known, that the snapshot or backup is one
// of the app's and completed: a restore is refused before the plan is shown, not halfway.
func (a *appRestoreAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	var m appRestoreActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	client := a.configuredClient()
	if resp.Diagnostics.HasError() || client == nil || !isSet(m.AppID) {
		return
	}
	appID := m.AppID.ValueString()
	switch {
	case isSet(m.SnapshotID):
		id := m.SnapshotID.ValueString()
		s, err := client.GetAppSnapshot(ctx, appID, id)
		point := restorePoint{kind: "snapshot", id: id}
		if err == nil {
			point.name, point.state = s.Name, s.State
		}
		checkRestorePoint(ctx, client, &resp.Diagnostics, appID, point, err)
	case isSet(m.BackupID):
		id := m.BackupID.ValueString()
		b, err := client.GetAppBackup(ctx, appID, id)
		point := restorePoint{kind: "backup", id: id}
		if err == nil {
			point.name, point.state = b.Name, b.State
		}
		checkRestorePoint(ctx, client, &resp.Diagnostics, appID, point, err)
	}
}

// restorePoint is the snapshot or backup a restore names, as read under the app.
type restorePoint struct{ kind, id, name, state string }

// checkRestorePoint adds the plan-time error, on snapshot_id or backup_id, of a snapshot or
// backup the app cannot be restored from: not the app's (a 404 under the app's path; the
// error names the app that has it), or not completed.
func checkRestorePoint(ctx context.Context, client *astra.Client, diags *diag.Diagnostics, appID string, p restorePoint, err error) {
	at := path.Root(p.kind + "_id")
	switch {
	case astra.IsNotFound(err):
		diags.AddAttributeError(at, "Not a "+p.kind+" of this app", notTheAppsRestorePoint(ctx, client, appID, p))
	case err != nil:
		return // the service checks at invocation
	case !strings.EqualFold(p.state, "completed"):
		diags.AddAttributeError(at, "Not completed",
			fmt.Sprintf("%s_id = %q: the %s %s of app %s is %s: only a completed one can be restored from.",
				p.kind, p.id, p.kind, p.name, appID, p.state))
	}
}

// notTheAppsRestorePoint explains a snapshot or backup ID the app does not have: the app
// that has it, found by reading it under each app (nothing lists an account's snapshots,
// and a backup read by its ID alone does not name its app), and what to do instead.
func notTheAppsRestorePoint(ctx context.Context, client *astra.Client, appID string, p restorePoint) string {
	head := fmt.Sprintf("%s_id = %q: app %s has no %s with this ID, and an app is restored in place only from its own "+
		"snapshots and backups.", p.kind, p.id, appID, p.kind)
	fix := fmt.Sprintf(" Set %s_id to one of app %s's %ss (the astra_app_%ss data source lists them).", p.kind, appID, p.kind, p.kind)
	owner := restorePointOwner(ctx, client, appID, p)
	if owner == nil {
		return head + fmt.Sprintf(" No other app has a %s with this ID either.", p.kind) + fix
	}
	return head + fmt.Sprintf(" It is a %s of app %q (%s).", p.kind, owner.Name, owner.ID) + fix +
		fmt.Sprintf(" To bring app %q's data here without touching it, clone it instead: an astra_app with "+
			"source = { app_id = %q, %s_id = %q }.", owner.Name, owner.ID, p.kind, p.id)
}

// restorePointOwner is the app (other than appID) that has the snapshot or backup p, nil
// when none is found.
func restorePointOwner(ctx context.Context, client *astra.Client, appID string, p restorePoint) *astra.App {
	if p.kind == "backup" {
		if _, err := client.GetAppBackupByID(ctx, p.id); err != nil {
			return nil // no backup of any app (or unreadable): no app to name
		}
	}
	apps, err := client.ListApps(ctx, astra.ListOptions{})
	if err != nil {
		return nil
	}
	for i := range apps {
		if apps[i].ID == appID {
			continue
		}
		var err error
		if p.kind == "backup" {
			_, err = client.GetAppBackup(ctx, apps[i].ID, p.id)
		} else {
			_, err = client.GetAppSnapshot(ctx, apps[i].ID, p.id)
		}
		if err == nil {
			return &apps[i]
		}
	}
	return nil
}

func (a *appRestoreAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m appRestoreActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	client := a.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	appID := m.AppID.ValueString()
	from := "snapshot " + m.SnapshotID.ValueString()
	if isSet(m.BackupID) {
		from = "backup " + m.BackupID.ValueString()
	}
	if isSet(m.Filter) {
		from += ", only what restore_filter selects"
	}
	p := &progress{send: resp.SendProgress}
	p.report(fmt.Sprintf("app %s: restoring in place from %s", appID, from))
	snapshotID, backupID := m.SnapshotID.ValueString(), m.BackupID.ValueString()
	filter := restoreFilterFrom(ctx, m.Filter, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	sent := time.Now()
	err := client.RestoreAppSelectively(ctx, appID, snapshotID, backupID, filter)
	switch {
	case astra.IsUnknownOutcome(err):
		// The client never sends a restore twice: the app says whether this one was applied.
		if !restoreApplied(ctx, client, appID, snapshotID, backupID, from, sent, err, &resp.Diagnostics) {
			return
		}
		p.report(fmt.Sprintf("app %s: the answer to the restore request was lost, and the app shows the restore from %s: "+
			"waiting for it", appID, from))
	case err != nil:
		addAPIError(&resp.Diagnostics, "Cannot restore the app", err, map[string]string{"snapshotID": "snapshot_id", "backupID": "backup_id"})
		return
	}
	onward := fmt.Sprintf("Watch app %s's state (the astra_apps data source) until it is ready.", appID)
	fetch := func(ctx context.Context) (*astra.App, error) { return client.GetApp(ctx, appID) }
	if _, ok := waitForAction(ctx, a.waitSchedule(), actionTimeout(m.Timeout, appRestoreTimeout), p, fetch,
		astra.AppReady, describeAppState, &resp.Diagnostics, "App not restored", onward); ok {
		p.report(fmt.Sprintf("app %s restored from %s: ready", appID, from))
	}
}

// describeAppState is an app's progress line.
func describeAppState(a *astra.App) string {
	return fmt.Sprintf("app %q (%s): %s", a.Name, a.ID, a.State)
}

// restoreApplied settles a restore whose answer was lost, from what the app shows: it was
// applied when the app is restoring (from this source, or naming none), or names this
// source as what it was restored from with a modification since the request was sent
// (the restore already ended). A slow server may still be acting on the request, so the
// app is read again for the client's request timeout before concluding. Otherwise it adds
// an error: the restore is never sent again, as a second one would overwrite the writes
// made since the first.
func restoreApplied(ctx context.Context, client *astra.Client, appID, snapshotID, backupID, from string, sent time.Time,
	err error, diags *diag.Diagnostics) bool {
	var last *astra.App
	lost := lostCreate[astra.App]{sent: sent, settle: client.RequestTimeout(), find: func(ctx context.Context) (*astra.App, error) {
		a, err := client.GetApp(ctx, appID)
		if err != nil {
			return nil, err
		}
		last = a
		if showsRestore(a, snapshotID, backupID, sent) {
			return a, nil
		}
		return nil, nil
	}}
	found, findErr := lost.search(ctx)
	lostWhat := fmt.Sprintf("The answer to the request that restores app %s from %s was lost (%v)", appID, from, err)
	never := "The action never sends a restore twice on its own: a second restore would overwrite the app again, " +
		"losing what was written in between."
	switch {
	case findErr != nil:
		diags.AddError("Restore outcome unknown", fmt.Sprintf("%s, and reading the app afterwards failed: %v. %s Check the "+
			"app (the astra_apps data source): restoring, or restored from %s, means the restore was applied.",
			lostWhat, findErr, never, from))
		return false
	case found == nil:
		seen := "unreadable"
		if last != nil {
			seen = last.State + ", " + restoredFromText(last)
		}
		diags.AddError("Restore not applied", fmt.Sprintf("%s, and in the %s that followed nothing showed that Astra "+
			"Control applied it: the app is %s. No restore from %s was started. %s Invoke the action again to restore.",
			lostWhat, lost.settle, seen, from, never))
		return false
	}
	return true
}

// showsRestore: app a shows the restore from snapshotID or backupID requested at sent.
func showsRestore(a *astra.App, snapshotID, backupID string, sent time.Time) bool {
	snap, backup := a.RestoredFrom()
	fromThis := (snapshotID != "" && snap == snapshotID) || (backupID != "" && backup == backupID)
	if strings.EqualFold(a.State, "restoring") {
		return fromThis || (snap == "" && backup == "")
	}
	modified, err := time.Parse(time.RFC3339Nano, a.Metadata.ModificationTimestamp)
	return fromThis && err == nil && !modified.Before(sent.Add(-adoptionClockSkew))
}

// restoredFromText says what an app names as its last restore's source.
func restoredFromText(a *astra.App) string {
	switch snap, backup := a.RestoredFrom(); {
	case snap != "":
		return "last restored from snapshot " + snap
	case backup != "":
		return "last restored from backup " + backup
	}
	return "naming no restore"
}
