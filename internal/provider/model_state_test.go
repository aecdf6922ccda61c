package provider

import (
	"context"
	"maps"
	"math/rand"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/astra-control/terraform-provider-astra/internal/testutil"
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
	"astra_hook_source":                hookSourceModel{},
	"astra_execution_hook":             executionHookModel{},
	"astra_app_snapshot":               appSnapshotModel{},
	"astra_app_backup":                 appBackupModel{},
	"astra_app_mirror":                 appMirrorModel{}, // replication (issue 46)
	// Identity and access (issue 47).
	"astra_user":         userModel{},
	"astra_group":        groupModel{},
	"astra_role_binding": roleBindingModel{},
	"astra_ldap":         ldapModel{},
}

// modelledResource is a resource type, its schema and the model it writes into state.
type modelledResource struct {
	name   string
	schema schema.Schema
	model  reflect.Type
}

// modelledResources are every resource of the provider with its model (resourceModels), or
// a test error for one without.
func modelledResources(t *testing.T) []modelledResource {
	t.Helper()
	ctx := context.Background()
	var out []modelledResource
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
		out = append(out, modelledResource{name: meta.TypeName, schema: sr.Schema, model: reflect.TypeOf(model)})
	}
	return out
}

// TestSetState_differential writes random models of every resource with setState and with
// the framework's State.Set and compares the states and diagnostics; every model takes
// setState's own conversion, except where a field holds a value of another type, which
// the framework refuses.
func TestSetState_differential(t *testing.T) {
	ctx := context.Background()
	seed := time.Now().UnixNano()
	t.Logf("random seed %d", seed)
	for _, mr := range modelledResources(t) {
		layout := layoutOf(mr.model)
		if layout == nil {
			t.Errorf("%s: setState leaves %s to the framework", mr.name, mr.model)
			continue
		}
		attrTypes := mr.schema.Type().(attr.TypeWithAttributeTypes).AttributeTypes()
		fast, refused := 0, 0
		for _, s := range []int64{1, 2, seed} {
			g := testutil.RandomValues{Rand: rand.New(rand.NewSource(s))}
			for range 100 {
				m := reflect.New(mr.model)
				mistyped := false
				for _, name := range slices.Sorted(maps.Keys(layout)) {
					// One mistyped field at most: with two, the framework reports either.
					v, wrong := attributeValue(t, g, attrTypes[name], !mistyped)
					mistyped = mistyped || wrong
					m.Elem().FieldByIndex(layout[name]).Set(reflect.ValueOf(v))
				}
				null := tftypes.NewValue(mr.schema.Type().TerraformType(ctx), nil)
				want := tfsdk.State{Schema: mr.schema, Raw: null}
				wantDiags := want.Set(ctx, m.Interface())
				got := tfsdk.State{Schema: mr.schema, Raw: null}
				gotDiags := setState(ctx, &got, m.Interface())
				if _, taken := modelValue(ctx, mr.schema.Type(), mr.schema.Type().TerraformType(ctx), m.Interface()); taken {
					fast++
				} else if !mistyped {
					t.Errorf("seed %d: %s: a well-typed model went to the framework", s, mr.name)
				}
				if wantDiags.HasError() {
					refused++
				}
				if a, b := diagnosticsText(gotDiags), diagnosticsText(wantDiags); a != b || !got.Raw.Equal(want.Raw) {
					t.Fatalf("seed %d: %s: setState wrote %v (%s), the framework %v (%s)", s, mr.name, got.Raw, a, want.Raw, b)
				}
			}
		}
		if fast == 0 {
			t.Errorf("%s: no model took setState's conversion", mr.name)
		}
		t.Logf("%s: %d models converted by setState, %d refused by the framework", mr.name, fast, refused)
	}
}

// attributeValue is a random value of an attribute of typ (null, unknown or known); now and
// then, for a collection, one of another element type, which the framework refuses.
func attributeValue(t *testing.T, g testutil.RandomValues, typ attr.Type, mistype bool) (attr.Value, bool) {
	t.Helper()
	ctx := context.Background()
	if mistype && g.Rand.Intn(25) == 0 {
		switch typ := typ.(type) {
		case basetypes.MapType:
			return types.MapNull(types.BoolType), true
		case basetypes.ListType:
			return types.ListUnknown(types.Int64Type), true
		case basetypes.SetType:
			if elem := typ.ElemType; elem.Equal(types.StringType) && g.Rand.Intn(2) == 0 {
				twice := types.StringValue("twice") // the framework refuses a set holding it twice
				return types.SetValueMust(elem, []attr.Value{twice, twice}), true
			}
			return types.SetValueMust(types.BoolType, []attr.Value{types.BoolValue(true)}), true
		}
	}
	v, err := typ.ValueFromTerraform(ctx, g.Value(typ.TerraformType(ctx), true))
	if err != nil {
		t.Fatal(err)
	}
	return v, false
}

// TestStateGet_differential reads random states of every resource into its model with
// stateGet and with the framework's State.Get and compares the models and diagnostics:
// every known object takes getModel's own conversion, and on an object of another type
// both leave the model as it was.
func TestStateGet_differential(t *testing.T) {
	ctx := context.Background()
	seed := time.Now().UnixNano()
	t.Logf("random seed %d", seed)
	for _, mr := range modelledResources(t) {
		if layoutOf(mr.model) == nil {
			t.Errorf("%s: no model getModel converts", mr.name)
			continue
		}
		typ := mr.schema.Type().TerraformType(ctx).(tftypes.Object)
		fast, refused := 0, 0
		for _, s := range []int64{1, 2, seed} {
			g := testutil.RandomValues{Rand: rand.New(rand.NewSource(s))}
			for range 100 {
				raw := g.Value(typ, true)
				if g.Rand.Intn(20) == 0 { // an object of another type: one attribute short
					short := tftypes.Object{AttributeTypes: map[string]tftypes.Type{}}
					var members map[string]tftypes.Value
					_ = raw.As(&members)
					kept := map[string]tftypes.Value{}
					for i, name := range slices.Sorted(maps.Keys(typ.AttributeTypes)) {
						if i > 0 {
							short.AttributeTypes[name] = typ.AttributeTypes[name]
							if members != nil {
								kept[name] = members[name]
							}
						}
					}
					if raw = tftypes.NewValue(short, nil); members != nil {
						raw = tftypes.NewValue(short, kept)
					}
				}
				state := tfsdk.State{Schema: mr.schema, Raw: raw}
				want, got := reflect.New(mr.model), reflect.New(mr.model)
				// A model with something in it: a failed read must leave it as it was.
				sentinel := types.StringValue("sentinel")
				want.Elem().FieldByIndex(layoutOf(mr.model)["id"]).Set(reflect.ValueOf(sentinel))
				got.Elem().FieldByIndex(layoutOf(mr.model)["id"]).Set(reflect.ValueOf(sentinel))
				wantDiags := state.Get(ctx, want.Interface())
				if getModel(ctx, mr.schema.Type(), raw, reflect.New(mr.model).Interface()) {
					fast++
				}
				gotDiags := stateGet(ctx, state, got.Interface())
				if wantDiags.HasError() {
					refused++
				}
				if a, b := diagnosticsText(gotDiags), diagnosticsText(wantDiags); a != b || !reflect.DeepEqual(got.Interface(), want.Interface()) {
					t.Fatalf("seed %d: %s: stateGet read %+v (%s), the framework %+v (%s)\nstate: %v", s, mr.name, got.Interface(), a, want.Interface(), b, raw)
				}
				// A configuration is read the same way (configGet, tfsdk.Config.Get).
				config := tfsdk.Config{Schema: mr.schema, Raw: raw}
				wantConfig, gotConfig := reflect.New(mr.model), reflect.New(mr.model)
				wantDiags = config.Get(ctx, wantConfig.Interface())
				gotDiags = configGet(ctx, config, gotConfig.Interface())
				if a, b := diagnosticsText(gotDiags), diagnosticsText(wantDiags); a != b || !reflect.DeepEqual(gotConfig.Interface(), wantConfig.Interface()) {
					t.Fatalf("seed %d: %s: configGet read %+v (%s), the framework %+v (%s)\nconfiguration: %v", s, mr.name, gotConfig.Interface(), a, wantConfig.Interface(), b, raw)
				}
			}
		}
		if fast == 0 || refused == 0 {
			t.Errorf("%s: %d states converted by getModel, %d refused by the framework; want some of each", mr.name, fast, refused)
		}
		t.Logf("%s: %d states converted by getModel, %d refused by the framework", mr.name, fast, refused)
	}
}

// TestSchemaType: the type kept for each resource's schema is the schema's own, taken once
// per schema, and two schemas (one resource's schema built twice) each have their own
// entry: one changed after the first was kept gets its own type.
func TestSchemaType(t *testing.T) {
	ctx := context.Background()
	for _, r := range modelledResources(t) {
		first := schemaType(r.schema)
		if !first.Equal(r.schema.Type()) || !schemaType(r.schema).Equal(first) {
			t.Errorf("%s: %s, want %s", r.name, first, r.schema.Type())
		}
		// Another schema: the same attributes but one, in a map of its own.
		other := r.schema
		other.Attributes = maps.Clone(r.schema.Attributes)
		other.Attributes["zz_added"] = schema.BoolAttribute{Optional: true}
		got := schemaType(other).TerraformType(ctx).(tftypes.Object)
		if _, ok := got.AttributeTypes["zz_added"]; !ok || !schemaType(other).Equal(other.Type()) {
			t.Errorf("%s: a schema with another attribute map got the type %s", r.name, got)
		}
	}
}
