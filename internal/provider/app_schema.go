package provider

import (
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
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
		"metadata":     attrs.MetadataSchema(appPutArgs...),
	}
}
