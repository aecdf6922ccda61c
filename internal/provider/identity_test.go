package provider

import (
	"context"
	"math/rand"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestSetIdentity: setIdentity stores what the framework's Set stores, for random IDs of the
// { id } identity (built without the framework) and of another identity (the framework's).
func TestSetIdentity(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewSource(1))
	ids := []string{"", "7b0a7a8c-3b39-4a5e-9c1e-0c8d2c6f4b11", "ünïcode ✓", "a\x00b"}
	for range 200 {
		b := make([]rune, r.Intn(40))
		for i := range b {
			b[i] = rune(r.Intn(0x3000))
		}
		ids = append(ids, string(b))
	}
	schemas := map[string]identityschema.Schema{"id": identitySchema(), "app run": appRunIdentitySchema("backup")}
	for name, schema := range schemas {
		null := tftypes.NewValue(schema.Type().TerraformType(ctx), nil)
		for _, id := range ids {
			want := tfsdk.ResourceIdentity{Schema: schema, Raw: null}
			var wantDiags diag.Diagnostics
			if name == "id" {
				wantDiags = want.Set(ctx, idIdentity{ID: types.StringValue(id)})
			} else {
				wantDiags = want.Set(ctx, struct {
					AppID types.String `tfsdk:"app_id"`
					ID    types.String `tfsdk:"id"`
				}{types.StringNull(), types.StringValue(id)})
			}
			got := tfsdk.ResourceIdentity{Schema: schema, Raw: null}
			var gotDiags diag.Diagnostics
			setIdentity(ctx, &got, types.StringValue(id), &gotDiags)
			if name == "id" && (gotDiags.HasError() || !got.Raw.Equal(want.Raw) || wantDiags.HasError()) {
				t.Fatalf("%s identity of %q: setIdentity stored %v (%v), the framework %v (%v)", name, id, got.Raw, gotDiags, want.Raw, wantDiags)
			}
			if name != "id" && !gotDiags.HasError() {
				t.Fatalf("%s identity of %q: setIdentity stored %v without the framework's error (a model of id only)", name, id, got.Raw)
			}
		}
	}
	var diags diag.Diagnostics
	setIdentity(ctx, &tfsdk.ResourceIdentity{Schema: identitySchema()}, types.StringUnknown(), &diags)
	if diags.HasError() {
		t.Errorf("an unknown ID: %v", diags)
	}
}
