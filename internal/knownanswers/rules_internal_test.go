package knownanswers

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/float64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The rules each resource's schema is held to, on schemas made up for the purpose: the
// tests of package knownanswers_test hold the provider's own resources to them.

// variantResource is a resource with any schema, for planRuleFor.
type variantResource struct {
	schema schema.Schema
}

func (r *variantResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = "astra_variant"
}
func (r *variantResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = r.schema
}
func (r *variantResource) Create(context.Context, resource.CreateRequest, *resource.CreateResponse) {}
func (r *variantResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse)       {}
func (r *variantResource) Update(context.Context, resource.UpdateRequest, *resource.UpdateResponse) {}
func (r *variantResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// variantWithModifyPlan has its own ModifyPlan, which may change a plan.
type variantWithModifyPlan struct{ variantResource }

func (r *variantWithModifyPlan) ModifyPlan(context.Context, resource.ModifyPlanRequest, *resource.ModifyPlanResponse) {
}

// variantChecker has plan checks (PlanChecker), which only a ModifyPlan makes the
// framework run.
type variantChecker struct{ variantResource }

func (r *variantChecker) CheckPlan(context.Context, PlanRequest) diag.Diagnostics { return nil }

// variantCheckerModifying is a PlanChecker whose ModifyPlan runs its checks.
type variantCheckerModifying struct{ variantChecker }

func (r *variantCheckerModifying) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	ModifyPlan(ctx, r, req, resp)
}

// variantDestroyChecker checks only the plans of its destroys, which the known answers
// never answer.
type variantDestroyChecker struct{ variantResource }

func (r *variantDestroyChecker) CheckDestroy(context.Context, tfsdk.State) diag.Diagnostics {
	return nil
}
func (r *variantDestroyChecker) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	ModifyDestroyPlan(ctx, r, req, resp)
}

// wrapper gives the resource it wraps an identity { id } and replays creates, as the
// provider's identity wrapper does: a Wrapper and a CreateReplayer.
type wrapper struct{ resource.Resource }

func (w *wrapper) Unwrap() resource.Resource { return w.Resource }
func (w *wrapper) ReplaysCreates()           {}
func (w *wrapper) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"id": identityschema.StringAttribute{RequiredForImport: true}}}
}

func (w *wrapper) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	switch inner := w.Resource.(type) {
	case resource.ResourceWithModifyPlan:
		inner.ModifyPlan(ctx, req, resp)
	case PlanChecker:
		ModifyPlan(ctx, inner, req, resp)
	}
}

// wrapped is factory's resources, wrapped.
func wrapped(factory func() resource.Resource) func() resource.Resource {
	return func() resource.Resource { return &wrapper{Resource: factory()} }
}

// idle is a plan modifier of a provider's own that declares itself idle (IdleModifier).
type idle struct{ actsOnCreate }

func (idle) IdleUnlessUnknown() {}

// actsOnCreate is a plan modifier outside the known list: it sets a value on create.
type actsOnCreate struct{}

func (actsOnCreate) Description(context.Context) string         { return "sets x" }
func (actsOnCreate) MarkdownDescription(context.Context) string { return "sets x" }
func (actsOnCreate) PlanModifyString(_ context.Context, _ planmodifier.StringRequest, resp *planmodifier.StringResponse) {
}

// TestKnownAnswers_refusedSchemas: each schema shape the known answers cannot answer
// exactly for is refused, naming what; the shapes they model are accepted.
func TestKnownAnswers_refusedSchemas(t *testing.T) {
	id := schema.StringAttribute{Computed: true}
	with := func(name string, a schema.Attribute) schema.Schema {
		return schema.Schema{Attributes: map[string]schema.Attribute{"id": id, name: a}}
	}
	cases := []struct {
		name    string
		r       resource.Resource
		refused string // "" when accepted
	}{
		{name: "a block", refused: "it has blocks (b)", r: &variantResource{schema: schema.Schema{
			Attributes: map[string]schema.Attribute{"id": id},
			Blocks:     map[string]schema.Block{"b": schema.SingleNestedBlock{Attributes: map[string]schema.Attribute{"x": schema.StringAttribute{Optional: true}}}}}}},
		{name: "an unknown plan modifier", refused: "plan modifier knownanswers.actsOnCreate is not one the known answers model",
			r: &variantResource{schema: with("x", schema.StringAttribute{Optional: true, PlanModifiers: []planmodifier.String{actsOnCreate{}}})}},
		// RequiresReplaceIfConfigured is RequiresReplaceIf, whose function only runs on a change.
		{name: "RequiresReplaceIfConfigured",
			r: &variantResource{schema: with("x", schema.StringAttribute{Optional: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplaceIfConfigured()}})}},
		{name: "a nested default", refused: "a nested default",
			r: &variantResource{schema: with("n", schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
				"x": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("d")}}})}},
		{name: "computed nested in settable", refused: "a computed attribute nested in one a configuration sets",
			r: &variantResource{schema: with("n", schema.ListNestedAttribute{Optional: true, NestedObject: schema.NestedAttributeObject{
				Attributes: map[string]schema.Attribute{"x": schema.StringAttribute{Computed: true}}}})}},
		{name: "a nested write-only attribute", refused: "a nested write-only attribute",
			r: &variantResource{schema: with("n", schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
				"x": schema.StringAttribute{Optional: true, WriteOnly: true}}})}},
		{name: "a dynamic attribute", refused: "its kind (schema.DynamicAttribute)",
			r: &variantResource{schema: with("d", schema.DynamicAttribute{Optional: true})}},
		{name: "a default it does not read", refused: "a default of a kind (schema.Float64Attribute)",
			r: &variantResource{schema: with("f", schema.Float64Attribute{Optional: true, Computed: true, Default: float64default.StaticFloat64(1)})}},
		{name: "its own ModifyPlan", refused: "it has its own ModifyPlan",
			r: &variantWithModifyPlan{variantResource{schema: with("x", schema.StringAttribute{Optional: true})}}},
		{name: "its own ModifyPlan, wrapped", refused: "it has its own ModifyPlan",
			r: &wrapper{Resource: &variantWithModifyPlan{variantResource{schema: with("x", schema.StringAttribute{Optional: true})}}}},
		{name: "plan checks the framework never runs", refused: "its CheckPlan never runs under the framework",
			r: &variantChecker{variantResource{schema: with("x", schema.StringAttribute{Optional: true})}}},
		{name: "plan checks its ModifyPlan runs",
			r: &variantCheckerModifying{variantChecker{variantResource{schema: with("x", schema.StringAttribute{Optional: true})}}}},
		{name: "checks of its destroys only",
			r: &variantDestroyChecker{variantResource{schema: with("x", schema.StringAttribute{Optional: true})}}},
		{name: "plan checks its Wrapper runs",
			r: &wrapper{Resource: &variantChecker{variantResource{schema: with("x", schema.StringAttribute{Optional: true})}}}},
		{name: "a plan modifier of the provider's own, idle",
			r: &variantResource{schema: with("x", schema.StringAttribute{Optional: true, PlanModifiers: []planmodifier.String{idle{}}})}},
		{name: "a top-level write-only attribute: planned null",
			r: &variantResource{schema: with("secret", schema.StringAttribute{Optional: true, WriteOnly: true})}},
		{name: "a computed nested attribute nobody sets, known modifiers, a top-level default",
			r: &variantResource{schema: schema.Schema{Attributes: map[string]schema.Attribute{"id": id,
				"n": schema.SingleNestedAttribute{Computed: true, Attributes: map[string]schema.Attribute{"x": schema.StringAttribute{Computed: true}}},
				"r": schema.StringAttribute{Required: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace(), stringplanmodifier.UseStateForUnknown()}},
				"d": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("d")},
			}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rule, err := planRuleFor(c.r)
			switch {
			case c.refused == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.refused == "":
				if rule.writeOnly["secret"] != strings.Contains(c.name, "write-only") {
					t.Errorf("write-only attributes %v", rule.writeOnly)
				}
			case err == nil:
				t.Fatalf("accepted, want refused for %q", c.refused)
			case !strings.Contains(err.Error(), c.refused):
				t.Fatalf("refused for %q, want %q", err, c.refused)
			}
		})
	}
}

// TestKnownApplies_refusedSchemas: each shape whose create the known apply cannot answer
// exactly for is refused, naming what; the shapes it models are accepted.
func TestKnownApplies_refusedSchemas(t *testing.T) {
	id := schema.StringAttribute{Computed: true}
	with := func(name string, a schema.Attribute) func() resource.Resource {
		return wrapped(func() resource.Resource {
			return &variantResource{schema: schema.Schema{Attributes: map[string]schema.Attribute{"id": id, name: a}}}
		})
	}
	cases := []struct {
		name    string
		factory func() resource.Resource
		refused string // "" when accepted
	}{
		{name: "not a CreateReplayer", refused: "its Create cannot be replayed",
			factory: func() resource.Resource {
				return &variantResource{schema: schema.Schema{Attributes: map[string]schema.Attribute{"id": id}}}
			}},
		{name: "a block", refused: "it has blocks", factory: wrapped(func() resource.Resource {
			return &variantResource{schema: schema.Schema{Attributes: map[string]schema.Attribute{"id": id},
				Blocks: map[string]schema.Block{"b": schema.SingleNestedBlock{}}}}
		})},
		{name: "a float (semantic equality)", refused: "attribute f: its values (basetypes.Float64Value) have semantic equality",
			factory: with("f", schema.Float64Attribute{Optional: true})},
		{name: "floats in a list", refused: "attribute l: its values (basetypes.Float32Value)",
			factory: with("l", schema.ListAttribute{Optional: true, ElementType: types.Float32Type})},
		{name: "a float nested", refused: "attribute n: its values (basetypes.Float64Value)",
			factory: with("n", schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{"f": schema.Float64Attribute{Optional: true}}})},
		{name: "a nested write-only attribute", refused: "attribute n: a nested write-only attribute",
			factory: with("n", schema.ListNestedAttribute{Optional: true, NestedObject: schema.NestedAttributeObject{
				Attributes: map[string]schema.Attribute{"s": schema.StringAttribute{Optional: true, WriteOnly: true}}}})},
		{name: "nested strings and maps",
			factory: with("n", schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
				"s": schema.StringAttribute{Optional: true}, "m": schema.MapAttribute{Optional: true, ElementType: types.StringType}}})},
		{name: "a top-level write-only attribute: set null", factory: with("secret", schema.StringAttribute{Optional: true, WriteOnly: true})},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rule, err := applyRuleFor(c.factory)
			switch {
			case c.refused == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.refused == "" && rule.identityType == nil:
				t.Fatal("no identity type")
			case c.refused == "" && strings.Join(rule.writeOnly, ",") != map[bool]string{true: "secret"}[strings.Contains(c.name, "write-only")]:
				t.Fatalf("write-only attributes %v", rule.writeOnly)
			case c.refused != "" && err == nil:
				t.Fatalf("accepted, want refused for %q", c.refused)
			case c.refused != "" && !strings.Contains(err.Error(), c.refused):
				t.Fatalf("refused for %q, want %q", err, c.refused)
			}
		})
	}
}

// frameworkPassthrough is the framework's passthrough of raw as a state of typ: the value it
// decodes and the MessagePack it answers, or its error.
func frameworkPassthrough(typ tftypes.Type, raw []byte) ([]byte, error) {
	v, err := tfprotov6.RawState{JSON: raw}.UnmarshalWithOpts(typ, tfprotov6.UnmarshalOpts{
		ValueFromJSONOpts: tftypes.ValueFromJSONOpts{IgnoreUndefinedAttributes: true}})
	if err != nil {
		return nil, err
	}
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	return dv.MsgPack, err
}

// TestKnownUpgrades_stateMsgPack compares the passthrough with the framework's on the
// JSON shapes that matter: it answers the same bytes (no maps here, whose order the
// framework does not fix) or leaves the state to the framework.
func TestKnownUpgrades_stateMsgPack(t *testing.T) {
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"s": tftypes.String, "n": tftypes.Number, "b": tftypes.Bool,
		"l":   tftypes.List{ElementType: tftypes.String},
		"set": tftypes.Set{ElementType: tftypes.String},
		"o":   tftypes.Object{AttributeTypes: map[string]tftypes.Type{"x": tftypes.Number, "y": tftypes.List{ElementType: tftypes.Bool}}},
	}}
	cases := []struct {
		json    string
		answers bool
	}{
		{`{"s":"a","n":1,"b":true,"l":["x","y"],"o":{"x":2,"y":[false]}}`, true},
		{`{}`, true}, // every attribute null
		{`{"s":null,"l":[],"o":null}`, true},
		{`{"set":["b","a","b"]}`, true},              // a duplicated element, kept in order as the framework keeps it
		{`{"gone":{"deep":[1,2]},"s":"kept"}`, true}, // an attribute the schema dropped
		{`{"n":1.5}`, true},
		{`{"n":0.1}`, true},                          // not exactly a float64: text
		{`{"n":12345678901234567890123}`, true},      // beyond int64
		{`{"n":-0}`, true},                           // zero
		{`{"n":1e3}`, true},                          // an integer written with an exponent
		{`{"n":9223372036854775807}`, true},          // the largest int64
		{`{"n":1e400}`, true},                        // beyond float64, finite at 512 bits
		{`{"s":"\u00e9t\u00e9 \ud83d\ude00"}`, true}, // escapes
		{`{"o":{"x":1,"gone":true}}`, true},          // a nested attribute the schema dropped
		{`{"s":"a","s":"b"}`, false},                 // a duplicated key
		{`{"gone":1,"gone":2}`, false},               // even one the schema dropped
		{`{"s":1}`, false},                           // the framework converts a number to a string
		{`{"n":"1"}`, false},                         // and a string to a number
		{`{"b":"true"}`, false},                      // and some strings to bools
		{`{"l":"x"}`, false},                         // a string for a list: the framework fails
		{`{"s":"a"} trailing`, false},                // the framework ignores what follows
		{`null`, false},                              // a null state
		{`{"s":"a"`, false},                          // not JSON
	}
	for _, c := range cases {
		t.Run(c.json, func(t *testing.T) {
			got, ok := stateMsgPack(typ, []byte(c.json))
			if ok != c.answers {
				t.Fatalf("answered %v, want %v", ok, c.answers)
			}
			want, err := frameworkPassthrough(typ, []byte(c.json))
			if !ok {
				return
			}
			if err != nil {
				t.Fatalf("answered where the framework fails: %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("MessagePack differs:\n got %x\nwant %x", got, want)
			}
		})
	}
}

// TestKnownUpgrades_refusedSchemas: the shapes the passthrough does not encode as the
// framework does are refused; the others accepted.
func TestKnownUpgrades_refusedSchemas(t *testing.T) {
	str := schema.StringAttribute{Optional: true}
	for name, attrs := range map[string]map[string]schema.Attribute{
		"a dynamic":      {"d": schema.DynamicAttribute{Optional: true}},
		"a dynamic deep": {"o": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{"d": schema.ListAttribute{ElementType: types.DynamicType, Optional: true}}}},
		"a tuple":        {"t": schema.ObjectAttribute{Optional: true, AttributeTypes: map[string]attr.Type{"t": types.TupleType{ElemTypes: []attr.Type{types.StringType}}}}},
	} {
		if _, ok := upgradeRuleFor(&variantResource{schema: schema.Schema{Attributes: attrs}}); ok {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, ok := upgradeRuleFor(&variantResource{schema: schema.Schema{Attributes: map[string]schema.Attribute{"x": str}}}); !ok {
		t.Error("a string attribute: refused")
	}
	if _, ok := upgradeRuleFor(&variantResource{schema: schema.Schema{Attributes: map[string]schema.Attribute{"x": str},
		Blocks: map[string]schema.Block{"b": schema.ListNestedBlock{NestedObject: schema.NestedBlockObject{Attributes: map[string]schema.Attribute{"y": str}}}}}}); ok {
		t.Error("a block: accepted")
	}
}

// TestPriorPrivate: the prior private state the known plans give a PlanChecker answers as
// the framework's does: a key's value, nothing for a key it lacks, an error for a key of
// the framework's own, whatever the request held.
func TestPriorPrivate(t *testing.T) {
	_, kept, ok := canonicalPrivate([]byte(`{"kubeconfig_server":"ImFiYyI=",".import_before_read":"dHJ1ZQ=="}`))
	if !ok {
		t.Fatal("a valid private state refused")
	}
	prior := priorPrivate(kept)
	for _, c := range []struct {
		key, value string
		fails      bool
	}{
		{key: "kubeconfig_server", value: `"abc"`},
		{key: "answer"},
		{key: ".import_before_read", fails: true},
	} {
		value, diags := prior.GetKey(context.Background(), c.key)
		if string(value) != c.value || diags.HasError() != c.fails {
			t.Errorf("%s: %q %v, want %q (fails %v)", c.key, value, diags, c.value, c.fails)
		}
	}
	if canonical, none, ok := canonicalPrivate(nil); !ok || canonical != nil || len(none) != 0 {
		t.Errorf("no private state read as %q %v %v", canonical, none, ok)
	}
}
