package provider

// The actions after a lost answer, a slow server and a name already used: they report only
// a snapshot or backup their own request created, and never send a restore twice. A fixed
// name is "before-upgrade" (actionsHCL's astra_app_snapshot.now).

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// exampleSnapshotAction is the documented astra_app_snapshot example, as users copy it.
func exampleSnapshotAction(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile("../../examples/actions/astra_app_snapshot/action.tf")
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// olderThanSkew waits until an object created at created (RFC 3339) is older than the
// clock skew the lost-answer search allows, so that it cannot pass for a new one.
func olderThanSkew(t *testing.T, created string) {
	t.Helper()
	at, err := time.Parse(time.RFC3339Nano, created)
	if err != nil {
		t.Fatalf("creation time %q: %v", created, err)
	}
	time.Sleep(time.Until(at.Add(adoptionClockSkew + 500*time.Millisecond)))
}

// snapshotsOf lists the app's snapshots.
func snapshotsOf(t *testing.T, h *cliHarness, appID string) []astra.AppSnapshot {
	t.Helper()
	s, err := h.apiClient().ListAppSnapshots(context.Background(), appID, astra.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// actionsHarness is a harness whose first apply made actionsHCL with extra; it returns the
// app's ID. providerExtra: settleFast where the test waits for the search after a lost
// answer (a request_timeout of 1s, which a loaded machine may exceed elsewhere).
func actionsHarness(t *testing.T, opts astrasim.Options, providerExtra, extra string) (*cliHarness, string) {
	h := newCLIHarness(t, opts, providerExtra)
	h.write(actionsHCL(h, extra))
	expectActionOutput(t, "the first apply", h.apply(), false)
	return h, h.stateIDOf("astra_app", "web")
}

// TestAccActions_exampleEveryTime: the documented snapshot example, invoked twice, takes two
// snapshots, each named before-upgrade- and the time (a fixed name failed the second time).
func TestAccActions_exampleEveryTime(t *testing.T) {
	skipWithoutActions(t)
	h, appID := actionsHarness(t, astrasim.Options{}, "", exampleSnapshotAction(t))
	expectActionOutput(t, "the example", h.apply("-invoke=action.astra_app_snapshot.before_upgrade"), false, "completed")
	time.Sleep(1100 * time.Millisecond) // the generated name has a resolution of a second
	expectActionOutput(t, "the example again", h.apply("-invoke=action.astra_app_snapshot.before_upgrade"), false, "completed")
	named := regexp.MustCompile(`^before-upgrade-\d{8}-\d{6}$`)
	if s := snapshotsOf(t, h, appID); len(s) != 2 || !named.MatchString(s[0].Name) || !named.MatchString(s[1].Name) || s[0].Name == s[1].Name ||
		s[0].State != "completed" || s[1].State != "completed" {
		t.Fatalf("snapshots after the example twice: %+v", s)
	}
}

// TestAccActions_lostAnswerOldSnapshot: a snapshot POST answered 502 (not applied) while last
// time's snapshot of that name exists fails saying no new snapshot was taken, instead of
// waiting for the old one and reporting it completed.
func TestAccActions_lostAnswerOldSnapshot(t *testing.T) {
	skipWithoutActions(t)
	h, appID := actionsHarness(t, astrasim.Options{}, settleFast, "")
	sim := h.sim()
	expectActionOutput(t, "a snapshot named before-upgrade", h.apply("-invoke=action.astra_app_snapshot.now"), false, "completed")
	old := snapshotsOf(t, h, appID)[0]
	olderThanSkew(t, old.Metadata.CreationTimestamp)
	posts := sim.Count(http.MethodPost, routeSnapshots)
	sim.AddFault(astrasim.Fault{Method: http.MethodPost, Route: routeSnapshots, Kind: astrasim.FaultBadGateway, Times: 1})
	expectActionOutput(t, "a lost answer while last time's snapshot exists", h.apply("-invoke=action.astra_app_snapshot.now"), true,
		"No new snapshot taken",
		`The answer to the request that takes snapshot "before-upgrade" of app `+appID+` was lost`,
		"The app has a snapshot of that name, but not a new one: the object found, ID "+old.ID+", matches the request, but it was created at",
		"No new snapshot was taken. Invoke the action again with another name, or leave name unset")
	if n, fired, all := sim.Count(http.MethodPost, routeSnapshots)-posts, sim.Fired(http.MethodPost, routeSnapshots, astrasim.FaultBadGateway), snapshotsOf(t, h, appID); n != 1 || fired != 1 || len(all) != 1 {
		t.Fatalf("%d POSTs, the 502 fired %d times, %d snapshots; want 1, 1, 1", n, fired, len(all))
	}
}

// TestAccActions_nameUsedAgain: a fixed name used again names the existing snapshot, or the
// backup an interrupted invocation started, by ID and state, and says to leave name unset
// (it was the raw 409).
func TestAccActions_nameUsedAgain(t *testing.T) {
	skipWithoutActions(t)
	h, appID := actionsHarness(t, astrasim.Options{Delays: astrasim.Delays{Backup: time.Minute}}, "", `
action "astra_app_backup" "nightly" {
  config {
    app_id = astra_app.web.id
    name   = "nightly"
  }
}
`)
	expectActionOutput(t, "a snapshot named before-upgrade", h.apply("-invoke=action.astra_app_snapshot.now"), false, "completed")
	old := snapshotsOf(t, h, appID)[0]
	expectActionOutput(t, "a snapshot name used again", h.apply("-invoke=action.astra_app_snapshot.now"), true,
		"Snapshot name already used",
		`App `+appID+` already has a snapshot named "before-upgrade": ID `+old.ID+`, state completed. Astra Control refuses a second snapshot of the same name, so no new snapshot was taken.`,
		"To take a new snapshot at each invocation, leave name unset", "409")

	// The backup an interrupted invocation started goes on; invoking again names it.
	running, err := h.apiClient().CreateAppBackup(context.Background(), appID, astra.AppBackupCreate{Name: "nightly"})
	if err != nil {
		t.Fatal(err)
	}
	posts := h.sim().Count(http.MethodPost, routeBackups)
	expectActionOutput(t, "a backup name used again", h.apply("-invoke=action.astra_app_backup.nightly"), true,
		"Backup name already used",
		`App `+appID+` already has a backup named "nightly": ID `+running.ID+`, state `,
		"perhaps the one an earlier, interrupted invocation started: Astra Control goes on with it",
		"To take a new backup at each invocation, leave name unset (each backup then gets a name of its own",
		"give its ID to astra_app_restore's backup_id")
	if n := h.sim().Count(http.MethodPost, routeBackups) - posts; n != 1 {
		t.Fatalf("%d backup POSTs, want 1", n)
	}
}

// TestAccActions_slowServer: a server slower than request_timeout (1s) creates the snapshot
// half a second after the client gave up; the search waits for it and the action reports it
// (it said "nothing was started: invoke the action again"), one POST.
func TestAccActions_slowServer(t *testing.T) {
	skipWithoutActions(t)
	h, appID := actionsHarness(t, astrasim.Options{}, settleFast, `
action "astra_app_snapshot" "generated" {
  config {
    app_id = astra_app.web.id
  }
}
`)
	sim := h.sim()
	sim.AddFault(astrasim.Fault{Method: http.MethodPost, Route: routeSnapshots, Kind: astrasim.FaultLatency, Latency: 1500 * time.Millisecond, Times: 1})
	expectActionOutput(t, "a slow snapshot POST", h.apply("-invoke=action.astra_app_snapshot.generated"), false, "completed")
	s := snapshotsOf(t, h, appID)
	if n, fired := sim.Count(http.MethodPost, routeSnapshots), sim.Fired(http.MethodPost, routeSnapshots, astrasim.FaultLatency); n != 1 || fired != 1 ||
		len(s) != 1 || !regexp.MustCompile(`^snapshot-\d{8}-\d{6}$`).MatchString(s[0].Name) || s[0].State != "completed" {
		t.Fatalf("%d POSTs, the latency fired %d times, snapshots %+v; want 1, 1 and one completed", n, fired, s)
	}
}

// restoreAfterLostAnswer sets up a restore of the app from a completed snapshot, with the
// simulator's restores taking restoreDelay, and injects fault on the restore's PUT.
func restoreAfterLostAnswer(t *testing.T, restoreDelay time.Duration, fault astrasim.FaultKind) (h *cliHarness, appID, snapID string, r cliResult) {
	t.Helper()
	h = newCLIHarness(t, astrasim.Options{Delays: astrasim.Delays{Restore: restoreDelay}}, settleFast)
	h.write(actionsHCL(h, ""))
	expectActionOutput(t, "the first apply", h.apply(), false)
	appID = h.stateIDOf("astra_app", "web")
	c, ctx := h.apiClient(), context.Background()
	snap, err := c.CreateAppSnapshot(ctx, appID, astra.AppSnapshotCreate{Name: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := astra.Wait(ctx, accWaitSchedule, func(ctx context.Context) (*astra.AppSnapshot, error) {
		return c.GetAppSnapshot(ctx, appID, snap.ID)
	}, astra.AppSnapshotCompleted); err != nil {
		t.Fatal(err)
	}
	h.write(actionsHCL(h, restoreHCL("snapshot_id", snap.ID)))
	puts := h.sim().Count(http.MethodPut, routeApp)
	h.sim().AddFault(astrasim.Fault{Method: http.MethodPut, Route: routeApp, Kind: fault, Times: 1})
	r = h.apply("-invoke=action.astra_app_restore.now")
	if n, fired, restores := h.sim().Count(http.MethodPut, routeApp)-puts, h.sim().Fired(http.MethodPut, routeApp, fault), h.sim().Restores(appID); n != 1 || fired != 1 {
		t.Fatalf("%d restore PUTs (the %s fault fired %d times, %d restores): want exactly one PUT with forceUpdate\n%s", n, fault, fired, restores, r.out)
	}
	return h, appID, snap.ID, r
}

// TestAccActions_restoreLostAnswer: the restore PUT is applied but its answer lost while
// the restore runs: the action does not send it again (which met 409/112, "Cannot restore
// the app"), it reads the app restoring from the snapshot, waits and reports it.
func TestAccActions_restoreLostAnswer(t *testing.T) {
	skipWithoutActions(t)
	h, appID, snapID, r := restoreAfterLostAnswer(t, time.Second, astrasim.FaultLostAnswer)
	expectActionOutput(t, "a restore whose answer is lost", r, false,
		"the answer to the restore request was lost, and the app shows the restore from snapshot "+snapID+": waiting for it",
		"restored from snapshot "+snapID+": ready")
	if n := h.sim().Restores(appID); n != 1 {
		t.Fatalf("%d restores, want 1", n)
	}
}

// TestAccActions_restoreLostAnswerAfterItEnded: the restore ends before the client could
// have sent it again (which restored the app twice): one restore, reported.
func TestAccActions_restoreLostAnswerAfterItEnded(t *testing.T) {
	skipWithoutActions(t)
	h, appID, snapID, r := restoreAfterLostAnswer(t, 0, astrasim.FaultLostAnswer)
	expectActionOutput(t, "a restore whose answer is lost, ended", r, false, "restored from snapshot "+snapID+": ready")
	if n := h.sim().Restores(appID); n != 1 {
		t.Fatalf("%d restores, want 1", n)
	}
}

// TestAccActions_restoreNotApplied: the restore PUT is answered 502 and not applied: the
// action does not send it again, and fails saying that no restore was started.
func TestAccActions_restoreNotApplied(t *testing.T) {
	skipWithoutActions(t)
	h, appID, snapID, r := restoreAfterLostAnswer(t, 0, astrasim.FaultBadGateway)
	expectActionOutput(t, "a restore answered 502", r, true, "Restore not applied",
		fmt.Sprintf("The answer to the request that restores app %s from snapshot %s was lost", appID, snapID),
		"and in the 1s that followed nothing showed that Astra Control applied it: the app is ready, naming no restore.",
		"No restore from snapshot "+snapID+" was started. The action never sends a restore twice on its own")
	if n := h.sim().Restores(appID); n != 0 {
		t.Fatalf("%d restores, want 0", n)
	}
}
