package astrasim

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// unmanageFixture is an app with a hook, a completed snapshot and a completed backup in a
// bucket, beside another app whose hook must survive; it checks that a run in progress
// refuses the unmanage under either reading (157 for a backup, 148 for a snapshot).
func unmanageFixture(t *testing.T, opts Options) (e *env, clock *fakeClock, appID, bucketID, backupID, otherHook string) {
	clock = newClock()
	opts.Now, opts.Delays = clock.Now, Delays{Snapshot: time.Minute, Backup: time.Minute}
	e = newEnv(t, opts)
	bucketID = e.bucket("unmanage")
	appID = e.readyApp("web")
	keep := e.readyApp("other")
	src := e.hookSource("script")
	e.post(hooksOf(appID), hookBody("h", appID, src)).expect(201)
	otherHook = e.post(hooksOf(keep), hookBody("h2", keep, src)).expect(201).str("id")
	e.post(snapsOf(appID), snapBody("s1")).expect(201)
	e.del("/k8s/v2/apps/" + appID).problem(148)
	clock.advance(time.Minute)
	backupID = e.post(backupsOf(appID), backupBody("b1", nil)).expect(201).str("id")
	e.del("/k8s/v2/apps/" + appID).problem(157)
	clock.advance(time.Minute)
	return e, clock, appID, bucketID, backupID, otherHook
}

// TestUnmanageKeepsBackupsRESTWorkflow: the default reading, NetApp's REST workflow
// "Unmanage an app" (wf_unmanage_app): the backups are not removed. They stay listed
// account-wide, keep their bucket in use (409/83, as the toolkit docs' "unmanage bucket"
// requires destroying them first), and are deleted through /topology/v1/appBackups.
func TestUnmanageKeepsBackupsRESTWorkflow(t *testing.T) {
	e, _, appID, bucketID, backupID, otherHook := unmanageFixture(t, Options{})
	e.del("/k8s/v2/apps/" + appID).expect(204)
	if items := e.get("/topology/v1/appBackups").items(); len(items) != 1 || itemField(items, 0, "id") != backupID {
		t.Fatalf("backups after unmanaging: %v", items)
	}
	if items := e.get("/core/v1/executionHooks").items(); len(items) != 1 || itemField(items, 0, "id") != otherHook {
		t.Errorf("hooks after unmanaging: %v", items)
	}
	if len(e.sim.st.Snapshots) != 0 {
		t.Errorf("%d snapshots of the unmanaged app are still reachable", len(e.sim.st.Snapshots))
	}
	refused := e.del("/topology/v1/buckets/" + bucketID).problem(83)
	if !strings.Contains(string(refused.raw), "b1") {
		t.Errorf("the refusal does not name the backup in the bucket: %s", string(refused.raw))
	}
	e.del("/topology/v1/appBackups/" + backupID).expect(204)
	e.del("/topology/v1/buckets/" + bucketID).expect(204)
}

// TestUnmanageDeletesBackupsACCDocs: Astra Control Center's documentation (use/unmanage):
// snapshots, backups and hooks go with the app; a failed backup refuses the unmanage
// (409/142, the automation docs' "delete a failed app" removes it first with Force-Delete).
func TestUnmanageDeletesBackupsACCDocs(t *testing.T) {
	e, clock, appID, bucketID, _, otherHook := unmanageFixture(t, Options{UnmanageDeletesBackups: true})
	if err := e.sim.FailNextBackup(appID); err != nil {
		t.Fatal(err)
	}
	failed := e.post(backupsOf(appID), backupBody("b2", nil)).expect(201).str("id")
	clock.advance(time.Minute)
	if got := e.get(backupsOf(appID) + "/" + failed).str("state"); got != "failed" {
		t.Fatalf("the second backup is %s, not failed", got)
	}
	refused := e.del("/k8s/v2/apps/" + appID).problem(142)
	if !strings.Contains(string(refused.raw), "b2") || !strings.Contains(string(refused.raw), "Force-Delete") {
		t.Errorf("the refusal does not name the failed backup and the fix: %s", string(refused.raw))
	}
	e.doURL(http.MethodDelete, e.url(backupsOf(appID)+"/"+failed), nil, http.Header{"Force-Delete": {"true"}}).expect(204)
	e.del("/k8s/v2/apps/" + appID).expect(204)
	if len(e.sim.st.Snapshots)+len(e.sim.st.Backups) != 0 || len(e.get("/topology/v1/appBackups").items()) != 0 {
		t.Errorf("%d snapshots and %d backups outlived the app", len(e.sim.st.Snapshots), len(e.sim.st.Backups))
	}
	if items := e.get("/core/v1/executionHooks").items(); len(items) != 1 || itemField(items, 0, "id") != otherHook {
		t.Errorf("hooks after unmanaging: %v", items)
	}
	e.del("/topology/v1/buckets/" + bucketID).expect(204)
}
