package provider

import (
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

// clusterValues are the attributes astra_cluster shares with the astra_cluster data source.
type clusterValues struct {
	ID                    types.String `tfsdk:"id"`
	CloudID               types.String `tfsdk:"cloud_id"`
	Name                  types.String `tfsdk:"name"`
	CredentialID          types.String `tfsdk:"credential_id"`
	PrivateRouteID        types.String `tfsdk:"private_route_id"`
	ConnectorCapabilities types.Set    `tfsdk:"connector_capabilities"`
	AccHost               types.Bool   `tfsdk:"acc_host"`
	Labels                types.Map    `tfsdk:"labels"`
	clusterStatusValues
	TridentManagedStateDesired types.String `tfsdk:"trident_managed_state_desired"`
	DefaultStorageClass        types.String `tfsdk:"default_storage_class"`
}

// clusterModel is the astra_cluster resource: the shared fields plus what only the
// resource has.
type clusterModel struct {
	clusterValues
	WaitForRunning types.Bool     `tfsdk:"wait_for_running"`
	Timeouts       timeouts.Value `tfsdk:"timeouts"`
}

// clusterAPIFields maps the request members the server may name in invalidFields to the
// arguments they come from.
var clusterAPIFields = map[string]string{
	"name":                  "name",
	"credentialID":          "credential_id",
	"privateRouteID":        "private_route_id",
	"connectorCapabilities": "connector_capabilities",
	"accHost":               "acc_host",
	"metadata":              "labels",
	"metadata.labels":       "labels",
}

// clusterCreateRequest builds the POST body from the plan. accHost is sent only when
// true: the API's only value is "true".
func clusterCreateRequest(plan clusterValues) astra.ClusterCreate {
	return astra.ClusterCreate{
		Name:                  attrs.StringOrEmpty(plan.Name),
		CredentialID:          attrs.StringOrEmpty(plan.CredentialID),
		PrivateRouteID:        attrs.StringOrEmpty(plan.PrivateRouteID),
		ConnectorCapabilities: sortedStrings(plan.ConnectorCapabilities),
		AccHost:               accHostRequest(plan.AccHost),
		ClusterType:           attrs.StringOrEmpty(plan.ClusterType),
		Labels:                attrs.LabelsFromMap(plan.Labels),
	}
}

// applyClusterPlan changes, on the object read from the service, only the fields the plan
// changes (an unknown value, planForFreshCopy, keeps the read one), so the PUT sends
// everything else back as it was read (read-only labels and fields the provider does not
// know included).
func applyClusterPlan(current *astra.Cluster, plan clusterValues) {
	// An argument left out of the configuration plans the value read before, so what is
	// sent is what the cluster has; an unknown (never expected at apply) sends it unchanged.
	setString := func(dst *string, v types.String) {
		if !v.IsUnknown() {
			*dst = attrs.StringOrEmpty(v)
		}
	}
	if isSet(plan.Name) {
		current.Name = plan.Name.ValueString()
	}
	setString(&current.CredentialID, plan.CredentialID)
	setString(&current.PrivateRouteID, plan.PrivateRouteID)
	if isSet(plan.ClusterType) {
		current.ClusterType = plan.ClusterType.ValueString()
	}
	if !plan.ConnectorCapabilities.IsUnknown() {
		current.ConnectorCapabilities = sortedStrings(plan.ConnectorCapabilities)
	}
	if !plan.AccHost.IsUnknown() {
		current.AccHost = accHostRequest(plan.AccHost)
	}
	current.Metadata.Labels = attrs.ApplyLabels(current.Metadata.Labels, plan.Labels)
}

// clusterFrom converts the service's cluster for state. prior is what the state or
// plan held before, so that values the service reports as "nothing" ([] capabilities,
// absent accHost, no user labels) keep the user's spelling of nothing and plan no change.
func clusterFrom(c *astra.Cluster, prior clusterValues) clusterValues {
	return clusterValues{
		ID:                         types.StringValue(c.ID),
		CloudID:                    types.StringValue(c.CloudID),
		Name:                       types.StringValue(c.Name),
		CredentialID:               attrs.OptionalString(c.CredentialID),
		PrivateRouteID:             attrs.OptionalString(c.PrivateRouteID),
		ConnectorCapabilities:      attrs.OptionalStringSet(c.ConnectorCapabilities, prior.ConnectorCapabilities),
		AccHost:                    accHostValue(c.AccHost, prior.AccHost),
		Labels:                     attrs.LabelsValue(c.Metadata.Labels, prior.Labels),
		clusterStatusValues:        clusterStatusFrom(c.ClusterStatus, c.Metadata),
		TridentManagedStateDesired: attrs.OptionalString(c.TridentManagedStateDesired),
		DefaultStorageClass:        attrs.OptionalString(c.DefaultStorageClass),
	}
}

// clusterModelFrom is the resource's state for a cluster read from the service. The
// resource's own settings come from prior; after an import (prior null)
// wait_for_running takes its default.
func clusterModelFrom(c *astra.Cluster, prior clusterModel) clusterModel {
	out := clusterModel{
		clusterValues:  clusterFrom(c, prior.clusterValues),
		WaitForRunning: prior.WaitForRunning,
		Timeouts:       prior.Timeouts,
	}
	if out.WaitForRunning.IsNull() || out.WaitForRunning.IsUnknown() {
		out.WaitForRunning = types.BoolValue(true)
	}
	return out
}

// accHostRequest sends accHost only when true, its only defined value.
func accHostRequest(v types.Bool) *astra.Bool {
	if v.IsNull() || v.IsUnknown() || !v.ValueBool() {
		return nil
	}
	return astra.BoolPtr(true)
}

// accHostValue reads accHost, which the service reports only when true: absent reads as
// false after a configured false, and as null when the argument was never set.
func accHostValue(b *astra.Bool, prior types.Bool) types.Bool {
	if b.Value() {
		return types.BoolValue(true)
	}
	if prior.IsNull() || prior.IsUnknown() {
		return types.BoolNull()
	}
	return types.BoolValue(false)
}
