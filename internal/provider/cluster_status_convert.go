package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

// clusterStatusValues are the computed attributes that astra_cluster and
// astra_managed_cluster (and their data sources) both show: what the service reports about
// a cluster in either facet (astra.ClusterStatus), converted once.
type clusterStatusValues struct {
	State                      types.String `tfsdk:"state"`
	StateUnready               types.List   `tfsdk:"state_unready"`
	ManagedState               types.String `tfsdk:"managed_state"`
	ManagedStateUnready        types.List   `tfsdk:"managed_state_unready"`
	ManagedTimestamp           types.String `tfsdk:"managed_timestamp"`
	ProtectionState            types.String `tfsdk:"protection_state"`
	ProtectionStateDetails     types.List   `tfsdk:"protection_state_details"`
	RestoreTargetSupported     types.Bool   `tfsdk:"restore_target_supported"`
	SnapshotSupported          types.Bool   `tfsdk:"snapshot_supported"`
	TridentVersion             types.String `tfsdk:"trident_version"`
	ACPVersion                 types.String `tfsdk:"acp_version"`
	TridentManagedState        types.String `tfsdk:"trident_managed_state"`
	TridentManagedStateDetails types.List   `tfsdk:"trident_managed_state_details"`
	TridentManagedStateAllowed types.List   `tfsdk:"trident_managed_state_allowed"`
	InUse                      types.Bool   `tfsdk:"in_use"`
	ClusterType                types.String `tfsdk:"cluster_type"`
	ClusterVersion             types.String `tfsdk:"cluster_version"`
	ClusterVersionString       types.String `tfsdk:"cluster_version_string"`
	ClusterCreationTimestamp   types.String `tfsdk:"cluster_creation_timestamp"`
	Namespaces                 types.List   `tfsdk:"namespaces"`
	Location                   types.String `tfsdk:"location"`
	IsMultizonal               types.Bool   `tfsdk:"is_multizonal"`
	APIServiceID               types.String `tfsdk:"api_service_id"`
	Metadata                   types.Object `tfsdk:"metadata"`
}

// clusterStatusFrom converts what either facet of a cluster reports. State and managed
// state are required members of both facets' answers; the rest may be absent.
func clusterStatusFrom(s astra.ClusterStatus, metadata astra.Metadata) clusterStatusValues {
	return clusterStatusValues{
		State:                      types.StringValue(s.State),
		StateUnready:               attrs.StringList(s.StateUnready),
		ManagedState:               types.StringValue(s.ManagedState),
		ManagedStateUnready:        attrs.StringList(s.ManagedStateUnready),
		ManagedTimestamp:           attrs.OptionalString(s.ManagedTimestamp),
		ProtectionState:            attrs.OptionalString(s.ProtectionState),
		ProtectionStateDetails:     attrs.StateDetailsValue(s.ProtectionStateDetails),
		RestoreTargetSupported:     attrs.OptionalBool(s.RestoreTargetSupported),
		SnapshotSupported:          attrs.OptionalBool(s.SnapshotSupported),
		TridentVersion:             attrs.OptionalString(s.TridentVersion),
		ACPVersion:                 attrs.OptionalString(s.ACPVersion),
		TridentManagedState:        attrs.OptionalString(s.TridentManagedState),
		TridentManagedStateDetails: attrs.StateDetailsValue(s.TridentManagedStateDetails),
		TridentManagedStateAllowed: attrs.StringList(s.TridentManagedStateAllowed),
		InUse:                      attrs.FlagBool(s.InUse),
		ClusterType:                attrs.OptionalString(s.ClusterType),
		ClusterVersion:             attrs.OptionalString(s.ClusterVersion),
		ClusterVersionString:       attrs.OptionalString(s.ClusterVersionString),
		ClusterCreationTimestamp:   attrs.OptionalString(s.ClusterCreationTimestamp),
		Namespaces:                 attrs.StringList(s.Namespaces),
		Location:                   attrs.OptionalString(s.Location),
		IsMultizonal:               attrs.OptionalBool(s.IsMultizonal),
		APIServiceID:               attrs.OptionalString(s.APIServiceID),
		Metadata:                   attrs.MetadataValue(metadata),
	}
}
