package astra

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

const snapsRoute = "/k8s/v1/apps/{app_id}/appSnaps"

func TestAppSnapshotsAgainstTheSimulator(t *testing.T) {
	f := newDayTwoFixture(t, astrasim.Options{Delays: astrasim.Delays{Snapshot: 60 * time.Millisecond}})
	ctx := context.Background()
	created, err := f.c.CreateAppSnapshot(ctx, f.appID, AppSnapshotCreate{Name: "nightly"})
	if err != nil {
		t.Fatal(err)
	}
	if done, err := AppSnapshotCompleted(created); done || err != nil || created.Version != "1.2" {
		t.Fatalf("the POST answer is a running snapshot at 1.2: %+v %v", created, err)
	}
	done, err := WaitFrom(ctx, fastWait, created, func(ctx context.Context) (*AppSnapshot, error) {
		return f.c.GetAppSnapshot(ctx, f.appID, created.ID)
	}, AppSnapshotCompleted)
	if err != nil || done.State != "completed" || done.HookState != "success" || done.SnapshotAppAsset == "" {
		t.Fatalf("after the wait: %+v %v", done, err)
	}
	list, err := f.c.ListAppSnapshots(ctx, f.appID, ListOptions{})
	if err != nil || len(list) != 1 || list[0].ID != created.ID {
		t.Fatalf("list: %+v %v", list, err)
	}
	found, err := f.c.FindAppSnapshot(ctx, f.appID, "nightly")
	if err != nil || found == nil || found.ID != created.ID {
		t.Fatalf("find: %+v %v", found, err)
	}
	if missing, err := f.c.FindAppSnapshot(ctx, f.appID, "weekly"); missing != nil || err != nil {
		t.Errorf("find a missing one: %+v %v", missing, err)
	}
	if err := f.c.DeleteAppSnapshot(ctx, f.appID, created.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.c.GetAppSnapshot(ctx, f.appID, created.ID); !IsNotFound(err) {
		t.Errorf("after delete: %v", err)
	}
	for _, want := range []struct {
		method, route string
		n             int
	}{{"POST", snapsRoute, 1}, {"GET", snapsRoute, 3}, {"DELETE", snapsRoute + "/{appSnap_id}", 1}} {
		if got := f.sim.Count(want.method, want.route); got != want.n {
			t.Errorf("%s %s: %d requests, want %d", want.method, want.route, got, want.n)
		}
	}
	if _, err := f.c.GetAppSnapshot(ctx, f.appID, ""); err == nil {
		t.Error("an empty ID was accepted")
	}
}

func TestAppSnapshotFailureAndRefusals(t *testing.T) {
	f := newDayTwoFixture(t, astrasim.Options{Delays: astrasim.Delays{Snapshot: time.Hour}})
	ctx := context.Background()
	if _, err := f.c.CreateAppSnapshot(ctx, f.appID, AppSnapshotCreate{Name: "first"}); err != nil {
		t.Fatal(err)
	}
	_, err := f.c.CreateAppSnapshot(ctx, f.appID, AppSnapshotCreate{Name: "second"})
	if ProblemNumber(err) != ProblemSnapshotInProgress || !RunInProgress(err) {
		t.Errorf("a second snapshot while one runs: %v", err)
	}
	// bucketID needs appSnap 1.3 (24.02): refused before anything is sent.
	before := f.sim.Count("POST", snapsRoute)
	if _, err := f.c.CreateAppSnapshot(ctx, f.appID, AppSnapshotCreate{Name: "b", BucketID: f.bucketID}); err == nil ||
		err.Error() != "astra: appSnap resource version 1.2 has no bucketID (added in 1.3)" || f.sim.Count("POST", snapsRoute) != before {
		t.Errorf("bucketID at 1.2: %v", err)
	}
}

func TestAppSnapshotCompleted(t *testing.T) {
	cases := []struct {
		s    AppSnapshot
		done bool
		err  string
	}{
		{AppSnapshot{ID: "s", State: "discovering"}, false, ""},
		{AppSnapshot{ID: "s", State: "Running"}, false, ""},
		{AppSnapshot{ID: "s", State: "Completed"}, true, ""},
		{AppSnapshot{ID: "s", State: "failed", StateUnready: []string{"volume snapshot timed out", "volume snapshot timed out"},
			StateDetails: []StateDetail{{Title: "Snapshot failed", Detail: "volume snapshot timed out"}, {Title: "Quota", Detail: "exceeded"}}},
			false, "snapshot s is failed: volume snapshot timed out; Quota: exceeded"},
	}
	for _, c := range cases {
		done, err := AppSnapshotCompleted(&c.s)
		if done != c.done || (err == nil) != (c.err == "") || (err != nil && err.Error() != c.err) {
			t.Errorf("%s: %v %v, want %v %q", c.s.State, done, err, c.done, c.err)
		}
	}
	what, state := (&AppSnapshot{ID: "s", State: "failed", HookState: "failed", StateUnready: []string{"x"}}).Describe()
	if what != "snapshot s" || state != "state failed, hookState failed; stateUnready: x" {
		t.Errorf("Describe: %q %q", what, state)
	}
}

// A POST applied whose answer was lost: the snapshot is found by name, and never posted twice.
func TestAppSnapshotLostAnswerIsFoundByName(t *testing.T) {
	f := newDayTwoFixture(t, astrasim.Options{})
	f.sim.AddFault(astrasim.Fault{Method: http.MethodPost, Route: snapsRoute, Kind: astrasim.FaultLostAnswer, Times: 1})
	ctx := context.Background()
	_, err := f.c.CreateAppSnapshot(ctx, f.appID, AppSnapshotCreate{Name: "lost"})
	if !IsUnknownOutcome(err) {
		t.Fatalf("err %v, want an unknown outcome", err)
	}
	found, err := f.c.FindAppSnapshot(ctx, f.appID, "lost")
	if err != nil || found == nil || found.State != "completed" {
		t.Fatalf("the snapshot the lost POST took: %+v %v", found, err)
	}
	if n := f.sim.Count("POST", snapsRoute); n != 1 {
		t.Errorf("%d POSTs; a lost POST must not be repeated", n)
	}
	if !strings.Contains(err2str(f.c.DeleteAppSnapshot(ctx, "", found.ID)), "app ID is empty") {
		t.Error("an empty app ID was accepted")
	}
}

func err2str(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
