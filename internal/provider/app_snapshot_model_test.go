package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

const testRunAppID = "0f284377-e5dc-4dcd-bacd-3197f2b8a347"

// TestAppSnapshotFrom: a failed snapshot keeps its reasons; what the service leaves out is
// null (bucket, schedule, hook state until the hooks ran), lists are empty, never null.
func TestAppSnapshotFrom(t *testing.T) {
	s := &astra.AppSnapshot{ID: "snap-1", Name: "before-migration", State: "failed", StateUnready: []string{"no snapshot class"},
		StateDetails: []astra.StateDetail{{Type: "t", Title: "Snapshot failed", Detail: "no snapshot class"}},
		Metadata:     astra.Metadata{CreationTimestamp: "2026-01-02T03:04:05Z"}}
	m := appSnapshotFrom(testRunAppID, s)
	if m.AppID.ValueString() != testRunAppID || m.ID.ValueString() != "snap-1" || m.State.ValueString() != "failed" {
		t.Errorf("ids and state: %v %v %v", m.AppID, m.ID, m.State)
	}
	if !m.BucketID.IsNull() || !m.ScheduleID.IsNull() || !m.HookState.IsNull() {
		t.Errorf("absent values not null: bucket %v, schedule %v, hook state %v", m.BucketID, m.ScheduleID, m.HookState)
	}
	if n := len(m.StateUnready.Elements()); n != 1 || m.StateUnready.Elements()[0].(types.String).ValueString() != "no snapshot class" {
		t.Errorf("state_unready = %v", m.StateUnready)
	}
	if len(m.StateDetails.Elements()) != 1 || m.HookStateDetails.IsNull() || len(m.HookStateDetails.Elements()) != 0 {
		t.Errorf("state_details %v, hook_state_details %v", m.StateDetails, m.HookStateDetails)
	}
	if got := objectString(m.Metadata, "creation_timestamp"); got != "2026-01-02T03:04:05Z" {
		t.Errorf("creation_timestamp %q", got)
	}
}

func TestAppSnapshotCreateRequest(t *testing.T) {
	for _, c := range []struct {
		bucket types.String
		want   astra.AppSnapshotCreate
	}{
		{types.StringNull(), astra.AppSnapshotCreate{Name: "s"}},
		{types.StringUnknown(), astra.AppSnapshotCreate{Name: "s"}},
		{types.StringValue("b"), astra.AppSnapshotCreate{Name: "s", BucketID: "b"}},
	} {
		if got := appSnapshotCreateRequest(appSnapshotValues{Name: types.StringValue("s"), BucketID: c.bucket}); got != c.want {
			t.Errorf("bucket %v: %+v, want %+v", c.bucket, got, c.want)
		}
	}
}

// TestSelectAppRuns: the filters, the order (creation time, then ID) and the newest
// completed one.
func TestSelectAppRuns(t *testing.T) {
	runs := []appRun{
		{id: "d", state: "failed", created: "2026-01-04T00:00:00Z"},
		{id: "b", state: "completed", scheduleID: "p", created: "2026-01-02T00:00:00Z"},
		{id: "a", state: "completed", created: "2026-01-01T00:00:00Z"},
		{id: "c", state: "completed", created: "2026-01-02T00:00:00Z"},
		{id: "e", state: "running", scheduleID: "p", created: "2026-01-05T00:00:00Z"},
	}
	for _, c := range []struct {
		name       string
		filter     appRunFilter
		want       string // IDs in order
		wantLatest string // "" for none
	}{
		{"all", appRunFilter{State: types.StringNull(), OnDemand: types.BoolNull()}, "abcde", "c"},
		{"on demand", appRunFilter{State: types.StringNull(), OnDemand: types.BoolValue(true)}, "acd", "c"},
		{"scheduled", appRunFilter{State: types.StringNull(), OnDemand: types.BoolValue(false)}, "be", "b"},
		{"failed", appRunFilter{State: types.StringValue("FAILED"), OnDemand: types.BoolNull()}, "d", ""},
		{"none", appRunFilter{State: types.StringValue("removed"), OnDemand: types.BoolNull()}, "", ""},
	} {
		kept, latest := selectAppRuns(runs, func(r appRun) appRun { return r }, c.filter)
		var ids []string
		for _, r := range kept {
			ids = append(ids, r.id)
		}
		gotLatest := ""
		if latest >= 0 {
			gotLatest = kept[latest].id
		}
		if strings.Join(ids, "") != c.want || gotLatest != c.wantLatest {
			t.Errorf("%s: %v, latest %q; want %s, latest %q", c.name, ids, gotLatest, c.want, c.wantLatest)
		}
	}
}
