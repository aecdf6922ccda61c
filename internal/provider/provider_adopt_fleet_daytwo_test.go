package provider

import (
	"context"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// fleetDayTwo is what seedFleetDayTwo made: scripts, execution hooks, and the completed
// on-demand snapshots and backups of the adopted apps (counted from what Astra Control
// lists, since a backup may take a snapshot of its own).
type fleetDayTwo struct{ hookSources, hooks, snapshots, backups int }

// seedFleetDayTwo gives the fleet's apps web and db what day two adds, as the web UI or an
// action would: two scripts, a pre-snapshot hook with arguments and a container criterion
// on web and a disabled post-backup hook on db, a snapshot of web and a backup of db into
// the bucket backupTo, both on demand.
func seedFleetDayTwo(a *accTarget, adopted map[string]bool, backupTo string) fleetDayTwo {
	t, c, ctx := a.t, a.client, testContext()
	t.Helper()
	apps, err := c.ListApps(ctx, astra.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]string{}
	var adoptedApps []string
	for _, app := range apps {
		if adopted[app.ClusterID] {
			byName[app.Name] = app.ID
			adoptedApps = append(adoptedApps, app.ID)
		}
	}
	quiesce, err := c.CreateHookSource(ctx, astra.HookSourceCreate{Name: "quiesce", Script: "#!/bin/sh\nsync\n", Description: "Flush before a snapshot."})
	if err != nil {
		t.Fatal(err)
	}
	notify, err := c.CreateHookSource(ctx, astra.HookSourceCreate{Name: "notify", Script: "#!/bin/sh\necho done \"$@\"\n"})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []astra.ExecutionHookCreate{
		{Name: "web-quiesce", AppID: byName["web"], HookSourceID: quiesce.ID, Action: "snapshot", Stage: "pre",
			Arguments: []string{"--fast", "-v"}, MatchingCriteria: []astra.MatchingCriterion{{Type: "containerName", Value: "^web$"}}},
		{Name: "db-notify", AppID: byName["db"], HookSourceID: notify.ID, Action: "backup", Stage: "post",
			Description: "Tell the team.", Enabled: astra.BoolPtr(false)},
	} {
		if _, err := c.CreateExecutionHook(ctx, h); err != nil {
			t.Fatalf("seeding hook %s: %v", h.Name, err)
		}
	}
	snap, err := c.CreateAppSnapshot(ctx, byName["web"], astra.AppSnapshotCreate{Name: "before-upgrade"})
	if err == nil {
		_, err = astra.Wait(ctx, a.waitSchedule(), func(ctx context.Context) (*astra.AppSnapshot, error) {
			return c.GetAppSnapshot(ctx, byName["web"], snap.ID)
		}, astra.AppSnapshotCompleted)
	}
	if err != nil {
		t.Fatalf("seeding the snapshot of web: %v", err)
	}
	backup, err := c.CreateAppBackup(ctx, byName["db"], astra.AppBackupCreate{Name: "by-hand", BucketID: backupTo})
	if err == nil {
		_, err = astra.Wait(ctx, a.waitSchedule(), func(ctx context.Context) (*astra.AppBackup, error) {
			return c.GetAppBackup(ctx, byName["db"], backup.ID)
		}, astra.AppBackupCompleted)
	}
	if err != nil {
		t.Fatalf("seeding the backup of db: %v", err)
	}
	out := fleetDayTwo{hookSources: 2, hooks: 2}
	for _, id := range adoptedApps {
		snapshots, err := c.ListAppSnapshots(ctx, id, astra.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range snapshots {
			if s.ScheduleID == "" && s.State == "completed" {
				out.snapshots++
			}
		}
		backups, err := c.ListAppBackups(ctx, id, astra.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range backups {
			if b.ScheduleID == "" && b.State == "completed" {
				out.backups++
			}
		}
	}
	return out
}
