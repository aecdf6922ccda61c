package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// The list resource of managed clusters (terraform query): see list_resources.go.

var _ list.ListResourceWithConfigure = (*managedClusterListResource)(nil)

// managedClusterListResource lists astra_managed_cluster objects: the managed clusters.
type managedClusterListResource struct{ listHolder }

func newManagedClusterListResource() list.ListResource { return &managedClusterListResource{} }

func (r *managedClusterListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_managed_cluster"
}

func (r *managedClusterListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = clusterListSchema("the managed clusters")
}

func (r *managedClusterListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	cfg, client, ok := startList[clusterListConfig](ctx, &r.listHolder, req, stream)
	if !ok {
		return
	}
	managed, err := client.ListManagedClusters(ctx, astra.ListOptions{})
	if err != nil {
		var diags diag.Diagnostics
		addAPIError(&diags, "Cannot list managed clusters", err, nil)
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = listResults(ctx, req, managed, func(m astra.ManagedCluster, r *list.ListResult) bool {
		if !isManaged(&m) || !cfg.matches(m.CloudID, m.ManagedState) {
			return false
		}
		r.DisplayName = m.Name
		r.Diagnostics.Append(r.Identity.Set(ctx, idIdentity{ID: types.StringValue(m.ID)})...)
		if req.IncludeResource {
			model := managedClusterModel{
				managedClusterValues: managedClusterFrom(&m),
				Timeouts:             nullTimeouts(ctx, req, &r.Diagnostics),
				WaitForRunning:       types.BoolValue(true),
			}
			r.Diagnostics.Append(r.Resource.Set(ctx, model)...)
		}
		return true
	})
}
