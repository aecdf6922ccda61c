package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
)

// The cluster API cannot unset some arguments: a PUT without credentialID, privateRouteID
// or connectorCapabilities keeps the old value, and accHost has no "false". Removing one of
// them (after it was set) therefore replaces the cluster instead of planning an update that
// could not happen.

const removalReplaces = "Removing it once set forces a new resource: the API cannot unset it."

// removedReplaces is appended to the description of each argument these modifiers guard.
const removedReplaces = " " + removalReplaces

func replaceWhenStringRemoved() planmodifier.String {
	return stringplanmodifier.RequiresReplaceIf(func(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = isSet(req.StateValue) && req.PlanValue.IsNull()
	}, removalReplaces, removalReplaces)
}

func replaceWhenSetEmptied() planmodifier.Set {
	return setplanmodifier.RequiresReplaceIf(func(_ context.Context, req planmodifier.SetRequest, resp *setplanmodifier.RequiresReplaceIfFuncResponse) {
		hadValues := isSet(req.StateValue) && len(req.StateValue.Elements()) > 0
		emptied := req.PlanValue.IsNull() || (!req.PlanValue.IsUnknown() && len(req.PlanValue.Elements()) == 0)
		resp.RequiresReplace = hadValues && emptied
	}, removalReplaces, removalReplaces)
}

func replaceWhenTrueRemoved() planmodifier.Bool {
	return boolplanmodifier.RequiresReplaceIf(func(_ context.Context, req planmodifier.BoolRequest, resp *boolplanmodifier.RequiresReplaceIfFuncResponse) {
		wasTrue := isSet(req.StateValue) && req.StateValue.ValueBool()
		resp.RequiresReplace = wasTrue && (req.PlanValue.IsNull() || (!req.PlanValue.IsUnknown() && !req.PlanValue.ValueBool()))
	}, removalReplaces, removalReplaces)
}
