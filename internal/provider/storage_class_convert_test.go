package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

func TestStorageClassesValue(t *testing.T) {
	yes := astra.Bool(true)
	classes := []astra.StorageClass{
		{ID: "id-silver", Name: "ontap-silver", Provisioner: "csi.trident.netapp.io", ReclaimPolicy: "Delete"},
		{ID: "id-gold", Name: "ontap-gold", IsDefault: &yes, AllowVolumeExpansion: "true", Available: "eligible", VolumeBindingMode: "Immediate"},
	}
	list := storageClassesValue(classes)
	if len(list.Elements()) != 2 {
		t.Fatalf("list = %v", list)
	}
	first := list.Elements()[0].(types.Object).Attributes()
	second := list.Elements()[1].(types.Object).Attributes()
	if first["name"].(types.String).ValueString() != "ontap-gold" || !first["is_default"].(types.Bool).ValueBool() ||
		first["allow_volume_expansion"].(types.String).ValueString() != "true" {
		t.Errorf("first item (sorted by name) = %v", first)
	}
	if second["is_default"].(types.Bool).ValueBool() || second["is_default"].IsNull() || !second["available"].IsNull() {
		t.Errorf("an absent isDefault is false, an absent available is null: %v", second)
	}
	if got := defaultStorageClassID(classes); got.ValueString() != "id-gold" {
		t.Errorf("defaultStorageClassID = %v", got)
	}
	if got := defaultStorageClassID(classes[:1]); !got.IsNull() {
		t.Errorf("no default must be null, got %v", got)
	}
	if empty := storageClassesValue(nil); empty.IsNull() || len(empty.Elements()) != 0 {
		t.Errorf("no classes must be an empty list, got %v", empty)
	}
	if got := storageClassChoices(nil); got != "the cluster reports no storage classes" {
		t.Errorf("storageClassChoices(nil) = %q", got)
	}
}
