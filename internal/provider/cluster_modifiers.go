package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
)

// The cluster API cannot unset connectorCapabilities (a PUT of [] keeps them) and has no
// accHost "false". These arguments are Optional+Computed, so leaving them out keeps the
// service's value; only an explicit empty set or false, which no PUT can apply, replaces
// the cluster instead of planning an update that could not happen.

const unsetReplaces = "A value the API cannot apply in place (no capabilities, or acc_host false once true) forces a new resource: the API cannot unset it."

// replaceWhenSetEmptied runs after the keep modifier, so a left-out set is the prior one here.
func replaceWhenSetEmptied() planmodifier.Set {
	return setplanmodifier.RequiresReplaceIf(func(_ context.Context, req planmodifier.SetRequest, resp *setplanmodifier.RequiresReplaceIfFuncResponse) {
		hadValues := isSet(req.StateValue) && len(req.StateValue.Elements()) > 0
		emptied := req.PlanValue.IsNull() || (!req.PlanValue.IsUnknown() && len(req.PlanValue.Elements()) == 0)
		resp.RequiresReplace = hadValues && emptied
	}, unsetReplaces, unsetReplaces)
}

// replaceWhenTrueRemoved runs after the keep modifier, so a left-out acc_host is the prior one here.
func replaceWhenTrueRemoved() planmodifier.Bool {
	return boolplanmodifier.RequiresReplaceIf(func(_ context.Context, req planmodifier.BoolRequest, resp *boolplanmodifier.RequiresReplaceIfFuncResponse) {
		wasTrue := isSet(req.StateValue) && req.StateValue.ValueBool()
		resp.RequiresReplace = wasTrue && (req.PlanValue.IsNull() || (!req.PlanValue.IsUnknown() && !req.PlanValue.ValueBool()))
	}, unsetReplaces, unsetReplaces)
}
