package provider

import (
	"context"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

var _ datasource.DataSourceWithConfigure = (*cloudsDataSource)(nil)

// newCloudsDataSource is the astra_clouds data source.
func newCloudsDataSource() datasource.DataSource { return &cloudsDataSource{} }

type cloudsDataSource struct{ dataSourceClientHolder }

type cloudsModel struct {
	CloudType types.String `tfsdk:"cloud_type"`
	Name      types.String `tfsdk:"name"`
	Clouds    types.List   `tfsdk:"clouds"`
}

func (d *cloudsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_clouds"
}

func (d *cloudsDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the account's clouds, optionally filtered. An empty result is not an error.",
		Attributes: map[string]schema.Attribute{
			"cloud_type": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only clouds of this type: `private`, `gcp`, `azure` or `aws` (case-insensitive).",
				Validators:          []validator.String{stringvalidator.OneOfCaseInsensitive(cloudTypes...)},
			},
			"name": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only the clouds with exactly this name.",
			},
			"clouds": computedList("The matching clouds, sorted by name. `cloud_type` is always lowercase.", cloudItemAttributes(ctx)),
		},
	}
}

func (d *cloudsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m cloudsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	client := d.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	var opts astra.ListOptions
	if isSet(m.Name) {
		opts.Filters = append(opts.Filters, astra.Filter{Field: "name", Op: "eq", Value: m.Name.ValueString()})
	}
	clouds, err := client.ListClouds(ctx, opts)
	if err != nil {
		addAPIError(&resp.Diagnostics, "Cannot list clouds", err, nil)
		return
	}
	var items []cloudValues
	for _, c := range clouds {
		// Filters are applied here too: a service that ignores one must not widen the result.
		if (isSet(m.Name) && c.Name != m.Name.ValueString()) || !cloudTypeMatches(m.CloudType, c) {
			continue
		}
		items = append(items, cloudFrom(&c, cloudValues{}))
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].Name.ValueString() < items[j].Name.ValueString() })
	list, diags := objectList(ctx, cloudItemAttributes(ctx), items)
	resp.Diagnostics.Append(diags...)
	m.Clouds = list
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}
