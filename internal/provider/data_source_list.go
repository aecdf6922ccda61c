package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// computedList is the computed list attribute of a plural data source whose items have
// the given attributes (derived from the singular's, so the two never drift apart).
func computedList(description string, item map[string]schema.Attribute) schema.ListNestedAttribute {
	return schema.ListNestedAttribute{
		Computed:            true,
		MarkdownDescription: description,
		NestedObject:        schema.NestedAttributeObject{Attributes: item},
	}
}

// objectList converts models (tfsdk structs) into the value of a computedList attribute.
func objectList[T any](ctx context.Context, item map[string]schema.Attribute, models []T) (types.List, diag.Diagnostics) {
	var diags diag.Diagnostics
	objectType, ok := schema.NestedAttributeObject{Attributes: item}.Type().(types.ObjectType)
	if !ok {
		diags.AddError("Unexpected item type", "The items of a list attribute are not objects. This is a bug in the provider; please report it.")
		return types.ListUnknown(types.ObjectType{}), diags
	}
	elems := make([]attr.Value, 0, len(models))
	for _, m := range models {
		v, d := types.ObjectValueFrom(ctx, objectType.AttrTypes, m)
		diags.Append(d...)
		elems = append(elems, v)
	}
	if diags.HasError() {
		return types.ListNull(objectType), diags
	}
	list, d := types.ListValue(objectType, elems)
	diags.Append(d...)
	return list, diags
}

// lookupKey is a singular data source's optional+computed lookup argument.
func lookupKey(description string) schema.StringAttribute {
	return schema.StringAttribute{Optional: true, Computed: true, MarkdownDescription: description}
}

// redescribe replaces the descriptions of attributes that a data source derived from a
// resource: a resource argument's description speaks of configuring and updating it, which
// a data source's reader cannot do.
func redescribe(attributes map[string]schema.Attribute, descriptions map[string]string) {
	for name, desc := range descriptions {
		switch a := attributes[name].(type) {
		case schema.StringAttribute:
			a.MarkdownDescription = desc
			attributes[name] = a
		case schema.BoolAttribute:
			a.MarkdownDescription = desc
			attributes[name] = a
		case schema.SetAttribute:
			a.MarkdownDescription = desc
			attributes[name] = a
		case schema.MapAttribute:
			a.MarkdownDescription = desc
			attributes[name] = a
		case schema.SingleNestedAttribute:
			a.MarkdownDescription = desc
			attributes[name] = a
		default:
			panic("redescribe: no attribute " + name + " of a supported type")
		}
	}
}
