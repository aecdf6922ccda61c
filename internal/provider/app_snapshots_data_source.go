package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

var _ datasource.DataSourceWithConfigure = (*appSnapshotsDataSource)(nil)

// newAppSnapshotsDataSource is the astra_app_snapshots data source: an app's snapshots,
// filtered, and the newest completed one.
func newAppSnapshotsDataSource() datasource.DataSource { return &appSnapshotsDataSource{} }

type appSnapshotsDataSource struct{ dataSourceClientHolder }

type appSnapshotsModel struct {
	AppID           types.String `tfsdk:"app_id"`
	State           types.String `tfsdk:"state"`
	OnDemand        types.Bool   `tfsdk:"on_demand"`
	Snapshots       types.List   `tfsdk:"snapshots"`
	LatestCompleted types.Object `tfsdk:"latest_completed"`
}

func (d *appSnapshotsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_app_snapshots"
}

// appSnapshotItemAttributes are the attributes of each listed snapshot: astra_app_snapshot's, computed.
func appSnapshotItemAttributes() map[string]schema.Attribute {
	return attrs.ComputedForDataSource(appSnapshotAttributes())
}

func (d *appSnapshotsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists an app's snapshots, those its protection policies took and those taken on demand, " +
			"optionally filtered by state and by how they were taken; all filters must match, and an empty result is " +
			"not an error. `latest_completed` is the newest completed one, the snapshot to clone or restore from. " +
			"Adopt one with an `import` block (`<app_id>/<id>`) of `astra_app_snapshot`.",
		Attributes: appRunListAttributes("snapshot", "snapshots", appSnapshotItemAttributes()),
	}
}

func (d *appSnapshotsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m appSnapshotsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	client := d.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	appID := m.AppID.ValueString()
	snapshots, err := client.ListAppSnapshots(ctx, appID, astra.ListOptions{})
	if astra.IsNotFound(err) {
		addUnknownApp(&resp.Diagnostics, appID)
		return
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "Cannot list the app's snapshots", err, nil)
		return
	}
	items := make([]appSnapshotValues, 0, len(snapshots))
	for i := range snapshots {
		items = append(items, appSnapshotFrom(appID, &snapshots[i]))
	}
	kept, latest := selectAppRuns(items, appSnapshotRun, appRunFilter{State: m.State, OnDemand: m.OnDemand})
	m.Snapshots, m.LatestCompleted = appRunListValues(ctx, appSnapshotItemAttributes(), kept, latest, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// appSnapshotRun is what the filters and the order read of a snapshot.
func appSnapshotRun(v appSnapshotValues) appRun {
	return appRun{state: v.State.ValueString(), scheduleID: v.ScheduleID.ValueString(),
		created: objectString(v.Metadata, "creation_timestamp"), id: v.ID.ValueString()}
}
