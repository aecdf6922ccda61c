package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

// The skeleton of a resource's CRUD methods, written once: the lines each one begins with
// (the model read, the client, the operation's timeout) and what an in-place update does
// around its write. An object's file says only what is its own.

// fromPlan reads the plan into a model M and hands out the client: how a Create or an
// Update begins. ok is false when it added an error.
func fromPlan[M any](ctx context.Context, h *clientHolder, plan tfsdk.Plan, diags *diag.Diagnostics) (m M, client *astra.Client, ok bool) {
	diags.Append(planGet(ctx, plan, &m)...)
	client = h.client(diags)
	return m, client, !diags.HasError()
}

// fromState reads the state into a model M and hands out the client: how a Read or a
// Delete begins. ok is false when it added an error.
func fromState[M any](ctx context.Context, h *clientHolder, state tfsdk.State, diags *diag.Diagnostics) (m M, client *astra.Client, ok bool) {
	diags.Append(stateGet(ctx, state, &m)...)
	client = h.client(diags)
	return m, client, !diags.HasError()
}

// operation names the timeout an operation takes from a resource's `timeouts`.
type operation int

const (
	creating operation = iota
	updating
	deleting
)

// timeoutOf is how long op may take: the resource's `timeouts` value for it, else the
// default. ok is false when the value is not a duration (an error added).
func timeoutOf(ctx context.Context, t timeouts.Value, op operation, defaults attrs.TimeoutDefaults, diags *diag.Diagnostics) (time.Duration, bool) {
	var d time.Duration
	var problems diag.Diagnostics
	switch op {
	case creating:
		d, problems = t.Create(ctx, defaults.Create)
	case updating:
		d, problems = t.Update(ctx, defaults.Update)
	default:
		d, problems = t.Delete(ctx, defaults.Delete)
	}
	diags.Append(problems...)
	return d, !diags.HasError()
}

// inPlace is an in-place update around its write: when only provider-side arguments change
// (none of putArgs) nothing is sent and the plan is recorded; otherwise write gets the
// change, the plan with only what it changes known (planForFreshCopy), and the planned
// values are recorded over the state write set. write returns false when it added an error.
func inPlace[M any](ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse, putArgs []string, write func(change M) bool) {
	var change M
	inPlaceInto(ctx, req, resp, putArgs, &change, func() bool { return write(change) })
}

// inPlaceInto is inPlace's work, once for every model type (see searchSettling): change
// points to the model the plan is read into, and write sends it.
func inPlaceInto(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse, putArgs []string, change any, write func() bool) {
	if providerSideOnly(ctx, req, &resp.Diagnostics, putArgs...) {
		resp.State.Raw = req.State.Raw
		resp.Diagnostics.Append(recordPlanned(req.Plan, &resp.State)...)
		return
	}
	resp.Diagnostics.Append(planForFreshCopy(req, &resp.Diagnostics, putArgs...).Get(ctx, change)...)
	if resp.Diagnostics.HasError() || !write() {
		return
	}
	resp.Diagnostics.Append(recordPlanned(req.Plan, &resp.State)...)
}
