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

var _ datasource.DataSourceWithConfigure = (*bucketsDataSource)(nil)

// newBucketsDataSource is the astra_buckets data source.
func newBucketsDataSource() datasource.DataSource { return &bucketsDataSource{} }

type bucketsDataSource struct{ dataSourceClientHolder }

type bucketsModel struct {
	BucketProvider types.String `tfsdk:"bucket_provider"`
	State          types.String `tfsdk:"state"`
	Name           types.String `tfsdk:"name"`
	Buckets        types.List   `tfsdk:"buckets"`
}

// bucketStates are the values of a bucket's state.
var bucketStates = []string{"pending", "available", "failed", "removed", "unknown"}

func (d *bucketsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_buckets"
}

func (d *bucketsDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the account's buckets, optionally filtered. An empty result is not an error.",
		Attributes: map[string]schema.Attribute{
			"bucket_provider": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only buckets of this provider: `ontap-s3`, `storagegrid-s3`, `generic-s3`, `gcp`, `azure` or `aws`.",
				Validators:          []validator.String{stringvalidator.OneOf(bucketProviders...)},
			},
			"state": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only buckets in this state: `pending`, `available`, `failed`, `removed` or `unknown`.",
				Validators:          []validator.String{stringvalidator.OneOf(bucketStates...)},
			},
			"name": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only the buckets with exactly this name.",
			},
			"buckets": computedList("The matching buckets, sorted by name, then ID.", bucketItemAttributes()),
		},
	}
}

func (d *bucketsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m bucketsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	client := d.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	var filters []astra.Filter
	for field, v := range map[string]types.String{"provider": m.BucketProvider, "state": m.State, "name": m.Name} {
		if isSet(v) && astra.Filterable(v.ValueString()) {
			filters = append(filters, astra.Eq(field, v.ValueString()))
		}
	}
	sort.Slice(filters, func(i, j int) bool { return filters[i].Field < filters[j].Field })
	buckets, err := client.ListBuckets(ctx, astra.ListOptions{Filters: filters})
	if len(filters) > 0 && astra.FilterRefused(err) {
		buckets, err = client.ListBuckets(ctx, astra.ListOptions{})
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "Cannot list buckets", err, nil)
		return
	}
	matches := func(filter types.String, value string) bool { return !isSet(filter) || filter.ValueString() == value }
	var items []bucketValues
	for _, b := range buckets {
		// Filters are applied here too: a service that ignores one must not widen the result.
		if matches(m.BucketProvider, b.Provider) && matches(m.State, b.State) && matches(m.Name, b.Name) {
			items = append(items, bucketFrom(&b))
		}
	}
	sort.SliceStable(items, func(i, j int) bool {
		if a, b := items[i].Name.ValueString(), items[j].Name.ValueString(); a != b {
			return a < b
		}
		return items[i].ID.ValueString() < items[j].ID.ValueString()
	})
	list, diags := objectList(ctx, bucketItemAttributes(), items)
	resp.Diagnostics.Append(diags...)
	m.Buckets = list
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}
