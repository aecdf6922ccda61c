package provider

import (
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

const executionHookSchemaVersion = 0

// executionHookPutArgs: every argument but app_id is updated in place, with one PUT (the
// published PUT schema takes all of them; the app is the one a hook is created under).
var executionHookPutArgs = []string{"name", "hook_source_id", "action", "stage", "arguments", "matching_criteria",
	"enabled", "description"}

// Limits of the published executionHook schema.
const (
	maxHookArguments      = 16
	maxHookArgumentLength = 127
	maxMatchingCriteria   = 10
)

// matchingContainerAttrTypes is one container a hook matches. A typed object, not a nested
// attribute: read-only structures are objects (see attrs.MetadataSchema).
var matchingContainerAttrTypes = map[string]attr.Type{
	"namespace_name": types.StringType, "pod_name": types.StringType, "container_name": types.StringType,
	"container_image": types.StringType,
}

// criterionTypes are matching_criteria's types, as the provider spells them, and the API's.
var criterionTypes = map[string]string{
	"container_image": "containerImage", "container_name": "containerName", "pod_name": "podName",
	"pod_label": "podLabel", "namespace_name": "namespaceName",
}

// executionHookAttributes are astra_execution_hook's attributes.
func executionHookAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": attrs.Kept(computedString("ID of the execution hook in Astra Control.")),
		"name": schema.StringAttribute{
			Required:            true,
			MarkdownDescription: "Name of the hook, 1 to 63 characters, unique among the account's execution hooks." + updatedInPlace,
			Validators:          []validator.String{stringvalidator.LengthBetween(1, 63)},
		},
		"app_id": schema.StringAttribute{
			Required:            true,
			MarkdownDescription: "ID of the app whose containers the hook runs in (an `astra_app`'s `id`)." + forcesReplacement,
			Validators:          []validator.String{validate.UUID()},
			PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		"hook_source_id": schema.StringAttribute{
			Required:            true,
			MarkdownDescription: "ID of the script the hook runs (an `astra_hook_source`'s `id`)." + updatedInPlace,
			Validators:          []validator.String{validate.UUID()},
		},
		"action": schema.StringAttribute{
			Required: true,
			MarkdownDescription: "The operation the hook runs around: `snapshot`, `backup`, `restore` or `failover`. " +
				"`failover` needs execution hook version 1.3, Astra Control 23.07 and later (the provider's `api_version` " +
				"1.5 or later): refused at plan time below that. A backup that takes its own snapshot also runs the " +
				"snapshot hooks." + updatedInPlace,
			Validators: []validator.String{stringvalidator.OneOf("snapshot", "backup", "restore", "failover")},
		},
		"stage": schema.StringAttribute{
			Required: true,
			MarkdownDescription: "When the hook runs: `pre` (before the operation) or `post` (after it). `restore` and " +
				"`failover` hooks run `post` only." + updatedInPlace,
			Validators: []validator.String{stringvalidator.OneOf("pre", "post")},
		},
		"arguments": schema.ListAttribute{
			Optional:    true,
			ElementType: types.StringType,
			MarkdownDescription: "Arguments passed to the script, in order: at most 16, each at most 127 characters." +
				updatedInPlace,
			Validators: []validator.List{listvalidator.SizeAtMost(maxHookArguments),
				listvalidator.ValueStringsAre(stringvalidator.LengthAtMost(maxHookArgumentLength))},
		},
		"matching_criteria": schema.ListNestedAttribute{
			Optional: true,
			MarkdownDescription: "Which containers of the app the hook runs in: at most 10 criteria, all of which a " +
				"container must match (AND). None runs the hook in every container of the app. Each value is an RE2 " +
				"regular expression (https://github.com/google/re2/wiki/Syntax), checked at plan time." + updatedInPlace,
			Validators: []validator.List{listvalidator.SizeAtMost(maxMatchingCriteria), listvalidator.UniqueValues()},
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"type": schema.StringAttribute{
					Required: true,
					MarkdownDescription: "What the expression matches: `container_image`, `container_name`, `pod_name`, " +
						"`pod_label` (a label as `name=value`) or `namespace_name`.",
					Validators: []validator.String{stringvalidator.OneOf("container_image", "container_name", "pod_name", "pod_label", "namespace_name")},
				},
				"value": schema.StringAttribute{
					Required:            true,
					MarkdownDescription: "An RE2 regular expression.",
				},
			}},
		},
		"enabled": schema.BoolAttribute{
			Optional:            true,
			Computed:            true,
			Default:             booldefault.StaticBool(true),
			MarkdownDescription: "Whether the hook runs. Defaults to `true`." + updatedInPlace,
		},
		"description": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "What the hook is for, 1 to 511 characters." + updatedInPlace,
			Validators:          []validator.String{stringvalidator.LengthBetween(1, 511)},
		},
		"matching_containers": schema.ListAttribute{
			Computed:    true,
			ElementType: types.ObjectType{AttrTypes: matchingContainerAttrTypes},
			MarkdownDescription: "The containers the hook matches now, as Astra Control reports them (`namespace_name`, " +
				"`pod_name`, `container_name`, `container_image`): a hook that matches none does not run.",
			PlanModifiers: []planmodifier.List{attrs.KeepUnlessChanged("matching_criteria")},
		},
		"metadata": attrs.MetadataSchema(executionHookPutArgs...),
	}
}
