package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
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
	prior := state.Raw // an update's state starts as a copy sharing the prior state's map
	if d := recordPlanned(plan, &state); d.HasError() {
		t.Fatal(d)
	}
	var kept map[string]tftypes.Value
	if err := prior.As(&kept); err != nil {
		t.Fatal(err)
	}
	if !kept["state"].Equal(str("pending")) {
		t.Errorf("recordPlanned wrote into the value it was given: its state is now %v", kept["state"])
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

// planForFreshCopy sends only what the plan changes: every other put argument, set in the
// configuration or not, computed or not, becomes unknown, so the fresh copy's value is kept
// (whatever another writer set after the plan). A change to null (labels removed) is sent.
func TestPlanForFreshCopy(t *testing.T) {
	ctx := context.Background()
	s := schema.Schema{Attributes: map[string]schema.Attribute{
		"set":     schema.StringAttribute{Optional: true, Computed: true},
		"unset":   schema.StringAttribute{Optional: true, Computed: true},
		"changed": schema.StringAttribute{Optional: true, Computed: true},
		"labels":  schema.MapAttribute{Optional: true, ElementType: types.StringType},
		"removed": schema.MapAttribute{Optional: true, ElementType: types.StringType},
		"other":   schema.StringAttribute{Optional: true},
	}}
	typ := s.Type().TerraformType(ctx)
	str := func(v any) tftypes.Value { return tftypes.NewValue(tftypes.String, v) }
	labels := func(v any) tftypes.Value {
		if m, ok := v.(map[string]string); ok {
			vals := map[string]tftypes.Value{}
			for k, x := range m {
				vals[k] = str(x)
			}
			v = vals
		}
		return tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, v)
	}
	obj := func(set, unset, changed, lbl, removed, other tftypes.Value) tftypes.Value {
		return tftypes.NewValue(typ, map[string]tftypes.Value{"set": set, "unset": unset, "changed": changed, "labels": lbl,
			"removed": removed, "other": other})
	}
	team := map[string]string{"team": "a"}
	req := resource.UpdateRequest{
		Config: tfsdk.Config{Schema: s, Raw: obj(str("a"), str(nil), str("new"), labels(team), labels(nil), str("x"))},
		Plan:   tfsdk.Plan{Schema: s, Raw: obj(str("a"), str("read"), str("new"), labels(team), labels(nil), str("x"))},
		State:  tfsdk.State{Schema: s, Raw: obj(str("a"), str("read"), str("old"), labels(team), labels(team), str("y"))},
	}
	var diags diag.Diagnostics
	got := planForFreshCopy(req, &diags, "set", "unset", "changed", "labels", "removed")
	if diags.HasError() {
		t.Fatal(diags)
	}
	for name, want := range map[string]types.String{
		"set": types.StringUnknown(), "unset": types.StringUnknown(), "changed": types.StringValue("new"),
		"other": types.StringValue("x"), // not a put argument: as planned
	} {
		var v types.String
		got.GetAttribute(ctx, path.Root(name), &v)
		if !v.Equal(want) {
			t.Errorf("%s = %v, want %v", name, v, want)
		}
	}
	var unchanged, removed types.Map
	got.GetAttribute(ctx, path.Root("labels"), &unchanged)
	got.GetAttribute(ctx, path.Root("removed"), &removed)
	if !unchanged.IsUnknown() || !removed.IsNull() {
		t.Errorf("labels = %v (want unknown: unchanged), removed = %v (want null: the change is sent)", unchanged, removed)
	}
	var planned types.String
	req.Plan.GetAttribute(ctx, path.Root("unset"), &planned)
	if planned.ValueString() != "read" {
		t.Errorf("the request's plan changed: unset = %v, want \"read\" (recordPlanned needs it)", planned)
	}
}
