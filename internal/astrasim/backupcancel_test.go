package astrasim

import (
	"net/http"
	"testing"
	"time"
)

// TestRunningBackupCancelled: a DELETE of a running backup cancels it (ACC "Cancel
// backups"): 204, through "deleting" where appBackup 1.2 lists it, then 404, the app free
// for the next backup; a pending one is 409/128 ("A pending backup can't be canceled").
func TestRunningBackupCancelled(t *testing.T) {
	clock := newClock()
	e := newEnv(t, Options{Release: "24.02", Now: clock.Now, Delays: Delays{Backup: time.Minute, Delete: 10 * time.Second}})
	e.bucket("cancel")
	appID := e.readyApp("web")
	body := backupBody("long", nil)
	body["version"] = "1.2"
	id := e.post(backupsOf(appID), body).expect(201).str("id")
	path := backupsOf(appID) + "/" + id
	e.del(path).problem(128)
	clock.advance(30 * time.Second)
	if got := e.get(path).str("state"); got != "running" {
		t.Fatalf("state half way: %q, want running", got)
	}
	e.del(path).expect(204)
	if got := e.get(path).str("state"); got != "deleting" {
		t.Fatalf("the cancelled backup: %q, want deleting", got)
	}
	e.post(backupsOf(appID), backupBody("next", nil)).expect(201) // the run ended: no 148
	clock.advance(10 * time.Second)
	e.get(path).problem(2)
	// Without a delete delay (or in a version without "deleting") it is gone at once.
	e2 := newEnv(t, Options{Now: clock.Now, Delays: Delays{Backup: time.Minute}})
	e2.bucket("cancel")
	app2 := e2.readyApp("web")
	id2 := e2.post(backupsOf(app2), backupBody("long", nil)).expect(201).str("id")
	clock.advance(30 * time.Second)
	e2.doURL(http.MethodDelete, e2.url("/topology/v1/appBackups/"+id2), nil, nil).expect(204)
	e2.get("/topology/v1/appBackups/" + id2).problem(2)
}

// TestUnfinishedSourcesRefusedAsTheSpecLists: a failed snapshot as a backup's snapshotID,
// and a failed backup as a clone's source, are 409/10 (the 24.02 spec lists no 111 or 164
// for these POSTs).
func TestUnfinishedSourcesRefusedAsTheSpecLists(t *testing.T) {
	e := newEnv(t, Options{})
	e.bucket("bk")
	srcID := e.readyApp("db", "prod")
	if err := e.sim.FailNextRun(FailNext{Kind: FailSnapshot, App: "db", Reasons: []string{"no space"}}); err != nil {
		t.Fatal(err)
	}
	snap := e.post(snapsOf(srcID), snapBody("broken")).expect(201).str("id")
	e.post(backupsOf(srcID), backupBody("from-failed", map[string]any{"snapshotID": snap})).problem(10)
	if err := e.sim.FailNextRun(FailNext{Kind: FailBackup, App: "db", Reasons: []string{"no space"}}); err != nil {
		t.Fatal(err)
	}
	backupID := e.post(backupsOf(srcID), backupBody("broken", nil)).expect(201).str("id")
	target := e.managedCluster("dr")
	body := cloneBody("db-dr", target, e.sim.st.Apps[srcID].ClusterID, srcID, map[string]any{"backupID": backupID})
	e.post("/k8s/v2/apps", body).problem(10)
}

// TestInFlightReady: under Options.InFlightReady a snapshot and a backup in flight answer
// "ready" (NetApp's toolkit docs), then "completed"; the run itself is unchanged.
func TestInFlightReady(t *testing.T) {
	clock := newClock()
	e := newEnv(t, Options{InFlightReady: true, Now: clock.Now, Delays: Delays{Backup: time.Minute, Snapshot: time.Minute}})
	e.bucket("ready")
	appID := e.readyApp("web")
	snap := e.post(snapsOf(appID), snapBody("s")).expect(201)
	if snap.str("state") != "ready" {
		t.Fatalf("snapshot in flight: %s", snap.raw)
	}
	clock.advance(30 * time.Second)
	if got := e.get(snapsOf(appID) + "/" + snap.str("id")).str("state"); got != "ready" {
		t.Fatalf("snapshot running: %q", got)
	}
	clock.advance(30 * time.Second)
	if got := e.get(snapsOf(appID) + "/" + snap.str("id")).str("state"); got != "completed" {
		t.Fatalf("snapshot done: %q", got)
	}
	b := e.post(backupsOf(appID), backupBody("b", nil)).expect(201)
	if b.str("state") != "ready" {
		t.Fatalf("backup in flight: %s", b.raw)
	}
	e.del(backupsOf(appID) + "/" + b.str("id")).problem(128) // still pending underneath
	clock.advance(time.Minute)
	if got := e.get(backupsOf(appID) + "/" + b.str("id")).str("state"); got != "completed" {
		t.Fatalf("backup done: %q", got)
	}
}
