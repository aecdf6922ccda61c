package provider

import (
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

const appMirrorSchemaVersion = 0

// The mirror's desired states as the configuration writes them.
const (
	mirrorWantEstablished = "established"
	mirrorWantFailedOver  = "failed_over"
)

// How long establishing, a failover, a resync or a reverse, and the clean-up may take: no
// source says (research notes §4.12); a first SnapMirror transfer copies every volume.
var appMirrorTimeouts = attrs.TimeoutDefaults{Create: time.Hour, Update: time.Hour, Delete: 30 * time.Minute}

// appMirrorDirectionArgs are the arguments whose change re-plans the direction-dependent
// computed values.
var appMirrorDirectionArgs = []string{"desired_state", "source_app_id", "destination_cluster_id"}

// appMirrorAttributes are astra_app_mirror's attributes; astra_app_mirrors derives its
// items from them.
func appMirrorAttributes() map[string]schema.Attribute {
	kept := func(a schema.Attribute) schema.Attribute { return attrs.Kept(a, appMirrorDirectionArgs...) }
	return map[string]schema.Attribute{
		"id": attrs.Kept(computedString("ID of the relationship (the appMirror) in Astra Control.")),
		"source_app_id": schema.StringAttribute{
			Required: true,
			MarkdownDescription: "ID of the app replicated (an `astra_app`'s `id`): the source this configuration asks for. " +
				"A reverse done by the `astra_app_mirror_reverse` action leaves it as written (the plan stays quiet; " +
				"`current_source_app_id` says which side replicates now). Setting it to `destination_app_id` together with " +
				"`destination_cluster_id` = `source_cluster_id` reverses the relationship in place (the way to reverse " +
				"under OpenTofu and Terraform before 1.14); any other app replaces the relationship.",
			Validators: []validator.String{validate.UUID()},
		},
		"destination_cluster_id": schema.StringAttribute{
			Required: true,
			MarkdownDescription: "ID of the managed cluster the app is replicated to (an `astra_managed_cluster`'s `id`), " +
				"ONTAP-backed like the source's (the `astra_storage_backends` data source). Swapped with the source side " +
				"(see `source_app_id`) it reverses in place; any other cluster replaces the relationship.",
			Validators: []validator.String{validate.UUID()},
		},
		"namespace_mapping": schema.ListNestedAttribute{
			Optional: true,
			MarkdownDescription: "Namespaces of the destination app, one item per namespace of the source app. Left out, " +
				"Astra Control gives the destination the source's namespace names. A namespace that does not exist is " +
				"created; one that already holds a managed app is refused." + forcesReplacement,
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"source":      schema.StringAttribute{Required: true, MarkdownDescription: "Namespace of the source app.", Validators: []validator.String{validate.ResourceName(63)}},
				"destination": schema.StringAttribute{Required: true, MarkdownDescription: "Namespace on the destination cluster.", Validators: []validator.String{validate.ResourceName(63)}},
			}},
			Validators:    []validator.List{listvalidator.SizeAtLeast(1)},
			PlanModifiers: []planmodifier.List{listplanmodifier.RequiresReplace()},
		},
		"destination_storage_class": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "Storage class of the destination's volumes, which must exist on the destination cluster " +
				"(`ontap-nas` or `ontap-san`). Left out: the destination cluster's default storage class." + forcesReplacement,
			Validators:    []validator.String{stringvalidator.LengthBetween(1, 255)},
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		"desired_state": schema.StringAttribute{
			Optional: true,
			Computed: true,
			Default:  stringdefault.StaticString(mirrorWantEstablished),
			MarkdownDescription: "`established` (default): replicating from the source. `failed_over`: changing it in place " +
				"is a FAILOVER: the destination app is started on the destination cluster from the last replicated " +
				"snapshot and becomes writable; replication stops; the source app keeps running. The plan says which app " +
				"becomes writable on which cluster. Back from `failed_over` to `established` is a RESYNC keeping the " +
				"current source's data: everything written to the failed-over destination app since the failover is " +
				"overwritten (the plan warns); to keep the failed-over copy instead, reverse. Reads back what Astra " +
				"Control is asked to hold, so a failover done elsewhere shows as a change.",
			Validators: []validator.String{stringvalidator.OneOf(mirrorWantEstablished, mirrorWantFailedOver)},
		},
		"destination_app_id": kept(computedString("ID of the other app of the relationship, the one Astra Control " +
			"created on the destination cluster (not ready for use until a failover). It stays that app after a reverse.")),
		"source_cluster_id": kept(computedString("ID of the cluster of `source_app_id`.")),
		"current_source_app_id": kept(computedString("ID of the app replicated now: `source_app_id`, or " +
			"`destination_app_id` after a reverse (by the action, or done outside Terraform).")),
		"state": kept(computedString("State of the relationship: `establishing`, `established`, `failingOver`, " +
			"`failedOver`, `deleting`. There is no failed state: trouble shows in `health_state`.")),
		"state_details": kept(attrs.StateDetailsSchema("Why the relationship is in its state (the last replicated " +
			"snapshot, with its time).")),
		"transfer_state": kept(computedString("`transferring` while a snapshot is being replicated, else `idle`.")),
		"transfer_state_details": kept(attrs.StateDetailsSchema("Why the last snapshot transfer is in its state (a " +
			"failed transfer's reason).")),
		"last_transfer_time": kept(computedString("When the newest replicated snapshot finished replicating (ISO 8601, " +
			"UTC), from the service's details; null until one has. With the replication policy's interval, it says " +
			"whether replication keeps up: the data a failover would lose is what was written since.")),
		"health_state": kept(computedString("`normal`; `warning` while failing over or failed over; `critical` when the " +
			"last reconcile or the newest snapshot's replication failed (see `health_state_details`); `indeterminate`.")),
		"health_state_details": kept(attrs.StateDetailsSchema("Why the health is what it is (a failed transfer's " +
			"reason).")),
		"metadata": attrs.MetadataSchema(appMirrorDirectionArgs...),
	}
}
