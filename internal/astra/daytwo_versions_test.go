package astra

import (
	"context"
	"net/http"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

func TestDayTwoVersionsFollowTheRelease(t *testing.T) {
	cases := []struct{ cluster, release, snap, backup, hook string }{
		{"1.0", "22.11", "1.1", "1.1", "1.2"},
		{"1.3", "22.11", "1.1", "1.1", "1.2"},
		{"1.4", "23.05", "1.2", "1.2", "1.2"},
		{"1.5", "23.07", "1.2", "1.2", "1.3"},
		{"1.6", "23.10", "1.2", "1.2", "1.3"},
		{"1.7", "24.02", "1.3", "1.2", "1.3"},
	}
	for _, c := range cases {
		if got := ReleaseFor(c.cluster); got != c.release {
			t.Errorf("ReleaseFor(%s) = %s, want %s", c.cluster, got, c.release)
		}
		if a, b, h := AppSnapVersionFor(c.cluster), AppBackupVersionFor(c.cluster), ExecutionHookVersionFor(c.cluster); a != c.snap || b != c.backup || h != c.hook {
			t.Errorf("cluster %s: snapshot %s backup %s hook %s, want %s %s %s", c.cluster, a, b, h, c.snap, c.backup, c.hook)
		}
	}
	c, err := New(Config{Endpoint: "https://astra.example.com", AccountID: testAccount, Token: testToken})
	if err != nil {
		t.Fatal(err)
	}
	if c.ExecutionHookVersion() != "1.3" || c.AppSnapVersion() != "1.2" || c.AppBackupVersion() != "1.2" {
		t.Errorf("the default (cluster 1.5, 23.07): %s %s %s", c.ExecutionHookVersion(), c.AppSnapVersion(), c.AppBackupVersion())
	}
}

func TestRunInProgress(t *testing.T) {
	for n, want := range map[int]bool{107: true, 128: true, 144: true, 148: true, 157: true, 112: false, 142: false, 83: false, 10: false} {
		err := &APIError{StatusCode: http.StatusConflict, Problem: n}
		if got := RunInProgress(err); got != want {
			t.Errorf("problem %d: %v, want %v", n, got, want)
		}
	}
	if RunInProgress(nil) {
		t.Error("nil is not a run in progress")
	}
}

// Against a simulator of each release, with the api_version that release publishes: the
// versions the client picks are the ones the service takes and answers.
func TestDayTwoCallsOnEveryRelease(t *testing.T) {
	for release, cv := range clusterVersionOf {
		t.Run(release, func(t *testing.T) {
			f := newDayTwoFixture(t, astrasim.Options{Release: release})
			ctx := context.Background()
			snap, err := f.c.CreateAppSnapshot(ctx, f.appID, AppSnapshotCreate{Name: "s"})
			if err != nil || snap.Version != AppSnapVersionFor(cv) {
				t.Fatalf("snapshot: %+v %v", snap, err)
			}
			backup, err := f.c.CreateAppBackup(ctx, f.appID, AppBackupCreate{Name: "b", SnapshotID: snap.ID})
			if err != nil || backup.Version != AppBackupVersionFor(cv) || backup.State != "completed" {
				t.Fatalf("backup: %+v %v", backup, err)
			}
			src, err := f.c.CreateHookSource(ctx, HookSourceCreate{Name: "s", Script: script})
			if err != nil {
				t.Fatal(err)
			}
			hook, err := f.c.CreateExecutionHook(ctx, ExecutionHookCreate{Name: "h", AppID: f.appID, HookSourceID: src.ID, Action: "restore", Stage: "post"})
			if err != nil || hook.Version != ExecutionHookVersionFor(cv) {
				t.Fatalf("hook: %+v %v", hook, err)
			}
		})
	}
}
