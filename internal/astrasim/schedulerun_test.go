package astrasim

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestPoliciesFireOnAnAcceleratedClock: at 3600 simulated seconds per second an hourly
// policy fires every real second; it keeps snapshotRetention snapshots and backupRetention
// backups, the oldest deleted first, each backup taken from its firing's snapshot.
func TestPoliciesFireOnAnAcceleratedClock(t *testing.T) {
	clock := newClock() // 12:00:00
	e := newEnv(t, Options{Now: clock.Now, ScheduleSpeed: 3600})
	e.bucket("hourly")
	appID := e.readyApp("web")
	schedID := e.post("/k8s/v1/apps/"+appID+"/schedules", scheduleBody("hourly", map[string]any{"minute": "30",
		"snapshotRetention": "2", "backupRetention": "1"})).expect(201).str("id")
	clock.advance(time.Second) // simulated 13:00: the 12:30 firing
	snaps := e.get(snapsOf(appID)).expect(200).items()
	backups := e.get(backupsOf(appID)).expect(200).items()
	if len(snaps) != 1 || len(backups) != 1 {
		t.Fatalf("after one firing: %d snapshots, %d backups", len(snaps), len(backups))
	}
	name := regexp.MustCompile(`^hourly-schedule-[a-z0-9]{5}$`)
	if itemField(snaps, 0, "scheduleID") != schedID || !name.MatchString(itemField(snaps, 0, "name")) ||
		itemField(backups, 0, "snapshotID") != itemField(snaps, 0, "id") || itemField(backups, 0, "state") != "completed" {
		t.Errorf("the firing's snapshot and backup: %v %v", snaps, backups)
	}
	// The firing happened at simulated 12:30, half a real second in.
	if created := lookup(snaps[0].(map[string]any), "metadata.creationTimestamp"); created != "2024-03-01T12:00:00.500000Z" {
		t.Errorf("the firing's snapshot was stamped %v", created)
	}
	if got := lookup(snaps[0].(map[string]any), "metadata.createdBy"); got != nullUUID {
		t.Errorf("a policy's snapshot is created by the system: %v", got)
	}
	clock.advance(3 * time.Second) // three more firings
	snaps = e.get(snapsOf(appID)).expect(200).items()
	backups = e.get(backupsOf(appID)).expect(200).items()
	if len(snaps) != 2 || len(backups) != 1 {
		t.Fatalf("retention 2 and 1: %d snapshots, %d backups", len(snaps), len(backups))
	}
	// The newest are kept: the backup is the fourth firing's, from the newest snapshot.
	if itemField(backups, 0, "snapshotID") != itemField(snaps, 1, "id") {
		t.Errorf("kept %v and %v", snaps, backups)
	}
	if got := e.get("/k8s/v2/apps/" + appID).str("protectionState"); got != "protected" {
		t.Errorf("protectionState %s", got)
	}
}

// TestPoliciesThatTakeNothing: a disabled policy, a policy with backupRetention 0 (no
// backups), and a policy of an app whose storage cannot snapshot.
func TestPoliciesThatTakeNothing(t *testing.T) {
	clock := newClock()
	e := newEnv(t, Options{Now: clock.Now})
	e.bucket("nothing")
	appID := e.readyApp("web")
	sched := "/k8s/v1/apps/" + appID + "/schedules"
	disabled := e.post(sched, scheduleBody("hourly", map[string]any{"enabled": "false"})).expect(201).str("id")
	e.post(sched, scheduleBody("daily", map[string]any{"hour": "13", "backupRetention": "0"})).expect(201)
	clock.advance(90 * time.Minute) // 13:30: the hourly and the daily would both have fired
	if n, m := len(e.get(snapsOf(appID)).items()), len(e.get(backupsOf(appID)).items()); n != 1 || m != 0 {
		t.Errorf("a disabled policy and a snapshot-only one: %d snapshots, %d backups", n, m)
	}
	e.put(sched+"/"+disabled, map[string]any{"type": "application/astra-schedule", "version": "1.3", "enabled": "true",
		"snapshotRetention": "0", "backupRetention": "1"}).expect(204)
	clock.advance(time.Hour) // 14:30: the hourly one, now enabled, fires once (nothing of its disabled past)
	if n, m := len(e.get(snapsOf(appID)).items()), len(e.get(backupsOf(appID)).items()); n != 1 || m != 1 {
		t.Errorf("after enabling: %d snapshots, %d backups", n, m)
	}
	// A backup without a snapshot of its own policy takes its own (no snapshotID).
	if b := e.get(backupsOf(appID)).items(); itemField(b, 0, "snapshotID") != "" {
		t.Errorf("backup: %v", b)
	}
}

// TestPausedPoliciesNeverFire: with PausePolicies the schedule clock stands still, and
// snapshots and backups still run through their delays.
func TestPausedPoliciesNeverFire(t *testing.T) {
	clock := newClock()
	e := newEnv(t, Options{Now: clock.Now, PausePolicies: true, Delays: Delays{Snapshot: time.Minute}})
	appID := e.readyApp("web")
	e.post("/k8s/v1/apps/"+appID+"/schedules", scheduleBody("hourly", nil)).expect(201)
	id := e.post(snapsOf(appID), snapBody("adhoc")).expect(201).str("id")
	clock.advance(48 * time.Hour)
	if items := e.get(snapsOf(appID)).items(); len(items) != 1 || itemField(items, 0, "id") != id || itemField(items, 0, "state") != "completed" {
		t.Errorf("snapshots with the policies paused: %v", items)
	}
}

// TestCatchUpIsBounded: after a long pause only the last maxCatchUp firings are taken.
func TestCatchUpIsBounded(t *testing.T) {
	clock := newClock()
	e := newEnv(t, Options{Now: clock.Now})
	appID := e.readyApp("web")
	e.post("/k8s/v1/apps/"+appID+"/schedules", scheduleBody("hourly", map[string]any{"snapshotRetention": "500", "backupRetention": "0"})).expect(201)
	clock.advance(30 * 24 * time.Hour)
	if n := len(e.get(snapsOf(appID)).items()); n != maxCatchUp {
		t.Errorf("%d snapshots after 30 days, want the last %d firings", n, maxCatchUp)
	}
}

// TestPolicyRunsWaitForEachOther: with delays, a firing's backup waits for its snapshot,
// and a firing finding a run in progress skips it.
func TestPolicyRunsWaitForEachOther(t *testing.T) {
	clock := newClock()
	e := newEnv(t, Options{Now: clock.Now, ScheduleSpeed: 60, Delays: Delays{Snapshot: 4 * time.Second, Backup: 2 * time.Second}})
	e.bucket("chained")
	appID := e.readyApp("web")
	// Every simulated minute at 60x: a firing each real second.
	e.post("/k8s/v1/apps/"+appID+"/schedules", map[string]any{"type": "application/astra-schedule", "version": "1.3", "name": "often",
		"granularity": "custom", "recurrenceRule": "RRULE:FREQ=MINUTELY;INTERVAL=1", "snapshotRetention": "5", "backupRetention": "5"}).expect(201)
	clock.advance(time.Second)
	snaps, backups := e.get(snapsOf(appID)).items(), e.get(backupsOf(appID)).items()
	if len(snaps) != 1 || len(backups) != 1 || itemField(backups, 0, "state") != "pending" || itemField(snaps, 0, "state") != "discovering" {
		t.Fatalf("first firing: %v %v", snaps, backups)
	}
	clock.advance(2 * time.Second) // the snapshot runs; the next firings find it in progress
	if n := len(e.get(snapsOf(appID)).items()); n != 1 {
		t.Errorf("firings during a snapshot took %d snapshots", n)
	}
	if got := itemField(e.get(backupsOf(appID)).items(), 0, "state"); got != "pending" {
		t.Errorf("the backup waits for its snapshot: %s", got)
	}
	clock.advance(2 * time.Second) // the snapshot, taken at 1s, completes at 5s: its backup starts
	if got := itemField(e.get(backupsOf(appID)).items(), 0, "state"); got != "running" {
		t.Errorf("the backup after its snapshot: %s", got)
	}
}

func TestRunNames(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Daily Schedule", "daily-schedule"}, {"--a__b--", "a-b"}, {"ÄÖ", "x"}, {"web", "web"},
		{strings.Repeat("a", 70), strings.Repeat("a", 20)}, {"a-" + strings.Repeat("b", 30), "a-" + strings.Repeat("b", 18)},
	} {
		if got := dnsLabel(c.in, 20, "x"); got != c.want {
			t.Errorf("dnsLabel(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	a := &app{Name: "Payroll Web"}
	now := time.Date(2022, 5, 23, 16, 15, 42, 0, time.UTC)
	taken := map[string]bool{"payroll-web-snapshot-20220523161542": true, "payroll-web-snapshot-20220523161542-2": true}
	if got := onDemandName(a, "snapshot", now, func(n string) bool { return taken[n] }); got != "payroll-web-snapshot-20220523161542-3" {
		t.Errorf("onDemandName: %s", got)
	}
	long := &app{Name: strings.Repeat("w", 63)}
	if got := onDemandName(long, "backup", now, func(string) bool { return false }); len(got) > 63 || !strings.HasSuffix(got, "-backup-20220523161542") {
		t.Errorf("a long app name: %s (%d)", got, len(got))
	}
	if a, b := scheduledName(0, "hourly schedule", 7), scheduledName(0, "hourly schedule", 8); a == b || !strings.HasPrefix(a, "hourly-schedule-") || len(a) != len("hourly-schedule-")+5 {
		t.Errorf("scheduledName: %s %s", a, b)
	}
}

func TestParseFailNext(t *testing.T) {
	f, err := ParseFailNext(FailBackup, "web=the bucket is full")
	if err != nil || f.App != "web" || len(f.Reasons) != 1 || f.Reasons[0] != "the bucket is full" {
		t.Errorf("%+v %v", f, err)
	}
	if f, err := ParseFailNext(FailSnapshot, "web"); err != nil || f.Reasons != nil {
		t.Errorf("no reason: %+v %v", f, err)
	}
	for _, bad := range []struct{ kind, spec string }{{FailSnapshot, ""}, {FailSnapshot, "=why"}, {"clone", "web"}, {FailBackup, "web=" + strings.Repeat("r", 128)}} {
		if _, err := ParseFailNext(bad.kind, bad.spec); err == nil {
			t.Errorf("%s %q was accepted", bad.kind, bad.spec)
		}
	}
	if _, err := New(Options{FailNext: []FailNext{{Kind: "clone", App: "x"}}}); err == nil {
		t.Error("New took an invalid FailNext")
	}
	if _, err := New(Options{ScheduleSpeed: -1}); err == nil {
		t.Error("New took a negative schedule speed")
	}
}
