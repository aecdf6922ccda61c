package attrs

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
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
func MetadataSchema() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		Computed:            true,
		MarkdownDescription: "Bookkeeping the service keeps on the object.",
		Attributes: map[string]schema.Attribute{
			"creation_timestamp":     schema.StringAttribute{Computed: true, MarkdownDescription: "When the object was created (ISO 8601, UTC)."},
			"modification_timestamp": schema.StringAttribute{Computed: true, MarkdownDescription: "When the object last changed (ISO 8601, UTC)."},
			"created_by":             schema.StringAttribute{Computed: true, MarkdownDescription: "ID of the user who created the object (the null UUID, or `system`, for the service itself)."},
			"modified_by":            schema.StringAttribute{Computed: true, MarkdownDescription: "ID of the user who last changed the object, when the service reports it."},
		},
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
