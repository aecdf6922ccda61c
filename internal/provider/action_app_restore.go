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
			"you write for it. Terraform 1.14 or later; OpenTofu has no actions.",
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
			"timeout": actionTimeoutAttribute("the app to be ready again", appRestoreTimeout),
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
	var state, name string
	var err error
	switch {
	case isSet(m.SnapshotID):
		var s *astra.AppSnapshot
		if s, err = client.GetAppSnapshot(ctx, appID, m.SnapshotID.ValueString()); err == nil {
			state, name = s.State, "snapshot "+s.Name
		}
		a.checkRestorePoint(&resp.Diagnostics, path.Root("snapshot_id"), appID, name, state, err)
	case isSet(m.BackupID):
		var b *astra.AppBackup
		if b, err = client.GetAppBackup(ctx, appID, m.BackupID.ValueString()); err == nil {
			state, name = b.State, "backup "+b.Name
		}
		a.checkRestorePoint(&resp.Diagnostics, path.Root("backup_id"), appID, name, state, err)
	}
}

// checkRestorePoint adds the plan-time error of a snapshot or backup the app cannot be
// restored from: not the app's (a 404 under the app's path), or not completed.
func (a *appRestoreAction) checkRestorePoint(diags *diag.Diagnostics, at path.Path, appID, name, state string, err error) {
	switch {
	case astra.IsNotFound(err):
		diags.AddAttributeError(at, "Nothing to restore from",
			fmt.Sprintf("App %s has no snapshot or backup with this ID (an app is restored in place only from its own). "+
				"To bring another app's data here, clone it instead (astra_app with source).", appID))
	case err != nil:
		return // the service checks at invocation
	case !strings.EqualFold(state, "completed"):
		diags.AddAttributeError(at, "Not completed",
			fmt.Sprintf("The %s of app %s is %s: only a completed one can be restored from.", name, appID, state))
	}
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
	p := &progress{send: resp.SendProgress}
	p.report(fmt.Sprintf("app %s: restoring in place from %s", appID, from))
	if err := client.RestoreApp(ctx, appID, m.SnapshotID.ValueString(), m.BackupID.ValueString()); err != nil {
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
