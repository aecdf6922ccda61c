package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
)

var _ knownanswers.PlanChecker = (*cloudResource)(nil)

// ModifyPlan warns when the plan replaces a cloud that still holds clusters: deleting a
// cloud deletes its unmanaged clusters on the service side, which the plan does not show.
// One read lists them; only a replacement pays it.
//
// It is the cloud's CheckPlan (knownanswers.PlanChecker): the known answers call it too,
// and hand any plan it warns about to the framework.
func (r *cloudResource) CheckPlan(ctx context.Context, req knownanswers.PlanRequest) diag.Diagnostics {
	resp := &resource.ModifyPlanResponse{}
	r.warnReplacement(ctx, req, resp)
	return resp.Diagnostics
}

func (r *cloudResource) warnReplacement(ctx context.Context, req knownanswers.PlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || req.State.Raw.IsNull() {
		return
	}
	var plan, prior cloudModel
	resp.Diagnostics.Append(planGet(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(stateGet(ctx, req.State, &prior)...)
	client := r.configuredClient()
	if resp.Diagnostics.HasError() || client == nil {
		return
	}
	var because path.Path
	switch {
	case plan.Name.IsUnknown() || !plan.Name.Equal(prior.Name):
		because = path.Root("name")
	case plan.CloudType.IsUnknown() || !strings.EqualFold(plan.CloudType.ValueString(), prior.CloudType.ValueString()):
		because = path.Root("cloud_type")
	default:
		return
	}
	id := prior.ID.ValueString()
	clusters, err := client.ListClusters(ctx, id, astra.ListOptions{})
	if err != nil || len(clusters) == 0 {
		return // nothing to lose, or the apply reports a failing service
	}
	names := make([]string, len(clusters))
	for i, c := range clusters {
		names[i] = fmt.Sprintf("%q (%s, managedState %s)", c.Name, c.ID, c.ManagedState)
	}
	resp.Diagnostics.AddAttributeWarning(because, "Replacing the cloud removes its clusters",
		fmt.Sprintf("Changing %s replaces the cloud %q (%s): the apply deletes it and creates a new one, and Astra Control "+
			"deletes the unmanaged clusters of a cloud with it (and refuses while any is managed). It holds %d: %s.\n\n"+
			"To keep them, set %s back to %q. To move them, plan their replacement in the new cloud "+
			"(astra_cluster's cloud_id) before the old cloud goes.",
			because, prior.Name.ValueString(), id, len(clusters), strings.Join(names, ", "), because, priorValue(prior, because)))
}

// priorValue is the state's value of the attribute whose change replaces the cloud.
func priorValue(prior cloudModel, attr path.Path) string {
	if attr.Equal(path.Root("cloud_type")) {
		return prior.CloudType.ValueString()
	}
	return prior.Name.ValueString()
}
