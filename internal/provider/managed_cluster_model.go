package provider

import (
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

// managedClusterValues are the attributes astra_managed_cluster shares with its data
// source: the arguments plus the managed view of the cluster (the same names as
// astra_cluster's computed attributes).
type managedClusterValues struct {
	ID                         types.String `tfsdk:"id"`
	ClusterID                  types.String `tfsdk:"cluster_id"`
	DefaultStorageClass        types.String `tfsdk:"default_storage_class"`
	TridentManagedStateDesired types.String `tfsdk:"trident_managed_state_desired"`
	DefaultBucketID            types.String `tfsdk:"default_bucket_id"`
	Name                       types.String `tfsdk:"name"`
	CloudID                    types.String `tfsdk:"cloud_id"`
	CredentialID               types.String `tfsdk:"credential_id"`
	PrivateRouteID             types.String `tfsdk:"private_route_id"`
	clusterStatusValues
	ManagedStateDetails types.List `tfsdk:"managed_state_details"`
	AccHost             types.Bool `tfsdk:"acc_host"`
}

// managedClusterModel is the astra_managed_cluster resource.
type managedClusterModel struct {
	managedClusterValues
	Timeouts       timeouts.Value `tfsdk:"timeouts"`
	WaitForRunning types.Bool     `tfsdk:"wait_for_running"`
}

// managedClusterAPIFields maps the API's field names in invalidFields to attributes.
var managedClusterAPIFields = map[string]string{
	"id": "cluster_id", "defaultStorageClass": "default_storage_class",
	"tridentManagedStateDesired": "trident_managed_state_desired", "defaultBucketID": "default_bucket_id",
}

// managedClusterFrom converts the service's managed view of a cluster for state.
func managedClusterFrom(m *astra.ManagedCluster) managedClusterValues {
	return managedClusterValues{
		ID:                         types.StringValue(m.ID),
		ClusterID:                  types.StringValue(m.ID),
		DefaultStorageClass:        attrs.OptionalString(m.DefaultStorageClass),
		TridentManagedStateDesired: attrs.OptionalString(m.TridentManagedStateDesired),
		DefaultBucketID:            attrs.OptionalString(m.DefaultBucketID),
		Name:                       attrs.OptionalString(m.Name),
		CloudID:                    attrs.OptionalString(m.CloudID),
		CredentialID:               attrs.OptionalString(m.CredentialID),
		PrivateRouteID:             attrs.OptionalString(m.PrivateRouteID),
		clusterStatusValues:        clusterStatusFrom(m.ClusterStatus, m.Metadata),
		ManagedStateDetails:        attrs.StateDetailsValue(m.ManagedStateDetails),
		AccHost:                    attrs.FlagBool(m.AccHost),
	}
}

// managedClusterCreateRequest is the POST body for a planned managed cluster. Unset and
// unknown optional arguments are left out, so the service applies its defaults (the
// cluster's Kubernetes default storage class, among others).
func managedClusterCreateRequest(plan managedClusterValues) astra.ManagedClusterCreate {
	return astra.ManagedClusterCreate{
		ID:                         plan.ClusterID.ValueString(),
		DefaultStorageClass:        attrs.StringOrEmpty(plan.DefaultStorageClass),
		TridentManagedStateDesired: attrs.StringOrEmpty(plan.TridentManagedStateDesired),
		DefaultBucketID:            attrs.StringOrEmpty(plan.DefaultBucketID),
	}
}

// applyManagedClusterPlan sets the in-place arguments on the managed cluster read from the
// service, so the PUT sends back everything else as it was read. An argument left unset
// (unknown in the plan) keeps the service's value.
func applyManagedClusterPlan(m *astra.ManagedCluster, plan managedClusterValues) {
	if s := attrs.StringOrEmpty(plan.DefaultStorageClass); s != "" {
		m.DefaultStorageClass = s
	}
	if s := attrs.StringOrEmpty(plan.TridentManagedStateDesired); s != "" {
		m.TridentManagedStateDesired = s
	}
	if s := attrs.StringOrEmpty(plan.DefaultBucketID); s != "" {
		m.DefaultBucketID = s
	}
}

// isManaged reports whether the managed view still describes a managed cluster: the
// service may keep answering for a cluster it no longer manages (public clouds).
func isManaged(m *astra.ManagedCluster) bool {
	switch strings.ToLower(m.ManagedState) {
	case "unmanaged", "ineligible":
		return false
	}
	return true
}

// unmanagedOrGone is the wait condition of destroy: the cluster record is no longer
// managed, or gone (nil: a 404).
func unmanagedOrGone(c *astra.Cluster) (bool, error) {
	if c == nil {
		return true, nil
	}
	return astra.ClusterUnmanaged(c)
}
