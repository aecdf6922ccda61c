package provider

import (
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
	Metadata                 types.Object `tfsdk:"metadata"`
}

// appModel is the astra_app resource.
type appModel struct {
	appValues
	Timeouts     timeouts.Value `tfsdk:"timeouts"`
	WaitForReady types.Bool     `tfsdk:"wait_for_ready"`
}

// appAPIFields maps the API's field names in invalidFields to attributes.
var appAPIFields = map[string]string{
	"name": "name", "clusterID": "cluster_id", "namespaceScopedResources": "namespace_scoped_resources",
	"clusterScopedResources": "cluster_scoped_resources",
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
