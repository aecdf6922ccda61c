package provider

import (
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

// storageClassAttrTypes is the object type of one item of astra_storage_classes.
var storageClassAttrTypes = map[string]attr.Type{
	"id":                     types.StringType,
	"name":                   types.StringType,
	"provisioner":            types.StringType,
	"available":              types.StringType,
	"allow_volume_expansion": types.StringType,
	"reclaim_policy":         types.StringType,
	"volume_binding_mode":    types.StringType,
	"is_default":             types.BoolType,
}

// storageClassValue converts one storage class. is_default is always known: the service
// only ever sends "true", and leaves the field out otherwise.
func storageClassValue(sc astra.StorageClass) types.Object {
	return types.ObjectValueMust(storageClassAttrTypes, map[string]attr.Value{
		"id":                     types.StringValue(sc.ID),
		"name":                   types.StringValue(sc.Name),
		"provisioner":            attrs.OptionalString(sc.Provisioner),
		"available":              attrs.OptionalString(sc.Available),
		"allow_volume_expansion": attrs.OptionalString(sc.AllowVolumeExpansion),
		"reclaim_policy":         attrs.OptionalString(sc.ReclaimPolicy),
		"volume_binding_mode":    attrs.OptionalString(sc.VolumeBindingMode),
		"is_default":             attrs.FlagBool(sc.IsDefault),
	})
}

// storageClassesValue converts a cluster's storage classes, sorted by name so the list
// does not move when the service answers in another order.
func storageClassesValue(classes []astra.StorageClass) types.List {
	sorted := sortedStorageClasses(classes)
	elems := make([]attr.Value, 0, len(sorted))
	for _, sc := range sorted {
		elems = append(elems, storageClassValue(sc))
	}
	return types.ListValueMust(types.ObjectType{AttrTypes: storageClassAttrTypes}, elems)
}

// defaultStorageClassID is the ID of the class Kubernetes marks as default, or null.
func defaultStorageClassID(classes []astra.StorageClass) types.String {
	for _, sc := range sortedStorageClasses(classes) {
		if sc.IsDefault.Value() {
			return types.StringValue(sc.ID)
		}
	}
	return types.StringNull()
}

func sortedStorageClasses(classes []astra.StorageClass) []astra.StorageClass {
	out := append([]astra.StorageClass(nil), classes...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// findStorageClass looks a storage class up by ID; ok is false when the cluster has none
// with that ID.
func findStorageClass(classes []astra.StorageClass, id string) (astra.StorageClass, bool) {
	for _, sc := range classes {
		if sc.ID == id {
			return sc, true
		}
	}
	return astra.StorageClass{}, false
}

// storageClassChoices lists "name (id)" of every class, for the error that refuses a
// default storage class the cluster does not have.
func storageClassChoices(classes []astra.StorageClass) string {
	sorted := sortedStorageClasses(classes)
	if len(sorted) == 0 {
		return "the cluster reports no storage classes"
	}
	parts := make([]string, 0, len(sorted))
	for _, sc := range sorted {
		parts = append(parts, sc.Name+" ("+sc.ID+")")
	}
	return "valid storage classes: " + strings.Join(parts, ", ")
}
