package provider

import (
	"math"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

// appBackupValues are a backup's attributes, shared by astra_app_backup and the items of
// astra_app_backups.
type appBackupValues struct {
	ID                types.String `tfsdk:"id"`
	AppID             types.String `tfsdk:"app_id"`
	Name              types.String `tfsdk:"name"`
	BucketID          types.String `tfsdk:"bucket_id"`
	SnapshotID        types.String `tfsdk:"snapshot_id"`
	State             types.String `tfsdk:"state"`
	StateUnready      types.List   `tfsdk:"state_unready"`
	StateDetails      types.List   `tfsdk:"state_details"`
	HookState         types.String `tfsdk:"hook_state"`
	HookStateDetails  types.List   `tfsdk:"hook_state_details"`
	ScheduleID        types.String `tfsdk:"schedule_id"`
	CreationTimestamp types.String `tfsdk:"creation_timestamp"`
	TotalBytes        types.Int64  `tfsdk:"total_bytes"`
	PercentDone       types.Int64  `tfsdk:"percent_done"`
	Metadata          types.Object `tfsdk:"metadata"`
}

// appBackupModel is the astra_app_backup resource.
type appBackupModel struct {
	appBackupValues
	Timeouts timeouts.Value `tfsdk:"timeouts"`
}

// appBackupFrom converts the service's backup of app appID.
func appBackupFrom(appID string, b *astra.AppBackup) appBackupValues {
	return appBackupValues{
		ID: types.StringValue(b.ID), AppID: types.StringValue(appID), Name: types.StringValue(b.Name),
		BucketID: attrs.OptionalString(b.BucketID), SnapshotID: attrs.OptionalString(b.SnapshotID),
		State: attrs.OptionalString(b.State), StateUnready: attrs.StringList(b.StateUnready), StateDetails: attrs.StateDetailsValue(b.StateDetails),
		HookState: attrs.OptionalString(b.HookState), HookStateDetails: attrs.StateDetailsValue(b.HookStateDetails),
		ScheduleID: attrs.OptionalString(b.ScheduleID), CreationTimestamp: attrs.OptionalString(b.BackupCreationTimestamp),
		TotalBytes: wholeNumber(b.TotalBytes), PercentDone: wholeNumber(b.PercentDone), Metadata: attrs.MetadataValue(b.Metadata),
	}
}

// wholeNumber is a number the API sends as a JSON number, rounded down; absent, or beyond
// what an int64 holds, is null.
func wholeNumber(v *float64) types.Int64 {
	if v == nil || math.IsNaN(*v) || math.Abs(*v) >= math.MaxInt64 {
		return types.Int64Null()
	}
	return types.Int64Value(int64(math.Floor(*v)))
}

// appBackupCreateRequest is the POST body of a planned backup.
func appBackupCreateRequest(plan appBackupValues) astra.AppBackupCreate {
	return astra.AppBackupCreate{Name: plan.Name.ValueString(), BucketID: attrs.StringOrEmpty(plan.BucketID),
		SnapshotID: attrs.StringOrEmpty(plan.SnapshotID)}
}
