package attrs

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// noReadOnlyLabels refuses labels in the service's read-only namespace at plan time.
type noReadOnlyLabels struct{}

func (noReadOnlyLabels) Description(context.Context) string {
	return "label names must not start with " + ReadOnlyLabelPrefix
}

func (v noReadOnlyLabels) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (noReadOnlyLabels) ValidateMap(_ context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	for name := range req.ConfigValue.Elements() {
		if strings.HasPrefix(name, ReadOnlyLabelPrefix) {
			resp.Diagnostics.AddAttributeError(req.Path.AtMapKey(name), "Read-only label",
				"The label "+name+" is in the namespace "+ReadOnlyLabelPrefix+", which only Astra Control may set. Remove it or rename it.")
		}
	}
}
