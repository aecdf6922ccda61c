package astrasim

import (
	"testing"
	"time"
)

func TestProtectionOf(t *testing.T) {
	cases := []struct {
		name  string
		facts protectionFacts
		want  string
	}{
		{"nothing", protectionFacts{}, "none"},
		{"a backup policy and a recent backup", protectionFacts{backupPolicy: true, recentBackup: true, anyBackup: true}, "protected"},
		{"a backup policy, no backup yet", protectionFacts{backupPolicy: true}, "partial"},
		{"a backup policy, only an old backup", protectionFacts{backupPolicy: true, anyBackup: true}, "partial"},
		{"a recent backup without a backup policy", protectionFacts{recentBackup: true, anyBackup: true}, "partial"},
		{"a recent backup and a snapshot-only policy", protectionFacts{snapshotPolicy: true, recentBackup: true, anyBackup: true}, "partial"},
		{"a snapshot-only policy", protectionFacts{snapshotPolicy: true}, "partial"},
		{"a snapshot, no policy", protectionFacts{anySnapshot: true}, "partial"},
		{"an old backup, no policy", protectionFacts{anyBackup: true}, "partial"},
		{"at risk overrides protected", protectionFacts{cannotSnapshot: true, backupPolicy: true, recentBackup: true, anyBackup: true}, "atRisk"},
		{"at risk with nothing", protectionFacts{cannotSnapshot: true}, "atRisk"},
	}
	for _, c := range cases {
		got, details := protectionOf(c.facts)
		if got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
		if (got == "partial" || got == "atRisk") != (len(details) == 1) {
			t.Errorf("%s: %s with %d details", c.name, got, len(details))
		}
		for _, d := range details {
			if len(d.Title) > 40 || d.Detail == "" {
				t.Errorf("%s: detail %+v breaks type_astra_stateDetails", c.name, d)
			}
		}
	}
}

// TestProtectionStateOverAWeek: a weekly backup policy protects the app once its first
// backup completes, and stops protecting it when the backups after it fail for a week.
func TestProtectionStateOverAWeek(t *testing.T) {
	clock := newClock() // Friday 2024-03-01 12:00 UTC
	e := newEnv(t, Options{Now: clock.Now})
	e.bucket("weekly")
	appID := e.readyApp("web")
	state := func() string { return e.get("/k8s/v2/apps/" + appID).str("protectionState") }
	e.post("/k8s/v1/apps/"+appID+"/schedules", scheduleBody("weekly", map[string]any{"dayOfWeek": "6", "hour": "0", "minute": "0"})).expect(201)
	if got := state(); got != "partial" {
		t.Fatalf("before the first backup: %s", got)
	}
	clock.advance(12 * time.Hour) // Saturday 00:00
	if got := state(); got != "protected" {
		t.Fatalf("after the first weekly backup: %s", got)
	}
	if err := e.sim.FailNextBackup("web", "the object store is full"); err != nil {
		t.Fatal(err)
	}
	clock.advance(7 * 24 * time.Hour) // the next Saturday: that backup fails
	items := e.get(backupsOf(appID)).expect(200).items()
	if len(items) != 2 || itemField(items, 1, "state") != "failed" {
		t.Fatalf("backups: %v", items)
	}
	if got := state(); got != "partial" {
		t.Errorf("with the last good backup 7 days old: %s, want partial", got)
	}
}

// TestProtectionStateWithoutPolicies: an on-demand snapshot or backup alone is partial;
// a snapshot-only policy never protects.
func TestProtectionStateWithoutPolicies(t *testing.T) {
	e := newEnv(t, Options{})
	e.bucket("adhoc")
	appID := e.readyApp("web")
	state := func() string { return e.get("/k8s/v2/apps/" + appID).str("protectionState") }
	e.post(snapsOf(appID), snapBody("one")).expect(201)
	if got := state(); got != "partial" {
		t.Errorf("with a snapshot: %s", got)
	}
	e.post(backupsOf(appID), backupBody("one", nil)).expect(201)
	e.post("/k8s/v1/apps/"+appID+"/schedules", scheduleBody("daily", map[string]any{"hour": "1", "backupRetention": "0"})).expect(201)
	if got := state(); got != "partial" {
		t.Errorf("with a recent backup and a snapshot-only policy: %s", got)
	}
}
