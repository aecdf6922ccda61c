package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

// The list resource of clusters (terraform query): see list_resources.go.

var _ list.ListResourceWithConfigure = (*clusterListResource)(nil)

// clusterListConfig filters both lists; an unset filter matches everything.
type clusterListConfig struct {
	CloudID      types.String `tfsdk:"cloud_id"`
	ManagedState types.String `tfsdk:"managed_state"`
}

func clusterListSchema(what string) listschema.Schema {
	return listschema.Schema{
		MarkdownDescription: "Lists " + what + " of the account, to import with their identity (`terraform query`, Terraform 1.14 or later).",
		Attributes: map[string]listschema.Attribute{
			"cloud_id": listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only the clusters of this cloud.",
				Validators:          []validator.String{validate.UUID()},
			},
			"managed_state": listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only the clusters in this management state (`unmanaged`, `managed`, ...).",
			},
		},
	}
}

func (c clusterListConfig) matches(cloudID, managedState string) bool {
	return (!isSet(c.CloudID) || c.CloudID.ValueString() == cloudID) &&
		(!isSet(c.ManagedState) || c.ManagedState.ValueString() == managedState)
}

// clusterListResource lists astra_cluster objects: the account's clusters.
type clusterListResource struct{ listHolder }

func newClusterListResource() list.ListResource { return &clusterListResource{} }

func (r *clusterListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_cluster"
}

func (r *clusterListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = clusterListSchema("the clusters (private and discovered in public clouds)")
}

func (r *clusterListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	cfg, client, ok := startList[clusterListConfig](ctx, &r.listHolder, req, stream)
	if !ok {
		return
	}
	clusters, err := client.ListClusters(ctx, cfg.CloudID.ValueString(), astra.ListOptions{})
	if err != nil {
		var diags diag.Diagnostics
		addAPIError(&diags, "Cannot list clusters", err, nil)
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = listResults(ctx, req, clusters, func(c astra.Cluster, r *list.ListResult) bool {
		if !cfg.matches(c.CloudID, c.ManagedState) {
			return false
		}
		r.DisplayName = c.Name
		r.Diagnostics.Append(r.Identity.Set(ctx, idIdentity{ID: types.StringValue(c.ID)})...)
		if req.IncludeResource {
			prior := clusterModel{Timeouts: nullTimeouts(ctx, req, &r.Diagnostics)}
			r.Diagnostics.Append(r.Resource.Set(ctx, clusterModelFrom(&c, prior))...)
		}
		return true
	})
}
