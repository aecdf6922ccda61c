package attrs

import (
	"fmt"
	"strings"

	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// ComputedForDataSource turns a resource's attributes into the computed attributes of the
// matching data source, so the two never drift apart. Attributes named in skip are left
// out (timeouts, wait flags, write-only inputs); descriptions are kept, less the sentences
// that say what changing a resource's argument does (resourceOnly): a data source's reader
// changes nothing.
func ComputedForDataSource(attrs map[string]rschema.Attribute, skip ...string) map[string]dschema.Attribute {
	skipped := map[string]bool{}
	for _, s := range skip {
		skipped[s] = true
	}
	out := make(map[string]dschema.Attribute, len(attrs))
	for name, a := range attrs {
		if skipped[name] {
			continue
		}
		out[name] = computedAttribute(a)
	}
	return out
}

// Sentences the provider's resource attribute descriptions end with that say what a change
// of the configuration does (the provider's shared.go uses them).
const (
	ForcesReplacement = " Changing this forces a new resource."
	UpdatedInPlace    = " Updated in place."
	NeverReplaces     = " Never forces a new resource."
	KeepsServiceValue = " Left out of the configuration, it keeps the value Astra Control reports (after an import too), so it never plans a change."
)

var resourceOnly = strings.NewReplacer(ForcesReplacement, "", UpdatedInPlace, "", NeverReplaces, "", KeepsServiceValue, "")

func computedAttribute(a rschema.Attribute) dschema.Attribute {
	desc := resourceOnly.Replace(a.GetMarkdownDescription())
	sensitive := a.IsSensitive()
	switch v := a.(type) {
	case rschema.StringAttribute:
		return dschema.StringAttribute{Computed: true, Sensitive: sensitive, MarkdownDescription: desc}
	case rschema.BoolAttribute:
		return dschema.BoolAttribute{Computed: true, Sensitive: sensitive, MarkdownDescription: desc}
	case rschema.Int64Attribute:
		return dschema.Int64Attribute{Computed: true, Sensitive: sensitive, MarkdownDescription: desc}
	case rschema.ListAttribute:
		return dschema.ListAttribute{Computed: true, Sensitive: sensitive, ElementType: v.ElementType, MarkdownDescription: desc}
	case rschema.SetAttribute:
		return dschema.SetAttribute{Computed: true, Sensitive: sensitive, ElementType: v.ElementType, MarkdownDescription: desc}
	case rschema.MapAttribute:
		return dschema.MapAttribute{Computed: true, Sensitive: sensitive, ElementType: v.ElementType, MarkdownDescription: desc}
	case rschema.ObjectAttribute:
		return dschema.ObjectAttribute{Computed: true, Sensitive: sensitive, AttributeTypes: v.AttributeTypes, MarkdownDescription: desc}
	case rschema.SingleNestedAttribute:
		return dschema.SingleNestedAttribute{Computed: true, Sensitive: sensitive, MarkdownDescription: desc,
			Attributes: ComputedForDataSource(v.Attributes)}
	case rschema.ListNestedAttribute:
		return dschema.ListNestedAttribute{Computed: true, Sensitive: sensitive, MarkdownDescription: desc,
			NestedObject: dschema.NestedAttributeObject{Attributes: ComputedForDataSource(v.NestedObject.Attributes)}}
	case rschema.SetNestedAttribute:
		return dschema.SetNestedAttribute{Computed: true, Sensitive: sensitive, MarkdownDescription: desc,
			NestedObject: dschema.NestedAttributeObject{Attributes: ComputedForDataSource(v.NestedObject.Attributes)}}
	default:
		// A new attribute kind in a resource must be taught here; failing loudly in every
		// schema test beats a data source silently missing an attribute.
		panic(fmt.Sprintf("attrs.ComputedForDataSource: unsupported attribute type %T", a))
	}
}
