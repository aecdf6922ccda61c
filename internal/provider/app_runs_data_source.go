package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

var (
	_ datasource.DataSourceWithConfigure = (*appRunsDataSource[astra.AppSnapshot, appSnapshotValues])(nil)
	_ datasource.DataSourceWithConfigure = (*appRunsDataSource[astra.AppBackup, appBackupValues])(nil)
)

// newAppSnapshotsDataSource is the astra_app_snapshots data source: an app's snapshots,
// filtered, and the newest completed one.
func newAppSnapshotsDataSource() datasource.DataSource {
	return &appRunsDataSource[astra.AppSnapshot, appSnapshotValues]{
		what: "snapshot", plural: "snapshots", items: appSnapshotItemAttributes, from: appSnapshotFrom, run: appSnapshotRun,
		latestIs: "the snapshot to clone or restore from",
		list: func(ctx context.Context, c *astra.Client, appID string) ([]astra.AppSnapshot, error) {
			return c.ListAppSnapshots(ctx, appID, astra.ListOptions{})
		},
	}
}

// newAppBackupsDataSource is the astra_app_backups data source: an app's backups,
// filtered, and the newest completed one.
func newAppBackupsDataSource() datasource.DataSource {
	return &appRunsDataSource[astra.AppBackup, appBackupValues]{
		what: "backup", plural: "backups", items: appBackupItemAttributes, from: appBackupFrom, run: appBackupRun,
		latestIs: "\"the newest good backup\" to clone or restore from",
		list: func(ctx context.Context, c *astra.Client, appID string) ([]astra.AppBackup, error) {
			return c.ListAppBackups(ctx, appID, astra.ListOptions{})
		},
	}
}

// appRunsDataSource lists an app's snapshots or backups (T, as the client returns them;
// V, as the resource's values hold them): the two data sources differ only in these.
type appRunsDataSource[T, V any] struct {
	dataSourceClientHolder
	what, plural string // "snapshot", "snapshots"
	latestIs     string // what latest_completed is for, in the description
	items        func() map[string]schema.Attribute
	list         func(context.Context, *astra.Client, string) ([]T, error)
	from         func(appID string, item *T) V
	run          func(V) appRun
}

func (d *appRunsDataSource[T, V]) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_app_" + d.plural
}

func (d *appRunsDataSource[T, V]) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists an app's " + d.plural + ", those its protection policies took and those taken on demand, " +
			"optionally filtered by state and by how they were taken; all filters must match, and an empty result is " +
			"not an error. `latest_completed` is the newest completed one, " + d.latestIs + ". " +
			"Adopt one with an `import` block (`<app_id>/<id>`) of `astra_app_" + d.what + "`.",
		Attributes: appRunListAttributes(d.what, d.plural, d.items()),
	}
}

// Read lists the app's runs and keeps those the filters match. The list attribute is named
// for the kind (snapshots, backups), so the state is written attribute by attribute.
func (d *appRunsDataSource[T, V]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var appID types.String
	var f appRunFilter
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("app_id"), &appID)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("state"), &f.State)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("on_demand"), &f.OnDemand)...)
	client := d.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	runs, err := d.list(ctx, client, appID.ValueString())
	if astra.IsNotFound(err) {
		addUnknownApp(&resp.Diagnostics, appID.ValueString())
		return
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "Cannot list the app's "+d.plural, err, nil)
		return
	}
	items := make([]V, 0, len(runs))
	for i := range runs {
		items = append(items, d.from(appID.ValueString(), &runs[i]))
	}
	kept, latest := selectAppRuns(items, d.run, f)
	list, latestCompleted := appRunListValues(ctx, d.items(), kept, latest, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	for name, v := range map[string]any{"app_id": appID, "state": f.State, "on_demand": f.OnDemand, d.plural: list, "latest_completed": latestCompleted} {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(name), v)...)
	}
}

// appSnapshotItemAttributes are the attributes of each listed snapshot: astra_app_snapshot's, computed.
func appSnapshotItemAttributes() map[string]schema.Attribute {
	return attrs.ComputedForDataSource(appSnapshotAttributes())
}

// appBackupItemAttributes are the attributes of each listed backup: astra_app_backup's, computed.
func appBackupItemAttributes() map[string]schema.Attribute {
	return attrs.ComputedForDataSource(appBackupAttributes())
}

// appSnapshotRun is what the filters and the order read of a snapshot.
func appSnapshotRun(v appSnapshotValues) appRun {
	return appRun{state: v.State.ValueString(), scheduleID: v.ScheduleID.ValueString(),
		created: objectString(v.Metadata, "creation_timestamp"), id: v.ID.ValueString()}
}

// appBackupRun is what the filters and the order read of a backup.
func appBackupRun(v appBackupValues) appRun {
	return appRun{state: v.State.ValueString(), scheduleID: v.ScheduleID.ValueString(),
		created: objectString(v.Metadata, "creation_timestamp"), id: v.ID.ValueString()}
}
