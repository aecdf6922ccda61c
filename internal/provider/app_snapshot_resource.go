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
	_ resource.ResourceWithConfigure   = (*appSnapshotResource)(nil)
	_ resource.ResourceWithImportState = (*appSnapshotResource)(nil)
	_ resource.ResourceWithIdentity    = (*appSnapshotResource)(nil)
	_ knownanswers.AnswerReader        = (*appSnapshotResource)(nil)
	_ knownanswers.PlanChecker         = (*appSnapshotResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*appSnapshotResource)(nil)
)

// A snapshot lives under its app: its identity is { app_id, id } and it imports as
// "<app_id>/<id>".
type appSnapshotResource struct{ clientHolder }

// newAppSnapshotResource is astra_app_snapshot.
func newAppSnapshotResource() resource.Resource { return &appSnapshotResource{} }

func (r *appSnapshotResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_app_snapshot"
}

func (r *appSnapshotResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = appRunIdentitySchema("snapshot")
}

func (r *appSnapshotResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attributes := appSnapshotAttributes()
	attributes["timeouts"] = attrs.TimeoutsSchema(ctx, appSnapshotTimeouts)
	resp.Schema = schema.Schema{
		Version: appSnapshotSchemaVersion,
		MarkdownDescription: "One snapshot of an app, kept by name (`POST /k8s/v1/apps/{app_id}/appSnaps`): the snapshot " +
			"a configuration wants to keep, such as one taken before a migration. Create takes it, first waiting while " +
			"another snapshot or backup of the app is running, and waits until it is `completed`; a `failed` snapshot " +
			"fails the apply with the service's reasons and stays in state, tainted, so the next apply deletes it and " +
			"takes it again. A wait that ends early (`timeouts.create`, 30m by default, or an interrupt) warns and keeps " +
			"the snapshot, not tainted: the next apply keeps it once completed, waits for it while it runs, and " +
			"replaces it only if it failed. Nothing else is updated in place. Destroy deletes it and waits until it is gone. Retention by " +
			"count is the job of `astra_protection_policy`. Imports as `<app_id>/<id>`.",
		Attributes: attributes,
	}
}

// CheckPlan (the resource's ModifyPlan, see knownanswers.PlanChecker) checks a bucket_id
// the apply would send: it needs api_version 1.7 and a bucket Astra Control has.
func (r *appSnapshotResource) CheckPlan(ctx context.Context, req knownanswers.PlanRequest) diag.Diagnostics {
	return checkAppRunPlan(ctx, r.configuredClient(), req, "snapshot", "1.7")
}

// ModifyPlan runs the plan checks (knownanswers.PlanChecker): the resource has its own
// identity, so no identified wrapper runs them. A snapshot a create wait left in progress
// is planned as an update that waits for it, a failed one as a replacement (planAppRun).
func (r *appSnapshotResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.noteDestroy(ctx, req)
	planAppRun(ctx, r, req, resp)
}

func (r *appSnapshotResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, client, ok := fromPlan[appSnapshotModel](ctx, &r.clientHolder, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, ok := timeoutOf(ctx, plan.Timeouts, creating, appSnapshotTimeouts, &resp.Diagnostics)
	if !ok {
		return
	}
	appID := plan.AppID.ValueString()
	body := appSnapshotCreateRequest(plan.appSnapshotValues)
	calls := appSnapshotCalls(client, appID)
	calls.post = func(ctx context.Context) (*astra.AppSnapshot, error) {
		return client.CreateAppSnapshot(ctx, appID, body)
	}
	createAppRun(ctx, &r.clientHolder, client, timeout, body.Name, calls, func(s *astra.AppSnapshot) {
		r.record(ctx, &plan, appID, s, &resp.State, resp.Identity, resp.Private, &resp.Diagnostics)
	}, &resp.Diagnostics)
}

func (r *appSnapshotResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, client, ok := fromState[appSnapshotModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	appID, id := state.AppID.ValueString(), state.ID.ValueString()
	setPolicyIdentity(ctx, resp.Identity, appID, id, &resp.Diagnostics)
	if s := readAppRun(ctx, resp, id, appSnapshotCalls(client, appID)); s != nil {
		r.record(ctx, &state, appID, s, &resp.State, resp.Identity, resp.Private, &resp.Diagnostics)
	}
}

// Update waits for a snapshot a create wait left in progress; otherwise it changes only
// timeouts (every other argument replaces the snapshot) and sends nothing (updateAppRun).
func (r *appSnapshotResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	updateAppRun[appSnapshotModel](ctx, &r.clientHolder, req, resp, appSnapshotTimeouts, appSnapshotCalls,
		func(m *appSnapshotModel, appID string, run *astra.AppSnapshot) {
			r.record(ctx, m, appID, run, &resp.State, resp.Identity, resp.Private, &resp.Diagnostics)
		})
}

func (r *appSnapshotResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, client, ok := fromState[appSnapshotModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, ok := timeoutOf(ctx, state.Timeouts, deleting, appSnapshotTimeouts, &resp.Diagnostics)
	if !ok {
		return
	}
	appID, id := state.AppID.ValueString(), state.ID.ValueString()
	deleteAppRun(ctx, r.waitSchedule(), timeout, opDeleteSnapshot, "snapshot", id,
		func(ctx context.Context) error { return client.DeleteAppSnapshot(ctx, appID, id) },
		func(ctx context.Context) error { _, err := client.GetAppSnapshot(ctx, appID, id); return err },
		&resp.Diagnostics)
}

// ImportState takes "<app_id>/<id>", or an identity { app_id, id }.
func (r *appSnapshotResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importAppRun(ctx, r.configuredClient(), "astra_app_snapshot", "snapshot", func(ctx context.Context, c *astra.Client, appID, id string) error {
		_, err := c.GetAppSnapshot(ctx, appID, id)
		return err
	}, req, resp)
}

// record writes the service's answer to state (timeouts as m holds them), and the identity.
func (r *appSnapshotResource) record(ctx context.Context, m *appSnapshotModel, appID string, s *astra.AppSnapshot, state *tfsdk.State,
	identity *tfsdk.ResourceIdentity, private privateKeys, diags *diag.Diagnostics) {
	m.appSnapshotValues = appSnapshotFrom(appID, s)
	diags.Append(setState(ctx, state, m)...)
	setPolicyIdentity(ctx, identity, appID, s.ID, diags)
	knownanswers.RecordAnswer(ctx, private, s, *state, diags)
}

// ReadAnswer is the object Read converts (knownanswers.AnswerReader): the snapshot of the
// state's app, unless it is removed (Read forgets it).
func (r *appSnapshotResource) ReadAnswer(ctx context.Context, ids map[string]string) (any, bool) {
	return readWith(&r.clientHolder, func(c *astra.Client) (*astra.AppSnapshot, error) {
		return c.GetAppSnapshot(ctx, ids["app_id"], ids["id"])
	}, func(_ *astra.Client, s *astra.AppSnapshot) bool { return isRemoved(s.State) })
}

// appSnapshotCalls are the client's snapshot calls for the app (post is the create's own).
func appSnapshotCalls(client *astra.Client, appID string) appRunCalls[astra.AppSnapshot] {
	return appRunCalls[astra.AppSnapshot]{
		kind: "snapshot", existsProblem: problemSnapshotExists, postOp: opPostSnapshot, stamp: appSnapshotStamp, completed: astra.AppSnapshotCompleted,
		get: func(ctx context.Context, id string) (*astra.AppSnapshot, error) {
			return client.GetAppSnapshot(ctx, appID, id)
		},
		find: func(ctx context.Context, name string) (*astra.AppSnapshot, error) {
			return client.FindAppSnapshot(ctx, appID, name)
		},
		existing: func(ctx context.Context, name string) *existing { return existingAppSnapshot(ctx, client, appID, name) },
		id:       func(s *astra.AppSnapshot) string { return s.ID },
		state:    func(s *astra.AppSnapshot) string { return s.State },
	}
}

func appSnapshotStamp(s *astra.AppSnapshot) objectStamp {
	return objectStamp{Kind: "snapshot", ID: s.ID, Created: s.Metadata.CreationTimestamp}
}

// existingAppSnapshot is the snapshot a 409/176 refers to: the app's snapshot of that name.
func existingAppSnapshot(ctx context.Context, client *astra.Client, appID, name string) *existing {
	s, err := client.FindAppSnapshot(ctx, appID, name)
	if err != nil || s == nil {
		return nil
	}
	return &existing{what: fmt.Sprintf("the snapshot %q (state %s) of app %s", name, s.State, appID), id: appID + "/" + s.ID}
}
