package provider

import (
	"context"
	"reflect"
	"regexp"
	"sync"
	"unsafe"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// setState writes a model into state as tfsdk.State.Set does. The framework converts a
// struct by reflection on every call, and that conversion compiles a regular expression
// per field and copies the schema's attribute map per path step: 200 KB and more for one
// managed cluster, a sixth of what the provider allocated in an apply of a fleet. A model
// whose fields are all attribute values (types.String, types.Map, timeouts.Value, ...)
// converts in one step: each field's own value, checked against the schema's type and
// validated by it as the framework validates it; the struct's layout is read once per
// struct type. Any other model, or a field whose type or value the framework would check
// or refuse, goes to the framework, which reports what it reports. The differential tests
// (model_state_test.go) compare the two on random models and states of every resource.
func setState(ctx context.Context, state *tfsdk.State, model any) diag.Diagnostics {
	typ, tfType := schemaTypes(ctx, state.Schema)
	if v, ok := modelValue(ctx, typ, tfType, model); ok {
		// The framework stores a value as it is once its type equals the schema's; v's
		// type is the schema's, built once (schemaTypes), where Set would build it again.
		state.Raw = v
		return nil
	}
	return state.Set(ctx, model)
}

// modelValue is model (a struct or a pointer to one) as a value of typ, whose Terraform
// type is tfType; false when the framework's conversion might answer otherwise.
func modelValue(ctx context.Context, typ attr.Type, tfType tftypes.Type, model any) (tftypes.Value, bool) {
	withAttributes, ok := typ.(attr.TypeWithAttributeTypes)
	obj, isObject := tfType.(tftypes.Object)
	rv := reflect.ValueOf(model)
	if !ok || !isObject || !rv.IsValid() {
		return tftypes.Value{}, false
	}
	if rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return tftypes.Value{}, false
		}
		rv = rv.Elem()
	}
	layout := layoutOf(rv.Type())
	if layout == nil || len(layout) != len(obj.AttributeTypes) {
		return tftypes.Value{}, false
	}
	attrTypes := withAttributes.AttributeTypes()
	values := make(map[string]tftypes.Value, len(layout))
	for name, index := range layout {
		want, ok := obj.AttributeTypes[name]
		if !ok {
			return tftypes.Value{}, false
		}
		field, ok := rv.FieldByIndex(index).Interface().(attr.Value) // layoutOf checked the type
		if !ok {
			return tftypes.Value{}, false
		}
		v, err := field.ToTerraformValue(ctx)
		if err != nil || v.Type() == nil || !v.Type().Equal(want) {
			return tftypes.Value{}, false
		}
		// The framework validates the value with its attribute's type (collections: their
		// elements; sets: no duplicates); the same check, and anything it says, even a
		// warning, is the framework's to report.
		//nolint:staticcheck // deprecated for providers' own types; the framework still calls it, so must this
		if validating, ok := attrTypes[name].(xattr.TypeWithValidate); ok && len(validating.Validate(ctx, v, path.Root(name))) > 0 {
			return tftypes.Value{}, false
		}
		values[name] = v
	}
	return tftypes.NewValue(obj, values), true
}

// layouts holds layoutOf's answers by struct type: map[string][]int, or nil.
var layouts sync.Map

var attributeValueType = reflect.TypeFor[attr.Value]()

// layoutOf is where each attribute of a model struct type is (as the framework finds it:
// by tfsdk tag, through embedded structs), or nil when the framework's conversion does
// more than take each field's value: a field that is no attribute value (a Go string, a
// nested struct), or one whose value validates itself, or a tag it would refuse.
func layoutOf(t reflect.Type) map[string][]int {
	if cached, ok := layouts.Load(t); ok {
		layout, _ := cached.(map[string][]int)
		return layout
	}
	layout := map[string][]int{}
	if !collectLayout(t, nil, layout) {
		layout = nil
	}
	layouts.Store(t, layout)
	return layout
}

var validFieldName = regexp.MustCompile("^[a-z][a-z0-9_]*$")

func collectLayout(t reflect.Type, prefix []int, layout map[string][]int) bool {
	if t.Kind() != reflect.Struct {
		return false
	}
	for i := range t.NumField() {
		field := t.Field(i)
		if !field.IsExported() && !field.Anonymous {
			continue
		}
		index := append(append([]int(nil), prefix...), i)
		tag, tagged := field.Tag.Lookup("tfsdk")
		switch {
		case tag == "-":
			continue
		case field.Anonymous:
			if tagged || field.Type.Kind() != reflect.Struct || !collectLayout(field.Type, index, layout) {
				return false
			}
			continue
		case !tagged || !validFieldName.MatchString(tag) || layout[tag] != nil:
			return false
		}
		if !field.Type.Implements(attributeValueType) || field.Type.Kind() == reflect.Interface {
			return false
		}
		if _, validates := reflect.Zero(field.Type).Interface().(xattr.ValidateableAttribute); validates {
			return false
		}
		layout[tag] = index
	}
	return true
}

// planGet reads a plan into a model as tfsdk.Plan.Get does (getModel).
func planGet(ctx context.Context, plan tfsdk.Plan, target any) diag.Diagnostics {
	if getModel(ctx, schemaType(plan.Schema), plan.Raw, target) {
		return nil
	}
	return plan.Get(ctx, target)
}

// configGet reads a configuration into a model as tfsdk.Config.Get does (getModel): the
// framework's reflection compiles a regular expression per field, 20 kB a model.
func configGet(ctx context.Context, config tfsdk.Config, target any) diag.Diagnostics {
	if getModel(ctx, schemaType(config.Schema), config.Raw, target) {
		return nil
	}
	return config.Get(ctx, target)
}

// stateGet reads a state into a model as tfsdk.State.Get does (getModel).
func stateGet(ctx context.Context, state tfsdk.State, target any) diag.Diagnostics {
	if getModel(ctx, schemaType(state.Schema), state.Raw, target) {
		return nil
	}
	return state.Get(ctx, target)
}

// schemaType is s.Type(), kept by the maps of s's attributes and blocks: the framework
// builds the type anew at every call, half of what reading a plan into a model cost in a
// fleet's plan. Each entry keeps its maps, so no other schema's maps take their addresses;
// a schema's maps do not change once it is served. A schema that is not a struct with
// those maps is not kept.
func schemaType(s interface{ Type() attr.Type }) attr.Type {
	typ, _ := schemaTypes(context.Background(), s)
	return typ
}

// schemaTypes is schemaType and its Terraform type, kept alike.
func schemaTypes(ctx context.Context, s interface{ Type() attr.Type }) (attr.Type, tftypes.Type) {
	v := reflect.ValueOf(s)
	if v.Kind() != reflect.Struct {
		typ := s.Type()
		return typ, typ.TerraformType(ctx)
	}
	attributes, blocks := v.FieldByName("Attributes"), v.FieldByName("Blocks")
	if attributes.Kind() != reflect.Map || blocks.Kind() != reflect.Map || attributes.IsNil() {
		typ := s.Type()
		return typ, typ.TerraformType(ctx)
	}
	key := schemaKey{attributes.UnsafePointer(), blocks.UnsafePointer()}
	schemaTypeCache.mu.Lock()
	defer schemaTypeCache.mu.Unlock()
	if e, ok := schemaTypeCache.m[key]; ok {
		return e.typ, e.tf
	}
	if schemaTypeCache.m == nil || len(schemaTypeCache.m) >= maxSchemaTypes {
		schemaTypeCache.m = map[schemaKey]schemaTypeEntry{}
	}
	typ := s.Type()
	e := schemaTypeEntry{typ: typ, tf: typ.TerraformType(ctx), maps: [2]any{attributes.Interface(), blocks.Interface()}}
	schemaTypeCache.m[key] = e
	return e.typ, e.tf
}

// maxSchemaTypes bounds the cache (a provider serves a few dozen schemas; tests build more).
const maxSchemaTypes = 1024

type schemaKey struct{ attributes, blocks unsafe.Pointer }

type schemaTypeEntry struct {
	typ  attr.Type
	tf   tftypes.Type
	maps [2]any // kept, so that their addresses are not reused
}

var schemaTypeCache struct {
	mu sync.Mutex
	m  map[schemaKey]schemaTypeEntry
}

// getModel is the reverse of setState: it sets *target, a model of attribute values, from
// an object value as the framework's Get does (each field its attribute type's value of
// the member, validated by that type; the whole struct replaced, so fields without a tag
// are zeroed), and reports whether it did; false leaves target as it was, for the
// framework, which reports what it reports.
func getModel(ctx context.Context, typ attr.Type, object tftypes.Value, target any) bool {
	withAttributes, ok := typ.(attr.TypeWithAttributeTypes)
	rv := reflect.ValueOf(target)
	if !ok || !rv.IsValid() || rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct ||
		object.Type() == nil || !object.Type().Is(tftypes.Object{}) || !object.IsKnown() || object.IsNull() {
		return false
	}
	layout := layoutOf(rv.Elem().Type())
	var members map[string]tftypes.Value
	if layout == nil || object.As(&members) != nil || len(members) != len(layout) {
		return false
	}
	attrTypes := withAttributes.AttributeTypes()
	result := reflect.New(rv.Elem().Type()).Elem()
	for name, index := range layout {
		member, found := members[name]
		attrType, typed := attrTypes[name]
		if !found || !typed {
			return false
		}
		v, err := attrType.ValueFromTerraform(ctx, member)
		if err != nil || v == nil {
			return false
		}
		//nolint:staticcheck // deprecated for providers' own types; the framework still calls it, so must this
		if validating, ok := attrType.(xattr.TypeWithValidate); ok && len(validating.Validate(ctx, member, path.Root(name))) > 0 {
			return false
		}
		field := result.FieldByIndex(index)
		if reflect.TypeOf(v) != field.Type() {
			return false
		}
		field.Set(reflect.ValueOf(v))
	}
	rv.Elem().Set(result)
	return true
}
