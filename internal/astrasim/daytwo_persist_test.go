package astrasim

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"
)

// TestDayTwoObjectsSurviveTheStateFile: snapshots, backups (one still running), hook
// sources, hooks and a policy's clock are saved and reloaded; the running backup goes on
// where it was, and the policy keeps firing.
func TestDayTwoObjectsSurviveTheStateFile(t *testing.T) {
	clock := newClock()
	opts := Options{Now: clock.Now, Delays: Delays{Backup: time.Minute}}
	e := newEnv(t, opts)
	e.bucket("persist")
	appID := e.readyApp("web")
	src := e.hookSource("script")
	hookID := e.post(hooksOf(appID), hookBody("h", appID, src)).expect(201).str("id")
	snapID := e.post(snapsOf(appID), snapBody("s1")).expect(201).str("id")
	backupID := e.post(backupsOf(appID), backupBody("b1", nil)).expect(201).str("id")
	e.post("/k8s/v1/apps/"+appID+"/schedules", scheduleBody("hourly", map[string]any{"backupRetention": "0"})).expect(201)
	path := filepath.Join(t.TempDir(), "state.json")
	if err := e.sim.SaveState(path); err != nil {
		t.Fatal(err)
	}
	before, _ := e.sim.Snapshot()

	again := newEnv(t, opts)
	if err := again.sim.LoadState(path); err != nil {
		t.Fatal(err)
	}
	after, _ := again.sim.Snapshot()
	if !bytes.Equal(before, after) {
		t.Errorf("the snapshot changed across save and load: %s", firstDifference(before, after))
	}
	again.get(snapsOf(appID) + "/" + snapID).expect(200)
	again.get(hooksOf(appID) + "/" + hookID).expect(200)
	again.get("/core/v1/hookSources/" + src).expect(200)
	if got := again.get(backupsOf(appID) + "/" + backupID).str("state"); got != "pending" {
		t.Fatalf("the backup after reload: %s", got)
	}
	clock.advance(time.Hour) // 13:00: the backup ended long ago; the hourly policy fired
	if got := again.get(backupsOf(appID) + "/" + backupID).str("state"); got != "completed" {
		t.Errorf("the backup after its delay: %s", got)
	}
	if n := len(again.get(snapsOf(appID)).items()); n != 2 {
		t.Errorf("%d snapshots after the policy's first firing, want 2", n)
	}
	if next := again.post(snapsOf(appID), snapBody("s3")).expect(201).str("id"); next == snapID || next == backupID {
		t.Error("an ID was reused after loading the state")
	}
}
