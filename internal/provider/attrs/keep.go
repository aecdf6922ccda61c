package attrs

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// KeepUnlessChanged is the plan modifier of an attribute whose value only the named
// arguments can change (none: it never changes once created). On an update that changes
// none of them, the attribute keeps its prior value in the plan instead of showing
// "(known after apply)"; an Optional+Computed argument left out of the configuration keeps
// the service's value, so it never plans a change. One value serves every attribute type.
func KeepUnlessChanged(args ...string) Keep {
	sorted := append([]string(nil), args...)
	sort.Strings(sorted)
	return Keep{args: sorted}
}

// Keep is KeepUnlessChanged's modifier; it implements the plan modifier interface of every
// attribute type the provider uses.
type Keep struct{ args []string }

var (
	_ planmodifier.String = Keep{}
	_ planmodifier.Bool   = Keep{}
	_ planmodifier.Int64  = Keep{}
	_ planmodifier.List   = Keep{}
	_ planmodifier.Set    = Keep{}
	_ planmodifier.Map    = Keep{}
	_ planmodifier.Object = Keep{}
)

// IdleUnlessUnknown: Keep acts only with a prior state and an unknown planned value, so the
// known answers (internal/knownanswers.IdleModifier) plan creates and unchanged objects
// without it.
func (Keep) IdleUnlessUnknown() {}

func (k Keep) Description(ctx context.Context) string { return k.MarkdownDescription(ctx) }

func (k Keep) MarkdownDescription(context.Context) string {
	if len(k.args) == 0 {
		return "Keeps its value on every update."
	}
	return "Keeps its value on an update unless " + strings.Join(k.args, ", ") + " changes."
}

// keep is the rule of every type: true when the plan should take the prior value, that is
// when there is one, the plan leaves the attribute unknown only because it is computed, and
// none of the arguments that drive it can change.
func (k Keep) keep(ctx context.Context, state tfsdk.State, plan tfsdk.Plan, config tfsdk.Config, planValue, configValue attr.Value) (bool, diag.Diagnostics) {
	// Create (no prior state), a known plan (set in configuration or by a default), or an
	// unknown configuration value (a reference resolved at apply) leave the plan as it is.
	if state.Raw.IsNull() || !planValue.IsUnknown() || configValue.IsUnknown() {
		return false, nil
	}
	changes, diags := AnyMayChange(ctx, state, plan, config, k.args...)
	return !changes && !diags.HasError(), diags
}

// AnyMayChange is false when none of the named arguments can change in the plan
// (MayChange), so values that only they drive keep their prior value.
func AnyMayChange(ctx context.Context, state tfsdk.State, plan tfsdk.Plan, config tfsdk.Config, names ...string) (bool, diag.Diagnostics) {
	for _, name := range names {
		changes, diags := MayChange(ctx, state, plan, config, name)
		if diags.HasError() || changes {
			return true, diags
		}
	}
	return false, nil
}

// MayChange reports whether the plan can change the top-level argument name: its planned
// value differs from the prior one or is not known yet. An Optional+Computed argument left
// out of the configuration keeps its prior value (KeepUnlessChanged), so it does not change.
func MayChange(_ context.Context, state tfsdk.State, plan tfsdk.Plan, config tfsdk.Config, name string) (bool, diag.Diagnostics) {
	p := tftypes.NewAttributePath().WithAttributeName(name)
	planned, err := valueAt(plan.Raw, p)
	if err != nil {
		return true, errDiag(name, err)
	}
	prior, err := valueAt(state.Raw, p)
	if err != nil {
		return true, errDiag(name, err)
	}
	if planned.IsFullyKnown() {
		return !planned.Equal(prior), nil
	}
	configured, err := valueAt(config.Raw, p)
	if err != nil {
		return true, errDiag(name, err)
	}
	return !configured.IsNull(), nil
}

func valueAt(raw tftypes.Value, p *tftypes.AttributePath) (tftypes.Value, error) {
	v, _, err := tftypes.WalkAttributePath(raw, p)
	if err != nil {
		return tftypes.Value{}, err
	}
	tv, ok := v.(tftypes.Value)
	if !ok {
		return tftypes.Value{}, fmt.Errorf("%s is not a value", p)
	}
	return tv, nil
}

func errDiag(name string, err error) diag.Diagnostics {
	var d diag.Diagnostics
	d.AddAttributeError(path.Root(name), "Cannot plan "+name, "Reading "+name+" to plan the update failed: "+err.Error()+
		". This is a bug in the provider; please report it.")
	return d
}

func (k Keep) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	ok, d := k.keep(ctx, req.State, req.Plan, req.Config, req.PlanValue, req.ConfigValue)
	resp.Diagnostics.Append(d...)
	if ok {
		resp.PlanValue = req.StateValue
	}
}

func (k Keep) PlanModifyBool(ctx context.Context, req planmodifier.BoolRequest, resp *planmodifier.BoolResponse) {
	ok, d := k.keep(ctx, req.State, req.Plan, req.Config, req.PlanValue, req.ConfigValue)
	resp.Diagnostics.Append(d...)
	if ok {
		resp.PlanValue = req.StateValue
	}
}

func (k Keep) PlanModifyInt64(ctx context.Context, req planmodifier.Int64Request, resp *planmodifier.Int64Response) {
	ok, d := k.keep(ctx, req.State, req.Plan, req.Config, req.PlanValue, req.ConfigValue)
	resp.Diagnostics.Append(d...)
	if ok {
		resp.PlanValue = req.StateValue
	}
}

func (k Keep) PlanModifyList(ctx context.Context, req planmodifier.ListRequest, resp *planmodifier.ListResponse) {
	ok, d := k.keep(ctx, req.State, req.Plan, req.Config, req.PlanValue, req.ConfigValue)
	resp.Diagnostics.Append(d...)
	if ok {
		resp.PlanValue = req.StateValue
	}
}

func (k Keep) PlanModifySet(ctx context.Context, req planmodifier.SetRequest, resp *planmodifier.SetResponse) {
	ok, d := k.keep(ctx, req.State, req.Plan, req.Config, req.PlanValue, req.ConfigValue)
	resp.Diagnostics.Append(d...)
	if ok {
		resp.PlanValue = req.StateValue
	}
}

func (k Keep) PlanModifyMap(ctx context.Context, req planmodifier.MapRequest, resp *planmodifier.MapResponse) {
	ok, d := k.keep(ctx, req.State, req.Plan, req.Config, req.PlanValue, req.ConfigValue)
	resp.Diagnostics.Append(d...)
	if ok {
		resp.PlanValue = req.StateValue
	}
}

func (k Keep) PlanModifyObject(ctx context.Context, req planmodifier.ObjectRequest, resp *planmodifier.ObjectResponse) {
	ok, d := k.keep(ctx, req.State, req.Plan, req.Config, req.PlanValue, req.ConfigValue)
	resp.Diagnostics.Append(d...)
	if ok {
		resp.PlanValue = req.StateValue
	}
}

// Kept returns the computed attribute a with KeepUnlessChanged(args...) added to its plan
// modifiers, so schema builders can say once, per attribute, what can change it.
func Kept(a schema.Attribute, args ...string) schema.Attribute {
	k := KeepUnlessChanged(args...)
	switch v := a.(type) {
	case schema.StringAttribute:
		v.PlanModifiers = append(v.PlanModifiers, k)
		return v
	case schema.BoolAttribute:
		v.PlanModifiers = append(v.PlanModifiers, k)
		return v
	case schema.Int64Attribute:
		v.PlanModifiers = append(v.PlanModifiers, k)
		return v
	case schema.ListAttribute:
		v.PlanModifiers = append(v.PlanModifiers, k)
		return v
	case schema.SetAttribute:
		v.PlanModifiers = append(v.PlanModifiers, k)
		return v
	case schema.MapAttribute:
		v.PlanModifiers = append(v.PlanModifiers, k)
		return v
	case schema.ListNestedAttribute:
		v.PlanModifiers = append(v.PlanModifiers, k)
		return v
	case schema.SetNestedAttribute:
		v.PlanModifiers = append(v.PlanModifiers, k)
		return v
	case schema.ObjectAttribute:
		v.PlanModifiers = append(v.PlanModifiers, k)
		return v
	case schema.SingleNestedAttribute:
		v.PlanModifiers = append(v.PlanModifiers, k)
		return v
	default:
		// Every schema test fails loudly rather than an attribute silently planning unknown.
		panic(fmt.Sprintf("attrs.Kept: unsupported attribute type %T", a))
	}
}
