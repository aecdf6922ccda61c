package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

var _ datasource.DataSourceWithConfigure = (*managedClusterDataSource)(nil)

// newManagedClusterDataSource is the astra_managed_cluster data source.
func newManagedClusterDataSource() datasource.DataSource { return &managedClusterDataSource{} }

type managedClusterDataSource struct{ dataSourceClientHolder }

// managedClusterArgumentDescriptions describe the arguments of astra_managed_cluster as its data source shows them.
var managedClusterArgumentDescriptions = map[string]string{
	"cluster_id":                    "ID of the cluster (the same as `id`).",
	"default_storage_class":         "ID of the storage class Astra Control made the cluster's default.",
	"trident_managed_state_desired": "The Trident management Astra Control was asked for: `managed` or `unmanaged`.",
	"default_bucket_id":             "ID of the bucket the cluster's backups go to by default, if any (`api_version` 1.7).",
}

func (d *managedClusterDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_managed_cluster"
}

func (d *managedClusterDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attributes := attrs.ComputedForDataSource(managedClusterAttributes())
	redescribe(attributes, managedClusterArgumentDescriptions)
	attributes["id"] = schema.StringAttribute{
		Required:            true,
		MarkdownDescription: "ID of the managed cluster (the cluster's ID).",
		Validators:          []validator.String{validate.UUID()},
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads the managed view of a cluster that Astra Control manages. It is an error when the " +
			"cluster does not exist or is not managed.",
		Attributes: attributes,
	}
}

func (d *managedClusterDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg managedClusterValues
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	client := d.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	id := cfg.ID.ValueString()
	mc, err := client.GetManagedCluster(ctx, id)
	switch {
	case astra.IsNotFound(err) || (err == nil && !isManaged(mc)):
		resp.Diagnostics.AddAttributeError(path.Root("id"), "Managed cluster not found",
			"Astra Control manages no cluster with ID "+id+". Manage it with astra_managed_cluster first.")
		return
	case err != nil:
		addAPIError(&resp.Diagnostics, "Cannot read the managed cluster", err, nil)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, managedClusterFrom(mc))...)
}
