package provider

import (
	"context"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
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
	return objectListOf(ctx, item, len(models), func(i int) any { return models[i] })
}

// objectListOf is objectList's work, once for every model type (see searchSettling): model
// is the i-th of n models.
func objectListOf(ctx context.Context, item map[string]schema.Attribute, n int, model func(i int) any) (types.List, diag.Diagnostics) {
	var diags diag.Diagnostics
	objectType, ok := schema.NestedAttributeObject{Attributes: item}.Type().(types.ObjectType)
	if !ok {
		diags.AddError("Unexpected item type", "The items of a list attribute are not objects. This is a bug in the provider; please report it.")
		return types.ListUnknown(types.ObjectType{}), diags
	}
	elems := make([]attr.Value, 0, n)
	for i := range n {
		v, d := types.ObjectValueFrom(ctx, objectType.AttrTypes, model(i))
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

// oneNamed is the item of a singular data source's lookup by name: exactly one of items
// must be called name; otherwise an error on `name` says what exists (none matched) or
// what matched (several). kind is the object's kind ("cloud"); nameID gives an item's
// name and ID.
func oneNamed[T any](items []T, name, kind string, nameID func(T) (string, string), diags *diag.Diagnostics) *T {
	var matches []T
	for _, it := range items {
		if n, _ := nameID(it); n == name {
			matches = append(matches, it)
		}
	}
	title := strings.ToUpper(kind[:1]) + kind[1:]
	switch len(matches) {
	case 1:
		return &matches[0]
	case 0:
		diags.AddAttributeError(path.Root("name"), title+" not found",
			"Astra Control has no "+kind+" named \""+name+"\". "+title+"s: "+namesAndIDs(items, nameID)+".")
	default:
		diags.AddAttributeError(path.Root("name"), "More than one "+kind+" matches",
			"Several "+kind+"s are named \""+name+"\": "+namesAndIDs(matches, nameID)+". Select one by id instead.")
	}
	return nil
}

// namesAndIDs lists "name (id)" of items, sorted, for errors that say what exists.
func namesAndIDs[T any](items []T, nameID func(T) (string, string)) string {
	names := make([]string, 0, len(items))
	for _, it := range items {
		n, id := nameID(it)
		names = append(names, n+" ("+id+")")
	}
	if len(names) == 0 {
		return "none"
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
