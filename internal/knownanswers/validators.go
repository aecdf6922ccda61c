package knownanswers

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// An attribute's validators, called as the framework's AttributeValidate<Kind> calls them:
// the value converted to the kind's base value (a custom type through its Valuable), then
// each validator with a fresh response.

// checkedValue is what the framework hands an attribute's validators.
type checkedValue struct {
	config       tfsdk.Config
	value        attr.Value
	path         path.Path
	expression   path.Expression
	capabilities validator.ValidateSchemaClientCapabilities
}

// passes: every validator of a reports nothing on the value, which converts. The cases
// are the framework's, in its order; an attribute holds the validators of one kind.
func (c checkedValue) passes(ctx context.Context, a any) bool {
	switch a := a.(type) {
	case interface{ BoolValidators() []validator.Bool }:
		v, ok := base(ctx, c.value, basetypes.BoolValuable.ToBoolValue)
		req := validator.BoolRequest{ClientCapabilities: c.capabilities, Config: c.config, ConfigValue: v, Path: c.path, PathExpression: c.expression}
		return ok && silent(a.BoolValidators(), func(x validator.Bool, resp *validator.BoolResponse) diag.Diagnostics {
			x.ValidateBool(ctx, req, resp)
			return resp.Diagnostics
		})
	case interface{ Float32Validators() []validator.Float32 }:
		v, ok := base(ctx, c.value, basetypes.Float32Valuable.ToFloat32Value)
		req := validator.Float32Request{ClientCapabilities: c.capabilities, Config: c.config, ConfigValue: v, Path: c.path, PathExpression: c.expression}
		return ok && silent(a.Float32Validators(), func(x validator.Float32, resp *validator.Float32Response) diag.Diagnostics {
			x.ValidateFloat32(ctx, req, resp)
			return resp.Diagnostics
		})
	case interface{ Float64Validators() []validator.Float64 }:
		v, ok := base(ctx, c.value, basetypes.Float64Valuable.ToFloat64Value)
		req := validator.Float64Request{ClientCapabilities: c.capabilities, Config: c.config, ConfigValue: v, Path: c.path, PathExpression: c.expression}
		return ok && silent(a.Float64Validators(), func(x validator.Float64, resp *validator.Float64Response) diag.Diagnostics {
			x.ValidateFloat64(ctx, req, resp)
			return resp.Diagnostics
		})
	case interface{ Int32Validators() []validator.Int32 }:
		v, ok := base(ctx, c.value, basetypes.Int32Valuable.ToInt32Value)
		req := validator.Int32Request{ClientCapabilities: c.capabilities, Config: c.config, ConfigValue: v, Path: c.path, PathExpression: c.expression}
		return ok && silent(a.Int32Validators(), func(x validator.Int32, resp *validator.Int32Response) diag.Diagnostics {
			x.ValidateInt32(ctx, req, resp)
			return resp.Diagnostics
		})
	case interface{ Int64Validators() []validator.Int64 }:
		v, ok := base(ctx, c.value, basetypes.Int64Valuable.ToInt64Value)
		req := validator.Int64Request{ClientCapabilities: c.capabilities, Config: c.config, ConfigValue: v, Path: c.path, PathExpression: c.expression}
		return ok && silent(a.Int64Validators(), func(x validator.Int64, resp *validator.Int64Response) diag.Diagnostics {
			x.ValidateInt64(ctx, req, resp)
			return resp.Diagnostics
		})
	case interface{ ListValidators() []validator.List }:
		v, ok := base(ctx, c.value, basetypes.ListValuable.ToListValue)
		req := validator.ListRequest{ClientCapabilities: c.capabilities, Config: c.config, ConfigValue: v, Path: c.path, PathExpression: c.expression}
		return ok && silent(a.ListValidators(), func(x validator.List, resp *validator.ListResponse) diag.Diagnostics {
			x.ValidateList(ctx, req, resp)
			return resp.Diagnostics
		})
	case interface{ MapValidators() []validator.Map }:
		v, ok := base(ctx, c.value, basetypes.MapValuable.ToMapValue)
		req := validator.MapRequest{ClientCapabilities: c.capabilities, Config: c.config, ConfigValue: v, Path: c.path, PathExpression: c.expression}
		return ok && silent(a.MapValidators(), func(x validator.Map, resp *validator.MapResponse) diag.Diagnostics {
			x.ValidateMap(ctx, req, resp)
			return resp.Diagnostics
		})
	case interface{ NumberValidators() []validator.Number }:
		v, ok := base(ctx, c.value, basetypes.NumberValuable.ToNumberValue)
		req := validator.NumberRequest{ClientCapabilities: c.capabilities, Config: c.config, ConfigValue: v, Path: c.path, PathExpression: c.expression}
		return ok && silent(a.NumberValidators(), func(x validator.Number, resp *validator.NumberResponse) diag.Diagnostics {
			x.ValidateNumber(ctx, req, resp)
			return resp.Diagnostics
		})
	case interface{ ObjectValidators() []validator.Object }:
		v, ok := base(ctx, c.value, basetypes.ObjectValuable.ToObjectValue)
		req := validator.ObjectRequest{ClientCapabilities: c.capabilities, Config: c.config, ConfigValue: v, Path: c.path, PathExpression: c.expression}
		return ok && silent(a.ObjectValidators(), func(x validator.Object, resp *validator.ObjectResponse) diag.Diagnostics {
			x.ValidateObject(ctx, req, resp)
			return resp.Diagnostics
		})
	case interface{ SetValidators() []validator.Set }:
		v, ok := base(ctx, c.value, basetypes.SetValuable.ToSetValue)
		req := validator.SetRequest{ClientCapabilities: c.capabilities, Config: c.config, ConfigValue: v, Path: c.path, PathExpression: c.expression}
		return ok && silent(a.SetValidators(), func(x validator.Set, resp *validator.SetResponse) diag.Diagnostics {
			x.ValidateSet(ctx, req, resp)
			return resp.Diagnostics
		})
	case interface{ StringValidators() []validator.String }:
		v, ok := base(ctx, c.value, basetypes.StringValuable.ToStringValue)
		req := validator.StringRequest{ClientCapabilities: c.capabilities, Config: c.config, ConfigValue: v, Path: c.path, PathExpression: c.expression}
		return ok && silent(a.StringValidators(), func(x validator.String, resp *validator.StringResponse) diag.Diagnostics {
			x.ValidateString(ctx, req, resp)
			return resp.Diagnostics
		})
	}
	return false // a kind the framework validates in ways not modelled here (dynamic)
}

// base is value as the kind's base value, through the Valuable interface the framework
// asserts; false where the framework reports (not that kind, or the conversion speaks).
func base[Valuable any, V any](ctx context.Context, value attr.Value, to func(Valuable, context.Context) (V, diag.Diagnostics)) (V, bool) {
	var zero V
	valuable, ok := value.(Valuable)
	if !ok {
		return zero, false
	}
	v, diags := to(valuable, ctx)
	return v, len(diags) == 0
}

// silent: each validator, called with a fresh response, reports nothing.
func silent[V any, Resp any](validators []V, call func(V, *Resp) diag.Diagnostics) bool {
	for _, v := range validators {
		var resp Resp
		if len(call(v, &resp)) > 0 {
			return false
		}
	}
	return true
}

// nestedConverts: a null or unknown nested attribute converts to the collection its
// nesting holds, which the framework asserts before finding nothing to walk into.
func nestedConverts(ctx context.Context, value attr.Value) bool {
	typ := value.Type(ctx).TerraformType(ctx)
	var ok bool
	switch {
	case typ.Is(tftypes.List{}):
		_, ok = base(ctx, value, basetypes.ListValuable.ToListValue)
	case typ.Is(tftypes.Set{}):
		_, ok = base(ctx, value, basetypes.SetValuable.ToSetValue)
	case typ.Is(tftypes.Map{}):
		_, ok = base(ctx, value, basetypes.MapValuable.ToMapValue)
	case typ.Is(tftypes.Object{}):
		_, ok = base(ctx, value, basetypes.ObjectValuable.ToObjectValue)
	}
	return ok
}
