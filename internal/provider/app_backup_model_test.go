package provider

import (
	"math"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// TestAppBackupFrom: progress and size are whole numbers; a failed backup's progress,
// which the service leaves out, is null.
func TestAppBackupFrom(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	done := appBackupFrom(testRunAppID, &astra.AppBackup{ID: "b", Name: "n", BucketID: "bk", SnapshotID: "s", ScheduleID: "p",
		State: "completed", HookState: "success", BackupCreationTimestamp: "2026-01-02T03:04:05Z", TotalBytes: f(104857600.0),
		BytesDone: f(104857600.0), PercentDone: f(100)})
	if done.TotalBytes.ValueInt64() != 104857600 || done.PercentDone.ValueInt64() != 100 || done.SnapshotID.ValueString() != "s" ||
		done.ScheduleID.ValueString() != "p" || done.CreationTimestamp.ValueString() != "2026-01-02T03:04:05Z" || done.HookState.ValueString() != "success" {
		t.Errorf("completed backup: %+v", done)
	}
	failed := appBackupFrom(testRunAppID, &astra.AppBackup{ID: "b", Name: "n", State: "failed", StateUnready: []string{"bucket unreachable"}})
	if !failed.PercentDone.IsNull() || !failed.TotalBytes.IsNull() || !failed.SnapshotID.IsNull() || len(failed.StateUnready.Elements()) != 1 {
		t.Errorf("failed backup: %+v", failed)
	}
}

func TestWholeNumber(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, c := range []struct {
		in   *float64
		want types.Int64
	}{
		{nil, types.Int64Null()},
		{f(math.NaN()), types.Int64Null()},
		{f(1e300), types.Int64Null()},
		{f(42.9), types.Int64Value(42)},
		{f(0), types.Int64Value(0)},
	} {
		if got := wholeNumber(c.in); !got.Equal(c.want) {
			t.Errorf("%v: %v, want %v", c.in, got, c.want)
		}
	}
}

func TestAppBackupCreateRequest(t *testing.T) {
	got := appBackupCreateRequest(appBackupValues{Name: types.StringValue("n"), BucketID: types.StringUnknown(), SnapshotID: types.StringValue("s")})
	if want := (astra.AppBackupCreate{Name: "n", SnapshotID: "s"}); got != want {
		t.Errorf("%+v, want %+v", got, want)
	}
}
