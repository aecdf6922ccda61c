package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
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

// clusterComputedAttributes are the fields of the service's answer, snake_cased, as
// astra_cluster and astra_managed_cluster both show them. drivenBy names, per attribute,
// the arguments of the resource whose change can change it (the plan shows it unknown
// only then); putArgs are the arguments whose change sends a PUT, which moves
// metadata.modification_timestamp. The ID never changes.
func clusterComputedAttributes(drivenBy func(attribute string) []string, putArgs []string) map[string]schema.Attribute {
	out := map[string]schema.Attribute{
		"state": computedString("Operational state: `pending`, `discovering`, `provisioning`, `running`, `failed`, " +
			"`removed` (not currently accessible, for example after its kubeconfig expired) or `unknown`."),
		"state_unready": computedStrings("Reasons the cluster is not `running`, or why it is `failed` or `removed`."),
		"managed_state": computedString("Management state: `pending`, `ineligible`, `unmanaged`, `managing`, `managed` " +
			"(or `deleting` with `api_version` 1.7). An `astra_managed_cluster` brings the cluster under management."),
		"managed_state_unready": computedStrings("Reasons the cluster is ineligible for management, or non-fatal management errors."),
		"managed_timestamp":     computedString("When the cluster was brought under management (ISO 8601); only while managed."),
		"protection_state": computedString("Protection state: `full`, `partial` or `atRisk`, from the snapshot support of the " +
			"default storage class. It moves with that class: `astra_managed_cluster` plans it unknown when its " +
			"`default_storage_class` changes, while `astra_cluster` holds what its last refresh saw (an output that must " +
			"show the current value reads the `astra_cluster` data source)."),
		"protection_state_details": attrs.StateDetailsSchema("Explanations of `protection_state`."),
		"restore_target_supported": computedBool("Whether the cluster can be the target of a restore."),
		"snapshot_supported":       computedBool("Whether the cluster supports snapshots."),
		"trident_version":          computedString("Version of Astra Trident on the cluster, when installed."),
		"acp_version":              computedString("Version of Astra Control Provisioner on the cluster, when installed (`api_version` 1.6 or later)."),
		"trident_managed_state":    computedString("Whether Astra Control manages Trident on the cluster: `managed` or `unmanaged`."),
		"trident_managed_state_desired": computedString("The Trident management Astra Control was asked for: `managed` or " +
			"`unmanaged` (set through `astra_managed_cluster`)."),
		"trident_managed_state_details": attrs.StateDetailsSchema("Explanations of `trident_managed_state`."),
		"trident_managed_state_allowed": computedStrings("The values `trident_managed_state_desired` may take for this cluster."),
		"in_use":                        computedBool("Whether the cluster is managed and has managed applications (then it cannot be unmanaged)."),
		"cluster_type": computedString("Kind of cluster detected: `gke`, `aks`, `eks`, `rke`, `tanzu`, `openshift`, " +
			"`anthos` or `kubernetes`."),
		"cluster_version":            computedString("Kubernetes version of the cluster, such as `1.29`."),
		"cluster_version_string":     computedString("Full Kubernetes version string of the cluster, such as `v1.29.4`."),
		"cluster_creation_timestamp": computedString("When the Kubernetes cluster itself was created (ISO 8601), as reported by it."),
		"namespaces":                 computedStrings("Namespaces discovered on the cluster; often empty until the cluster is managed."),
		"default_storage_class":      computedString("ID of the cluster's default storage class in Astra Control."),
		"location":                   computedString("Cloud location (region or zone) of the cluster; not reported for private clusters."),
		"is_multizonal":              computedBool("Whether the cluster spans several zones."),
		"api_service_id":             computedString("ID of the cluster's `default/kubernetes` Service, which tells clusters apart."),
	}
	for name, a := range out {
		out[name] = attrs.Kept(a, drivenBy(name)...)
	}
	out["id"] = attrs.Kept(computedString("ID of the cluster in Astra Control (a UUID); also the ID of its managed cluster once managed."))
	out["metadata"] = attrs.MetadataSchema(putArgs...)
	return out
}
