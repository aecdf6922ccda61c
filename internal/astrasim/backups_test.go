package astrasim

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestBackupProgress: pending, running with bytesDone and percentDone growing, completed
// at 100%, on both paths.
func TestBackupProgress(t *testing.T) {
	clock := newClock()
	e := newEnv(t, Options{Now: clock.Now, Delays: Delays{Backup: 10 * time.Second}})
	bucketID := e.bucket("progress")
	appID := e.readyApp("web")
	r := e.post(backupsOf(appID), backupBody("b1", nil)).expect(201)
	id := r.str("id")
	if r.str("state") != "pending" || r.str("bucketID") != bucketID {
		t.Fatalf("POST answer: %s", r.raw)
	}
	if labelValue(r, labelTriggerType) != "backup" {
		t.Errorf("an on-demand backup carries triggerType=backup: %s", r.raw)
	}
	// The POST answer has no progress (postanswers.go): a GET has it.
	r = e.get(backupsOf(appID) + "/" + id).expect(200)
	if r.str("state") != "pending" || r.body["percentDone"] != 0.0 || r.str("backupCreationTimestamp") != "2024-03-01T12:00:00.000000Z" {
		t.Fatalf("GET answer: %s", r.raw)
	}
	total := r.body["totalBytes"].(float64)
	if total < 100<<20 || total > 1<<30 {
		t.Errorf("totalBytes %v", total)
	}
	clock.advance(7500 * time.Millisecond) // running since 5s: half way through its 5s
	run := e.get("/topology/v1/appBackups/" + id).expect(200)
	if run.str("state") != "running" || run.body["percentDone"] != 50.0 || run.body["bytesDone"] != total/2 {
		t.Errorf("half way: %s", run.raw)
	}
	clock.advance(2500 * time.Millisecond)
	done := e.get(backupsOf(appID) + "/" + id).expect(200)
	if done.str("state") != "completed" || done.body["percentDone"] != 100.0 || done.body["bytesDone"] != total || done.str("hookState") != "success" {
		t.Errorf("completed: %s", done.raw)
	}
	if items := e.get("/topology/v1/appBackups").expect(200).items(); len(items) != 1 {
		t.Errorf("account-wide list: %v", items)
	}
}

// TestBackupBucketChoice: the named bucket, else the cluster's default, else the cloud's,
// else the oldest available; none is problem 170.
func TestBackupBucketChoice(t *testing.T) {
	e := newEnv(t, Options{Release: "24.02"})
	appID := e.readyApp("web")
	e.post(backupsOf(appID), backupBody("none", nil)).problem(170)
	first, second, third := e.bucket("first"), e.bucket("second"), e.bucket("third")
	if got := e.post(backupsOf(appID), backupBody("oldest", nil)).expect(201).str("bucketID"); got != first {
		t.Errorf("system-selected bucket %s, want the oldest %s", got, first)
	}
	c := e.sim.st.Clusters[e.sim.st.Apps[appID].ClusterID]
	e.sim.st.Clouds[c.CloudID].DefaultBucketID = second
	if got := e.post(backupsOf(appID), backupBody("cloud", nil)).expect(201).str("bucketID"); got != second {
		t.Errorf("the cloud's default: %s", got)
	}
	c.DefaultBucketID = third
	if got := e.post(backupsOf(appID), backupBody("cluster", nil)).expect(201).str("bucketID"); got != third {
		t.Errorf("the cluster's default: %s", got)
	}
	if got := e.post(backupsOf(appID), backupBody("named", map[string]any{"bucketID": first})).expect(201).str("bucketID"); got != first {
		t.Errorf("the named bucket: %s", got)
	}
	p := e.post(backupsOf(appID), backupBody("missing", map[string]any{"bucketID": "00000000-0000-4000-8000-000000000001"})).problem(108)
	if !strings.Contains(p.str("detail"), "00000000-0000-4000-8000-000000000001") {
		t.Errorf("108 detail: %s", p.str("detail"))
	}
}

func TestBackupRefusals(t *testing.T) {
	clock := newClock()
	e := newEnv(t, Options{Now: clock.Now, Delays: Delays{Backup: time.Minute, Snapshot: time.Minute}})
	e.bucket("refusals")
	appID := e.readyApp("web")
	snaps, backups := snapsOf(appID), backupsOf(appID)
	running := e.post(snaps, snapBody("in-flight")).expect(201).str("id")
	e.post(backups, backupBody("from-running", map[string]any{"snapshotID": running})).problem(148) // 24.02: not 111
	e.post(backups, backupBody("own-snapshot", nil)).problem(148)
	clock.advance(time.Minute)
	other := e.readyApp("other")
	otherSnap := e.post(snapsOf(other), snapBody("theirs")).expect(201).str("id")
	e.post(backups, backupBody("foreign", map[string]any{"snapshotID": otherSnap})).problem(9).field("invalidFields", "snapshotID")
	b := e.post(backups, backupBody("b1", map[string]any{"snapshotID": running})).expect(201)
	if e.get(backups+"/"+b.str("id")).expect(200).str("snapshotID") != running {
		t.Errorf("snapshotID: %s", b.raw)
	}
	e.post(backups, backupBody("b2", nil)).problem(148) // 24.02: not 107
	// The snapshot a backup in progress is taken from stays; a pending backup can't be canceled.
	e.del(snaps + "/" + running).problem(144)
	e.del(backups + "/" + b.str("id")).problem(128)
	clock.advance(time.Minute)
	e.post(backups, backupBody("b1", nil)).problem(143)
	e.del(snaps + "/" + running).expect(204)
	// A backup's snapshot may go once it is done: the backup stands on its own.
	if got := e.get(backups + "/" + b.str("id")).expect(200).str("state"); got != "completed" {
		t.Errorf("backup after its snapshot went: %s", got)
	}
	e.get(backupsOf(other) + "/" + b.str("id")).problem(2)
	e.del(backupsOf(other) + "/" + b.str("id")).problem(1)
	e.get("/topology/v1/appBackups/00000000-0000-4000-8000-000000000001").problem(2)
}

// TestFailedBackupDeletedWithOrWithoutForceDelete: the automation docs' "Delete a backup"
// workflow makes Force-Delete optional for a failed backup, and astraSDK's destroyBackup
// never sends it: both DELETEs are accepted, on either path.
func TestFailedBackupDeletedWithOrWithoutForceDelete(t *testing.T) {
	e := newEnv(t, Options{})
	e.bucket("force")
	appID := e.readyApp("web")
	for i, header := range []http.Header{nil, {"Force-Delete": {"true"}}} {
		if err := e.sim.FailNextRun(FailNext{Kind: FailBackup, App: "web", Reasons: []string{"the object store refused the write"}}); err != nil {
			t.Fatal(err)
		}
		b := e.post(backupsOf(appID), backupBody("doomed-"+itoa(i), nil)).expect(201)
		if b.str("state") != "failed" || b.body["percentDone"] != nil || strings.Join(b.strs("stateUnready"), "") != "the object store refused the write" {
			t.Fatalf("failed backup: %s", b.raw)
		}
		path := []string{backupsOf(appID) + "/" + b.str("id"), "/topology/v1/appBackups/" + b.str("id")}[i]
		e.doURL(http.MethodDelete, e.url(path), nil, header).expect(204)
		e.get("/topology/v1/appBackups/" + b.str("id")).problem(2)
	}
}

// TestBackupToAnUnreachableBucketFails: Options.UnreachableBuckets makes the bucket fail,
// and a backup into it is accepted, then fails, saying why.
func TestBackupToAnUnreachableBucketFails(t *testing.T) {
	e := newEnv(t, Options{UnreachableBuckets: []string{"gone"}})
	bucketID := e.bucket("gone")
	appID := e.readyApp("web")
	r := e.post(backupsOf(appID), backupBody("lost", map[string]any{"bucketID": bucketID})).expect(201)
	if r.str("state") != "failed" || !strings.Contains(strings.Join(r.strs("stateUnready"), ""), "Bucket gone is unreachable") {
		t.Errorf("backup into an unreachable bucket: %s", r.raw)
	}
}

// TestBucketInUseIsKept: a bucket that holds backups or that a policy names is refused
// with 409 problem 83, naming what is in the way.
func TestBucketInUseIsKept(t *testing.T) {
	e := newEnv(t, Options{})
	bucketID := e.bucket("kept")
	appID := e.readyApp("web")
	backupID := e.post(backupsOf(appID), backupBody("b1", nil)).expect(201).str("id")
	sched := e.post("/k8s/v1/apps/"+appID+"/schedules", scheduleBody("daily", map[string]any{"hour": "1", "bucketID": bucketID})).expect(201).str("id")
	detail := e.del("/topology/v1/buckets/" + bucketID).problem(83).str("detail")
	for _, want := range []string{`backup "b1" (` + backupID + `) of app "web"`, `protection policy "daily schedule" (` + sched + `) of app "web"`} {
		if !strings.Contains(detail, want) {
			t.Errorf("83 detail lacks %s: %s", want, detail)
		}
	}
	e.del("/k8s/v1/apps/" + appID + "/schedules/" + sched).expect(204)
	if detail := e.del("/topology/v1/buckets/" + bucketID).problem(83).str("detail"); strings.Contains(detail, "policy") {
		t.Errorf("the policy is gone: %s", detail)
	}
	e.del(backupsOf(appID) + "/" + backupID).expect(204)
	e.del("/topology/v1/buckets/" + bucketID).expect(204)
}

// TestDeletingWindow: the 24.02 schemas give snapshots and backups a "deleting" state. With
// Delays.Delete, a DELETE answers 204 and the record stays "deleting" for the delay: its
// name is still taken (a snapshot's 176, a backup's 143) and its bucket still in use (83);
// a second DELETE is accepted; then it is gone (404) and the name and bucket are free.
func TestDeletingWindow(t *testing.T) {
	clock := newClock()
	e := newEnv(t, Options{Release: "24.02", Now: clock.Now, Delays: Delays{Delete: 10 * time.Second}})
	bucketID := e.bucket("deleting")
	appID := e.readyApp("web")
	newest := func(b map[string]any, version string) map[string]any { b["version"] = version; return b }
	snap := e.post(snapsOf(appID), newest(snapBody("nightly"), "1.3")).expect(201).str("id")
	backup := e.post(backupsOf(appID), newest(backupBody("nightly", nil), "1.2")).expect(201).str("id")
	old := e.post(backupsOf(appID), backupBody("version-1-1", nil)).expect(201).str("id")
	e.del(backupsOf(appID) + "/" + old).expect(204)
	e.get(backupsOf(appID) + "/" + old).problem(2) // appBackup 1.1 answers no "deleting": gone at once
	e.del(snapsOf(appID) + "/" + snap).expect(204)
	e.del(backupsOf(appID) + "/" + backup).expect(204)
	if got := e.get(backupsOf(appID) + "/" + backup).str("state"); got != "deleting" {
		t.Fatalf("the backup after its DELETE: %q, want deleting", got)
	}
	if got := e.get(snapsOf(appID) + "/" + snap).str("state"); got != "deleting" {
		t.Fatalf("the snapshot after its DELETE: %q, want deleting", got)
	}
	e.post(snapsOf(appID), snapBody("nightly")).problem(176)
	e.post(backupsOf(appID), backupBody("nightly", nil)).problem(143)
	e.del("/topology/v1/buckets/" + bucketID).problem(83)
	e.del(backupsOf(appID) + "/" + backup).expect(204)
	clock.advance(10 * time.Second)
	e.get(backupsOf(appID) + "/" + backup).problem(2)
	e.get(snapsOf(appID) + "/" + snap).problem(2)
	e.post(snapsOf(appID), snapBody("nightly")).expect(201)
	reused := e.post(backupsOf(appID), backupBody("nightly", nil)).expect(201).str("id")
	e.del(backupsOf(appID) + "/" + reused).expect(204)
	clock.advance(10 * time.Second)
	e.del("/topology/v1/buckets/" + bucketID).expect(204)
}
