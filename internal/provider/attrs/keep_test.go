package attrs

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// keepSchema: "driver" (Optional) drives "status" (Computed); "setting" is Optional+Computed.
var keepSchema = schema.Schema{Attributes: map[string]schema.Attribute{
	"driver":   schema.StringAttribute{Optional: true},
	"setting":  schema.StringAttribute{Optional: true, Computed: true},
	"status":   schema.StringAttribute{Computed: true},
	"metadata": MetadataSchema("driver"),
}}

var keepType = keepSchema.Type().TerraformType(context.Background()).(tftypes.Object)

var metaType = keepType.AttributeTypes["metadata"]

// obj builds a value of keepSchema; "?" is unknown, "" null.
func obj(driver, setting, status string, meta tftypes.Value) tftypes.Value {
	str := func(s string) tftypes.Value {
		switch s {
		case "?":
			return tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
		case "":
			return tftypes.NewValue(tftypes.String, nil)
		}
		return tftypes.NewValue(tftypes.String, s)
	}
	return tftypes.NewValue(keepType, map[string]tftypes.Value{
		"driver": str(driver), "setting": str(setting), "status": str(status), "metadata": meta,
	})
}

func metaValue(created, modified string) tftypes.Value {
	return tftypes.NewValue(metaType, map[string]tftypes.Value{
		"creation_timestamp":     tftypes.NewValue(tftypes.String, created),
		"modification_timestamp": tftypes.NewValue(tftypes.String, modified),
		"created_by":             tftypes.NewValue(tftypes.String, "u"),
		"modified_by":            tftypes.NewValue(tftypes.String, "u"),
	})
}

var (
	unknownMeta = tftypes.NewValue(metaType, tftypes.UnknownValue)
	nullMeta    = tftypes.NewValue(metaType, nil)
)

type keepCase struct {
	name                string
	state, plan, config tftypes.Value
	wantStatus          types.String // planned status after KeepUnlessChanged("driver")
	wantSetting         types.String // planned setting after KeepUnlessChanged()
}

func TestKeepUnlessChanged(t *testing.T) {
	prior := obj("d1", "s1", "running", metaValue("t0", "t1"))
	cases := []keepCase{
		{"create keeps the unknown", tftypes.NewValue(keepType, nil), obj("d1", "?", "?", unknownMeta), obj("d1", "", "", nullMeta),
			types.StringUnknown(), types.StringUnknown()},
		{"driver unchanged: prior values", prior, obj("d1", "?", "?", unknownMeta), obj("d1", "", "", nullMeta),
			types.StringValue("running"), types.StringValue("s1")},
		{"driver changed: status unknown", prior, obj("d2", "?", "?", unknownMeta), obj("d2", "", "", nullMeta),
			types.StringUnknown(), types.StringValue("s1")},
		{"driver removed: status unknown", prior, obj("", "?", "?", unknownMeta), obj("", "", "", nullMeta),
			types.StringUnknown(), types.StringValue("s1")},
		{"driver not known yet: status unknown", prior, obj("?", "?", "?", unknownMeta), obj("?", "", "", nullMeta),
			types.StringUnknown(), types.StringValue("s1")},
		{"setting configured: its value", prior, obj("d1", "s2", "?", unknownMeta), obj("d1", "s2", "", nullMeta),
			types.StringValue("running"), types.StringValue("s2")},
		{"setting not known yet stays unknown", prior, obj("d1", "?", "?", unknownMeta), obj("d1", "?", "", nullMeta),
			types.StringValue("running"), types.StringUnknown()},
	}
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			state := tfsdk.State{Schema: keepSchema, Raw: c.state}
			plan := tfsdk.Plan{Schema: keepSchema, Raw: c.plan}
			config := tfsdk.Config{Schema: keepSchema, Raw: c.config}
			get := func(raw tfsdk.State, name string) types.String {
				var v types.String
				if d := raw.GetAttribute(ctx, path.Root(name), &v); d.HasError() {
					t.Fatal(d)
				}
				return v
			}
			stateStatus, stateSetting := types.StringNull(), types.StringNull()
			if !c.state.IsNull() {
				stateStatus, stateSetting = get(state, "status"), get(state, "setting")
			}
			var planStatus, planSetting, cfgSetting types.String
			plan.GetAttribute(ctx, path.Root("status"), &planStatus)
			plan.GetAttribute(ctx, path.Root("setting"), &planSetting)
			config.GetAttribute(ctx, path.Root("setting"), &cfgSetting)

			resp := &planmodifier.StringResponse{PlanValue: planStatus}
			KeepUnlessChanged("driver").PlanModifyString(ctx, planmodifier.StringRequest{
				Path: path.Root("status"), State: state, Plan: plan, Config: config,
				StateValue: stateStatus, PlanValue: planStatus, ConfigValue: types.StringNull(),
			}, resp)
			if resp.Diagnostics.HasError() || !resp.PlanValue.Equal(c.wantStatus) {
				t.Errorf("status planned %v (%v), want %v", resp.PlanValue, resp.Diagnostics, c.wantStatus)
			}
			resp = &planmodifier.StringResponse{PlanValue: planSetting}
			KeepUnlessChanged().PlanModifyString(ctx, planmodifier.StringRequest{
				Path: path.Root("setting"), State: state, Plan: plan, Config: config,
				StateValue: stateSetting, PlanValue: planSetting, ConfigValue: cfgSetting,
			}, resp)
			if resp.Diagnostics.HasError() || !resp.PlanValue.Equal(c.wantSetting) {
				t.Errorf("setting planned %v (%v), want %v", resp.PlanValue, resp.Diagnostics, c.wantSetting)
			}
		})
	}
}

func TestMetadataPlan(t *testing.T) {
	ctx := context.Background()
	prior := obj("d1", "s1", "running", metaValue("t0", "t1"))
	priorMeta := types.ObjectValueMust(MetadataAttrTypes, map[string]attr.Value{
		"creation_timestamp": types.StringValue("t0"), "modification_timestamp": types.StringValue("t1"),
		"created_by": types.StringValue("u"), "modified_by": types.StringValue("u"),
	})
	modify := func(plan tftypes.Value) (types.Object, bool) {
		resp := &planmodifier.ObjectResponse{PlanValue: types.ObjectUnknown(MetadataAttrTypes)}
		metadataPlan{args: []string{"driver"}}.PlanModifyObject(ctx, planmodifier.ObjectRequest{
			Path: path.Root("metadata"), State: tfsdk.State{Schema: keepSchema, Raw: prior},
			Plan: tfsdk.Plan{Schema: keepSchema, Raw: plan}, Config: tfsdk.Config{Schema: keepSchema, Raw: plan},
			StateValue: priorMeta, PlanValue: types.ObjectUnknown(MetadataAttrTypes), ConfigValue: types.ObjectNull(MetadataAttrTypes),
		}, resp)
		return resp.PlanValue, resp.Diagnostics.HasError()
	}
	if got, failed := modify(obj("d1", "s1", "?", unknownMeta)); failed || !got.Equal(priorMeta) {
		t.Errorf("no PUT planned: metadata %v, want the prior %v", got, priorMeta)
	}
	got, failed := modify(obj("d2", "s1", "?", unknownMeta))
	want := types.ObjectValueMust(MetadataAttrTypes, map[string]attr.Value{
		"creation_timestamp": types.StringValue("t0"), "modification_timestamp": types.StringUnknown(),
		"created_by": types.StringValue("u"), "modified_by": types.StringUnknown(),
	})
	if failed || !got.Equal(want) {
		t.Errorf("PUT planned: metadata %v, want %v", got, want)
	}
}

// Kept adds the modifier to every attribute kind the provider's computed attributes use,
// and panics on any other (so a new kind is taught here, not silently left unknown).
func TestKept(t *testing.T) {
	for _, a := range []schema.Attribute{
		schema.StringAttribute{Computed: true}, schema.BoolAttribute{Computed: true}, schema.Int64Attribute{Computed: true},
		schema.ListAttribute{Computed: true, ElementType: types.StringType}, schema.SetAttribute{Computed: true, ElementType: types.StringType},
		schema.MapAttribute{Computed: true, ElementType: types.StringType}, StateDetailsSchema("d"), MetadataSchema(),
	} {
		kept := Kept(a, "x")
		n := 0
		switch v := kept.(type) {
		case schema.StringAttribute:
			n = len(v.PlanModifiers)
		case schema.BoolAttribute:
			n = len(v.PlanModifiers)
		case schema.Int64Attribute:
			n = len(v.PlanModifiers)
		case schema.ListAttribute:
			n = len(v.PlanModifiers)
		case schema.SetAttribute:
			n = len(v.PlanModifiers)
		case schema.MapAttribute:
			n = len(v.PlanModifiers)
		case schema.ListNestedAttribute:
			n = len(v.PlanModifiers)
		case schema.SingleNestedAttribute:
			n = len(v.PlanModifiers) - 1 // MetadataSchema has its own
		}
		if n != 1 {
			t.Errorf("%T: %d modifiers added, want 1", a, n)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("Kept of an unsupported kind must panic")
		}
	}()
	Kept(schema.Float64Attribute{Computed: true})
}
