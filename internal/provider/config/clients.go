package config

import (
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// Clients is what the provider hands to every resource and data source. It carries either a
// client or the reason there is none, so the reason surfaces at the first API call.
type Clients struct {
	client *astra.Client
	err    string
}

// NewClients builds the client, or records why it cannot be built.
func NewClients(r Resolved) *Clients {
	if len(r.Missing) > 0 {
		return &Clients{err: "The provider configuration is missing " + strings.Join(r.Missing, " and ") +
			". Set the argument in the provider block or the environment variable named beside it."}
	}
	client, err := astra.New(r.Client)
	if err != nil {
		return &Clients{err: "The provider configuration is invalid: " + err.Error()}
	}
	return &Clients{client: client}
}

// Deferred is the Clients of a provider block whose values are not known until apply.
func Deferred() *Clients {
	return &Clients{err: "The provider configuration depends on values that are not known yet (attributes of resources " +
		"not yet created). Apply those resources first, for example with -target, then run again."}
}

// FromClient wraps an existing client (tests).
func FromClient(c *astra.Client) *Clients { return &Clients{client: c} }

// Client returns the API client, or an error diagnostic explaining what configuration is missing.
func (c *Clients) Client() (*astra.Client, diag.Diagnostics) {
	var diags diag.Diagnostics
	if c == nil {
		diags.AddError("Provider not configured", "The provider was not configured before use. This is a bug in the provider; please report it.")
		return nil, diags
	}
	if c.client == nil {
		diags.AddError("Astra Control provider not ready", c.err)
		return nil, diags
	}
	return c.client, diags
}

// UserAgent names the provider and the CLI driving it, so Astra's logs tell them apart.
func UserAgent(providerVersion, terraformVersion string) string {
	ua := "terraform-provider-astra/" + providerVersion + " (+https://registry.terraform.io/providers/astra-control/astra)"
	if terraformVersion != "" {
		ua += " Terraform/" + terraformVersion
	}
	return ua
}
