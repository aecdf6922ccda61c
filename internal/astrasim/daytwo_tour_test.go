package astrasim

import (
	"testing"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// tourDayTwo walks an app's snapshots and backups (both paths), a hook source and
// execution hooks (both paths), and deletes all of it. The account must have an available
// bucket for the backups to fall back on.
func (e *env) tourDayTwo(appID string) {
	snaps, backups, hooks := snapsOf(appID), backupsOf(appID), hooksOf(appID)
	snapID := e.post(snaps, snapBody("tour-snap")).expect(201).str("id")
	e.get(snaps).expect(200)
	e.get(snaps + "/" + snapID).expect(200)
	backupID := e.post(backups, backupBody("tour-backup", map[string]any{"snapshotID": snapID})).expect(201).str("id")
	e.get(backups).expect(200)
	e.get(backups + "/" + backupID).expect(200)
	e.get("/topology/v1/appBackups").expect(200)
	e.get("/topology/v1/appBackups/" + backupID).expect(200)
	second := e.post(backups, backupBody("tour-backup-2", nil)).expect(201).str("id")
	e.del(backups + "/" + second).expect(204)
	e.del("/topology/v1/appBackups/" + backupID).expect(204)
	e.del(snaps + "/" + snapID).expect(204)

	src := e.post("/core/v1/hookSources", hookSourceBody("tour", testScript)).expect(201).str("id")
	e.get("/core/v1/hookSources").expect(200)
	e.get("/core/v1/hookSources/" + src).expect(200)
	e.put("/core/v1/hookSources/"+src, map[string]any{"type": "application/astra-hookSource", "version": "1.0", "description": "tour"}).expect(200)
	hookID := e.post(hooks, hookBody("tour-hook", appID, src)).expect(201).str("id")
	e.get(hooks).expect(200)
	e.get(hooks + "/" + hookID).expect(200)
	e.put(hooks+"/"+hookID, map[string]any{"type": "application/astra-executionHook", "version": "1.2", "arguments": []any{"post"}}).expect(200)
	core := e.post("/core/v1/executionHooks", hookBody("tour-core", appID, src)).expect(201).str("id")
	e.get("/core/v1/executionHooks").expect(200)
	e.get("/core/v1/executionHooks/" + core).expect(200)
	e.put("/core/v1/executionHooks/"+core, map[string]any{"type": "application/astra-executionHook", "version": "1.2", "enabled": "false"}).expect(200)
	e.del(hooks + "/" + hookID).expect(204)
	e.del("/core/v1/executionHooks/" + core).expect(204)
	e.del("/core/v1/hookSources/" + src).expect(204)
}

// TestDayTwoOnEveryRelease takes a snapshot and a backup, with a failing hook, and a
// policy's run on each release at its newest versions, so every answer is checked against
// that release's own schemas (stateDetails, bucketID and failover come and go).
func TestDayTwoOnEveryRelease(t *testing.T) {
	for _, release := range apispec.Releases {
		t.Run(release, func(t *testing.T) {
			clock := newClock()
			e := newEnv(t, Options{Release: release, Now: clock.Now, ScheduleSpeed: 3600, FailHookSources: []string{"broken"}, PutReturnsBody: true})
			e.bucket("every")
			appID := e.readyApp("web")
			sv, bv, hv := e.sim.newest[apispec.AppSnap], e.sim.newest[apispec.AppBackup], e.sim.newest[apispec.ExecutionHook]
			h := hookBody("h", appID, e.hookSource("broken"))
			h["version"] = hv
			hookID := e.post(hooksOf(appID), h).expect(201).str("id")
			e.put(hooksOf(appID)+"/"+hookID, map[string]any{"type": "application/astra-executionHook", "version": hv, "description": "d"}).expect(200)
			snap := e.post(snapsOf(appID), map[string]any{"type": "application/astra-appSnap", "version": sv, "name": "s"}).expect(201)
			if snap.str("version") != sv || snap.str("hookState") != "failed" {
				t.Errorf("snapshot: %s", snap.raw)
			}
			e.post(backupsOf(appID), map[string]any{"type": "application/astra-appBackup", "version": bv, "snapshotID": snap.str("id")}).expect(201)
			e.post("/k8s/v1/apps/"+appID+"/schedules", scheduleBody("hourly", nil)).expect(201)
			clock.advance(time.Second)
			for _, path := range []string{snapsOf(appID), backupsOf(appID), "/topology/v1/appBackups", hooksOf(appID), "/core/v1/hookSources"} {
				e.get(path).expect(200)
			}
			if n := len(e.get(snapsOf(appID)).items()); n != 2 {
				t.Errorf("%d snapshots", n)
			}
		})
	}
}
