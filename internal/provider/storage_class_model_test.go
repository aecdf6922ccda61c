package provider

import (
	"testing"

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
	if objectAttr(t, list, 0, "name") != "ontap-gold" || objectAttr(t, list, 0, "is_default") != "true" ||
		objectAttr(t, list, 0, "allow_volume_expansion") != "true" {
		t.Errorf("first item (sorted by name) = %v", list.Elements()[0])
	}
	if objectAttr(t, list, 1, "is_default") != "false" || objectAttr(t, list, 1, "available") != "<null>" {
		t.Errorf("an absent isDefault is false, an absent available is null: %v", list.Elements()[1])
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
