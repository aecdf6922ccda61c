package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// planChecker is a resource whose whole ModifyPlan is checkPlan: it reports problems and
// never changes the plan. identified.ModifyPlan calls checkPlan, and so do the known
// answers (known_plans.go) on the plan they computed, so a check added to a resource
// applies to both at once. A resource with its own ModifyPlan instead can change the plan
// in ways the known answers cannot see: they refuse it (planRuleFor).
type planChecker interface {
	checkPlan(ctx context.Context, req resource.ModifyPlanRequest) diag.Diagnostics
}

// planChecksOnly marks a resource whose own ModifyPlan is modifyPlan, its checkPlan and
// nothing else: one identifiedByID does not wrap (it has an identity of its own) and so
// has no identified.ModifyPlan to run its checks. The known answers take its plans as
// those of a planChecker.
type planChecksOnly interface {
	resource.ResourceWithModifyPlan
	planChecker
	planChecksOnly()
}

// modifyPlan is identified.ModifyPlan for a resource with plan checks: nothing to check on
// a destroy.
func modifyPlan(ctx context.Context, r resource.Resource, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if checker, ok := r.(planChecker); ok && !req.Plan.Raw.IsNull() {
		resp.Diagnostics.Append(checker.checkPlan(ctx, req)...)
	}
}
