package provider

import (
	"context"
	"math/rand"
	"reflect"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// resourceModels is the model each resource writes into its state.
var resourceModels = map[string]any{
	"astra_cluster":                    clusterModel{},
	"astra_managed_cluster":            managedClusterModel{},
	"astra_kubeconfig_credential":      kubeconfigCredentialModel{},
	"astra_s3_credential":              s3CredentialModel{},
	"astra_service_account_credential": serviceAccountCredentialModel{},
	"astra_cloud":                      cloudModel{},
	"astra_bucket":                     bucketModel{},
	"astra_app":                        appModel{},
	"astra_protection_policy":          protectionPolicyModel{},
}

// TestSetState_differential writes random models of every resource with setState and with
// the framework's State.Set and compares the states and diagnostics; every model takes
// setState's own conversion, except where a field holds a value of another type, which
// the framework refuses.
func TestSetState_differential(t *testing.T) {
	ctx := context.Background()
	seed := time.Now().UnixNano()
	t.Logf("random seed %d", seed)
	for _, factory := range New("test")().(*astraProvider).Resources(ctx) {
		r := factory()
		var meta resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: typeName}, &meta)
		var sr resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &sr)
		model, ok := resourceModels[meta.TypeName]
		if !ok {
			t.Errorf("%s: no model in resourceModels", meta.TypeName)
			continue
		}
		modelType := reflect.TypeOf(model)
		layout := layoutOf(modelType)
		if layout == nil {
			t.Errorf("%s: setState leaves %s to the framework", meta.TypeName, modelType)
			continue
		}
		attrTypes := sr.Schema.Type().(attr.TypeWithAttributeTypes).AttributeTypes()
		fast, refused := 0, 0
		for _, s := range []int64{1, 2, seed} {
			g := &requestGen{rng: rand.New(rand.NewSource(s))}
			for range 100 {
				m := reflect.New(modelType)
				mistyped := false
				for _, name := range sortedKeys(layout) {
					// One mistyped field at most: with two, the framework reports either.
					v, wrong := g.attributeValue(t, attrTypes[name], !mistyped)
					mistyped = mistyped || wrong
					m.Elem().FieldByIndex(layout[name]).Set(reflect.ValueOf(v))
				}
				null := tftypes.NewValue(sr.Schema.Type().TerraformType(ctx), nil)
				want := tfsdk.State{Schema: sr.Schema, Raw: null}
				wantDiags := want.Set(ctx, m.Interface())
				got := tfsdk.State{Schema: sr.Schema, Raw: null}
				gotDiags := setState(ctx, &got, m.Interface())
				if _, taken := modelValue(ctx, sr.Schema.Type(), m.Interface()); taken {
					fast++
				} else if !mistyped {
					t.Errorf("seed %d: %s: a well-typed model went to the framework", s, meta.TypeName)
				}
				if wantDiags.HasError() {
					refused++
				}
				if a, b := diagnosticsText(gotDiags), diagnosticsText(wantDiags); a != b || !got.Raw.Equal(want.Raw) {
					t.Fatalf("seed %d: %s: setState wrote %v (%s), the framework %v (%s)", s, meta.TypeName, got.Raw, a, want.Raw, b)
				}
			}
		}
		if fast == 0 {
			t.Errorf("%s: no model took setState's conversion", meta.TypeName)
		}
		t.Logf("%s: %d models converted by setState, %d refused by the framework", meta.TypeName, fast, refused)
	}
}

// attributeValue is a random value of an attribute of typ (null, unknown or known); now and
// then, for a collection, one of another element type, which the framework refuses.
func (g *requestGen) attributeValue(t *testing.T, typ attr.Type, mistype bool) (attr.Value, bool) {
	t.Helper()
	ctx := context.Background()
	if mistype && g.rng.Intn(25) == 0 {
		switch typ := typ.(type) {
		case basetypes.MapType:
			return types.MapNull(types.BoolType), true
		case basetypes.ListType:
			return types.ListUnknown(types.Int64Type), true
		case basetypes.SetType:
			if elem := typ.ElemType; elem.Equal(types.StringType) && g.rng.Intn(2) == 0 {
				twice := types.StringValue("twice") // the framework refuses a set holding it twice
				return types.SetValueMust(elem, []attr.Value{twice, twice}), true
			}
			return types.SetValueMust(types.BoolType, []attr.Value{types.BoolValue(true)}), true
		}
	}
	v, err := typ.ValueFromTerraform(ctx, g.value(typ.TerraformType(ctx), true))
	if err != nil {
		t.Fatal(err)
	}
	return v, false
}
