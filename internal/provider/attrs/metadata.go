package attrs

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// MetadataAttrTypes is the object type of the computed `metadata` attribute.
var MetadataAttrTypes = map[string]attr.Type{
	"creation_timestamp":     types.StringType,
	"modification_timestamp": types.StringType,
	"created_by":             types.StringType,
	"modified_by":            types.StringType,
}

// MetadataSchema is the computed `metadata` attribute; labels are exposed separately.
// putArgs are the arguments whose change makes the resource send a PUT, which is what
// moves modification_timestamp and modified_by: on any other update the whole object
// keeps its prior value in the plan, and creation_timestamp and created_by always do.
//
// It is an object attribute, not a nested attribute: Terraform 1.5 crashes generating
// configuration (`plan -generate-config-out`) for a resource with a read-only nested
// attribute (configschema.Block.Filter), so read-only structures are typed objects.
func MetadataSchema(putArgs ...string) schema.ObjectAttribute {
	return schema.ObjectAttribute{
		Computed:       true,
		AttributeTypes: MetadataAttrTypes,
		MarkdownDescription: "Bookkeeping the service keeps on the object: `creation_timestamp` and " +
			"`modification_timestamp` (ISO 8601, UTC), `created_by` and `modified_by` (IDs of the users who created and " +
			"last changed it; the null UUID, or `system`, for the service itself; `modified_by` when the service reports it).",
		PlanModifiers: []planmodifier.Object{metadataPlan{args: putArgs}},
	}
}

// MetadataValue converts the API metadata.
func MetadataValue(m astra.Metadata) types.Object {
	return types.ObjectValueMust(MetadataAttrTypes, map[string]attr.Value{
		"creation_timestamp":     OptionalString(m.CreationTimestamp),
		"modification_timestamp": OptionalString(m.ModificationTimestamp),
		"created_by":             OptionalString(m.CreatedBy),
		"modified_by":            OptionalString(m.ModifiedBy),
	})
}

// MetadataNull is the value written before the service has answered (a partial state).
func MetadataNull() types.Object { return types.ObjectNull(MetadataAttrTypes) }

// metadataPlan plans the metadata of an update: the prior object, with only the fields a
// PUT moves unknown when the plan sends one.
type metadataPlan struct{ args []string }

// IdleUnlessUnknown: it acts only with a prior state and an unknown planned value
// (internal/knownanswers.IdleModifier).
func (metadataPlan) IdleUnlessUnknown() {}

func (m metadataPlan) Description(ctx context.Context) string { return m.MarkdownDescription(ctx) }

func (m metadataPlan) MarkdownDescription(context.Context) string {
	return "Keeps the prior metadata; only modification_timestamp and modified_by are unknown when the update sends a PUT."
}

func (m metadataPlan) PlanModifyObject(ctx context.Context, req planmodifier.ObjectRequest, resp *planmodifier.ObjectResponse) {
	if req.State.Raw.IsNull() || req.StateValue.IsNull() || !req.PlanValue.IsUnknown() {
		return
	}
	put, diags := AnyMayChange(ctx, req.State, req.Plan, req.Config, m.args...)
	resp.Diagnostics.Append(diags...)
	if diags.HasError() {
		return
	}
	values := req.StateValue.Attributes()
	if put {
		planned := make(map[string]attr.Value, len(values))
		for k, v := range values {
			planned[k] = v
		}
		planned["modification_timestamp"] = types.StringUnknown()
		planned["modified_by"] = types.StringUnknown()
		values = planned
	}
	v, d := types.ObjectValue(MetadataAttrTypes, values)
	resp.Diagnostics.Append(d...)
	if !d.HasError() {
		resp.PlanValue = v
	}
}
