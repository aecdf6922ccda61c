package provider

import (
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

// appSnapshotValues are a snapshot's attributes, shared by astra_app_snapshot and the
// items of astra_app_snapshots.
type appSnapshotValues struct {
	ID               types.String `tfsdk:"id"`
	AppID            types.String `tfsdk:"app_id"`
	Name             types.String `tfsdk:"name"`
	BucketID         types.String `tfsdk:"bucket_id"`
	State            types.String `tfsdk:"state"`
	StateUnready     types.List   `tfsdk:"state_unready"`
	StateDetails     types.List   `tfsdk:"state_details"`
	HookState        types.String `tfsdk:"hook_state"`
	HookStateDetails types.List   `tfsdk:"hook_state_details"`
	ScheduleID       types.String `tfsdk:"schedule_id"`
	Metadata         types.Object `tfsdk:"metadata"`
}

// appSnapshotModel is the astra_app_snapshot resource.
type appSnapshotModel struct {
	appSnapshotValues
	Timeouts timeouts.Value `tfsdk:"timeouts"`
}

// appRunAPIFields maps the API's field names in invalidFields to attributes (snapshots
// and backups alike).
var appRunAPIFields = map[string]string{"name": "name", "bucketID": "bucket_id", "snapshotID": "snapshot_id"}

// appSnapshotFrom converts the service's snapshot of app appID.
func appSnapshotFrom(appID string, s *astra.AppSnapshot) appSnapshotValues {
	return appSnapshotValues{
		ID: types.StringValue(s.ID), AppID: types.StringValue(appID), Name: types.StringValue(s.Name),
		BucketID: attrs.OptionalString(s.BucketID), State: attrs.OptionalString(s.State), StateUnready: attrs.StringList(s.StateUnready),
		StateDetails: attrs.StateDetailsValue(s.StateDetails), HookState: attrs.OptionalString(s.HookState),
		HookStateDetails: attrs.StateDetailsValue(s.HookStateDetails), ScheduleID: attrs.OptionalString(s.ScheduleID),
		Metadata: attrs.MetadataValue(s.Metadata),
	}
}

// appSnapshotCreateRequest is the POST body of a planned snapshot.
func appSnapshotCreateRequest(plan appSnapshotValues) astra.AppSnapshotCreate {
	return astra.AppSnapshotCreate{Name: plan.Name.ValueString(), BucketID: attrs.StringOrEmpty(plan.BucketID)}
}
