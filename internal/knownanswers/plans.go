package knownanswers

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"reflect"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/defaults"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The framework plans a resource in steps (fwserver.PlanResourceChange): defaults where
// the configuration is null, write-only attributes null, then, unless the plan equals the
// prior state, computed attributes the configuration leaves null unknown, then every
// attribute's plan modifiers, then the resource's ModifyPlan. For the two plans answered
// here each step has a known result when the schema is one planRuleFor accepts:
//   - a create (prior state null): the known plan modifiers do nothing without a prior
//     state, and ModifyPlan is the resource's CheckPlan, called on the plan computed here;
//   - an unchanged plan (the plan after defaults equals the fully known prior state): no
//     value is marked unknown, the known plan modifiers do nothing when the planned value
//     is known and equal to the prior one, and CheckPlan is called as on a create.
// Any diagnostic from CheckPlan, even a warning, sends the request to the framework.

// knownRule is what the known answers of one resource type need from its schema.
type knownRule struct {
	factory           func() resource.Resource
	schema            schema.Schema
	typ, identityType tftypes.Type // identityType nil without an identity
	// reads: the resource converts one object fetched by its identity (AnswerReader), whose
	// attributes are string attributes of its state, so a read can be answered.
	reads bool
	// defaults are the top-level attributes with a default: a configuration leaving one out
	// plans the default.
	defaults map[string]tftypes.Value
	// computed are the top-level computed attributes without a default: left out of a
	// create's configuration, they are unknown until the apply.
	computed map[string]bool
	// writeOnly are the top-level write-only attributes: always null in a plan.
	writeOnly map[string]bool
}

// identityInState: every attribute of the identity is a string attribute of the schema, so
// the identity can be built from a state.
func identityInState(identityType tftypes.Type, s schema.Schema) bool {
	identity, ok := identityType.(tftypes.Object)
	if !ok || len(identity.AttributeTypes) == 0 {
		return false
	}
	for name, typ := range identity.AttributeTypes {
		a, found := s.Attributes[name]
		if !found || !typ.Is(tftypes.String) || !a.GetType().TerraformType(context.Background()).Is(tftypes.String) {
			return false
		}
	}
	return true
}

// knownModifiers are the framework's plan modifiers whose effect on the two plans answered
// is known: none. UseStateForUnknown acts only with a prior state and an unknown planned
// value; RequiresReplace and RequiresReplaceIf (the same type, whatever its function) only
// with a prior state and a planned value that differs from it. A provider's own modifier
// that does nothing in those plans says so (IdleModifier). Any other modifier makes
// planRuleFor refuse the schema.
var knownModifiers = func() map[reflect.Type]string {
	known := map[reflect.Type]string{}
	for _, m := range []any{
		stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace(),
		boolplanmodifier.UseStateForUnknown(), boolplanmodifier.RequiresReplace(),
		int64planmodifier.UseStateForUnknown(), int64planmodifier.RequiresReplace(),
		listplanmodifier.UseStateForUnknown(), listplanmodifier.RequiresReplace(),
		setplanmodifier.UseStateForUnknown(), setplanmodifier.RequiresReplace(),
		mapplanmodifier.UseStateForUnknown(), mapplanmodifier.RequiresReplace(),
		objectplanmodifier.UseStateForUnknown(), objectplanmodifier.RequiresReplace(),
	} {
		known[reflect.TypeOf(m)] = fmt.Sprintf("%T", m)
	}
	return known
}()

// planRuleFor derives the rule of r from its schema, or says why the known answers cannot
// answer for it exactly (then the framework answers every request of the type).
func planRuleFor(r resource.Resource) (*knownRule, error) {
	ctx := context.Background()
	inner := unwrapped(r)
	_, checks := inner.(PlanChecker)
	_, checksDestroy := inner.(DestroyChecker)
	_, ownModifyPlan := inner.(resource.ResourceWithModifyPlan)
	_, modifyPlan := r.(resource.ResourceWithModifyPlan)
	switch {
	case ownModifyPlan && !checks && !checksDestroy:
		return nil, fmt.Errorf("it has its own ModifyPlan, which may change a plan; give it CheckPlan (PlanChecker) instead")
	case checks && !modifyPlan:
		return nil, fmt.Errorf("its CheckPlan never runs under the framework: give it a ModifyPlan that calls knownanswers.ModifyPlan")
	}
	resp, err := schemaOf(r)
	if err != nil {
		return nil, err
	}
	if len(resp.Schema.Blocks) > 0 {
		return nil, fmt.Errorf("it has blocks (%s), whose null and empty forms the framework plans its own way",
			strings.Join(sortedKeys(resp.Schema.Blocks), ", "))
	}
	rule := &knownRule{schema: resp.Schema, typ: resp.Schema.Type().TerraformType(ctx),
		defaults: map[string]tftypes.Value{}, computed: map[string]bool{}, writeOnly: map[string]bool{}}
	if withIdentity, ok := r.(resource.ResourceWithIdentity); ok {
		var id resource.IdentitySchemaResponse
		withIdentity.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &id)
		rule.identityType = id.IdentitySchema.Type().TerraformType(ctx)
	}
	_, reads := inner.(AnswerReader)
	rule.reads = reads && identityInState(rule.identityType, resp.Schema)
	for _, name := range sortedKeys(resp.Schema.Attributes) {
		a := resp.Schema.Attributes[name]
		if err := checkAttribute(a, false, a.IsOptional() || a.IsRequired()); err != nil {
			return nil, fmt.Errorf("attribute %s: %w", name, err)
		}
		def, err := topLevelDefault(ctx, a)
		switch {
		case err != nil:
			return nil, fmt.Errorf("attribute %s: %w", name, err)
		case def != nil:
			rule.defaults[name] = *def
		case a.IsComputed():
			rule.computed[name] = true
		}
		if a.IsWriteOnly() {
			rule.writeOnly[name] = true
		}
	}
	return rule, nil
}

// schemaOf is r's schema; an error if it reports any.
func schemaOf(r resource.Resource) (resource.SchemaResponse, error) {
	var resp resource.SchemaResponse
	r.Schema(context.Background(), resource.SchemaRequest{}, &resp)
	if resp.Diagnostics.HasError() {
		return resp, fmt.Errorf("its schema reports errors")
	}
	return resp, nil
}

// checkAttribute refuses what the rule does not model in a (nested tells whether a is
// inside another attribute, settable whether a configuration can set that one).
func checkAttribute(a schema.Attribute, nested, settable bool) error {
	switch a.(type) {
	case schema.StringAttribute, schema.BoolAttribute, schema.Int64Attribute, schema.Int32Attribute,
		schema.Float64Attribute, schema.Float32Attribute, schema.NumberAttribute, schema.ListAttribute,
		schema.SetAttribute, schema.MapAttribute, schema.ObjectAttribute, schema.SingleNestedAttribute,
		schema.ListNestedAttribute, schema.SetNestedAttribute, schema.MapNestedAttribute:
	default:
		return fmt.Errorf("its kind (%T) is not one the known answers model", a)
	}
	if err := checkModifiers(a); err != nil {
		return err
	}
	if nested {
		switch {
		case a.IsWriteOnly():
			return fmt.Errorf("a nested write-only attribute: the framework plans it null inside its parent")
		case hasDefault(a):
			return fmt.Errorf("a nested default: the framework applies it inside a configured parent")
		case settable && a.IsComputed():
			return fmt.Errorf("a computed attribute nested in one a configuration sets: the framework plans it unknown inside the configured value")
		}
	}
	if n, ok := a.(schema.NestedAttribute); ok {
		if err := checkModifiers(n.GetNestedObject()); err != nil {
			return err
		}
		inner := n.GetNestedObject().GetAttributes()
		for _, name := range sortedKeys(inner) {
			child, ok := inner[name].(schema.Attribute)
			if !ok {
				return fmt.Errorf("%s: not a resource attribute", name)
			}
			if err := checkAttribute(child, true, settable); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
	}
	return nil
}

// checkModifiers refuses a plan modifier outside knownModifiers: what it does to a plan is
// not known here.
func checkModifiers(x any) error {
	v := reflect.ValueOf(x)
	if v.Kind() != reflect.Struct {
		return fmt.Errorf("cannot read its plan modifiers (%T)", x)
	}
	mods := v.FieldByName("PlanModifiers")
	if !mods.IsValid() {
		return nil
	}
	for i := 0; i < mods.Len(); i++ {
		m := mods.Index(i).Elem()
		if !m.IsValid() {
			continue
		}
		_, idle := m.Interface().(IdleModifier)
		if _, ok := knownModifiers[m.Type()]; !ok && !idle {
			return fmt.Errorf("plan modifier %s is not one the known answers model", m.Type())
		}
	}
	return nil
}

// topLevelDefault is a's default as a value (nil without one); an error for a default of a
// kind it does not read.
func topLevelDefault(ctx context.Context, a schema.Attribute) (*tftypes.Value, error) {
	var v tftypes.Value
	var err error
	switch a := a.(type) {
	case schema.BoolAttribute:
		if a.Default == nil {
			return nil, nil
		}
		var resp defaults.BoolResponse
		a.Default.DefaultBool(ctx, defaults.BoolRequest{}, &resp)
		if resp.Diagnostics.HasError() {
			return nil, fmt.Errorf("its default reports errors")
		}
		v, err = resp.PlanValue.ToTerraformValue(ctx)
	case schema.StringAttribute:
		if a.Default == nil {
			return nil, nil
		}
		var resp defaults.StringResponse
		a.Default.DefaultString(ctx, defaults.StringRequest{}, &resp)
		if resp.Diagnostics.HasError() {
			return nil, fmt.Errorf("its default reports errors")
		}
		v, err = resp.PlanValue.ToTerraformValue(ctx)
	case schema.Int64Attribute:
		if a.Default == nil {
			return nil, nil
		}
		var resp defaults.Int64Response
		a.Default.DefaultInt64(ctx, defaults.Int64Request{}, &resp)
		if resp.Diagnostics.HasError() {
			return nil, fmt.Errorf("its default reports errors")
		}
		v, err = resp.PlanValue.ToTerraformValue(ctx)
	default:
		if hasDefault(a) {
			return nil, fmt.Errorf("a default of a kind (%T) the known answers do not read", a)
		}
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &v, nil
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

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// knownPlan is the framework's answer to an unchanged plan or a create's plan, or nil when
// the request is anything else or a check has something to say.
func (s *server) knownPlan(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) *tfprotov6.PlanResourceChangeResponse {
	rule, ok := s.planRule(req.TypeName)
	if !ok || s.defers() ||
		req.PriorState == nil || req.ProposedNewState == nil || req.Config == nil {
		return nil
	}
	prior, err1 := decodeValue(req.PriorState, rule.typ)
	proposed, err2 := prior, err1
	proposedIsPrior := sameMsgPack(req.PriorState, req.ProposedNewState)
	if !proposedIsPrior { // the same bytes decode alike: a steady plan decodes them once
		proposed, err2 = decodeValue(req.ProposedNewState, rule.typ)
	}
	config, err3 := decodeValue(req.Config, rule.typ)
	if err1 != nil || err2 != nil || err3 != nil || proposed.IsNull() || config.IsNull() {
		return nil
	}
	identity, ok := rule.plannedIdentity(req.PriorIdentity)
	if !ok {
		return nil
	}
	private, kept, ok := canonicalPrivate(req.PriorPrivate)
	if !ok {
		return nil
	}
	priorKeys := priorPrivate(kept)
	if priorKeys == nil {
		priorKeys = priorPrivate{}
	}
	var planned, configured map[string]tftypes.Value
	if proposed.As(&planned) != nil || config.As(&configured) != nil {
		return nil
	}
	planned = maps.Clone(planned) // As hands out the value's own map, which prior may be
	create := prior.IsNull()
	var set []string // the attributes given another value than proposed's
	for name, v := range planned {
		switch def, hasDefault := rule.defaults[name]; {
		case rule.writeOnly[name]:
			planned[name] = tftypes.NewValue(v.Type(), nil)
		case !configured[name].IsNull():
			continue
		case hasDefault:
			planned[name] = def
		case create && rule.computed[name]:
			planned[name] = tftypes.NewValue(v.Type(), tftypes.UnknownValue)
		default:
			continue
		}
		set = append(set, name)
	}
	plan := tftypes.NewValue(rule.typ, planned)
	if !create && (!prior.IsFullyKnown() || !plannedIsPrior(plan, prior, proposedIsPrior, set)) {
		return nil // an update: the framework plans it
	}
	r := s.configured(ctx, rule)
	if checker, ok := r.(PlanChecker); ok {
		diags := checker.CheckPlan(ctx, PlanRequest{
			Config: tfsdk.Config{Schema: rule.schema, Raw: config},
			State:  tfsdk.State{Schema: rule.schema, Raw: prior},
			Plan:   tfsdk.Plan{Schema: rule.schema, Raw: plan},
			// The framework's ModifyPlan has the prior private state, whose keys some
			// checks read (the kubeconfig credential's last API server): so has this.
			Private:   priorKeys,
			Unchanged: !create,
		})
		if len(diags) > 0 {
			return nil
		}
	} else if r == nil {
		return nil
	}
	state := req.PriorState
	if create {
		encoded, err := tfprotov6.NewDynamicValue(rule.typ, plan)
		if err != nil {
			return nil
		}
		state = &encoded
	}
	return &tfprotov6.PlanResourceChangeResponse{PlannedState: state, PlannedIdentity: identity, PlannedPrivate: private}
}

// plannedIsPrior is plan.Equal(prior). When proposed is prior (the same bytes), plan is
// prior but for the attributes in set, so only those are compared: Equal walks the whole
// object, allocating a path per value, and was a twentieth of a fleet plan's allocations.
func plannedIsPrior(plan, prior tftypes.Value, proposedIsPrior bool, set []string) bool {
	if !proposedIsPrior {
		return plan.Equal(prior)
	}
	var planned, before map[string]tftypes.Value
	if plan.As(&planned) != nil || prior.As(&before) != nil {
		return plan.Equal(prior)
	}
	for _, name := range set {
		if !planned[name].Equal(before[name]) {
			return false
		}
	}
	return true
}

// sameMsgPack: a and b are the same msgpack bytes (the CLI encodes a plan's values alike).
func sameMsgPack(a, b *tfprotov6.DynamicValue) bool {
	return a.MsgPack != nil && a.JSON == nil && b.JSON == nil && bytes.Equal(a.MsgPack, b.MsgPack)
}

// priorPrivate is the provider's part of a prior private state, read from the protocol's
// bytes, as the framework's ModifyPlan request holds it.
type priorPrivate map[string][]byte

// GetKey answers as the framework's private state does: nothing for a key it lacks, an
// error for a key of the framework's own.
func (p priorPrivate) GetKey(_ context.Context, key string) ([]byte, diag.Diagnostics) {
	if strings.HasPrefix(key, ".") {
		return nil, diag.Diagnostics{diag.NewErrorDiagnostic("Restricted Resource Private State Namespace",
			"Using a period ('.') as a prefix for a key used in private state is not allowed.\n\n"+
				fmt.Sprintf("The key %q is invalid. Please check the key you are supplying does not use a a period ('.') as a prefix.", key))}
	}
	return p[key], nil
}

// plannedIdentity is the identity the framework plans: the prior one, or a null one when
// the CLI sent none; false when the prior one is not an identity of the type.
func (rule *knownRule) plannedIdentity(prior *tfprotov6.ResourceIdentityData) (*tfprotov6.ResourceIdentityData, bool) {
	if rule.identityType == nil {
		return nil, prior == nil
	}
	if prior != nil && prior.IdentityData != nil {
		_, err := prior.IdentityData.Unmarshal(rule.identityType)
		return prior, err == nil
	}
	null, err := tfprotov6.NewDynamicValue(rule.identityType, tftypes.NewValue(rule.identityType, nil))
	if err != nil {
		return nil, false
	}
	return &tfprotov6.ResourceIdentityData{IdentityData: &null}, true
}
