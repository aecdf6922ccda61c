package provider

// The actions end to end, through the CLI (terraform-plugin-testing 1.16 has no step that
// invokes an action): `apply -invoke=action.…` and an action_trigger, under the CLI of
// TF_ACC_TERRAFORM_PATH against the simulator, checking what the simulator received and
// holds. OpenTofu and Terraform before 1.14 have no actions: the tests skip there, saying so.

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

const (
	routeSnapshots = "/k8s/v1/apps/{app_id}/appSnaps"
	routeBackups   = "/k8s/v1/apps/{app_id}/appBackups"
)

// skipWithoutActions skips a test of actions under a CLI that has none, saying why.
func skipWithoutActions(t *testing.T) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1 (make test does)")
	}
	desc, err := describeCLI(os.Getenv("TF_ACC_TERRAFORM_PATH"))
	if err != nil {
		t.Fatalf("TF_ACC_TERRAFORM_PATH: %v", err)
	}
	if strings.HasPrefix(desc, "OpenTofu ") || !cliAtLeast(t, 1, 14) {
		t.Skipf("%s has no actions (action blocks, -invoke and action_trigger need Terraform 1.14 or later)", desc)
	}
}

// actionsHCL is webAppHCL and the snapshot and backup actions on its app; extra is appended.
func actionsHCL(h *cliHarness, extra string) string {
	return webAppHCL(h) + `
action "astra_app_snapshot" "now" {
  config {
    app_id = astra_app.web.id
    name   = "before-upgrade"
  }
}

action "astra_app_backup" "now" {
  config {
    app_id    = astra_app.web.id
    bucket_id = astra_bucket.b.id
  }
}
` + extra
}

// webAppHCL is a managed cluster with the app "web" (namespace default) and a bucket.
func webAppHCL(h *cliHarness) string {
	kube := writeKubeconfig(h.t, "actions", "https://actions.k8s.example:6443")
	return fmt.Sprintf(`
resource "astra_kubeconfig_credential" "c" {
  name       = "actions"
  kubeconfig = file(%q)
}

resource "astra_cluster" "c" {
  cloud_id      = %q
  credential_id = astra_kubeconfig_credential.c.id
}

resource "astra_managed_cluster" "c" {
  cluster_id = astra_cluster.c.id
}

resource "astra_app" "web" {
  name                       = "web"
  cluster_id                 = astra_managed_cluster.c.id
  namespace_scoped_resources = [{ namespace = "default" }]
}

resource "astra_s3_credential" "k" {
  name              = "actions-key"
  access_key_id     = "AKIAEXAMPLE"
  secret_access_key = "secret-example"
}

resource "astra_bucket" "b" {
  name            = "actions"
  bucket_provider = "generic-s3"
  credential_id   = astra_s3_credential.k.id
  s3              = { server_url = "s3.example.com", bucket_name = "actions" }
}
`, kube, h.sim().Seeds().PrivateCloudID)
}

// restoreHCL is the restore action from a snapshot or a backup ("snapshot_id", id).
func restoreHCL(member, id string) string {
	return fmt.Sprintf(`
action "astra_app_restore" "now" {
  config {
    app_id  = astra_app.web.id
    %s = %q
  }
}
`, member, id)
}

// flat joins the CLI's output into one line, as it wraps long diagnostics.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

func expectActionOutput(t *testing.T, what string, r cliResult, wantErr bool, phrases ...string) {
	t.Helper()
	if (r.err != nil) != wantErr {
		t.Fatalf("%s: error %v, want error %v:\n%s", what, r.err, wantErr, r.out)
	}
	for _, p := range phrases {
		if !strings.Contains(flat(r.out), p) {
			t.Fatalf("%s: the output lacks %q:\n%s", what, p, r.out)
		}
	}
}

// TestAccActions_invoke invokes each action directly: a snapshot with its name, a backup
// with a generated name reporting its percentage done, restores from both; a backup and a
// restore that fail report the service's reasons; an ordinary update of the app afterwards
// restores nothing.
func TestAccActions_invoke(t *testing.T) {
	skipWithoutActions(t)
	clock := &testClock{}
	h := newCLIHarness(t, astrasim.Options{Now: clock.now, Delays: astrasim.Delays{Snapshot: 300 * time.Millisecond, Backup: 600 * time.Millisecond,
		Restore: 300 * time.Millisecond}}, "")
	h.write(actionsHCL(h, ""))
	expectActionOutput(t, "the first apply", h.apply(), false)
	appID := h.stateIDOf("astra_app", "web")
	c, ctx := h.apiClient(), context.Background()
	sim := h.sim()

	r := h.apply("-invoke=action.astra_app_snapshot.now")
	expectActionOutput(t, "invoking the snapshot", r, false, `snapshot "before-upgrade" (`, "completed")
	snaps, err := c.ListAppSnapshots(ctx, appID, astra.ListOptions{})
	if err != nil || len(snaps) != 1 || snaps[0].Name != "before-upgrade" || snaps[0].State != "completed" {
		t.Fatalf("snapshots after the action: %+v (%v)", snaps, err)
	}
	if n := sim.Count(http.MethodPost, routeSnapshots); n != 1 {
		t.Fatalf("%d snapshot POSTs", n)
	}

	r = h.apply("-invoke=action.astra_app_backup.now")
	expectActionOutput(t, "invoking the backup", r, false, "running", "% done", "100% done", "completed")
	backups, err := c.ListAppBackups(ctx, appID, astra.ListOptions{})
	if err != nil || len(backups) != 1 || backups[0].State != "completed" || !regexp.MustCompile(`^backup-\d{8}-\d{6}$`).MatchString(backups[0].Name) {
		t.Fatalf("backups after the action: %+v (%v)", backups, err)
	}

	// A lost answer to the backup's POST: the action finds the backup by the name it gave it
	// and waits for that one; nothing is taken twice.
	sim.AddFault(astrasim.Fault{Method: http.MethodPost, Route: routeBackups, Kind: astrasim.FaultLostAnswer, Times: 1})
	time.Sleep(1100 * time.Millisecond) // the generated name has a resolution of a second
	expectActionOutput(t, "a backup whose answer is lost", h.apply("-invoke=action.astra_app_backup.now"), false, "completed")
	if n, posts := sim.Fired(http.MethodPost, routeBackups, astrasim.FaultLostAnswer), sim.Count(http.MethodPost, routeBackups); n != 1 || posts != 2 {
		t.Fatalf("lost answers %d, backup POSTs %d (want 1 and 2)", n, posts)
	}
	if all, _ := c.ListAppBackups(ctx, appID, astra.ListOptions{}); len(all) != 2 || all[1].State != "completed" {
		t.Fatalf("backups after the lost answer: %+v", all)
	}

	// A backup that fails: the action fails with the service's reason.
	if err := sim.FailNextBackup(appID, "Bucket actions is unreachable (injected)"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // the generated name has a resolution of a second
	expectActionOutput(t, "a failing backup", h.apply("-invoke=action.astra_app_backup.now"), true,
		"Backup not completed", "failed: Bucket actions is unreachable (injected)")

	// Restores, from the snapshot and from the backup; the app is restoring, then ready.
	puts := sim.Count(http.MethodPut, routeApp)
	h.write(actionsHCL(h, restoreHCL("snapshot_id", snaps[0].ID)))
	expectActionOutput(t, "restoring from the snapshot", h.apply("-invoke=action.astra_app_restore.now"), false,
		"restoring in place from snapshot "+snaps[0].ID, `app "web" (`+appID+`): restoring`, "restored from snapshot "+snaps[0].ID+": ready")
	h.write(actionsHCL(h, restoreHCL("backup_id", backups[0].ID)))
	expectActionOutput(t, "restoring from the backup", h.apply("-invoke=action.astra_app_restore.now"), false, "restored from backup "+backups[0].ID)
	if n, p := sim.Restores(appID), sim.Count(http.MethodPut, routeApp)-puts; n != 2 || p != 2 {
		t.Fatalf("%d restores in %d PUTs, want 2 in 2", n, p)
	}
	// An ordinary update of the restored app (a rename) is one PUT that restores nothing: the
	// simulator refuses forceUpdate on any other PUT and a restore's members without it.
	h.write(strings.Replace(actionsHCL(h, restoreHCL("backup_id", backups[0].ID)), `name                       = "web"`, `name                       = "web-renamed"`, 1))
	puts = sim.Count(http.MethodPut, routeApp)
	expectActionOutput(t, "renaming the restored app", h.apply(), false, "1 changed")
	if n, p := sim.Restores(appID), sim.Count(http.MethodPut, routeApp)-puts; n != 2 || p != 1 {
		t.Fatalf("the rename: %d PUTs, %d restores in all (want 1 and 2)", p, n)
	}
	h.write(actionsHCL(h, restoreHCL("backup_id", backups[0].ID)))
	expectActionOutput(t, "renaming it back", h.apply(), false)
	// A snapshot of another app, and a backup still running, are refused at plan time.
	other, err := c.CreateApp(ctx, astra.AppCreate{Name: "other", ClusterID: h.stateIDOf("astra_managed_cluster", "c"),
		NamespaceScopedResources: []astra.NamespaceScope{{Namespace: "kube-public"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := astra.Wait(ctx, accWaitSchedule, func(ctx context.Context) (*astra.App, error) { return c.GetApp(ctx, other.ID) }, astra.AppReady); err != nil {
		t.Fatal(err)
	}
	otherSnap, err := c.CreateAppSnapshot(ctx, other.ID, astra.AppSnapshotCreate{Name: "other"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := astra.Wait(ctx, accWaitSchedule, func(ctx context.Context) (*astra.AppSnapshot, error) {
		return c.GetAppSnapshot(ctx, other.ID, otherSnap.ID)
	}, astra.AppSnapshotCompleted); err != nil { // one run of an app at a time (148)
		t.Fatal(err)
	}
	otherBackup, err := c.CreateAppBackup(ctx, other.ID, astra.AppBackupCreate{Name: "other"})
	if err != nil {
		t.Fatal(err)
	}
	puts = sim.Count(http.MethodPut, routeApp)
	h.write(actionsHCL(h, restoreHCL("snapshot_id", otherSnap.ID)))
	expectActionOutput(t, "a restore from another app's snapshot", h.apply("-invoke=action.astra_app_restore.now"), true,
		"Not a snapshot of this app", fmt.Sprintf(`snapshot_id = %q: app %s has no snapshot with this ID`, otherSnap.ID, appID),
		fmt.Sprintf(`It is a snapshot of app "other" (%s). Set snapshot_id to one of app %s's snapshots`, other.ID, appID))
	h.write(actionsHCL(h, restoreHCL("backup_id", otherBackup.ID)))
	// Terraform 1.16 shows an action's attribute error at its config block: the detail
	// starts with the attribute and the ID.
	expectActionOutput(t, "a restore from another app's backup", h.apply("-invoke=action.astra_app_restore.now"), true,
		"Not a backup of this app", fmt.Sprintf(`backup_id = %q: app %s has no backup with this ID, and an app is restored in place only from its own snapshots and backups.`, otherBackup.ID, appID),
		fmt.Sprintf(`It is a backup of app "other" (%s). Set backup_id to one of app %s's backups (the astra_app_backups data source lists them).`, other.ID, appID),
		fmt.Sprintf(`clone it instead: an astra_app with source = { app_id = %q, backup_id = %q }.`, other.ID, otherBackup.ID))
	// The simulator's clock holds still until the plan has read the backup: it is pending
	// for only the first 300 ms, and a loaded CI machine planned after them.
	clock.pause()
	running, err := c.CreateAppBackup(ctx, appID, astra.AppBackupCreate{Name: "running"})
	if err != nil {
		t.Fatal(err)
	}
	h.write(actionsHCL(h, restoreHCL("backup_id", running.ID)))
	expectActionOutput(t, "a restore from a running backup", h.apply("-invoke=action.astra_app_restore.now"), true,
		"Not completed", fmt.Sprintf(`backup_id = %q: the backup running of app %s is pending: only a completed one can be restored from.`, running.ID, appID))
	clock.resume()
	if sim.Count(http.MethodPut, routeApp) != puts {
		t.Fatal("a restore refused at plan time sent a PUT")
	}

	if _, err := astra.Wait(ctx, accWaitSchedule, func(ctx context.Context) (*astra.AppBackup, error) {
		return c.GetAppBackup(ctx, appID, running.ID)
	}, astra.AppBackupCompleted); err != nil { // a running backup would refuse the next restore (152)
		t.Fatal(err)
	}
	if err := sim.FailNextRestore(appID, "Volume default/data could not be restored (injected)"); err != nil {
		t.Fatal(err)
	}
	expectActionOutput(t, "a failing restore", h.apply("-invoke=action.astra_app_restore.now"), true,
		"App not restored", "as failed: Restore failed: Volume default/data could not be restored (injected)")

	// The restore's own arguments are checked before anything is sent.
	h.write(actionsHCL(h, `
action "astra_app_restore" "now" {
  config {
    app_id = astra_app.web.id
  }
}
`))
	puts = sim.Count(http.MethodPut, routeApp)
	expectActionOutput(t, "a restore naming nothing", h.apply("-invoke=action.astra_app_restore.now"), true, "snapshot_id", "backup_id")
	if sim.Count(http.MethodPut, routeApp) != puts {
		t.Fatal("a refused restore sent a PUT")
	}
}

// TestAccActions_trigger runs the backup action from an action_trigger: before a resource
// is created and before each update of it, one backup each time, and none on an apply that
// changes nothing; an ordinary update of the app sends no restore.
func TestAccActions_trigger(t *testing.T) {
	skipWithoutActions(t)
	h := newCLIHarness(t, astrasim.Options{}, "")
	release := func(version string) string {
		return actionsHCL(h, fmt.Sprintf(`
resource "terraform_data" "release" {
  input = %q
  lifecycle {
    action_trigger {
      events  = [before_create, before_update]
      actions = [action.astra_app_backup.now]
    }
  }
}
`, version))
	}
	backupsNow := func() int { return h.sim().Count(http.MethodPost, routeBackups) }
	h.write(release("v1"))
	expectActionOutput(t, "the first apply", h.apply(), false, "completed")
	if n := backupsNow(); n != 1 {
		t.Fatalf("%d backups after creating the release, want 1", n)
	}
	expectActionOutput(t, "an apply changing nothing", h.apply(), false)
	if n := backupsNow(); n != 1 {
		t.Fatalf("%d backups after an apply that changed nothing, want 1", n)
	}
	time.Sleep(1100 * time.Millisecond) // the generated names differ by the second
	h.write(release("v2"))
	expectActionOutput(t, "the upgrade", h.apply(), false, "completed")
	appID := h.stateIDOf("astra_app", "web")
	backups, err := h.apiClient().ListAppBackups(context.Background(), appID, astra.ListOptions{})
	if err != nil || len(backups) != 2 || backupsNow() != 2 {
		t.Fatalf("backups after the upgrade: %+v (%v), %d POSTs", backups, err, backupsNow())
	}
	for _, b := range backups {
		if b.State != "completed" {
			t.Errorf("backup %s is %s", b.Name, b.State)
		}
	}
	// An ordinary update of the app (a rename) is one PUT without a restore.
	puts := h.sim().Count(http.MethodPut, routeApp)
	h.write(strings.Replace(release("v2"), `name                       = "web"`, `name                       = "web-2"`, 1))
	expectActionOutput(t, "renaming the app", h.apply(), false)
	if n := h.sim().Count(http.MethodPut, routeApp) - puts; n != 1 || h.sim().Restores(appID) != 0 {
		t.Fatalf("the rename sent %d PUTs and restored the app %d times", n, h.sim().Restores(appID))
	}
}

// TestAccActions_interruptAndTimeout: Ctrl-C during a backup's wait ends the action and says
// the backup goes on, and it does; a timeout does the same for a snapshot.
func TestAccActions_interruptAndTimeout(t *testing.T) {
	skipWithoutActions(t)
	h := newCLIHarness(t, astrasim.Options{Delays: astrasim.Delays{Backup: time.Minute, Snapshot: time.Minute}}, "")
	h.write(actionsHCL(h, `
action "astra_app_snapshot" "short" {
  config {
    app_id  = astra_app.web.id
    name    = "short"
    timeout = "1s"
  }
}
`))
	expectActionOutput(t, "the first apply", h.apply(), false)
	appID := h.stateIDOf("astra_app", "web")
	sim := h.sim()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	backups := func() []astra.AppBackup {
		b, _ := h.apiClient().ListAppBackups(context.Background(), appID, astra.ListOptions{})
		return b
	}
	backupReads := func() int { return sim.Count(http.MethodGet, "/k8s/v1/apps/{app_id}/appBackups/{appBackup_id}") }
	r := h.start(ctx, interruptWhen(func() bool { return backupReads() >= 2 }), "apply", "-auto-approve", "-input=false", "-no-color",
		"-invoke=action.astra_app_backup.now")
	// Terraform 1.16 reads nothing of an action after an interrupt: the notice before the
	// wait is what says that an interrupt stops only the wait.
	if !strings.Contains(flat(r.out), "an interrupt (Ctrl-C) or the timeout stops the wait, never the operation") ||
		!strings.Contains(r.out, "Interrupt received") {
		t.Fatalf("an interrupted backup:\n%s", r.out)
	}
	// The wait ended with the CLI: the provider (in this process) polls no more...
	reads := backupReads()
	time.Sleep(300 * time.Millisecond)
	if backupReads() != reads {
		t.Fatalf("the backup is still polled after the interrupt (%d reads, then %d)", reads, backupReads())
	}
	// ...and the backup goes on: neither deleted nor failed.
	b := backups()
	if len(b) != 1 || (b[0].State != "pending" && b[0].State != "running") || sim.Count(http.MethodDelete, "/k8s/v1/apps/{app_id}/appBackups/{appBackup_id}") != 0 {
		t.Fatalf("the backup after the interrupt: %+v", b)
	}

	expectActionOutput(t, "a snapshot that outlasts its timeout", h.apply("-invoke=action.astra_app_snapshot.short"), true,
		"Snapshot not completed", "Timed out after 1s waiting for snapshot", "Only the wait ended, not the operation")
	snaps, err := h.apiClient().ListAppSnapshots(context.Background(), appID, astra.ListOptions{})
	if err != nil || len(snaps) != 1 || snaps[0].Name != "short" || snaps[0].State == "failed" {
		t.Fatalf("the snapshot after the timeout: %+v (%v)", snaps, err)
	}
}
