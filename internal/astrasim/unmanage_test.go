package astrasim

import (
	"testing"
	"time"
)

// TestUnmanagingAnAppDeletesItsData: the conservative reading (unmanage.go): snapshots,
// backups and hooks go with the app; an app with a run in progress refuses to go.
func TestUnmanagingAnAppDeletesItsData(t *testing.T) {
	clock := newClock()
	e := newEnv(t, Options{Now: clock.Now, Delays: Delays{Snapshot: time.Minute, Backup: time.Minute}})
	e.bucket("unmanage")
	appID := e.readyApp("web")
	keep := e.readyApp("other")
	src := e.hookSource("script")
	e.post(hooksOf(appID), hookBody("h", appID, src)).expect(201)
	otherHook := e.post(hooksOf(keep), hookBody("h2", keep, src)).expect(201).str("id")
	e.post(snapsOf(appID), snapBody("s1")).expect(201)
	e.del("/k8s/v2/apps/" + appID).problem(148)
	clock.advance(time.Minute)
	e.post(backupsOf(appID), backupBody("b1", nil)).expect(201)
	e.del("/k8s/v2/apps/" + appID).problem(157)
	clock.advance(time.Minute)
	e.del("/k8s/v2/apps/" + appID).expect(204)
	if len(e.sim.st.Snapshots)+len(e.sim.st.Backups) != 0 || len(e.get("/topology/v1/appBackups").items()) != 0 {
		t.Errorf("%d snapshots and %d backups outlived the app", len(e.sim.st.Snapshots), len(e.sim.st.Backups))
	}
	if items := e.get("/core/v1/executionHooks").items(); len(items) != 1 || itemField(items, 0, "id") != otherHook {
		t.Errorf("hooks after unmanaging: %v", items)
	}
	// The bucket holds nothing any more.
	e.del("/topology/v1/buckets/" + e.get("/topology/v1/buckets").items()[0].(map[string]any)["id"].(string)).expect(204)
}
