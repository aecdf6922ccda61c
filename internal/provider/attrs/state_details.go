package attrs

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// StateDetailAttrTypes is the object type of one entry of a `*_details` list.
var StateDetailAttrTypes = map[string]attr.Type{
	"type":   types.StringType,
	"title":  types.StringType,
	"detail": types.StringType,
}

// StateDetailType is the element type of a `*_details` list.
var StateDetailType = types.ObjectType{AttrTypes: StateDetailAttrTypes}

// StateDetailsSchema is a computed list of {type, title, detail} explaining a state: a list
// of objects rather than a nested attribute, for the reason given on MetadataSchema.
func StateDetailsSchema(description string) schema.ListAttribute {
	return schema.ListAttribute{
		Computed:    true,
		ElementType: StateDetailType,
		MarkdownDescription: description + " Each entry has `type` (the problem type URI), `title` (a short summary) " +
			"and `detail` (the explanation).",
	}
}

// StateDetailsValue converts a list of state details; none gives an empty list, not null,
// so the attribute is always known once the service answered.
func StateDetailsValue(details []astra.StateDetail) types.List {
	elems := make([]attr.Value, 0, len(details))
	for _, d := range details {
		elems = append(elems, types.ObjectValueMust(StateDetailAttrTypes, map[string]attr.Value{
			"type":   types.StringValue(d.Type),
			"title":  types.StringValue(d.Title),
			"detail": types.StringValue(d.Detail),
		}))
	}
	return types.ListValueMust(StateDetailType, elems)
}

// StateDetailsNull is the value written before the service has answered.
func StateDetailsNull() types.List { return types.ListNull(StateDetailType) }
