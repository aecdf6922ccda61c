package provider

import (
	"bytes"
	"context"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/defaults"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// planRule is what the plans of one resource type answered without the framework need.
type planRule struct {
	typ, identityType tftypes.Type
	// defaults are the top-level attributes with a default: a configuration leaving one out
	// plans the default.
	defaults map[string]tftypes.Value
	// computed are the top-level computed attributes without a default: left out of a
	// create's configuration, they are unknown until the apply.
	computed map[string]bool
	// quiet reports that the resource's ModifyPlan would add nothing (prior nil on create).
	quiet func(config, prior map[string]tftypes.Value) bool
}

// knownPlan is the framework's answer to an unchanged plan or a create's plan, or nil when
// the request is anything else.
func (s *knownAnswers) knownPlan(req *tfprotov6.PlanResourceChangeRequest) *tfprotov6.PlanResourceChangeResponse {
	rule, ok := s.plans[req.TypeName]
	if !ok || req.PriorState == nil || req.ProposedNewState == nil || req.Config == nil {
		return nil
	}
	prior, err := req.PriorState.Unmarshal(rule.typ)
	if err != nil {
		return nil
	}
	if prior.IsNull() {
		return rule.createPlan(req)
	}
	return rule.unchangedPlan(req, prior)
}

// unchangedPlan: a plan proposing the prior state plans it, with the prior private state
// and identity and nothing to replace, unless a default changes a value.
func (rule planRule) unchangedPlan(req *tfprotov6.PlanResourceChangeRequest, prior tftypes.Value) *tfprotov6.PlanResourceChangeResponse {
	if req.PriorIdentity == nil || !prior.IsFullyKnown() || !bytes.Equal(req.PriorState.MsgPack, req.ProposedNewState.MsgPack) {
		return nil
	}
	var attributes map[string]tftypes.Value
	if prior.As(&attributes) != nil {
		return nil
	}
	for name, def := range rule.defaults {
		if !attributes[name].Equal(def) {
			return nil
		}
	}
	// Proposing the prior state, the configuration holds each argument as it is or leaves
	// it to its prior value, so the prior arguments are the configured ones.
	if !rule.quiet(attributes, attributes) {
		return nil
	}
	resp := &tfprotov6.PlanResourceChangeResponse{PlannedState: req.PriorState, PlannedIdentity: req.PriorIdentity}
	if len(req.PriorPrivate) > 0 {
		resp.PlannedPrivate = req.PriorPrivate
	}
	return resp
}

// createPlan: a create plans the configuration with defaults for what it leaves out and
// the other computed attributes unknown; no plan modifier of a rule's resource acts on a
// create.
func (rule planRule) createPlan(req *tfprotov6.PlanResourceChangeRequest) *tfprotov6.PlanResourceChangeResponse {
	proposed, err := req.ProposedNewState.Unmarshal(rule.typ)
	if err != nil || proposed.IsNull() {
		return nil
	}
	config, err := req.Config.Unmarshal(rule.typ)
	if err != nil || config.IsNull() {
		return nil
	}
	var planned, configured map[string]tftypes.Value
	if proposed.As(&planned) != nil || config.As(&configured) != nil || !rule.quiet(configured, nil) {
		return nil
	}
	out := make(map[string]tftypes.Value, len(planned))
	for name, v := range planned {
		out[name] = v
		if !configured[name].IsNull() {
			continue
		}
		if def, ok := rule.defaults[name]; ok {
			out[name] = def
		} else if rule.computed[name] {
			out[name] = tftypes.NewValue(v.Type(), tftypes.UnknownValue)
		}
	}
	state, err := tfprotov6.NewDynamicValue(rule.typ, tftypes.NewValue(rule.typ, out))
	if err != nil {
		return nil
	}
	identity := req.PriorIdentity
	if identity == nil {
		empty, err := tfprotov6.NewDynamicValue(rule.identityType, tftypes.NewValue(rule.identityType, nil))
		if err != nil {
			return nil
		}
		identity = &tfprotov6.ResourceIdentityData{IdentityData: &empty}
	}
	return &tfprotov6.PlanResourceChangeResponse{PlannedState: &state, PlannedIdentity: identity}
}

// planRuleFor derives a rule from r's schema; false when the schema has what the rule does
// not handle: a default it cannot read, or one nested in an attribute, or a computed
// attribute nested in one a configuration sets.
func planRuleFor(r resource.Resource, quiet func(config, prior map[string]tftypes.Value) bool) (planRule, bool) {
	ctx := context.Background()
	var resp resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &resp)
	rule := planRule{typ: resp.Schema.Type().TerraformType(ctx), identityType: identitySchema().Type().TerraformType(ctx),
		defaults: map[string]tftypes.Value{}, computed: map[string]bool{}, quiet: quiet}
	for name, a := range resp.Schema.Attributes {
		if nested, ok := a.(schema.NestedAttribute); ok {
			settable := a.IsOptional() || a.IsRequired()
			for _, inner := range nested.GetNestedObject().GetAttributes() {
				if anyNested(inner, func(x any) bool { return hasDefault(x) || (settable && isComputed(x)) }) {
					return planRule{}, false
				}
			}
		}
		def, ok := topLevelDefault(ctx, a)
		switch {
		case !ok:
			return planRule{}, false
		case def != nil:
			rule.defaults[name] = *def
		case a.IsComputed():
			rule.computed[name] = true
		}
	}
	return rule, true
}

// topLevelDefault is a's default as a value (nil without one); false for a default of a
// kind it does not read.
func topLevelDefault(ctx context.Context, a schema.Attribute) (*tftypes.Value, bool) {
	switch a := a.(type) {
	case schema.BoolAttribute:
		if a.Default == nil {
			return nil, true
		}
		var resp defaults.BoolResponse
		a.Default.DefaultBool(ctx, defaults.BoolRequest{}, &resp)
		v, err := resp.PlanValue.ToTerraformValue(ctx)
		return &v, err == nil && !resp.Diagnostics.HasError()
	case schema.StringAttribute:
		if a.Default == nil {
			return nil, true
		}
		var resp defaults.StringResponse
		a.Default.DefaultString(ctx, defaults.StringRequest{}, &resp)
		v, err := resp.PlanValue.ToTerraformValue(ctx)
		return &v, err == nil && !resp.Diagnostics.HasError()
	}
	return nil, !hasDefault(a)
}

// hasDefault reads the Default field every framework attribute type has; an attribute it
// cannot read counts as having one.
func hasDefault(a any) bool {
	v := reflect.ValueOf(a)
	if v.Kind() != reflect.Struct {
		return true
	}
	f := v.FieldByName("Default")
	return f.IsValid() && !f.IsZero()
}

func isComputed(a any) bool {
	c, ok := a.(interface{ IsComputed() bool })
	return !ok || c.IsComputed()
}

// anyNested: test holds for a or an attribute nested in it.
func anyNested(a any, test func(any) bool) bool {
	if test(a) {
		return true
	}
	if nested, ok := a.(schema.NestedAttribute); ok {
		for _, inner := range nested.GetNestedObject().GetAttributes() {
			if anyNested(inner, test) {
				return true
			}
		}
	}
	return false
}
