package provider

import (
	"sort"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

// appValues are the attributes astra_app shares with the astra_apps data source.
type appValues struct {
	ID                       types.String `tfsdk:"id"`
	Name                     types.String `tfsdk:"name"`
	ClusterID                types.String `tfsdk:"cluster_id"`
	NamespaceScopedResources types.Set    `tfsdk:"namespace_scoped_resources"`
	ClusterScopedResources   types.Set    `tfsdk:"cluster_scoped_resources"`
	Labels                   types.Map    `tfsdk:"labels"`
	State                    types.String `tfsdk:"state"`
	StateDetails             types.List   `tfsdk:"state_details"`
	ProtectionState          types.String `tfsdk:"protection_state"`
	ProtectionStateDetails   types.List   `tfsdk:"protection_state_details"`
	Namespaces               types.List   `tfsdk:"namespaces"`
	AppDetectedType          types.String `tfsdk:"app_detected_type"`
	ClusterName              types.String `tfsdk:"cluster_name"`
	SourceAppID              types.String `tfsdk:"source_app_id"`
	Metadata                 types.Object `tfsdk:"metadata"`
}

// appModel is the astra_app resource.
type appModel struct {
	appValues
	Source       types.Object   `tfsdk:"source"` // a clone's origin: only creation reads it
	Timeouts     timeouts.Value `tfsdk:"timeouts"`
	WaitForReady types.Bool     `tfsdk:"wait_for_ready"`
	// DeleteBackupsOnDestroy: destroy deletes the app's backups first (app_destroy_backups.go).
	DeleteBackupsOnDestroy types.Bool `tfsdk:"delete_backups_on_destroy"`
}

// appAPIFields maps the API's field names in invalidFields to attributes.
var appAPIFields = map[string]string{
	"name": "name", "clusterID": "cluster_id", "namespaceScopedResources": "namespace_scoped_resources",
	"clusterScopedResources": "cluster_scoped_resources", "sourceAppID": "source.app_id", "snapshotID": "source.snapshot_id",
	"backupID": "source.backup_id", "namespaceMapping": "source.namespace_mapping", "storageClassMapping": "source.storage_class_mapping",
}

// appFrom converts the service's app for state; prior keeps a configuration's null labels.
func appFrom(a *astra.App, prior appValues) appValues {
	return appValues{
		ID:                       types.StringValue(a.ID),
		Name:                     types.StringValue(a.Name),
		ClusterID:                attrs.OptionalString(a.ClusterID),
		NamespaceScopedResources: appNamespacesValue(a.NamespaceScopedResources),
		ClusterScopedResources:   appClusterScopeValue(a.ClusterScopedResources),
		Labels:                   attrs.LabelsValue(a.Metadata.Labels, prior.Labels),
		State:                    types.StringValue(a.State),
		StateDetails:             attrs.StateDetailsValue(a.StateDetails),
		ProtectionState:          types.StringValue(a.ProtectionState),
		ProtectionStateDetails:   attrs.StateDetailsValue(a.ProtectionStateDetails),
		Namespaces:               attrs.StringList(a.Namespaces),
		AppDetectedType:          attrs.OptionalString(a.AppDetectedType),
		ClusterName:              attrs.OptionalString(a.ClusterName),
		SourceAppID:              attrs.OptionalString(a.SourceAppID),
		Metadata:                 attrs.MetadataValue(a.Metadata),
	}
}

func selectorsValue(sels []string) types.Set {
	elems := make([]attr.Value, 0, len(sels))
	for _, s := range sels {
		elems = append(elems, types.StringValue(s))
	}
	return types.SetValueMust(types.StringType, elems)
}

func appNamespacesValue(in []astra.NamespaceScope) types.Set {
	elems := make([]attr.Value, 0, len(in))
	for _, r := range in {
		elems = append(elems, types.ObjectValueMust(appNamespaceAttrTypes, map[string]attr.Value{
			"namespace": types.StringValue(r.Namespace), "label_selectors": selectorsValue(r.LabelSelectors),
		}))
	}
	return types.SetValueMust(types.ObjectType{AttrTypes: appNamespaceAttrTypes}, elems)
}

func appClusterScopeValue(in []astra.ClusterScope) types.Set {
	elems := make([]attr.Value, 0, len(in))
	for _, r := range in {
		elems = append(elems, types.ObjectValueMust(appClusterScopeAttrTypes, map[string]attr.Value{
			"group": types.StringValue(r.GVK.Group), "version": types.StringValue(r.GVK.Version),
			"kind": types.StringValue(r.GVK.Kind), "label_selectors": selectorsValue(r.LabelSelectors),
		}))
	}
	return types.SetValueMust(types.ObjectType{AttrTypes: appClusterScopeAttrTypes}, elems)
}

// objectStrings reads a set of strings of a scope entry, sorted (a stable request); nil
// when null or unknown.
func objectStrings(o types.Object, name string) []string {
	s, ok := o.Attributes()[name].(types.Set)
	if !ok || s.IsNull() || s.IsUnknown() {
		return nil
	}
	return sortedStrings(s)
}

// setObjects are the objects of a set of nested objects, in the set's order.
func setObjects(s types.Set) []types.Object {
	if s.IsNull() || s.IsUnknown() {
		return nil
	}
	out := make([]types.Object, 0, len(s.Elements()))
	for _, e := range s.Elements() {
		if o, ok := e.(types.Object); ok {
			out = append(out, o)
		}
	}
	return out
}

// appNamespaceScopes reads namespace_scoped_resources.
func appNamespaceScopes(s types.Set) []astra.NamespaceScope {
	var out []astra.NamespaceScope
	for _, o := range setObjects(s) {
		out = append(out, astra.NamespaceScope{Namespace: objectString(o, "namespace"), LabelSelectors: objectStrings(o, "label_selectors")})
	}
	return out
}

// appCreateRequest is the POST body of a planned app.
func appCreateRequest(plan appValues) astra.AppCreate {
	var cs []astra.ClusterScope
	for _, o := range setObjects(plan.ClusterScopedResources) {
		cs = append(cs, astra.ClusterScope{
			GVK:            astra.GVK{Group: objectString(o, "group"), Version: objectString(o, "version"), Kind: objectString(o, "kind")},
			LabelSelectors: objectStrings(o, "label_selectors"),
		})
	}
	return astra.AppCreate{
		Name: plan.Name.ValueString(), ClusterID: plan.ClusterID.ValueString(),
		NamespaceScopedResources: appNamespaceScopes(plan.NamespaceScopedResources), ClusterScopedResources: cs,
		Labels: attrs.LabelsFromMap(plan.Labels),
	}
}

// applyAppPlan sets, on the app as just read, what the plan changes (planForFreshCopy: an
// unknown value keeps the read one): its name and user labels. Everything else goes back
// as read.
func applyAppPlan(current *astra.App, plan appValues) {
	if isSet(plan.Name) {
		current.Name = plan.Name.ValueString()
	}
	current.Metadata.Labels = attrs.ApplyLabels(current.Metadata.Labels, plan.Labels)
}

// appSource is `source` read from a plan.
type appSource struct {
	AppID, SnapshotID, BackupID           string
	NamespaceMapping, StorageClassMapping []astra.Mapping
}

// appSourceOf reads `source`; ok is false when it is null, or not known yet.
func appSourceOf(o types.Object) (appSource, bool) {
	if o.IsNull() || o.IsUnknown() {
		return appSource{}, false
	}
	mappings := func(name string) []astra.Mapping {
		s, _ := o.Attributes()[name].(types.Set)
		var out []astra.Mapping
		for _, m := range setObjects(s) {
			out = append(out, astra.Mapping{Source: objectString(m, "source"), Destination: objectString(m, "destination")})
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Source < out[j].Source }) // a stable request
		return out
	}
	return appSource{
		AppID: objectString(o, "app_id"), SnapshotID: objectString(o, "snapshot_id"), BackupID: objectString(o, "backup_id"),
		NamespaceMapping: mappings("namespace_mapping"), StorageClassMapping: mappings("storage_class_mapping"),
	}, true
}

// appCloneRequest is the POST body of a planned clone of src, an app of sourceClusterID.
func appCloneRequest(plan appValues, src appSource, sourceClusterID string) astra.AppClone {
	return astra.AppClone{
		Name: plan.Name.ValueString(), ClusterID: plan.ClusterID.ValueString(), SourceAppID: src.AppID,
		SourceClusterID: sourceClusterID, SnapshotID: src.SnapshotID, BackupID: src.BackupID,
		NamespaceMapping: src.NamespaceMapping, StorageClassMapping: src.StorageClassMapping, Labels: attrs.LabelsFromMap(plan.Labels),
	}
}

// cloneNamespaces is the scope a clone named cloneName of source gets: each of its
// namespaces renamed by the mapping, with its label selectors. Without a mapping, a source
// of one namespace is cloned into a namespace named after the clone (NetApp's toolkit docs,
// clone: "the namespace is the same value as cloneAppName"); checkClone refuses a source of
// several without one.
func cloneNamespaces(source []astra.NamespaceScope, mapping []astra.Mapping, cloneName string) []astra.NamespaceScope {
	if len(mapping) == 0 && len(source) == 1 {
		mapping = []astra.Mapping{{Source: source[0].Namespace, Destination: cloneName}}
	}
	to := map[string]string{}
	for _, m := range mapping {
		to[m.Source] = m.Destination
	}
	out := make([]astra.NamespaceScope, 0, len(source))
	for _, r := range source {
		ns := r.Namespace
		if d, ok := to[ns]; ok {
			ns = d
		}
		out = append(out, astra.NamespaceScope{Namespace: ns, LabelSelectors: r.LabelSelectors})
	}
	return out
}
