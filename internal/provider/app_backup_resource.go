package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

var (
	_ resource.ResourceWithConfigure   = (*appBackupResource)(nil)
	_ resource.ResourceWithImportState = (*appBackupResource)(nil)
	_ resource.ResourceWithIdentity    = (*appBackupResource)(nil)
	_ knownanswers.AnswerReader        = (*appBackupResource)(nil)
	_ knownanswers.PlanChecker         = (*appBackupResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*appBackupResource)(nil)
)

// A backup lives under its app: its identity is { app_id, id } and it imports as
// "<app_id>/<id>".
type appBackupResource struct{ clientHolder }

// newAppBackupResource is astra_app_backup.
func newAppBackupResource() resource.Resource { return &appBackupResource{} }

func (r *appBackupResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_app_backup"
}

func (r *appBackupResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = appRunIdentitySchema("backup")
}

func (r *appBackupResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attributes := appBackupAttributes()
	attributes["timeouts"] = attrs.TimeoutsSchema(ctx, appBackupTimeouts)
	resp.Schema = schema.Schema{
		Version: appBackupSchemaVersion,
		MarkdownDescription: "One backup of an app into a bucket, kept by name (`POST /k8s/v1/apps/{app_id}/appBackups`): " +
			"the backup a configuration wants to keep, such as one taken before a release, optionally from an " +
			"`astra_app_snapshot`. Create takes it, first waiting while another backup (or snapshot) of the app is " +
			"running, and waits until it is `completed`; a `failed` backup fails the apply with the service's reasons " +
			"and stays in state, tainted, so the next apply deletes it and takes it again. A wait that ends early " +
			"(`timeouts.create`, 2h by default, or an interrupt) warns and keeps the backup, not tainted: the next apply " +
			"keeps it once completed, waits for it while it runs, and replaces it only if it failed. Nothing else is " +
			"updated in place. " +
			"Destroy deletes it (a failed backup with the `Force-Delete` header Astra Control requires for one) and " +
			"waits until it is gone. A completed backup under a week old, with an enabled policy that takes backups, " +
			"is what makes the app's `protection_state` `protected`. Retention by count is the job of " +
			"`astra_protection_policy`. Imports as `<app_id>/<id>`.",
		Attributes: attributes,
	}
}

// CheckPlan (the resource's ModifyPlan, see knownanswers.PlanChecker) checks a bucket_id
// the apply would send: the bucket must be one Astra Control has.
func (r *appBackupResource) CheckPlan(ctx context.Context, req knownanswers.PlanRequest) diag.Diagnostics {
	return checkAppRunPlan(ctx, r.configuredClient(), req, "backup", "")
}

// ModifyPlan runs the plan checks (knownanswers.PlanChecker): the resource has its own
// identity, so no identified wrapper runs them. A backup a create wait left in progress
// is planned as an update that waits for it, a failed one as a replacement (planAppRun).
func (r *appBackupResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.noteDestroy(ctx, req)
	planAppRun(ctx, r, req, resp)
}

func (r *appBackupResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, client, ok := fromPlan[appBackupModel](ctx, &r.clientHolder, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, ok := timeoutOf(ctx, plan.Timeouts, creating, appBackupTimeouts, &resp.Diagnostics)
	if !ok {
		return
	}
	appID := plan.AppID.ValueString()
	body := appBackupCreateRequest(plan.appBackupValues)
	calls := appBackupCalls(client, appID)
	calls.post = func(ctx context.Context) (*astra.AppBackup, error) { return client.CreateAppBackup(ctx, appID, body) }
	createAppRun(ctx, &r.clientHolder, client, timeout, body.Name, calls, func(b *astra.AppBackup) {
		r.record(ctx, &plan, appID, b, &resp.State, resp.Identity, resp.Private, &resp.Diagnostics)
	}, &resp.Diagnostics)
}

func (r *appBackupResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, client, ok := fromState[appBackupModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	appID, id := state.AppID.ValueString(), state.ID.ValueString()
	setPolicyIdentity(ctx, resp.Identity, appID, id, &resp.Diagnostics)
	if b := readAppRun(ctx, resp, id, appBackupCalls(client, appID)); b != nil {
		r.record(ctx, &state, appID, b, &resp.State, resp.Identity, resp.Private, &resp.Diagnostics)
	}
}

// Update waits for a backup a create wait left in progress; otherwise it changes only
// timeouts (every other argument replaces the backup) and sends nothing (updateAppRun).
func (r *appBackupResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	updateAppRun[appBackupModel](ctx, &r.clientHolder, req, resp, appBackupTimeouts, appBackupCalls,
		func(m *appBackupModel, appID string, run *astra.AppBackup) {
			r.record(ctx, m, appID, run, &resp.State, resp.Identity, resp.Private, &resp.Diagnostics)
		})
}

// Delete deletes the backup; one still running is cancelled by the service (ACC "Cancel
// backups"), one pending is asked again until it runs or is gone. A failed backup may go
// only with Force-Delete: it is sent when state says the backup failed, and once more when
// the service refuses a backup it now reports failed (problem 142, or 128, the one the
// 24.02 spec lists for this DELETE: refusalReadBackup).
func (r *appBackupResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, client, ok := fromState[appBackupModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, ok := timeoutOf(ctx, state.Timeouts, deleting, appBackupTimeouts, &resp.Diagnostics)
	if !ok {
		return
	}
	appID, id := state.AppID.ValueString(), state.ID.ValueString()
	force := isFailed(state.State.ValueString())
	deleteAppRun(ctx, r.waitSchedule(), timeout, opDeleteBackup, "backup", id,
		func(ctx context.Context) error { return deleteAppBackupOnce(ctx, client, appID, id, &force) },
		func(ctx context.Context) error { _, err := client.GetAppBackup(ctx, appID, id); return err },
		&resp.Diagnostics)
}

// deleteAppBackupOnce sends the backup's DELETE, with Force-Delete when *force. A refusal
// that may mean the header is wanted (refusalReadBackup: 142, or 128 as the spec lists)
// reads the backup: a failed one is deleted again with the header, which *force keeps for
// the next attempts; otherwise the refusal is returned (a pending backup: asked again).
func deleteAppBackupOnce(ctx context.Context, client *astra.Client, appID, id string, force *bool) error {
	err := client.DeleteAppBackup(ctx, appID, id, *force)
	if *force || refusalOf(opDeleteBackup, err) != refusalReadBackup {
		return err
	}
	if b, getErr := client.GetAppBackup(ctx, appID, id); getErr == nil && isFailed(b.State) {
		*force = true
		return client.DeleteAppBackup(ctx, appID, id, true)
	}
	return err
}

// ImportState takes "<app_id>/<id>", or an identity { app_id, id }.
func (r *appBackupResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importAppRun(ctx, r.configuredClient(), "astra_app_backup", "backup", func(ctx context.Context, c *astra.Client, appID, id string) error {
		_, err := c.GetAppBackup(ctx, appID, id)
		return err
	}, req, resp)
}

// record writes the service's answer to state (timeouts as m holds them), and the identity.
func (r *appBackupResource) record(ctx context.Context, m *appBackupModel, appID string, b *astra.AppBackup, state *tfsdk.State,
	identity *tfsdk.ResourceIdentity, private privateKeys, diags *diag.Diagnostics) {
	planned := m.SnapshotID
	m.appBackupValues = appBackupFrom(appID, b)
	if b.SnapshotID == "" && !planned.IsNull() && !planned.IsUnknown() {
		m.SnapshotID = planned // a POST answer names no snapshotID (NetApp's captured answers)
	}
	diags.Append(setState(ctx, state, m)...)
	setPolicyIdentity(ctx, identity, appID, b.ID, diags)
	knownanswers.RecordAnswer(ctx, private, b, *state, diags)
}

// ReadAnswer is the object Read converts (knownanswers.AnswerReader): the backup of the
// state's app, unless it is removed (Read forgets it).
func (r *appBackupResource) ReadAnswer(ctx context.Context, ids map[string]string) (any, bool) {
	return readWith(&r.clientHolder, func(c *astra.Client) (*astra.AppBackup, error) {
		return c.GetAppBackup(ctx, ids["app_id"], ids["id"])
	}, func(_ *astra.Client, b *astra.AppBackup) bool { return isRemoved(b.State) })
}

// appBackupCalls are the client's backup calls for the app (post is the create's own).
func appBackupCalls(client *astra.Client, appID string) appRunCalls[astra.AppBackup] {
	return appRunCalls[astra.AppBackup]{
		kind: "backup", existsProblem: problemBackupExists, postOp: opPostBackup, stamp: appBackupStamp, completed: astra.AppBackupCompleted,
		get: func(ctx context.Context, id string) (*astra.AppBackup, error) {
			return client.GetAppBackup(ctx, appID, id)
		},
		find: func(ctx context.Context, name string) (*astra.AppBackup, error) {
			return client.FindAppBackup(ctx, appID, name)
		},
		existing: func(ctx context.Context, name string) *existing { return existingAppBackup(ctx, client, appID, name) },
		id:       func(b *astra.AppBackup) string { return b.ID },
		state:    func(b *astra.AppBackup) string { return b.State },
	}
}

func appBackupStamp(b *astra.AppBackup) objectStamp {
	return objectStamp{Kind: "backup", ID: b.ID, Created: b.Metadata.CreationTimestamp}
}

// existingAppBackup is the backup a 409/143 refers to: the app's backup of that name.
func existingAppBackup(ctx context.Context, client *astra.Client, appID, name string) *existing {
	b, err := client.FindAppBackup(ctx, appID, name)
	if err != nil || b == nil {
		return nil
	}
	return &existing{what: fmt.Sprintf("the backup %q (state %s) of app %s", name, b.State, appID), id: appID + "/" + b.ID}
}
