package attrs

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

func TestLabels(t *testing.T) {
	read := []astra.Label{
		{Name: ReadOnlyLabelPrefix + "cloudName", Value: "private"},
		{Name: "team", Value: "old"},
		{Name: "env", Value: "prod"},
	}
	if got := UserLabels(read); !reflect.DeepEqual(got, map[string]string{"team": "old", "env": "prod"}) {
		t.Fatalf("UserLabels = %v", got)
	}

	user := LabelsFromMap(types.MapValueMust(types.StringType, map[string]attr.Value{"team": types.StringValue("new"), "app": types.StringValue("x")}))
	if !reflect.DeepEqual(user, []astra.Label{{Name: "app", Value: "x"}, {Name: "team", Value: "new"}}) {
		t.Fatalf("LabelsFromMap not sorted: %v", user)
	}
	merged := MergeLabels(read, user)
	want := []astra.Label{{Name: ReadOnlyLabelPrefix + "cloudName", Value: "private"}, {Name: "app", Value: "x"}, {Name: "team", Value: "new"}}
	if !reflect.DeepEqual(merged, want) {
		t.Fatalf("MergeLabels = %v, want %v", merged, want)
	}

	onlyReadOnly := read[:1]
	if v := LabelsValue(onlyReadOnly, types.MapNull(types.StringType)); !v.IsNull() {
		t.Fatalf("read-only labels alone must keep a null labels attribute, got %v", v)
	}
	if v := LabelsValue(onlyReadOnly, types.MapValueMust(types.StringType, map[string]attr.Value{})); v.IsNull() || len(v.Elements()) != 0 {
		t.Fatalf("an empty configured map must stay empty, got %v", v)
	}
	if v := LabelsValue(read, types.MapNull(types.StringType)); len(v.Elements()) != 2 {
		t.Fatalf("labels set outside Terraform must show (as drift), got %v", v)
	}
}

func TestReadOnlyLabelValidator(t *testing.T) {
	resp := &validator.MapResponse{}
	noReadOnlyLabels{}.ValidateMap(context.Background(), validator.MapRequest{
		Path:        path.Root("labels"),
		ConfigValue: types.MapValueMust(types.StringType, map[string]attr.Value{ReadOnlyLabelPrefix + "x": types.StringValue("y")}),
	}, resp)
	if !resp.Diagnostics.HasError() || resp.Diagnostics[0].Summary() != "Read-only label" {
		t.Fatalf("diagnostics = %v", resp.Diagnostics)
	}
}

func TestScalars(t *testing.T) {
	tr := astra.Bool(true)
	if !OptionalString("").IsNull() || OptionalString("a").ValueString() != "a" {
		t.Error("OptionalString")
	}
	if !OptionalBool(nil).IsNull() || !OptionalBool(&tr).ValueBool() {
		t.Error("OptionalBool")
	}
	if FlagBool(nil).ValueBool() || FlagBool(nil).IsNull() || !FlagBool(&tr).ValueBool() {
		t.Error("FlagBool")
	}
	if APIBool(types.BoolNull()) != nil || *APIBool(types.BoolValue(false)) != false {
		t.Error("APIBool")
	}
	if l := StringList(nil); l.IsNull() || len(l.Elements()) != 0 {
		t.Error("StringList(nil) must be an empty known list")
	}
	if s := OptionalStringSet(nil, types.SetNull(types.StringType)); !s.IsNull() {
		t.Error("empty answer with null prior must stay null")
	}
	if s := OptionalStringSet([]string{"b", "a"}, types.SetNull(types.StringType)); len(s.Elements()) != 2 {
		t.Error("values set outside Terraform must show")
	}
	got := Strings(types.SetValueMust(types.StringType, []attr.Value{types.StringValue("x")}))
	if !reflect.DeepEqual(got, []string{"x"}) || Strings(types.ListNull(types.StringType)) != nil {
		t.Errorf("Strings = %v", got)
	}
}

func TestStateDetailsAndMetadata(t *testing.T) {
	l := StateDetailsValue([]astra.StateDetail{{Type: "t", Title: "ti", Detail: "d"}})
	if len(l.Elements()) != 1 {
		t.Fatal(l)
	}
	if StateDetailsValue(nil).IsNull() {
		t.Fatal("no details must be an empty list")
	}
	m := MetadataValue(astra.Metadata{CreationTimestamp: "2024-01-01T00:00:00Z", CreatedBy: "u"})
	createdBy, ok := m.Attributes()["created_by"].(types.String)
	if !m.Attributes()["modified_by"].IsNull() || !ok || createdBy.ValueString() != "u" {
		t.Fatal(m)
	}
}

func TestComputedForDataSource(t *testing.T) {
	in := map[string]rschema.Attribute{
		"name":     rschema.StringAttribute{Optional: true, MarkdownDescription: "n"},
		"flag":     rschema.BoolAttribute{Computed: true},
		"caps":     rschema.SetAttribute{Optional: true, ElementType: types.StringType},
		"labels":   LabelsSchema(),
		"details":  StateDetailsSchema("d"),
		"metadata": MetadataSchema(),
		"timeouts": rschema.StringAttribute{Optional: true},
	}
	out := ComputedForDataSource(in, "timeouts")
	if _, ok := out["timeouts"]; ok || len(out) != 6 {
		t.Fatalf("skip failed: %v", out)
	}
	for name, a := range out {
		if !a.IsComputed() || a.IsOptional() || a.IsRequired() {
			t.Errorf("%s must be computed only", name)
		}
	}
	if out["name"].GetMarkdownDescription() != "n" {
		t.Error("description lost")
	}
	object, ok := out["metadata"].(dschema.ObjectAttribute)
	if !ok || object.AttributeTypes["created_by"] == nil {
		t.Error("object attributes must be converted with their types")
	}
}

func TestShortDuration(t *testing.T) {
	for in, want := range map[time.Duration]string{30 * time.Minute: "30m", 2 * time.Hour: "2h", 90 * time.Second: "1m30s", time.Hour + 30*time.Minute: "1h30m"} {
		if got := shortDuration(in); got != want {
			t.Errorf("shortDuration(%v) = %q, want %q", in, got, want)
		}
	}
}
