package knownanswers

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
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
//
// and answers only when every step reported nothing. Any diagnostic, even a warning, sends
// the request to the framework, whose diagnostics come in the order of its map walk. So do
// a configured nested attribute, which the framework walks into, and a configured
// deprecated one, which warns. Because a request answered here skips the framework while
// a refused one runs every check again there, only a resource whose checks read their
// request and change nothing (PureValidator) is answered.

// validationRule is what a known validation needs of a resource type.
type validationRule struct {
	factory    func() resource.Resource
	schema     schema.Schema
	typ        tftypes.Type
	attributes []validatedAttribute // by name, for a replayable order
}

// validatedAttribute is one top-level attribute and the framework's checks of it.
type validatedAttribute struct {
	name string
	schema.Attribute
	nested bool
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
		rule.attributes = append(rule.attributes, validatedAttribute{name: name, Attribute: a, nested: nested})
	}
	return rule, nil
}

// holdsDynamic: typ is or holds a dynamic value.
func holdsDynamic(typ tftypes.Type) bool {
	switch t := typ.(type) {
	case tftypes.List:
		return holdsDynamic(t.ElementType)
	case tftypes.Set:
		return holdsDynamic(t.ElementType)
	case tftypes.Map:
		return holdsDynamic(t.ElementType)
	case tftypes.Tuple:
		for _, e := range t.ElementTypes {
			if holdsDynamic(e) {
				return true
			}
		}
	case tftypes.Object:
		for _, a := range t.AttributeTypes {
			if holdsDynamic(a) {
				return true
			}
		}
	}
	return typ.Is(tftypes.DynamicPseudoType)
}

func (s *server) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	if resp := s.knownValidation(ctx, req); resp != nil {
		s.counts.Add("validate " + req.TypeName)
		return resp, nil
	}
	return s.frameworkServer.ValidateResourceConfig(ctx, req)
}

// knownValidation is the framework's answer to a configuration it finds nothing wrong
// with, or nil when the request is of a type without a rule, holds anything a check
// reports on, or anything the rule does not model.
func (s *server) knownValidation(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) *tfprotov6.ValidateResourceConfigResponse {
	rule, ok := s.validations[req.TypeName]
	if !ok || req.Config == nil {
		return nil // without a configuration the framework answers nothing, cheaply
	}
	raw, err := req.Config.Unmarshal(rule.typ)
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
	for _, a := range rule.attributes {
		tf, found := values[a.name]
		if !found {
			return false
		}
		at := path.Root(a.name)
		value, ok := attributeValue(ctx, a.GetType(), tf, at)
		if !ok {
			return false
		}
		null, unknown := value.IsNull(), value.IsUnknown()
		switch {
		case a.IsComputed() && !a.IsOptional() && !null, // read-only, configured
			a.IsRequired() && null,
			a.IsWriteOnly() && !writeOnly && !null,
			a.GetDeprecationMessage() != "" && !null && !unknown,
			a.nested && !null && !unknown: // the framework validates each nested object
			return false
		}
		checked := checkedValue{config: config, value: value, path: at, expression: path.MatchRoot(a.name),
			capabilities: validator.ValidateSchemaClientCapabilities{WriteOnlyAttributesAllowed: writeOnly}}
		if !checked.passes(ctx, a.Attribute) || (a.nested && !nestedConverts(ctx, value)) {
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
