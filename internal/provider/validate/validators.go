package validate

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// stringCheck adapts a pure check to the framework: unknown and null values pass (they are
// checked again once known), and the diagnostic lands on the attribute.
type stringCheck struct {
	description string
	check       func(string) error
}

func (v stringCheck) Description(context.Context) string         { return v.description }
func (v stringCheck) MarkdownDescription(context.Context) string { return v.description }

func (v stringCheck) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := v.check(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+v.description, err.Error())
	}
}

// UUID validates an Astra identifier.
func UUID() validator.String { return stringCheck{"UUID", CheckUUID} }

// HTTPURL validates a base URL.
func HTTPURL() validator.String { return stringCheck{"http(s) URL", CheckHTTPURL} }

// PEMBundle validates a bundle of PEM certificates.
func PEMBundle() validator.String { return stringCheck{"PEM certificate bundle", CheckPEMBundle} }

// PositiveDuration validates a Go duration above zero.
func PositiveDuration() validator.String {
	return stringCheck{"duration", CheckPositiveDuration}
}

// NonNegativeDuration validates a Go duration of zero or more.
func NonNegativeDuration() validator.String {
	return stringCheck{"duration", CheckNonNegativeDuration}
}

// ResourceName validates a name against the API's documented name rule.
func ResourceName(maxLen int) validator.String {
	return stringCheck{"name", func(s string) error { return CheckResourceName(s, maxLen) }}
}
