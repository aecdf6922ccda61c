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
	summary     string // the diagnostic's summary; "Invalid <description>" when empty
}

func (v stringCheck) Description(context.Context) string         { return v.description }
func (v stringCheck) MarkdownDescription(context.Context) string { return v.description }

func (v stringCheck) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := v.check(req.ConfigValue.ValueString()); err != nil {
		summary := v.summary
		if summary == "" {
			summary = "Invalid " + v.description
		}
		resp.Diagnostics.AddAttributeError(req.Path, summary, err.Error())
	}
}

// UUID validates an Astra identifier.
func UUID() validator.String { return stringCheck{description: "UUID", check: CheckUUID} }

// HTTPURL validates a base URL.
func HTTPURL() validator.String { return stringCheck{description: "http(s) URL", check: CheckHTTPURL} }

// PEMBundle validates a bundle of PEM certificates.
func PEMBundle() validator.String {
	return stringCheck{description: "PEM certificate bundle", check: CheckPEMBundle}
}

// PositiveDuration validates a Go duration above zero.
func PositiveDuration() validator.String {
	return stringCheck{description: "duration", check: CheckPositiveDuration}
}

// NonNegativeDuration validates a Go duration of zero or more.
func NonNegativeDuration() validator.String {
	return stringCheck{description: "duration", check: CheckNonNegativeDuration}
}

// ResourceName validates a name against the API's documented name rule.
func ResourceName(maxLen int) validator.String {
	return stringCheck{description: "name", check: func(s string) error { return CheckResourceName(s, maxLen) }}
}

// Kubeconfig validates a kubeconfig at plan time (astra_kubeconfig_credential). Its error
// names what is wrong and never quotes the kubeconfig, which holds secrets.
func Kubeconfig() validator.String {
	return stringCheck{
		description: "a YAML or JSON kubeconfig with exactly one cluster and one context",
		check:       CheckKubeconfig,
		summary:     "Invalid kubeconfig",
	}
}

// ObjectStoreURL validates an S3 bucket's server_url (CheckObjectStoreURL).
func ObjectStoreURL() validator.String {
	return stringCheck{description: "S3 endpoint", check: CheckObjectStoreURL}
}

// LabelSelector checks a Kubernetes label selector ("app=mysql", "tier in (a,b)", "!canary").
func LabelSelector() validator.String {
	return stringCheck{description: "Kubernetes label selector", check: CheckLabelSelector}
}

// DNSLabel checks a Kubernetes name: a DNS-1123 label of at most maxLen characters.
func DNSLabel(maxLen int) validator.String {
	return stringCheck{description: "DNS-1123 label", check: func(s string) error { return CheckDNSLabel(s, maxLen) }}
}
