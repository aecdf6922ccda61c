package provider

import (
	"context"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

var _ datasource.DataSourceWithConfigure = (*clustersDataSource)(nil)

// newClustersDataSource is the astra_clusters data source.
func newClustersDataSource() datasource.DataSource { return &clustersDataSource{} }

type clustersDataSource struct{ dataSourceClientHolder }

type clustersModel struct {
	CloudID      types.String `tfsdk:"cloud_id"`
	Name         types.String `tfsdk:"name"`
	ClusterType  types.String `tfsdk:"cluster_type"`
	ManagedState types.String `tfsdk:"managed_state"`
	State        types.String `tfsdk:"state"`
	Clusters     types.List   `tfsdk:"clusters"`
}

func (d *clustersDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_clusters"
}

func (d *clustersDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	filter := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Optional: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the clusters Astra Control knows, managed or not, optionally filtered; the filters " +
			"are passed to the API and all must match. An empty result is not an error.",
		Attributes: map[string]schema.Attribute{
			"cloud_id": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only the clusters of this cloud. When unset, the clusters of every cloud.",
				Validators:          []validator.String{validate.UUID()},
			},
			"name":          filter("Only the clusters with exactly this name."),
			"cluster_type":  filter("Only clusters of this kind, such as `gke`, `aks`, `eks`, `openshift` or `kubernetes`."),
			"managed_state": filter("Only clusters in this management state, such as `managed`, `unmanaged` or `ineligible`."),
			"state":         filter("Only clusters in this operational state, such as `running`."),
			"clusters":      computedList("The matching clusters, sorted by name then ID.", clusterItemAttributes()),
		},
	}
}

func (d *clustersDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m clustersModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	client := d.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	filters := clusterFilters(m)
	clusters, err := client.ListClusters(ctx, attrs.StringOrEmpty(m.CloudID), astra.ListOptions{Filters: filters})
	if err != nil {
		addAPIError(&resp.Diagnostics, "Cannot list clusters", err, map[string]string{"clusterType": "cluster_type", "managedState": "managed_state"})
		return
	}
	var items []clusterValues
	for _, c := range clusters {
		if clusterMatches(c, filters) {
			items = append(items, clusterFrom(&c, clusterValues{}))
		}
	}
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if a.Name.ValueString() != b.Name.ValueString() {
			return a.Name.ValueString() < b.Name.ValueString()
		}
		return a.ID.ValueString() < b.ID.ValueString()
	})
	list, diags := objectList(ctx, clusterItemAttributes(), items)
	resp.Diagnostics.Append(diags...)
	m.Clusters = list
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// clusterFilters are the API filters for the configured arguments; each is checked again
// on the answer, so a service that ignores a filter cannot widen the result.
func clusterFilters(m clustersModel) []astra.Filter {
	var out []astra.Filter
	for _, f := range []struct {
		field string
		value types.String
	}{{"name", m.Name}, {"clusterType", m.ClusterType}, {"managedState", m.ManagedState}, {"state", m.State}} {
		if isSet(f.value) {
			out = append(out, astra.Filter{Field: f.field, Op: "eq", Value: f.value.ValueString()})
		}
	}
	return out
}

func clusterMatches(c astra.Cluster, filters []astra.Filter) bool {
	fields := map[string]string{"name": c.Name, "clusterType": c.ClusterType, "managedState": c.ManagedState, "state": c.State}
	for _, f := range filters {
		if fields[f.Field] != f.Value {
			return false
		}
	}
	return true
}
