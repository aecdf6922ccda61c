package attrs

import (
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// ReadOnlyLabelPrefix marks labels the service sets itself (cloudName, credType, ...).
// They are never shown as a user's labels, never diffed, and always sent back on a PUT.
const ReadOnlyLabelPrefix = astra.ReadOnlyLabelPrefix

// LabelsSchema is the optional `labels` argument.
func LabelsSchema() schema.MapAttribute {
	return schema.MapAttribute{
		Optional:    true,
		ElementType: types.StringType,
		MarkdownDescription: "User labels on the object, as a map of name to value. Updated in place. The service's own " +
			"read-only labels (`" + ReadOnlyLabelPrefix + "...`) are kept but never shown here, so they cause no diff.",
		Validators: []validator.Map{noReadOnlyLabels{}},
	}
}

// UserLabels returns the labels a user set, without the service's read-only ones.
func UserLabels(labels []astra.Label) map[string]string {
	out := map[string]string{}
	for _, l := range labels {
		if !strings.HasPrefix(l.Name, ReadOnlyLabelPrefix) {
			out[l.Name] = l.Value
		}
	}
	return out
}

// LabelsValue converts the service's labels for state. With no user labels the prior null
// is kept, so a configuration without `labels` plans no change.
func LabelsValue(labels []astra.Label, prior types.Map) types.Map {
	user := UserLabels(labels)
	if len(user) == 0 && (prior.IsNull() || prior.IsUnknown()) {
		return types.MapNull(types.StringType)
	}
	elems := make(map[string]attr.Value, len(user))
	for k, v := range user {
		elems[k] = types.StringValue(v)
	}
	return types.MapValueMust(types.StringType, elems)
}

// LabelsFromMap converts the `labels` argument for a request, sorted by name so requests
// are reproducible.
func LabelsFromMap(v types.Map) []astra.Label {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	out := make([]astra.Label, 0, len(v.Elements()))
	for k, e := range v.Elements() {
		if s, ok := e.(types.String); ok {
			out = append(out, astra.Label{Name: k, Value: s.ValueString()})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// ApplyLabels is the labels a PUT sends for planned user labels: unknown (the plan leaves
// them as they are, planForFreshCopy) keeps read as it is, user labels of whoever wrote
// them included; otherwise MergeLabels.
func ApplyLabels(read []astra.Label, planned types.Map) []astra.Label {
	if planned.IsUnknown() {
		return read
	}
	return MergeLabels(read, LabelsFromMap(planned))
}

// MergeLabels is what a PUT sends: the read-only labels read from the service, unchanged,
// plus the user's labels from configuration (which replace every user label read).
func MergeLabels(read []astra.Label, user []astra.Label) []astra.Label {
	out := make([]astra.Label, 0, len(read)+len(user))
	for _, l := range read {
		if strings.HasPrefix(l.Name, ReadOnlyLabelPrefix) {
			out = append(out, l)
		}
	}
	return append(out, user...)
}
