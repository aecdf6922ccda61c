package knownanswers

import (
	"context"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/objectvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/astra-control/terraform-provider-astra/internal/testutil"
)

// TestKnownValidations_shapes is the differential of the known validations over a schema
// holding what the provider's do not, or not yet: a required argument without validators,
// integers, a deprecated argument, a write-only one, path validators, and every nesting
// (list, set, map, single) with validators on the object and on its attributes. Random
// configurations go to the known answers and to the framework, which must report alike;
// both paths must have answered some.
func TestKnownValidations_shapes(t *testing.T) {
	t.Setenv(SwitchVariable, "")
	p := &shapesProvider{}
	served, err := NewServer(p)()
	if err != nil {
		t.Fatal(err)
	}
	known, ok := served.(*server)
	if !ok {
		t.Fatalf("NewServer served %T", served)
	}
	bare, err := providerserver.NewProtocol6WithError(p)()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	schemas, err := bare.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || len(schemas.Diagnostics) > 0 {
		t.Fatalf("schema: %v %s", err, testutil.DiagnosticsText(schemas.Diagnostics))
	}
	s := schemas.ResourceSchemas["test_shapes"]
	typ := s.ValueType()
	g := testutil.RandomValues{Rand: rand.New(rand.NewSource(1))}
	taken, answeredSet := map[bool]int{}, map[string]int{}
	for i := 0; i < 3000 && !t.Failed(); i++ {
		// Required arguments set, optional ones a third of the time, read-only ones now and then.
		values := map[string]tftypes.Value{}
		for _, a := range s.Block.Attributes {
			values[a.Name] = tftypes.NewValue(a.ValueType(), nil)
			if a.Required && g.Rand.Intn(20) > 0 || a.Optional && g.Rand.Intn(3) == 0 || g.Rand.Intn(30) == 0 {
				values[a.Name] = g.Value(a.ValueType(), true)
			}
		}
		config := tftypes.NewValue(typ, values)
		dv, err := tfprotov6.NewDynamicValue(typ, config)
		if err != nil {
			t.Fatal(err)
		}
		req := &tfprotov6.ValidateResourceConfigRequest{TypeName: "test_shapes", Config: &dv,
			ClientCapabilities: &tfprotov6.ValidateResourceConfigClientCapabilities{WriteOnlyAttributesAllowed: g.Rand.Intn(2) == 0}}
		got := known.knownValidation(ctx, req)
		taken[got != nil] = taken[got != nil] + 1
		if got == nil {
			continue // the framework answers it
		}
		for name, v := range values {
			if !v.IsNull() {
				answeredSet[name]++
			}
		}
		want, err := bare.ValidateResourceConfig(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if d := shapesDiagnostics(want.Diagnostics); d != "" {
			t.Errorf("the known answer says nothing of %s; the framework: %s", config, d)
		}
	}
	if taken[true] < 50 || taken[false] < 50 {
		t.Errorf("known answers %d, framework %d: want at least 50 of each", taken[true], taken[false])
	}
	// The known answers walked into every nesting, and checked what the validators look at.
	for _, name := range []string{"pairs", "pair_set", "pair_map", "single", "size", "with_kind", "tags", "secret_wo"} {
		if answeredSet[name] == 0 {
			t.Errorf("no configuration the known answers took sets %s", name)
		}
	}
	t.Logf("known answers %d, framework %d; arguments set in those the known answers took: %v", taken[true], taken[false], answeredSet)
}

func shapesDiagnostics(diags []*tfprotov6.Diagnostic) string {
	var lines []string
	for _, d := range diags {
		lines = append(lines, fmt.Sprintf("%s %s: %s", d.Severity, d.Attribute, d.Summary))
	}
	sort.Strings(lines)
	return strings.Join(lines, "; ")
}

// shapes is the resource of TestKnownValidations_shapes; its ValidateConfig refuses the
// name "team".
type shapes struct{}

func (*shapes) ValidatesPurely() {}

func (*shapes) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = "test_shapes"
}

func (*shapes) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	pair := func(required bool) schema.NestedAttributeObject {
		return schema.NestedAttributeObject{
			Attributes: map[string]schema.Attribute{
				"key":   schema.StringAttribute{Required: required, Optional: !required, Validators: []validator.String{stringvalidator.OneOf("a", "team", "")}},
				"value": schema.StringAttribute{Optional: true},
			},
			Validators: []validator.Object{objectvalidator.AlsoRequires(path.MatchRelative().AtName("value"))},
		}
	}
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id":         schema.StringAttribute{Computed: true},
		"name":       schema.StringAttribute{Required: true},
		"kind":       schema.StringAttribute{Optional: true, Validators: []validator.String{stringvalidator.OneOf("a", "team")}},
		"size":       schema.Int64Attribute{Optional: true, Validators: []validator.Int64{int64validator.AtMost(50)}},
		"amount":     schema.Int64Attribute{Optional: true},
		"ratio":      schema.NumberAttribute{Optional: true},
		"old":        schema.StringAttribute{Optional: true, DeprecationMessage: "use name"},
		"secret_wo":  schema.StringAttribute{Optional: true, WriteOnly: true},
		"with_kind":  schema.StringAttribute{Optional: true, Validators: []validator.String{stringvalidator.AlsoRequires(path.MatchRoot("kind"))}},
		"tags":       schema.ListAttribute{Optional: true, ElementType: types.StringType, Validators: []validator.List{listvalidator.SizeAtMost(2)}},
		"pairs":      schema.ListNestedAttribute{Optional: true, NestedObject: pair(true)},
		"pair_set":   schema.SetNestedAttribute{Optional: true, NestedObject: pair(false)},
		"pair_map":   schema.MapNestedAttribute{Optional: true, NestedObject: pair(true)},
		"single":     schema.SingleNestedAttribute{Optional: true, Attributes: pair(true).Attributes},
		"read_only":  schema.BoolAttribute{Computed: true},
		"maybe_flag": schema.BoolAttribute{Optional: true, Computed: true},
	}}
}

func (*shapes) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var name types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("name"), &name)...)
	if name.ValueString() == "team" {
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Refused name", "The name is refused.")
	}
}

func (*shapes) Create(context.Context, resource.CreateRequest, *resource.CreateResponse) {}
func (*shapes) Read(context.Context, resource.ReadRequest, *resource.ReadResponse)       {}
func (*shapes) Update(context.Context, resource.UpdateRequest, *resource.UpdateResponse) {}
func (*shapes) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// shapesProvider serves shapes.
type shapesProvider struct{}

func (*shapesProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "test"
}
func (*shapesProvider) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}
func (*shapesProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}
func (*shapesProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }
func (*shapesProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return &shapes{} }}
}
func (*shapesProvider) ResourceData() any       { return nil }
func (*shapesProvider) ConfigureDeferred() bool { return false }
