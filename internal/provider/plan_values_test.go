package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// recordPlanned keeps every value the plan knew and takes the service's answer for the rest.
func TestRecordPlanned(t *testing.T) {
	ctx := context.Background()
	s := schema.Schema{Attributes: map[string]schema.Attribute{
		"state":    schema.StringAttribute{Computed: true},
		"modified": schema.StringAttribute{Computed: true},
		"labels":   schema.ListAttribute{Computed: true, ElementType: types.StringType},
	}}
	typ := s.Type().TerraformType(ctx)
	str := func(v any) tftypes.Value { return tftypes.NewValue(tftypes.String, v) }
	list := func(vs ...tftypes.Value) tftypes.Value {
		return tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, vs)
	}
	plan := tfsdk.Plan{Schema: s, Raw: tftypes.NewValue(typ, map[string]tftypes.Value{
		"state": str("running"), "modified": str(tftypes.UnknownValue), "labels": list(str("a"), str(tftypes.UnknownValue)),
	})}
	state := tfsdk.State{Schema: s, Raw: tftypes.NewValue(typ, map[string]tftypes.Value{
		"state": str("pending"), "modified": str("t2"), "labels": list(str("a"), str("b")),
	})}
	if d := recordPlanned(plan, &state); d.HasError() {
		t.Fatal(d)
	}
	for name, want := range map[string]string{"state": "running", "modified": "t2"} {
		var got types.String
		state.GetAttribute(ctx, path.Root(name), &got)
		if got.ValueString() != want {
			t.Errorf("%s = %v, want %q", name, got, want)
		}
	}
	var labels types.List
	state.GetAttribute(ctx, path.Root("labels"), &labels)
	if len(labels.Elements()) != 2 || labels.Elements()[1].(types.String).ValueString() != "b" {
		t.Errorf("a partly unknown plan value must take the answer: labels = %v", labels)
	}
}
