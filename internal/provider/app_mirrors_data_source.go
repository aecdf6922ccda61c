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

var _ datasource.DataSourceWithConfigure = (*appMirrorsDataSource)(nil)

// newAppMirrorsDataSource is astra_app_mirrors: the account's replication relationships,
// by app and cluster, each seen in the direction it replicates now.
func newAppMirrorsDataSource() datasource.DataSource { return &appMirrorsDataSource{} }

type appMirrorsDataSource struct{ dataSourceClientHolder }

type appMirrorsModel struct {
	AppID     types.String `tfsdk:"app_id"`
	ClusterID types.String `tfsdk:"cluster_id"`
	Mirrors   types.List   `tfsdk:"mirrors"`
}

func (d *appMirrorsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_app_mirrors"
}

// appMirrorItemAttributes are each listed relationship's: astra_app_mirror's, computed.
func appMirrorItemAttributes() map[string]schema.Attribute {
	out := attrs.ComputedForDataSource(appMirrorAttributes())
	redescribe(out, map[string]string{
		"source_app_id":          "ID of the app replicated now (the relationship's current source).",
		"destination_cluster_id": "ID of the cluster replicated to now.",
		"destination_app_id":     "ID of the app replicated to now (not ready for use until a failover).",
		"source_cluster_id":      "ID of the cluster of `source_app_id`.",
		"desired_state":          "`established` or `failed_over`: what Astra Control is asked to hold.",
	})
	return out
}

func (d *appMirrorsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the account's app replication relationships (`GET /k8s/v1/appMirrors`), each as it " +
			"replicates now, filtered by an app on either side and a cluster on either side. Use it to see whether an app " +
			"is replicated and whether replication is healthy, to find the ID to import an `astra_app_mirror` with, or the " +
			"destination app's ID after a failover.",
		Attributes: map[string]schema.Attribute{
			"app_id": schema.StringAttribute{Optional: true, Validators: []validator.String{validate.UUID()},
				MarkdownDescription: "Only the relationships of this app, as source or destination."},
			"cluster_id": schema.StringAttribute{Optional: true, Validators: []validator.String{validate.UUID()},
				MarkdownDescription: "Only the relationships with this cluster as source or destination."},
			"mirrors": computedList("The relationships, sorted by ID.", appMirrorItemAttributes()),
		},
	}
}

func (d *appMirrorsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m appMirrorsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	client := d.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	mirrors, err := client.ListAppMirrors(ctx, astra.ListOptions{})
	if err != nil {
		addAPIError(&resp.Diagnostics, "Cannot list the app mirrors", err, nil)
		return
	}
	app, cluster := m.AppID.ValueString(), m.ClusterID.ValueString()
	items := make([]appMirrorValues, 0, len(mirrors))
	for i := range mirrors {
		mm := &mirrors[i]
		if mirrorGone(mm) || (app != "" && !mm.Involves(app)) ||
			(cluster != "" && mm.SourceClusterID != cluster && mm.DestinationClusterID != cluster) {
			continue
		}
		items = append(items, appMirrorFrom(mm, appMirrorValues{}))
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].ID.ValueString() < items[j].ID.ValueString() })
	list, diags := objectList(ctx, appMirrorItemAttributes(), items)
	resp.Diagnostics.Append(diags...)
	m.Mirrors = list
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}
