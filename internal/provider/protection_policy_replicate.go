package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
)

// checkReplicatePlan: replicate = true only on an app that has a mirror (research notes
// §4.12: replicate does nothing without one), checked when the app is known and replicate
// turns on. An app whose mirror this same apply creates is unknown to the service yet: the
// check then passes when the app's ID is still unknown, and otherwise names the way out.
func checkReplicatePlan(ctx context.Context, client *astra.Client, req knownanswers.PlanRequest, plan protectionPolicyModel) diag.Diagnostics {
	var diags diag.Diagnostics
	if !plan.Replicate.ValueBool() || plan.AppID.IsUnknown() || plan.AppID.IsNull() {
		return diags
	}
	if !req.State.Raw.IsNull() {
		var prior types.Bool
		diags.Append(req.State.GetAttribute(ctx, path.Root("replicate"), &prior)...)
		if prior.ValueBool() {
			return diags
		}
	}
	appID := plan.AppID.ValueString()
	mirrors, err := client.ListAppMirrors(ctx, astra.ListOptions{})
	if err != nil {
		return diags // left to the service at apply
	}
	for i := range mirrors {
		if mirrors[i].Involves(appID) && !mirrorGone(&mirrors[i]) {
			return diags
		}
	}
	diags.AddAttributeError(path.Root("replicate"), "No mirror to replicate to",
		fmt.Sprintf("App %s has no astra_app_mirror, so replicate = true would replicate nothing. Create the app's "+
			"astra_app_mirror first (when both are in this configuration, add depends_on = [astra_app_mirror.<name>] "+
			"to this policy), or set replicate = false.", appID))
	return diags
}
