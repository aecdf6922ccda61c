package provider

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

// recordPlanned writes, over the state an update has just set from the service's answer,
// every top-level value the plan knew. Terraform requires an apply to produce exactly the
// known planned values; a status that moved on its own between plan and apply (or through
// another resource in the same apply) then shows at the next refresh instead of failing
// the apply as an inconsistent result.
func recordPlanned(plan tfsdk.Plan, state *tfsdk.State) diag.Diagnostics {
	var diags diag.Diagnostics
	if plan.Raw.IsNull() || state.Raw.IsNull() {
		return diags
	}
	var planned, current map[string]tftypes.Value
	if err := plan.Raw.As(&planned); err != nil {
		diags.AddError("Cannot record the planned values", "Reading the plan failed: "+err.Error()+". This is a bug in the provider; please report it.")
		return diags
	}
	if err := state.Raw.As(&current); err != nil {
		diags.AddError("Cannot record the planned values", "Reading the new state failed: "+err.Error()+". This is a bug in the provider; please report it.")
		return diags
	}
	// A fresh map: As hands out the value's own, which the prior state or the plan may share.
	next := make(map[string]tftypes.Value, len(current))
	for name, v := range current {
		next[name] = v
	}
	for name, v := range planned {
		if v.IsFullyKnown() {
			next[name] = v
		}
	}
	state.Raw = tftypes.NewValue(state.Raw.Type(), next)
	return diags
}

// providerSideOnly reports whether an update changes none of putArgs, the arguments sent to
// Astra Control: then only provider-side arguments (wait_for_running, timeouts) changed,
// and the update records the plan without a request.
func providerSideOnly(ctx context.Context, req resource.UpdateRequest, diags *diag.Diagnostics, putArgs ...string) bool {
	changes, d := attrs.AnyMayChange(ctx, req.State, req.Plan, req.Config, putArgs...)
	diags.Append(d...)
	return !changes && !d.HasError()
}

// planForFreshCopy is the plan an update applies to the object it has just read: only what
// the plan changes. A put argument whose planned value equals its prior value becomes
// unknown, which the apply<Obj>Plan functions leave as the fresh copy has it. So whatever
// someone else wrote after the plan (a label, another bucket, a new name) stays on the
// object, the update's recordPlanned keeps the state the plan promised, and the next
// refresh shows the other writer's change as drift, where the user sees it; a concurrent
// write during the update itself is caught by astra.UpdateConditionally.
func planForFreshCopy(req resource.UpdateRequest, diags *diag.Diagnostics, putArgs ...string) tfsdk.Plan {
	var planned, prior map[string]tftypes.Value
	if req.Plan.Raw.As(&planned) != nil || req.State.Raw.As(&prior) != nil {
		diags.AddError("Cannot read the plan", "The plan or the state is not an object. This is a bug in the provider; please report it.")
		return req.Plan
	}
	planned = maps.Clone(planned) // As shares the value's own map: req.Plan must stay as it is
	for _, name := range putArgs {
		v, ok := planned[name]
		if !ok {
			diags.AddError("Cannot read the plan", "The plan has no attribute "+name+". This is a bug in the provider; please report it.")
			continue
		}
		if v.Equal(prior[name]) {
			planned[name] = tftypes.NewValue(v.Type(), tftypes.UnknownValue)
		}
	}
	out := req.Plan
	out.Raw = tftypes.NewValue(req.Plan.Raw.Type(), planned)
	return out
}
