package provider

import (
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

// managedClusterTimeouts: managing installs Astra's agents on the cluster, which takes
// minutes on a real service.
var managedClusterTimeouts = attrs.TimeoutDefaults{Create: 30 * time.Minute, Update: 20 * time.Minute, Delete: 20 * time.Minute}

// managedClusterPutArgs are the arguments whose change makes an update PUT the managed
// cluster; a change of `timeouts` alone sends nothing.
var managedClusterPutArgs = []string{"default_storage_class", "trident_managed_state_desired", "default_bucket_id"}

// managedClusterDrivenBy says which argument can change a computed attribute of the managed
// view: the Trident fields follow trident_managed_state_desired, the protection fields
// follow the default storage class (protection comes from its snapshot support); nothing
// else this resource sends changes what the service reports.
func managedClusterDrivenBy(attribute string) []string {
	switch attribute {
	case "trident_managed_state", "trident_managed_state_details", "trident_version", "acp_version":
		return []string{"trident_managed_state_desired"}
	case "protection_state", "protection_state_details", "snapshot_supported", "restore_target_supported":
		return []string{"default_storage_class"}
	}
	return nil
}

// managedClusterAttributes are astra_managed_cluster's attributes except `timeouts`. The
// managed view reports the same fields as a cluster, so the computed ones are
// astra_cluster's (same names, same descriptions), plus the few only this view has.
func managedClusterAttributes() map[string]schema.Attribute {
	out := clusterComputedAttributes(managedClusterDrivenBy, managedClusterPutArgs)
	out["id"] = attrs.Kept(computedString("ID of the managed cluster: the ID of the cluster (`cluster_id`)."))
	out["cluster_id"] = schema.StringAttribute{
		Required: true,
		MarkdownDescription: "ID of the cluster to bring under management: an `astra_cluster`'s `id` for a private " +
			"cluster, or the ID of a cluster Astra Control discovered in a public cloud (see the `astra_cluster` and " +
			"`astra_clusters` data sources)." + forcesReplacement,
		Validators:    []validator.String{validate.UUID()},
		PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
	}
	out["default_storage_class"] = schema.StringAttribute{
		Optional: true,
		Computed: true,
		MarkdownDescription: "ID of the storage class Astra Control makes the cluster's default (see the " +
			"`astra_storage_classes` data source). It must be one of the cluster's storage classes: the plan (or, while " +
			"the cluster does not exist yet, the apply) fails otherwise and lists the valid ones. When unset, the " +
			"cluster's Kubernetes default is kept." + updatedInPlace + keepsServiceValue,
		PlanModifiers: []planmodifier.String{attrs.KeepUnlessChanged()},
	}
	out["trident_managed_state_desired"] = schema.StringAttribute{
		Optional: true,
		Computed: true,
		MarkdownDescription: "Whether Astra Control should manage Astra Trident on the cluster: `managed` or " +
			"`unmanaged` (see `trident_managed_state_allowed`). When unset, the service decides." + updatedInPlace + keepsServiceValue,
		Validators:    []validator.String{stringvalidator.OneOf("managed", "unmanaged")},
		PlanModifiers: []planmodifier.String{attrs.KeepUnlessChanged()},
	}
	out["default_bucket_id"] = schema.StringAttribute{
		Optional: true,
		Computed: true,
		MarkdownDescription: "ID of the bucket the cluster's backups go to by default. Needs `api_version` 1.7 or " +
			"later." + updatedInPlace + keepsServiceValue,
		Validators:    []validator.String{validate.UUID()},
		PlanModifiers: []planmodifier.String{attrs.KeepUnlessChanged()},
	}
	// The cluster's own settings: astra_cluster changes them, never this resource.
	out["name"] = attrs.Kept(computedString("Name of the cluster in Astra Control."))
	out["cloud_id"] = attrs.Kept(computedString("ID of the cloud the cluster belongs to."))
	out["credential_id"] = attrs.Kept(computedString("ID of the credential Astra Control uses to reach the cluster, if any."))
	out["private_route_id"] = attrs.Kept(computedString("Location ID of the Astra Connector that reaches the cluster, if any."))
	out["acc_host"] = attrs.Kept(computedBool("Whether this cluster hosts the Astra Control Center instance being accessed."))
	out["managed_state_details"] = attrs.Kept(attrs.StateDetailsSchema("Explanations of `managed_state` (`api_version` 1.7 or later), " +
		"such as why a cluster is ineligible."))
	return out
}
