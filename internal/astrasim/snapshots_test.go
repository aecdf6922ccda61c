package astrasim

import (
	"strings"
	"testing"
	"time"
)

// TestSnapshotRunsThroughItsStates: discovering, running half way through the delay,
// then completed, with snapshotAppAsset and hookState only once completed.
func TestSnapshotRunsThroughItsStates(t *testing.T) {
	clock := newClock()
	e := newEnv(t, Options{Now: clock.Now, Delays: Delays{Snapshot: 10 * time.Second}})
	appID := e.readyApp("web")
	r := e.post(snapsOf(appID), snapBody("first")).expect(201)
	id := r.str("id")
	if r.str("state") != "discovering" || r.str("hookState") != "" || r.body["snapshotAppAsset"] != nil || r.body["scheduleID"] != nil {
		t.Fatalf("POST answer: %s", r.raw)
	}
	if loc := r.header.Get("Location"); !strings.HasSuffix(loc, "/accounts/"+e.sim.AccountID()+"/k8s/v1/apps/"+appID+"/appSnaps/"+id) {
		t.Errorf("Location %q", loc)
	}
	for _, step := range []struct {
		after time.Duration
		state string
	}{{4 * time.Second, "discovering"}, {time.Second, "running"}, {4 * time.Second, "running"}, {time.Second, "completed"}} {
		clock.advance(step.after)
		if got := e.get(snapsOf(appID) + "/" + id).expect(200); got.str("state") != step.state {
			t.Fatalf("after %v more: %s, want %s", step.after, got.str("state"), step.state)
		}
	}
	done := e.get(snapsOf(appID) + "/" + id)
	if !isIdentifier(done.str("snapshotAppAsset")) || done.str("hookState") != "success" || done.str("metadata.createdBy") != e.sim.users[DefaultToken].userID {
		t.Errorf("completed snapshot: %s", done.raw)
	}
	if items := e.get(snapsOf(appID)).expect(200).items(); len(items) != 1 || itemField(items, 0, "id") != id {
		t.Errorf("list: %v", items)
	}
	if n := e.sim.Count("POST", "/k8s/v1/apps/{app_id}/appSnaps"); n != 1 {
		t.Errorf("POST appSnaps counted %d", n)
	}
}

func TestSnapshotNamesAndRefusals(t *testing.T) {
	clock := newClock()
	e := newEnv(t, Options{Now: clock.Now, Delays: Delays{Snapshot: time.Minute, App: 2 * time.Second}})
	appID := e.readyApp("web-app")
	clock.advance(2 * time.Second)
	snaps := snapsOf(appID)

	// The system names an unnamed snapshot after the app and the time.
	first := e.post(snaps, snapBody("")).expect(201)
	if first.str("name") != "web-app-snapshot-20240301120002" {
		t.Errorf("generated name %q", first.str("name"))
	}
	// One snapshot at a time.
	e.post(snaps, snapBody("second")).problem(148)
	e.del(snaps + "/" + first.str("id")).problem(144) // 24.02: not 148
	clock.advance(time.Minute)
	e.post(snaps, snapBody("web-app-snapshot-20240301120002")).problem(176)
	e.post(snaps, snapBody("Not_DNS")).problem(8)
	// 1.1 and 1.2 snapshots have no bucketID: the schema refuses it.
	e.post(snaps, map[string]any{"type": "application/astra-appSnap", "version": "1.1", "bucketID": "00000000-0000-4000-8000-000000000001"}).problem(8)

	e.post("/k8s/v1/apps/00000000-0000-4000-8000-000000000001/appSnaps", snapBody("x")).problem(2)
	e.get("/k8s/v1/apps/00000000-0000-4000-8000-000000000001/appSnaps").problem(2)
	e.get(snaps + "/00000000-0000-4000-8000-000000000001").problem(2)
	e.del(snaps + "/00000000-0000-4000-8000-000000000001").problem(1)

	// An app still being discovered, and an app whose storage cannot snapshot.
	pending := e.post("/k8s/v2/apps", appBody("late", e.sim.st.Apps[appID].ClusterID, "kube-public")).expect(201).str("id")
	e.post(snapsOf(pending), snapBody("early")).problem(112)
	atRisk := e.readyApp("risky")
	clock.advance(2 * time.Second)
	c := e.sim.st.Clusters[e.sim.st.Apps[atRisk].ClusterID]
	for _, sc := range e.sim.st.storageClassesOf(c.ID) {
		if sc.Provisioner == "rancher.io/local-path" {
			e.sim.setDefaultStorageClass(c, sc.ID)
		}
	}
	e.post(snapsOf(atRisk), snapBody("nope")).problem(149)
	// Another app's snapshot is not found under this app.
	e.get(snapsOf(pending) + "/" + first.str("id")).problem(2)
}

func TestInjectedSnapshotFailure(t *testing.T) {
	e := newEnv(t, Options{Release: "24.02", FailNext: []FailNext{{Kind: FailSnapshot, App: "web", Reasons: []string{"volume snapshot timed out"}}}})
	appID := e.readyApp("web")
	// appSnap 1.3 answers stateDetails beside stateUnready.
	failed := e.post(snapsOf(appID), map[string]any{"type": "application/astra-appSnap", "version": "1.3", "name": "doomed"}).expect(201)
	if failed.str("state") != "failed" || strings.Join(failed.strs("stateUnready"), "|") != "volume snapshot timed out" {
		t.Fatalf("injected failure: %s", failed.raw)
	}
	details, _ := failed.body["stateDetails"].([]any)
	if len(details) != 1 || lookup(details[0].(map[string]any), "title") != "Snapshot failed" {
		t.Errorf("stateDetails: %v", details)
	}
	// The failure applied once; by ID, through the Go API, the next one fails by default.
	if got := e.post(snapsOf(appID), snapBody("fine")).expect(201).str("state"); got != "completed" {
		t.Errorf("the next snapshot: %s", got)
	}
	if err := e.sim.FailNextSnapshot(appID); err != nil {
		t.Fatal(err)
	}
	r := e.post(snapsOf(appID), snapBody("again")).expect(201)
	if r.str("state") != "failed" || !strings.Contains(strings.Join(r.strs("stateUnready"), ""), "injected by the simulator") {
		t.Errorf("default reason: %s", r.raw)
	}
	// A failed snapshot can be deleted.
	e.del(snapsOf(appID) + "/" + failed.str("id")).expect(204)
}

func TestFailNextIsValidated(t *testing.T) {
	e := newEnv(t, Options{})
	if err := e.sim.FailNextSnapshot(""); err == nil {
		t.Error("an empty app was accepted")
	}
	if err := e.sim.FailNextBackup("web", strings.Repeat("r", 128)); err == nil {
		t.Error("a reason of 128 characters was accepted (stateUnready holds 127)")
	}
}
