package provider

import (
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

// appTimeouts: discovering an app's resources takes seconds to minutes on a real service.
var appTimeouts = attrs.TimeoutDefaults{Create: 20 * time.Minute, Update: 10 * time.Minute, Delete: 10 * time.Minute}

// appPutArgs are the arguments an update PUTs; everything else of the scope forces replacement.
var appPutArgs = []string{"name", "labels"}

const appSchemaVersion = 0

// labelSelectorsAttribute is the optional set of Kubernetes label selectors of a scope entry.
func labelSelectorsAttribute(what string) schema.SetAttribute {
	return schema.SetAttribute{
		Optional:    true,
		Computed:    true,
		ElementType: types.StringType,
		Default:     setdefault.StaticValue(types.SetValueMust(types.StringType, []attr.Value{})),
		MarkdownDescription: "Kubernetes label selectors (`app=mysql`, `tier in (prod,staging)`, `!canary`) choosing the " +
			what + "'s resources that belong to the app; a resource matching any of them belongs to it. Empty (the " +
			"default): all of them. Each must parse as a Kubernetes selector; the plan fails otherwise. A set: their " +
			"order is not a change.",
		Validators: []validator.Set{setvalidator.ValueStringsAre(validate.LabelSelector())},
	}
}

// appNamespaceAttrTypes and appClusterScopeAttrTypes are the object types of the scope sets.
var (
	appNamespaceAttrTypes    = map[string]attr.Type{"namespace": types.StringType, "label_selectors": types.SetType{ElemType: types.StringType}}
	appClusterScopeAttrTypes = map[string]attr.Type{"group": types.StringType, "version": types.StringType, "kind": types.StringType,
		"label_selectors": types.SetType{ElemType: types.StringType}}
)

// appAttributes are astra_app's attributes except `timeouts` and `wait_for_ready`. The
// scope is sets: the order in which a configuration lists namespaces, selectors or kinds
// is not a change, so reordering them never replaces (unmanages) the app.
func appAttributes() map[string]schema.Attribute {
	replace := []planmodifier.Set{setplanmodifier.RequiresReplace()}
	return map[string]schema.Attribute{
		"id": attrs.Kept(computedString("ID of the app in Astra Control.")),
		"name": schema.StringAttribute{
			Required:            true,
			MarkdownDescription: "Name of the app in Astra Control: a Kubernetes name, 1 to 63 characters." + updatedInPlace,
			Validators:          []validator.String{validate.DNSLabel(63)},
		},
		"cluster_id": schema.StringAttribute{
			Required: true,
			MarkdownDescription: "ID of the managed cluster the app runs on (an `astra_managed_cluster`'s `id`)." +
				forcesReplacement,
			Validators:    []validator.String{validate.UUID()},
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		"namespace_scoped_resources": schema.SetNestedAttribute{
			Required: true,
			MarkdownDescription: "The namespaces the app spans, at least one, each with optional label selectors. Each " +
				"namespace must exist on the managed cluster: the plan checks it when the cluster is known. A set: the " +
				"order of its entries is not a change." + forcesReplacement,
			Validators:    []validator.Set{setvalidator.SizeAtLeast(1)},
			PlanModifiers: replace,
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"namespace": schema.StringAttribute{
					Required:            true,
					MarkdownDescription: "Name of the namespace.",
					Validators:          []validator.String{validate.DNSLabel(63)},
				},
				"label_selectors": labelSelectorsAttribute("namespace"),
			}},
		},
		"cluster_scoped_resources": schema.SetNestedAttribute{
			Optional: true,
			Computed: true,
			Default:  setdefault.StaticValue(types.SetValueMust(types.ObjectType{AttrTypes: appClusterScopeAttrTypes}, []attr.Value{})),
			MarkdownDescription: "Cluster-scoped resources that belong to the app (ClusterRoles, CRDs, ...), by group, " +
				"version and kind. Empty by default. A set: the order of its entries is not a change." + forcesReplacement,
			PlanModifiers: replace,
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"group": schema.StringAttribute{
					Optional: true, Computed: true, Default: stringdefault.StaticString(""),
					MarkdownDescription: "API group, such as `rbac.authorization.k8s.io`; empty (the default) for the core group.",
				},
				"version":         schema.StringAttribute{Required: true, MarkdownDescription: "API version, such as `v1`."},
				"kind":            schema.StringAttribute{Required: true, MarkdownDescription: "Kind, such as `ClusterRole`."},
				"label_selectors": labelSelectorsAttribute("kind"),
			}},
		},
		"labels": attrs.LabelsSchema(),
		"state": attrs.Kept(computedString("State of the app: `pending` (scheduled for discovery), `discovering`, " +
			"`provisioning`, `ready` (running normally), `restoring` (from a snapshot or a backup), `unavailable` (not " +
			"accessible now), `failed` (a permanent failure: see `state_details`), `unknown` or `deleting`.")),
		"state_details": attrs.Kept(attrs.StateDetailsSchema("Explanations of `state`, such as why the app failed.")),
		"protection_state": attrs.Kept(computedString("How well the app is protected, as Astra Control defines it: " +
			"`protected` (an enabled policy that takes backups and a successful backup less than a week old), `partial` " +
			"(an active snapshot or backup policy, or any successful snapshot or backup), `none`, or `atRisk` (the " +
			"cluster's default storage class cannot take snapshots). It moves with the app's policies, snapshots and " +
			"backups, outside this resource: the state holds what the last refresh saw (read it with the `astra_apps` " +
			"data source after the policies for a current value).")),
		"protection_state_details": attrs.Kept(attrs.StateDetailsSchema("Explanations of `protection_state`.")),
		"namespaces":               attrs.Kept(computedStrings("The namespaces the app spans, as the service reports them.")),
		"app_detected_type": attrs.Kept(computedString("How Astra Control classified the app, when it did: `system` (part of the Kubernetes " +
			"environment) or `acc` (an Astra Control Center instance); null for an ordinary app.")),
		"cluster_name": attrs.Kept(computedString("Name of the cluster the app runs on.")),
		"source_app_id": attrs.Kept(computedString("ID of the app this one was cloned from (Astra Control's `sourceAppID`), " +
			"whether by `source` or outside Terraform; null for an app that is not a clone.")),
		"metadata": attrs.MetadataSchema(appPutArgs...),
	}
}

// appMappingAttrTypes and appSourceAttrTypes are the object types of `source`.
var (
	appMappingAttrTypes = map[string]attr.Type{"source": types.StringType, "destination": types.StringType}
	appSourceAttrTypes  = map[string]attr.Type{
		"app_id": types.StringType, "snapshot_id": types.StringType, "backup_id": types.StringType,
		"namespace_mapping":     types.SetType{ElemType: types.ObjectType{AttrTypes: appMappingAttrTypes}},
		"storage_class_mapping": types.SetType{ElemType: types.ObjectType{AttrTypes: appMappingAttrTypes}},
	}
)

// appSourceAttribute is astra_app's `source`: the app is created as a clone. It is the
// resource's only (the data source's apps carry source_app_id).
func appSourceAttribute() schema.SingleNestedAttribute {
	mapping := func(what, source, destination string, sourceCheck validator.String) schema.SetNestedAttribute {
		return schema.SetNestedAttribute{
			Optional:            true,
			MarkdownDescription: what,
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"source":      schema.StringAttribute{Required: true, MarkdownDescription: source, Validators: []validator.String{sourceCheck}},
				"destination": schema.StringAttribute{Required: true, MarkdownDescription: destination, Validators: []validator.String{validate.DNSLabel(63)}},
			}},
		}
	}
	return schema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: "Creates the app as a **clone** of another app (`POST /k8s/v2/apps` with `sourceAppID`), live or " +
			"from one of its snapshots or backups, into `cluster_id` (the source's cluster or another). Each destination " +
			"namespace must not exist yet: Astra Control creates it, and a clone within the source's cluster must rename " +
			"every namespace with `namespace_mapping`. `namespace_scoped_resources` must be the source app's namespaces as " +
			"`namespace_mapping` renames them, with the source's label selectors: the plan checks it when the source is " +
			"known. Once ready the clone is an ordinary app (policies, hooks, import). Only creation reads `source`: an " +
			"imported app has none, and adding it to an app in state replaces the app." + forcesReplacement,
		PlanModifiers: []planmodifier.Object{objectplanmodifier.RequiresReplace()},
		Attributes: map[string]schema.Attribute{
			"app_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "ID of the app to clone (an `astra_app`'s `id`).",
				Validators:          []validator.String{validate.UUID()},
			},
			"snapshot_id": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "ID of a completed snapshot of the source app to clone from. At most one of `snapshot_id` and `backup_id`; neither: a clone of the app as it is now.",
				Validators: []validator.String{validate.UUID(),
					stringvalidator.ConflictsWith(path.MatchRelative().AtParent().AtName("backup_id"))},
			},
			"backup_id": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "ID of a completed backup of the source app to clone from (the `astra_app_backups` data source finds the newest).",
				Validators:          []validator.String{validate.UUID()},
			},
			"namespace_mapping": mapping("Renames the source app's namespaces in the clone: `{ source, destination }`. Left out "+
				"(or empty), the clone's namespace is named after the clone (`name`), as Astra Control does without a mapping: "+
				"a source of several namespaces then needs one. A namespace a mapping leaves out keeps its name. A destination "+
				"must not exist on the target cluster. A set: the order is not a change.",
				"A namespace of the source app.", "The clone's namespace: it must not exist on the target cluster.", validate.DNSLabel(63)),
			"storage_class_mapping": mapping("Moves the clone's volumes to other storage classes: `{ source, destination }`, "+
				"`source = \"*\"` for all of them. Needs `api_version` 1.4 (Astra Control 23.05) or later. A set: the order is not a change.",
				"A storage class of the source's volumes, or `*`.", "A storage class of the target cluster.", storageClassSource()),
		},
	}
}

// storageClassSource accepts a storage class name or "*" (every storage class).
func storageClassSource() validator.String {
	return stringvalidator.Any(stringvalidator.OneOf("*"), validate.DNSLabel(63))
}
