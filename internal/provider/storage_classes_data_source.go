package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

var _ datasource.DataSourceWithConfigure = (*storageClassesDataSource)(nil)

// newStorageClassesDataSource is the astra_storage_classes data source.
func newStorageClassesDataSource() datasource.DataSource { return &storageClassesDataSource{} }

type storageClassesDataSource struct{ dataSourceClientHolder }

type storageClassesModel struct {
	ClusterID             types.String `tfsdk:"cluster_id"`
	StorageClasses        types.List   `tfsdk:"storage_classes"`
	DefaultStorageClassID types.String `tfsdk:"default_storage_class_id"`
}

func (d *storageClassesDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_storage_classes"
}

func (d *storageClassesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computed := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the storage classes of a cluster, managed or not, to choose the " +
			"`default_storage_class` of an `astra_managed_cluster`. A cluster without storage classes gives an empty list.",
		Attributes: map[string]schema.Attribute{
			"cluster_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "ID of the cluster.",
				Validators:          []validator.String{validate.UUID()},
			},
			"default_storage_class_id": computed("ID of the storage class Kubernetes marks as the cluster's default; null when none is."),
			"storage_classes": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The cluster's storage classes, sorted by name.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":                     computed("Astra ID of the storage class: the value `default_storage_class` takes."),
					"name":                   computed("Kubernetes name of the storage class."),
					"provisioner":            computed("Provisioner, such as `csi.trident.netapp.io`."),
					"available":              computed("Whether Astra Control can use it: `available`, `eligible` or `ineligible`."),
					"allow_volume_expansion": computed("Whether volumes can grow: `true`, `false` or `unavailable`."),
					"reclaim_policy":         computed("Reclaim policy, such as `Delete` or `Retain`."),
					"volume_binding_mode":    computed("Volume binding mode, such as `Immediate` or `WaitForFirstConsumer`."),
					"is_default": schema.BoolAttribute{Computed: true,
						MarkdownDescription: "Whether Kubernetes marks it as the cluster's default storage class."},
				}},
			},
		},
	}
}

func (d *storageClassesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m storageClassesModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	client := d.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	classes, err := client.ListStorageClasses(ctx, "", m.ClusterID.ValueString())
	if astra.IsNotFound(err) {
		resp.Diagnostics.AddAttributeError(path.Root("cluster_id"), "Cluster not found",
			"Astra Control has no cluster with ID "+m.ClusterID.ValueString()+".")
		return
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "Cannot list the cluster's storage classes", err, nil)
		return
	}
	m.StorageClasses = storageClassesValue(classes)
	m.DefaultStorageClassID = defaultStorageClassID(classes)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}
