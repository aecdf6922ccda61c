package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/config"
)

// providerData is what the provider's Configure hands to every resource and data source:
// the client (or the reason there is none) and the schedule waits poll on.
type providerData struct {
	version string // the provider's release, for records that a later release must not trust
	clients *config.Clients
	wait    astra.Schedule
	claims  *claimSet // objects created or adopted in this run (see adoption.go)
	seen    *seenObjects
	// destroys are the objects whose destroy this plan has planned (destroy_plan.go).
	destroys *destroySet
}

// clientHolder is embedded by every resource: it receives the provider's data in
// Configure and hands out the client, or the reason there is none.
type clientHolder struct {
	data *providerData
}

func (h *clientHolder) configure(data any, diags *diag.Diagnostics) {
	if data == nil { // ValidateResourceConfig and friends run before the provider is configured
		return
	}
	pd, ok := data.(*providerData)
	if !ok {
		diags.AddError("Unexpected provider data", fmt.Sprintf("Expected *providerData, got %T. This is a bug in the provider; please report it.", data))
		return
	}
	h.data = pd
}

// Configure implements resource.ResourceWithConfigure.
func (h *clientHolder) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	h.configure(req.ProviderData, &resp.Diagnostics)
}

// client returns the API client or adds the configuration error to diags.
func (h *clientHolder) client(diags *diag.Diagnostics) *astra.Client {
	var clients *config.Clients
	if h.data != nil {
		clients = h.data.clients
	}
	c, d := clients.Client()
	diags.Append(d...)
	return c
}

// configuredClient returns the client when the provider is configured and complete, nil
// otherwise, without a diagnostic: for plan-time checks that simply skip without one.
func (h *clientHolder) configuredClient() *astra.Client {
	if h.data == nil {
		return nil
	}
	c, _ := h.data.clients.Client()
	return c
}

// waitSchedule is how waits poll: astra.DefaultSchedule unless tests injected a faster one.
func (h *clientHolder) waitSchedule() astra.Schedule {
	if h.data == nil {
		return astra.DefaultSchedule()
	}
	return h.data.wait
}

// claims is the provider's set of objects created or adopted in this run.
func (h *clientHolder) claims() *claimSet {
	if h.data == nil || h.data.claims == nil {
		return newClaimSet()
	}
	return h.data.claims
}

// seen is the provider's record of the objects a plan-time check found (references.go).
func (h *clientHolder) seen() *seenObjects {
	if h.data == nil {
		return nil
	}
	return h.data.seen
}

// dataSourceClientHolder is clientHolder for data sources, whose Configure has other types.
type dataSourceClientHolder struct{ clientHolder }

// Configure implements datasource.DataSourceWithConfigure.
func (h *dataSourceClientHolder) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	h.configure(req.ProviderData, &resp.Diagnostics)
}
