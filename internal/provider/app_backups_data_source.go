package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

var _ datasource.DataSourceWithConfigure = (*appBackupsDataSource)(nil)

// newAppBackupsDataSource is the astra_app_backups data source: an app's backups,
// filtered, and the newest completed one.
func newAppBackupsDataSource() datasource.DataSource { return &appBackupsDataSource{} }

type appBackupsDataSource struct{ dataSourceClientHolder }

type appBackupsModel struct {
	AppID           types.String `tfsdk:"app_id"`
	State           types.String `tfsdk:"state"`
	OnDemand        types.Bool   `tfsdk:"on_demand"`
	Backups         types.List   `tfsdk:"backups"`
	LatestCompleted types.Object `tfsdk:"latest_completed"`
}

func (d *appBackupsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_app_backups"
}

// appBackupItemAttributes are the attributes of each listed backup: astra_app_backup's, computed.
func appBackupItemAttributes() map[string]schema.Attribute {
	return attrs.ComputedForDataSource(appBackupAttributes())
}

func (d *appBackupsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists an app's backups, those its protection policies took and those taken on demand, " +
			"optionally filtered by state and by how they were taken; all filters must match, and an empty result is " +
			"not an error. `latest_completed` is the newest completed one: \"the newest good backup\" to clone or " +
			"restore from. Adopt one with an `import` block (`<app_id>/<id>`) of `astra_app_backup`.",
		Attributes: appRunListAttributes("backup", "backups", appBackupItemAttributes()),
	}
}

func (d *appBackupsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m appBackupsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	client := d.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	appID := m.AppID.ValueString()
	backups, err := client.ListAppBackups(ctx, appID, astra.ListOptions{})
	if astra.IsNotFound(err) {
		addUnknownApp(&resp.Diagnostics, appID)
		return
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "Cannot list the app's backups", err, nil)
		return
	}
	items := make([]appBackupValues, 0, len(backups))
	for i := range backups {
		items = append(items, appBackupFrom(appID, &backups[i]))
	}
	kept, latest := selectAppRuns(items, appBackupRun, appRunFilter{State: m.State, OnDemand: m.OnDemand})
	m.Backups, m.LatestCompleted = appRunListValues(ctx, appBackupItemAttributes(), kept, latest, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// appBackupRun is what the filters and the order read of a backup.
func appBackupRun(v appBackupValues) appRun {
	return appRun{state: v.State.ValueString(), scheduleID: v.ScheduleID.ValueString(),
		created: objectString(v.Metadata, "creation_timestamp"), id: v.ID.ValueString()}
}
