// Package provider implements the Astra Control provider: its configuration,
// resources and data sources (schema and CRUD only; the API lives in internal/astra).
package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// typeName is the provider's local name: every resource and data source type starts with "astra_".
const typeName = "astra"

var _ provider.Provider = (*astraProvider)(nil)

// astraProvider is the provider served by main. Its configuration, resources and
// data sources arrive in later changes; for now it only identifies itself.
type astraProvider struct {
	// version is the release version ("dev" for local builds, "test" in tests).
	version string
}

// New returns a constructor for the provider, as providerserver.Serve expects.
func New(version string) func() provider.Provider {
	return func() provider.Provider {
		return &astraProvider{version: version}
	}
}

func (p *astraProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = typeName
	resp.Version = p.version
}

func (p *astraProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Manages NetApp Astra Control (Astra Control Service and Astra Control Center): " +
			"clouds, clusters, managed clusters and credentials.",
	}
}

func (p *astraProvider) Configure(_ context.Context, _ provider.ConfigureRequest, _ *provider.ConfigureResponse) {
}

func (p *astraProvider) Resources(_ context.Context) []func() resource.Resource {
	return nil
}

func (p *astraProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return nil
}
