package knownanswers

import (
	"context"
	"fmt"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The CLI validates every resource's configuration before each plan, and the framework's
// ValidateResourceConfig walked the schema for it: for each attribute it rebuilt the path,
// looked the value up in the whole configuration and converted it, which was a fifth of
// the provider's CPU in a steady plan (issue 48). A configuration the framework finds
// nothing wrong with gets an answer with no diagnostics; knownValidation runs the same
// steps on the value it decoded once (validations.go's steps are the framework's
// fwserver.ValidateResourceConfig, AttributeValidate and ValueAtPath, v1.19.0):
//   - the resource configured as for any request, then its ConfigValidators and ValidateConfig;
//   - for each attribute, the value converted by the attribute's type (and that type's or
//     value's own validation), the read-only, required and write-only checks, and its
//     validators, called with the request the framework builds;
//   - the same for each object a nested attribute holds, after the object's validators;
//
// and answers only when every step reported nothing. Any diagnostic, even a warning, sends
// the request to the framework, whose diagnostics come in the order of its map walk. So do
// a configured deprecated attribute, which warns, and a null or unknown nested object,
// whose attributes the framework reads through path lookups not modelled here. Because a
// request answered here skips the framework while a refused one runs every check again
// there, only a resource whose checks read their request and change nothing
// (PureValidator) is answered. The framework also refuses a schema it finds invalid, but
// then GetProviderSchema fails, which the CLI asks before any validation.

// validationRule is what a known validation needs of a resource type.
type validationRule struct {
	factory    func() resource.Resource
	schema     schema.Schema
	typ        tftypes.Type
	attributes []validatedAttribute // by name, for a replayable order
}

// validatedAttribute is one top-level attribute.
type validatedAttribute struct {
	name string
	schema.Attribute
	// plain: no validators, nothing nested, and a type of the framework's own all through,
	// whose null converts to a null value without a word: a null one is checked by Required
	// alone. Most of a resource's attributes are computed ones a configuration leaves null.
	plain bool
}

// validationRuleFor derives the rule of the type factory makes, or says why its validation
// is left to the framework.
func validationRuleFor(factory func() resource.Resource) (*validationRule, error) {
	r := factory()
	if _, pure := unwrapped(r).(PureValidator); !pure {
		return nil, fmt.Errorf("its checks are not declared free of side effects (knownanswers.PureValidator)")
	}
	resp, err := schemaOf(r)
	switch {
	case err != nil:
		return nil, err
	case len(resp.Schema.Blocks) > 0:
		return nil, fmt.Errorf("it has blocks, which the framework turns from null to empty before validating")
	case resp.Schema.GetDeprecationMessage() != "":
		return nil, fmt.Errorf("it is deprecated: the framework warns of it")
	}
	ctx := context.Background()
	rule := &validationRule{factory: factory, schema: resp.Schema, typ: resp.Schema.Type().TerraformType(ctx)}
	for _, name := range sortedKeys(resp.Schema.Attributes) {
		a := resp.Schema.Attributes[name]
		switch {
		case !a.IsRequired() && !a.IsOptional() && !a.IsComputed(),
			a.IsWriteOnly() && (a.IsComputed() || a.IsRequired() && a.IsOptional()):
			return nil, fmt.Errorf("attribute %s: a definition the framework reports", name)
		case holdsDynamic(a.GetType().TerraformType(ctx)):
			return nil, fmt.Errorf("attribute %s: a dynamic value, whose underlying null the framework looks into", name)
		}
		_, nested := a.(schema.NestedAttribute)
		rule.attributes = append(rule.attributes, validatedAttribute{name: name, Attribute: a,
			plain: !nested && !hasValidators(a) && frameworkType(a.GetType())})
	}
	return rule, nil
}

// hasValidators reads the Validators field every framework attribute type has; an
// attribute it cannot read counts as having some.
func hasValidators(a any) bool {
	v := reflect.ValueOf(a)
	if v.Kind() != reflect.Struct {
		return true
	}
	f := v.FieldByName("Validators")
	return !f.IsValid() || f.Len() > 0
}

// frameworkType: typ is one of the framework's own types all through (no custom type,
// whose values may validate themselves).
func frameworkType(typ attr.Type) bool {
	switch t := typ.(type) {
	case basetypes.StringType, basetypes.BoolType, basetypes.Int64Type, basetypes.Int32Type,
		basetypes.Float64Type, basetypes.Float32Type, basetypes.NumberType:
		return true
	case basetypes.ListType:
		return frameworkType(t.ElemType)
	case basetypes.SetType:
		return frameworkType(t.ElemType)
	case basetypes.MapType:
		return frameworkType(t.ElemType)
	case basetypes.ObjectType:
		for _, a := range t.AttrTypes {
			if !frameworkType(a) {
				return false
			}
		}
		return true
	}
	return false
}

// holdsDynamic: typ is or holds a dynamic value.
func holdsDynamic(typ tftypes.Type) bool {
	return !everyType(typ, func(t tftypes.Type) bool { return !t.Is(tftypes.DynamicPseudoType) })
}

// knownValidation is the framework's answer to a configuration it finds nothing wrong
// with, or nil when the request is of a type without a rule, holds anything a check
// reports on, or anything the rule does not model.
func (s *server) knownValidation(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) *tfprotov6.ValidateResourceConfigResponse {
	rule, ok := s.validationRule(req.TypeName)
	if !ok || req.Config == nil {
		return nil // without a configuration the framework answers nothing, cheaply
	}
	raw, err := decodeValue(req.Config, rule.typ)
	if err != nil || raw.IsNull() || !raw.IsKnown() {
		return nil
	}
	writeOnly := req.ClientCapabilities != nil && req.ClientCapabilities.WriteOnlyAttributesAllowed
	config := tfsdk.Config{Schema: rule.schema, Raw: raw}
	if !rule.attributesPass(ctx, config, writeOnly) || !s.resourcePasses(ctx, rule, config, writeOnly) {
		return nil
	}
	return &tfprotov6.ValidateResourceConfigResponse{}
}

// resourcePasses: the resource, configured as the framework configures it for the
// request, has nothing to say of config in its ConfigValidators and ValidateConfig. The
// framework calls the resource its factory makes, a Wrapper included.
func (s *server) resourcePasses(ctx context.Context, rule *validationRule, config tfsdk.Config, writeOnly bool) bool {
	r, ok := s.configuredAs(ctx, rule.factory())
	if !ok {
		return false
	}
	req := resource.ValidateConfigRequest{Config: config, ClientCapabilities: resource.ValidateConfigClientCapabilities{WriteOnlyAttributesAllowed: writeOnly}}
	if withValidators, ok := r.(resource.ResourceWithConfigValidators); ok {
		for _, v := range withValidators.ConfigValidators(ctx) {
			var resp resource.ValidateConfigResponse
			if v.ValidateResource(ctx, req, &resp); len(resp.Diagnostics) > 0 {
				return false
			}
		}
	}
	if validates, ok := r.(resource.ResourceWithValidateConfig); ok {
		var resp resource.ValidateConfigResponse
		if validates.ValidateConfig(ctx, req, &resp); len(resp.Diagnostics) > 0 {
			return false
		}
	}
	return true
}

// attributesPass: the framework's schema walk (SchemaValidate) reports nothing on config.
func (rule *validationRule) attributesPass(ctx context.Context, config tfsdk.Config, writeOnly bool) bool {
	var values map[string]tftypes.Value
	if config.Raw.As(&values) != nil {
		return false
	}
	w := walk{config: config, writeOnly: writeOnly}
	for _, a := range rule.attributes {
		tf, found := values[a.name]
		switch {
		case !found:
			return false
		case a.plain && tf.IsNull():
			if a.IsRequired() {
				return false
			}
		case !w.attributePasses(ctx, a.Attribute, tf, path.Root(a.name), path.MatchRoot(a.name)):
			return false
		}
	}
	return true
}

// walk is one configuration's validation, as the framework walks it.
type walk struct {
	config    tfsdk.Config
	writeOnly bool // the CLI takes write-only arguments
}

// attributePasses: the framework's AttributeValidate reports nothing on a at the path at,
// whose configuration is tf: its value converts, is neither a configured read-only nor a
// missing required argument nor a write-only one the CLI cannot send nor a configured
// deprecated one, passes a's validators, and so does what it nests.
func (w walk) attributePasses(ctx context.Context, a schema.Attribute, tf tftypes.Value, at path.Path, expression path.Expression) bool {
	value, ok := attributeValue(ctx, a.GetType(), tf, at)
	if !ok {
		return false
	}
	null, unknown := value.IsNull(), value.IsUnknown()
	switch {
	case a.IsComputed() && !a.IsOptional() && !null,
		a.IsRequired() && null,
		a.IsWriteOnly() && !w.writeOnly && !null,
		a.GetDeprecationMessage() != "" && !null && !unknown:
		return false
	}
	if !w.checked(value, at, expression).passes(ctx, a) {
		return false
	}
	if nested, ok := a.(schema.NestedAttribute); ok {
		object, ok := nested.GetNestedObject().(schema.NestedAttributeObject)
		return ok && w.nestedPass(ctx, object, value, tf, at, expression)
	}
	return true
}

func (w walk) checked(value attr.Value, at path.Path, expression path.Expression) checkedValue {
	return checkedValue{config: w.config, value: value, path: at, expression: expression,
		capabilities: validator.ValidateSchemaClientCapabilities{WriteOnlyAttributesAllowed: w.writeOnly}}
}

// nestedPass: the framework's AttributeValidateNestedAttributes reports nothing: the value
// converts to its nesting's collection, and each object it holds passes.
func (w walk) nestedPass(ctx context.Context, object schema.NestedAttributeObject, value attr.Value, tf tftypes.Value, at path.Path, expression path.Expression) bool {
	if !nestedConverts(ctx, value) {
		return false
	}
	if value.IsNull() || value.IsUnknown() {
		return true // nothing to walk into
	}
	typ := tf.Type()
	switch {
	case typ.Is(tftypes.Object{}):
		return w.objectPasses(ctx, object, value, tf, at, expression)
	case typ.Is(tftypes.List{}), typ.Is(tftypes.Set{}):
		var elems []tftypes.Value
		var values []attr.Value
		if l, ok := base(ctx, value, basetypes.ListValuable.ToListValue); ok && typ.Is(tftypes.List{}) {
			values = l.Elements()
		} else if s, ok := base(ctx, value, basetypes.SetValuable.ToSetValue); ok && typ.Is(tftypes.Set{}) {
			values = s.Elements()
		}
		if tf.As(&elems) != nil || len(elems) != len(values) {
			return false
		}
		for i, elem := range elems {
			elemPath, elemExpression := at.AtListIndex(i), expression.AtListIndex(i)
			if typ.Is(tftypes.Set{}) {
				elemPath, elemExpression = at.AtSetValue(values[i]), expression.AtSetValue(values[i])
			}
			if !w.objectPasses(ctx, object, values[i], elem, elemPath, elemExpression) {
				return false
			}
		}
		return true
	case typ.Is(tftypes.Map{}):
		var elems map[string]tftypes.Value
		m, ok := base(ctx, value, basetypes.MapValuable.ToMapValue)
		if !ok || tf.As(&elems) != nil || len(elems) != len(m.Elements()) {
			return false
		}
		for _, key := range sortedKeys(elems) {
			v, found := m.Elements()[key]
			if !found || !w.objectPasses(ctx, object, v, elems[key], at.AtMapKey(key), expression.AtMapKey(key)) {
				return false
			}
		}
		return true
	}
	return false
}

// objectPasses: the framework's NestedAttributeObjectValidate reports nothing on one
// nested object: its validators pass and so does each attribute. A null or unknown
// object, whose attributes the framework reads through its path lookups, is left to it.
func (w walk) objectPasses(ctx context.Context, object schema.NestedAttributeObject, value attr.Value, tf tftypes.Value, at path.Path, expression path.Expression) bool {
	var values map[string]tftypes.Value
	if tf.IsNull() || !tf.IsKnown() || tf.As(&values) != nil || !w.checked(value, at, expression).passes(ctx, object) {
		return false
	}
	for _, name := range sortedKeys(object.Attributes) {
		child, found := values[name]
		if !found || !w.attributePasses(ctx, object.Attributes[name], child, at.AtName(name), expression.AtName(name)) {
			return false
		}
	}
	return true
}

// attributeValue is the value the framework's ValueAtPath reads for a top-level
// attribute: tf converted by its type, then the value's (or else the type's) own
// validation; false where that reports anything.
func attributeValue(ctx context.Context, typ attr.Type, tf tftypes.Value, at path.Path) (attr.Value, bool) {
	value, err := typ.ValueFromTerraform(ctx, tf)
	if err != nil {
		return nil, false
	}
	if validateable, ok := value.(xattr.ValidateableAttribute); ok {
		var resp xattr.ValidateAttributeResponse
		validateable.ValidateAttribute(ctx, xattr.ValidateAttributeRequest{Path: at}, &resp)
		return value, len(resp.Diagnostics) == 0
	}
	if typeWithValidate, ok := typ.(xattr.TypeWithValidate); ok { //nolint:staticcheck // the framework still calls it
		return value, len(typeWithValidate.Validate(ctx, tf, at)) == 0
	}
	return value, true
}
