package provider

import (
	"context"
	"fmt"
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
	_ resource.ResourceWithConfigure      = (*executionHookResource)(nil)
	_ resource.ResourceWithImportState    = (*executionHookResource)(nil)
	_ resource.ResourceWithValidateConfig = (*executionHookResource)(nil)
	_ knownanswers.PlanChecker            = (*executionHookResource)(nil)
	_ knownanswers.AnswerReader           = (*executionHookResource)(nil)
)

type executionHookResource struct{ clientHolder }

// newExecutionHookResource is astra_execution_hook.
func newExecutionHookResource() resource.Resource { return &executionHookResource{} }

func (r *executionHookResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_execution_hook"
}

func (r *executionHookResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: executionHookSchemaVersion,
		MarkdownDescription: "When Astra Control runs a script (an `astra_hook_source`) in an app's containers " +
			"(`POST /k8s/v1/apps/{app_id}/executionHooks`): before or after its snapshots, backups, restores or " +
			"failovers, in the containers `matching_criteria` select. A hook that fails does not fail the operation: " +
			"the snapshot or backup completes with `hookState` `failed` and the hook named in its `hookStateDetails`. " +
			"Every argument but `app_id` is updated in place with one request. A regular expression that does not compile, " +
			"a `pre` restore or failover hook and a failover hook before release 23.07 are plan-time errors. NetApp's " +
			"own hooks and per-snapshot overrides (`executionHookOverrides`) are not managed. Imports by ID.",
		Attributes: executionHookAttributes(),
	}
}

// ValidateConfig applies the rules that need no service.
func (r *executionHookResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m executionHookModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	for _, p := range executionHookProblems(m.Action, m.Stage, m.MatchingCriteria) {
		resp.Diagnostics.AddAttributeError(p.at, p.summary, p.detail)
	}
}

// CheckPlan (knownanswers.PlanChecker) refuses a failover hook the provider's api_version
// cannot express, and, when hook_source_id is known and changes, a hook source the account
// does not have.
func (r *executionHookResource) CheckPlan(ctx context.Context, req knownanswers.PlanRequest) diag.Diagnostics {
	var diags diag.Diagnostics
	client := r.configuredClient()
	if client == nil {
		return nil
	}
	var plan executionHookModel
	diags.Append(planGet(ctx, req.Plan, &plan)...)
	if diags.HasError() {
		return diags
	}
	if known(plan.Action) {
		if detail := failoverProblem(plan.Action.ValueString(), client.ClusterVersion()); detail != "" {
			diags.AddAttributeError(path.Root("action"), "Failover hooks need Astra Control 23.07", detail)
		}
	}
	if !isSet(plan.HookSourceID) {
		return diags
	}
	if !req.State.Raw.IsNull() {
		var prior types.String
		diags.Append(req.State.GetAttribute(ctx, path.Root("hook_source_id"), &prior)...)
		if prior.Equal(plan.HookSourceID) {
			return diags
		}
	}
	if _, err := client.GetHookSource(ctx, plan.HookSourceID.ValueString()); astra.IsNotFound(err) {
		diags.AddAttributeError(path.Root("hook_source_id"), "Unknown hook source",
			"Astra Control has no hook source with ID \""+plan.HookSourceID.ValueString()+"\". Set hook_source_id to an "+
				"astra_hook_source's id (the astra_hook_sources data source lists them).")
	}
	return diags
}

func (r *executionHookResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, client, ok := fromPlan[executionHookModel](ctx, &r.clientHolder, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	// Values unknown at plan time are known now: check them again.
	for _, p := range executionHookProblems(plan.Action, plan.Stage, plan.MatchingCriteria) {
		resp.Diagnostics.AddAttributeError(p.at, p.summary, p.detail)
	}
	if detail := failoverProblem(plan.Action.ValueString(), client.ClusterVersion()); detail != "" {
		resp.Diagnostics.AddAttributeError(path.Root("action"), "Failover hooks need Astra Control 23.07", detail)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	body := executionHookRequest(plan)
	sent := time.Now()
	h, err := client.CreateExecutionHook(ctx, body)
	if nameRefused(err) {
		if found := executionHookNamed(ctx, client, body.AppID, body.Name); found != nil {
			addExists(&resp.Diagnostics, "Execution hook already exists", "astra_execution_hook",
				&existing{what: fmt.Sprintf("the execution hook %q (app %s)", found.Name, found.AppID), id: found.ID}, "", err)
			return
		}
	}
	h = createdOrAdopted(ctx, &resp.Diagnostics, "execution hook "+body.Name, "Cannot create the execution hook",
		executionHookAPIFields, h, err,
		lostCreate[astra.ExecutionHook]{sent: sent, claims: r.claims(), stamp: executionHookStamp, settle: client.RequestTimeout(),
			find: func(ctx context.Context) (*astra.ExecutionHook, error) {
				return client.FindExecutionHook(ctx, body.AppID, body.Name)
			}})
	if h == nil {
		return
	}
	r.record(ctx, plan, readBackHook(ctx, client, h), &resp.State, resp.Private, &resp.Diagnostics)
}

// readBackHook is the created hook as a GET answers it: a POST answer has no
// matchingContainers (NetApp's captured answers), only a GET says which containers the hook
// matches. If the GET fails the POST answer is kept (the hook exists; a refresh reads them).
func readBackHook(ctx context.Context, client *astra.Client, h *astra.ExecutionHook) *astra.ExecutionHook {
	if got, err := client.GetExecutionHook(ctx, h.ID); err == nil && got != nil {
		return got
	}
	return h
}

func (r *executionHookResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, client, ok := fromState[executionHookModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	id := state.ID.ValueString()
	h := readOrForget(ctx, resp, "astra_execution_hook", id, "the execution hook",
		func() (*astra.ExecutionHook, error) { return client.GetExecutionHook(ctx, id) }, nil)
	if h == nil {
		return
	}
	r.record(ctx, state, h, &resp.State, resp.Private, &resp.Diagnostics)
}

// Update is one PUT of the hook as just read with what the plan changes
// (astra.UpdateConditionally), then a read.
func (r *executionHookResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, client, ok := fromPlan[executionHookModel](ctx, &r.clientHolder, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	if detail := failoverProblem(plan.Action.ValueString(), client.ClusterVersion()); detail != "" {
		resp.Diagnostics.AddAttributeError(path.Root("action"), "Failover hooks need Astra Control 23.07", detail)
		return
	}
	inPlace(ctx, req, resp, executionHookPutArgs, func(change executionHookModel) bool {
		id := plan.ID.ValueString()
		h := updateFromFreshCopy(ctx, &resp.Diagnostics, client, "execution hook", id, executionHookAPIFields,
			func(ctx context.Context) (*astra.ExecutionHook, error) { return client.GetExecutionHook(ctx, id) },
			func(h *astra.ExecutionHook) { applyExecutionHookPlan(h, change) },
			client.UpdateExecutionHook)
		if h == nil {
			return false
		}
		r.record(ctx, plan, h, &resp.State, resp.Private, &resp.Diagnostics)
		return true
	})
}

func (r *executionHookResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, client, ok := fromState[executionHookModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	if err := client.DeleteExecutionHook(ctx, state.ID.ValueString()); err != nil && !astra.IsNotFound(err) {
		addAPIError(&resp.Diagnostics, "Cannot delete the execution hook", err, nil)
	}
}

func (r *executionHookResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// record writes the service's answer to state; how empty lists read comes from prior.
func (r *executionHookResource) record(ctx context.Context, prior executionHookModel, h *astra.ExecutionHook, state *tfsdk.State,
	private privateKeys, diags *diag.Diagnostics) {
	diags.Append(setState(ctx, state, executionHookFrom(h, prior))...)
	knownanswers.RecordAnswer(ctx, private, h, *state, diags)
}

// ReadAnswer is the object Read converts (knownanswers.AnswerReader).
func (r *executionHookResource) ReadAnswer(ctx context.Context, ids map[string]string) (any, bool) {
	return readWith(&r.clientHolder, func(c *astra.Client) (*astra.ExecutionHook, error) {
		return c.GetExecutionHook(ctx, ids["id"])
	}, nil)
}

// executionHookNamed is the hook named name that refused a create: the app's own first
// (NetApp's captured answers show names unique per app), else any app's (the schema's prose
// says unique across all hooks); nil if none or the listing fails.
func executionHookNamed(ctx context.Context, client *astra.Client, appID, name string) *astra.ExecutionHook {
	hooks, err := client.ListExecutionHooks(ctx, astra.ListOptions{})
	if err != nil {
		return nil
	}
	var other *astra.ExecutionHook
	for i := range hooks {
		switch {
		case hooks[i].Name != name:
		case hooks[i].AppID == appID:
			return &hooks[i]
		case other == nil:
			other = &hooks[i]
		}
	}
	return other
}

func executionHookStamp(h *astra.ExecutionHook) objectStamp {
	return objectStamp{Kind: "execution hook", ID: h.ID, Created: h.Metadata.CreationTimestamp}
}
