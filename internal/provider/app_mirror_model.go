package provider

import (
	"context"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

// appMirrorValues are a relationship's attributes, shared by astra_app_mirror and the items
// of astra_app_mirrors.
type appMirrorValues struct {
	ID                      types.String `tfsdk:"id"`
	SourceAppID             types.String `tfsdk:"source_app_id"`
	DestinationClusterID    types.String `tfsdk:"destination_cluster_id"`
	NamespaceMapping        types.List   `tfsdk:"namespace_mapping"`
	DestinationStorageClass types.String `tfsdk:"destination_storage_class"`
	DesiredState            types.String `tfsdk:"desired_state"`
	DestinationAppID        types.String `tfsdk:"destination_app_id"`
	SourceClusterID         types.String `tfsdk:"source_cluster_id"`
	CurrentSourceAppID      types.String `tfsdk:"current_source_app_id"`
	State                   types.String `tfsdk:"state"`
	StateDetails            types.List   `tfsdk:"state_details"`
	TransferState           types.String `tfsdk:"transfer_state"`
	TransferStateDetails    types.List   `tfsdk:"transfer_state_details"`
	LastTransferTime        types.String `tfsdk:"last_transfer_time"`
	HealthState             types.String `tfsdk:"health_state"`
	HealthStateDetails      types.List   `tfsdk:"health_state_details"`
	Metadata                types.Object `tfsdk:"metadata"`
}

// appMirrorModel is the astra_app_mirror resource.
type appMirrorModel struct {
	appMirrorValues
	Timeouts timeouts.Value `tfsdk:"timeouts"`
}

// namespacePairType is a namespace_mapping item.
var namespacePairType = types.ObjectType{AttrTypes: map[string]attr.Type{"source": types.StringType, "destination": types.StringType}}

type namespacePair struct {
	Source      types.String `tfsdk:"source"`
	Destination types.String `tfsdk:"destination"`
}

// mirrorSides is the relationship seen from the side the configuration calls its source
// (app): the service's answer as written, or with its two sides swapped after a reverse.
type mirrorSides struct {
	sourceApp, sourceCluster, destinationApp, destinationCluster string
	reversed                                                     bool
}

// sidesOf is m seen with app as the source; app "" (an import) takes the service's source.
func sidesOf(m *astra.AppMirror, app string) mirrorSides {
	if app != "" && app != m.SourceAppID && app == m.DestinationAppID {
		return mirrorSides{sourceApp: m.DestinationAppID, sourceCluster: m.DestinationClusterID,
			destinationApp: m.SourceAppID, destinationCluster: m.SourceClusterID, reversed: true}
	}
	return mirrorSides{sourceApp: m.SourceAppID, sourceCluster: m.SourceClusterID,
		destinationApp: m.DestinationAppID, destinationCluster: m.DestinationClusterID}
}

// appMirrorFrom converts the service's relationship, seen from prior's source_app_id (the
// direction the configuration asked for; a reverse leaves it), keeping what the service
// does not read back as the configuration wrote it (the mapping and storage class).
func appMirrorFrom(m *astra.AppMirror, prior appMirrorValues) appMirrorValues {
	sides := sidesOf(m, prior.SourceAppID.ValueString())
	out := appMirrorValues{
		ID: types.StringValue(m.ID), SourceAppID: attrs.OptionalString(sides.sourceApp),
		DestinationClusterID: attrs.OptionalString(sides.destinationCluster),
		NamespaceMapping:     prior.NamespaceMapping, DestinationStorageClass: prior.DestinationStorageClass,
		DesiredState: types.StringValue(desiredStateOf(m)), DestinationAppID: attrs.OptionalString(sides.destinationApp),
		SourceClusterID: attrs.OptionalString(sides.sourceCluster), CurrentSourceAppID: attrs.OptionalString(m.SourceAppID),
		State: attrs.OptionalString(m.State), StateDetails: attrs.StateDetailsValue(m.StateDetails),
		TransferState: attrs.OptionalString(m.TransferState), TransferStateDetails: attrs.StateDetailsValue(m.TransferStateDetails),
		LastTransferTime: types.StringNull(), HealthState: attrs.OptionalString(m.HealthState),
		HealthStateDetails: attrs.StateDetailsValue(m.HealthStateDetails), Metadata: attrs.MetadataValue(m.Metadata),
	}
	if last := m.LastTransfer(); !last.IsZero() {
		out.LastTransferTime = types.StringValue(last.UTC().Format(time.RFC3339))
	}
	if out.NamespaceMapping.IsNull() || out.NamespaceMapping.IsUnknown() {
		out.NamespaceMapping = types.ListNull(namespacePairType)
	}
	if out.DestinationStorageClass.IsUnknown() {
		out.DestinationStorageClass = types.StringNull()
	}
	return out
}

// desiredStateOf is the service's stateDesired as the configuration writes it: failed_over
// while it asks for or holds a failover, else established.
func desiredStateOf(m *astra.AppMirror) string {
	desired := m.StateDesired
	if desired == "" {
		desired = m.State
	}
	switch {
	case strings.EqualFold(desired, astra.MirrorFailedOver), strings.EqualFold(desired, astra.MirrorFailingOver):
		return mirrorWantFailedOver
	}
	return mirrorWantEstablished
}

// appMirrorCreateRequest is the POST body of a planned relationship; sourceCluster is the
// source app's cluster (the mapping names each cluster).
func appMirrorCreateRequest(ctx context.Context, plan appMirrorValues, sourceCluster string, diags *diag.Diagnostics) astra.AppMirrorCreate {
	dest := plan.DestinationClusterID.ValueString()
	out := astra.AppMirrorCreate{SourceAppID: plan.SourceAppID.ValueString(), DestinationClusterID: dest}
	if isSet(plan.NamespaceMapping) {
		var pairs []namespacePair
		diags.Append(plan.NamespaceMapping.ElementsAs(ctx, &pairs, false)...)
		src := astra.AppMirrorNamespaces{ClusterID: sourceCluster}
		dst := astra.AppMirrorNamespaces{ClusterID: dest}
		for _, p := range pairs {
			src.Namespaces = append(src.Namespaces, p.Source.ValueString())
			dst.Namespaces = append(dst.Namespaces, p.Destination.ValueString())
		}
		out.NamespaceMapping = []astra.AppMirrorNamespaces{src, dst}
	}
	if isSet(plan.DestinationStorageClass) {
		out.StorageClasses = []astra.AppMirrorStorageClass{{ClusterID: dest, StorageClassName: plan.DestinationStorageClass.ValueString()}}
	}
	return out
}

// mirrorGone: a relationship deleting or deleted is gone for Terraform.
func mirrorGone(m *astra.AppMirror) bool {
	return strings.EqualFold(m.State, astra.MirrorDeleting) || strings.EqualFold(m.State, astra.MirrorDeleted) ||
		strings.EqualFold(m.StateDesired, astra.MirrorDeleted)
}
