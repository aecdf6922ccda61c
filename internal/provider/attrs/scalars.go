package attrs

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// OptionalString maps the API's absent or empty string to null, so an attribute the
// service does not report never shows as a change from "" to null.
func OptionalString(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// StringOrEmpty reads an optional string argument; null and unknown give "".
func StringOrEmpty(v types.String) string {
	if v.IsNull() || v.IsUnknown() {
		return ""
	}
	return v.ValueString()
}

// OptionalBool maps an API string boolean; absent gives null.
func OptionalBool(b *astra.Bool) types.Bool {
	if b == nil {
		return types.BoolNull()
	}
	return types.BoolValue(bool(*b))
}

// FlagBool maps an API boolean that is only ever sent as "true" (absent means false).
func FlagBool(b *astra.Bool) types.Bool {
	return types.BoolValue(b != nil && bool(*b))
}

// APIBool converts a Terraform bool for a request; null and unknown give nil (not sent).
func APIBool(v types.Bool) *astra.Bool {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	b := astra.Bool(v.ValueBool())
	return &b
}

// StringList is a computed list of strings; none gives an empty list, never null.
func StringList(items []string) types.List {
	elems := make([]attr.Value, 0, len(items))
	for _, s := range items {
		elems = append(elems, types.StringValue(s))
	}
	return types.ListValueMust(types.StringType, elems)
}

// OptionalStringSet is an optional set argument read back from the service. The service
// answers [] where the user set nothing, so an empty answer keeps the prior null.
func OptionalStringSet(items []string, prior types.Set) types.Set {
	if len(items) == 0 && (prior.IsNull() || prior.IsUnknown()) {
		return types.SetNull(types.StringType)
	}
	elems := make([]attr.Value, 0, len(items))
	for _, s := range items {
		elems = append(elems, types.StringValue(s))
	}
	return types.SetValueMust(types.StringType, elems)
}

// Strings reads a set or list of strings from a known value; null and unknown give nil.
func Strings(v interface {
	IsNull() bool
	IsUnknown() bool
	Elements() []attr.Value
}) []string {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	out := make([]string, 0, len(v.Elements()))
	for _, e := range v.Elements() {
		if s, ok := e.(types.String); ok && !s.IsNull() && !s.IsUnknown() {
			out = append(out, s.ValueString())
		}
	}
	return out
}
