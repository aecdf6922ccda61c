package provider

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// destroyPlanHCL is an app with a bucket and a backup of its own, on a managed cluster.
func destroyPlanHCL(h *cliHarness, name string) string {
	return managedStackHCL(h, name) + fmt.Sprintf(`
resource "astra_app" "c" {
  name                       = %[1]q
  cluster_id                 = astra_managed_cluster.c.id
  namespace_scoped_resources = [{ namespace = "default" }]
}

resource "astra_s3_credential" "k" {
  name              = "%[1]s-key"
  access_key_id     = "AKIAEXAMPLE"
  secret_access_key = "secret-example"
}

resource "astra_bucket" "b" {
  name            = %[1]q
  bucket_provider = "generic-s3"
  credential_id   = astra_s3_credential.k.id
  s3              = { server_url = "s3.example.com", bucket_name = %[1]q }
  # A bucket refused as in use is asked again within timeouts.delete: a few seconds show it lasts.
  timeouts        = { delete = "5s" }
}

resource "astra_protection_policy" "c" {
  app_id             = astra_app.c.id
  name               = "hourly"
  granularity        = "hourly"
  snapshot_retention = 3
  backup_retention   = 1
  bucket_id          = astra_bucket.b.id
}

resource "astra_app_backup" "mine" {
  app_id    = astra_app.c.id
  name      = "mine"
  bucket_id = astra_bucket.b.id
}
`, name)
}

// TestAccApp_destroyWarnsAtPlan: a full destroy whose configuration holds every user of the
// bucket warns of nothing (issue 44: the bucket warning came on every destroy). A snapshot
// and a backup taken outside the configuration (by hand, an action or another workspace)
// make the app's destroy warn at plan, naming them, their count and the bucket. Whether the
// backup goes with the app NetApp documents both ways, so the bucket's destroy is not refused
// at plan: the app's warning is the one message there, and the simulator, which keeps the
// backup (the REST workflow's reading), refuses the bucket at apply with one error naming
// it. Once the backup is deleted, the destroy goes through.
func TestAccApp_destroyWarnsAtPlan(t *testing.T) {
	h := newCLIHarness(t, astrasim.Options{}, "")
	h.write(destroyPlanHCL(h, "unmanage"))
	if r := h.apply(); r.err != nil {
		t.Fatalf("apply: %v\n%s", r.err, r.out)
	}
	appID, bucketID := h.stateIDOf("astra_app", "c"), h.stateIDOf("astra_bucket", "b")
	destroyPlan := func() cliResult {
		r := h.run(testContext(), "plan", "-destroy", "-input=false", "-no-color")
		if r.err != nil {
			t.Fatalf("plan -destroy: %v\n%s", r.err, r.out)
		}
		return r
	}
	r := destroyPlan()
	for _, summary := range []string{"The bucket to destroy is in use", "Destroying the app may delete its snapshots and backups"} {
		if strings.Contains(r.out, summary) {
			t.Errorf("a destroy of everything warns %q:\n%s", summary, r.out)
		}
	}

	client := h.apiClient()
	ctx := context.Background()
	snap, err := client.CreateAppSnapshot(ctx, appID, astra.AppSnapshotCreate{Name: "by-hand"})
	if err != nil {
		t.Fatal(err)
	}
	backup, err := client.CreateAppBackup(ctx, appID, astra.AppBackupCreate{Name: "other-workspace", BucketID: bucketID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := astra.Wait(ctx, accWaitSchedule, func(ctx context.Context) (*astra.AppBackup, error) {
		return client.GetAppBackup(ctx, appID, backup.ID)
	}, astra.AppBackupCompleted); err != nil {
		t.Fatal(err)
	}
	// Every snapshot the app has now: the one taken by hand, and any a backup took.
	snapshots, err := client.ListAppSnapshots(ctx, appID, astra.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range snapshots {
		names = append(names, s.Name+" ("+s.ID+")")
	}
	sort.Strings(names)
	if !strings.Contains(strings.Join(names, ", "), "by-hand ("+snap.ID+")") {
		t.Fatalf("the app's snapshots lack the one taken by hand: %v", names)
	}

	r = destroyPlan()
	expectOutput(t, "the plan destroying the app", r, "Warning: Destroying the app may delete its snapshots and backups",
		fmt.Sprintf("Destroying app \"unmanage\" (%s) unmanages it in Astra Control. Astra Control Center's documentation "+
			"says unmanaging an app deletes its snapshots and backups; NetApp's REST workflow (wf_unmanage_app) says they "+
			"are kept, and a kept backup then blocks the delete of its bucket (409, problem 83) until it is deleted. With "+
			"delete_backups_on_destroy = false, destroy deletes none of them itself. This "+
			"plan does not destroy them itself: they may have been taken by a protection policy, an action, a person or "+
			"another workspace. What the app has: snapshots: %d (%s); backups: 1 (in bucket unmanage (%s): "+
			"other-workspace (%s)).", appID, len(names), strings.Join(names, ", "), bucketID, backup.ID),
		"To keep the app managed in Astra Control, with its snapshots and backups, take it out of the configuration "+
			"with a removed block instead of destroying it: removed { from = astra_app.<name> lifecycle { destroy = "+
			"false } }. A snapshot or backup that another workspace manages may be gone after this apply: there, "+
			"`terraform state rm` its resource.")
	const appWarning = "Warning: Destroying the app may delete its snapshots and backups"
	expectSaidOnce(t, r, appWarning, map[string]int{"stays in use": 0, "is in use": 0})

	r = h.run(testContext(), "destroy", "-auto-approve", "-input=false", "-no-color")
	if r.err == nil {
		t.Fatalf("the destroy went through, though the simulator keeps the backup in the bucket:\n%s", r.out)
	}
	const refused = "Error: Cannot delete a bucket that is in use"
	expectOutput(t, "the destroy refused at apply", r, refused,
		"Astra Control refuses to forget bucket unmanage ("+bucketID+"). It holds backups: backup other-workspace ("+backup.ID+").")
	expectSaidOnce(t, r, refused, map[string]int{appWarning: 1, "Warning: Astra Control kept the app's backups": 1,
		"stays in use": 0, "The bucket to destroy is in use": 0, "backup mine (": 0})
	if err := client.DeleteAppBackupByID(ctx, backup.ID, false); err != nil {
		t.Fatal(err)
	}
	h.destroyOnceGone("the backup", func(ctx context.Context) error {
		_, err := client.GetAppBackupByID(ctx, backup.ID)
		return err
	})
}

// destroyOnceGone waits until get answers 404 (what was in the way is gone), then destroys:
// that must go through.
func (h *cliHarness) destroyOnceGone(what string, get func(context.Context) error) {
	h.t.Helper()
	if _, err := astra.Wait(testContext(), accWaitSchedule, func(ctx context.Context) (bool, error) {
		return astra.IsNotFound(get(ctx)), nil
	}, func(gone bool) (bool, error) { return gone, nil }); err != nil {
		h.t.Fatal(err)
	}
	if r := h.destroy(); r.err != nil {
		h.t.Fatalf("destroy once %s is gone: %v\n%s", what, r.err, r.out)
	}
}

// TestAccManagedCluster_destroyRefusedAtPlan: destroying a managed cluster that keeps an app
// this plan does not destroy (made by hand) is refused at plan, naming the app and the
// choices, before any DELETE (issue 44: the apply deleted the backup, the policy and the app,
// then failed). Once the app is gone, the same destroy goes through.
func TestAccManagedCluster_destroyRefusedAtPlan(t *testing.T) {
	h := newCLIHarness(t, astrasim.Options{}, "")
	h.write(destroyPlanHCL(h, "partial"))
	if r := h.apply(); r.err != nil {
		t.Fatalf("apply: %v\n%s", r.err, r.out)
	}
	clusterID := h.stateIDOf("astra_managed_cluster", "c")
	client := h.apiClient()
	outside, err := client.CreateApp(context.Background(), astra.AppCreate{Name: "by-hand", ClusterID: clusterID,
		NamespaceScopedResources: []astra.NamespaceScope{{Namespace: "kube-public"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := astra.Wait(context.Background(), accWaitSchedule, func(ctx context.Context) (*astra.App, error) {
		return client.GetApp(ctx, outside.ID)
	}, astra.AppReady); err != nil {
		t.Fatal(err)
	}
	h.sim().ResetCounts()
	r := h.run(testContext(), "destroy", "-auto-approve", "-input=false", "-no-color")
	if r.err == nil {
		t.Fatalf("the destroy went through:\n%s", r.out)
	}
	expectOutput(t, "the refused destroy", r, "Error: Cannot unmanage a cluster that has managed applications",
		"This plan unmanages cluster partial ("+clusterID+"), which has managed applications that it does not destroy. "+
			"Astra Control does not unmanage a cluster while it manages applications on it, and the apply would first "+
			"delete what it orders before the cluster (its apps, policies, snapshots and backups here), then fail: "+
			"nothing has been changed.",
		"Choose one: unmanage those applications first (in the workspace that manages them, or in the Astra Control UI "+
			"or API), then plan again; or, if this configuration manages them with a literal cluster_id, set it to "+
			"astra_managed_cluster.<name>.id, so that Terraform destroys them first; or keep the cluster managed and let "+
			"Terraform forget it: removed { from = astra_managed_cluster.<name> lifecycle { destroy = false } }.",
		"Managed applications: by-hand ("+outside.ID+").")
	for key, n := range h.sim().Counts() {
		if strings.HasPrefix(key, "DELETE ") && n > 0 {
			t.Errorf("the refused destroy sent %d %s", n, key)
		}
	}
	if err := client.DeleteApp(context.Background(), outside.ID); err != nil {
		t.Fatal(err)
	}
	h.destroyOnceGone("the app", func(ctx context.Context) error {
		_, err := client.GetApp(ctx, outside.ID)
		return err
	})
}

// TestAccAppBackup_importMissingParts: importing "<app_id>/<id>" where the app, or the
// backup (snapshot, policy) of an existing app, does not exist says which part names
// nothing, instead of Terraform's "non-existent remote object" (issue 44 item 9).
func TestAccAppBackup_importMissingParts(t *testing.T) {
	h := newCLIHarness(t, astrasim.Options{}, "")
	hcl := destroyPlanHCL(h, "import")
	h.write(hcl)
	if r := h.apply(); r.err != nil {
		t.Fatalf("apply: %v\n%s", r.err, r.out)
	}
	appID := h.stateIDOf("astra_app", "c")
	h.write(hcl + `
resource "astra_app_backup" "imported" {
  app_id    = astra_app.c.id
  name      = "imported"
  bucket_id = astra_bucket.b.id
}

resource "astra_app_snapshot" "imported" {
  app_id = astra_app.c.id
  name   = "imported"
}

resource "astra_protection_policy" "imported" {
  app_id             = astra_app.c.id
  name               = "daily"
  granularity        = "daily"
  snapshot_retention = 1
  backup_retention   = 0
}
`)
	const noApp, noChild = "0b5b3f4e-1111-4222-8333-944455556666", "0b5b3f4e-7777-4888-8999-aaaabbbbcccc"
	for _, kind := range []struct{ typeName, what string }{
		{"astra_app_backup", "backup"}, {"astra_app_snapshot", "snapshot"}, {"astra_protection_policy", "policy"},
	} {
		importing := func(id string) cliResult {
			r := h.run(testContext(), "import", "-input=false", "-no-color", kind.typeName+".imported", id)
			if r.err == nil {
				t.Fatalf("importing %s %s succeeded:\n%s", kind.typeName, id, r.out)
			}
			if strings.Contains(r.out, "non-existent remote object") {
				t.Errorf("importing %s %s reports Terraform's generic error:\n%s", kind.typeName, id, r.out)
			}
			return r
		}
		expectOutput(t, kind.typeName+": an import naming no app", importing(noApp+"/"+noChild), "Error: Cannot import: the app does not exist",
			"Astra Control manages no app "+noApp+", the first part of the import ID of this "+kind.typeName+" (\"<app_id>/<id>\"). "+
				"Check the app's ID: the astra_apps data source lists them. An app that was unmanaged takes its "+kind.what+"s with "+
				"it, or leaves them unreachable through the API.")
		expectOutput(t, kind.typeName+": an import naming none of the app's", importing(appID+"/"+noChild), "Error: Cannot import: the app has no such "+kind.what,
			"App \"import\" ("+appID+") has no "+kind.what+" "+noChild+", the second part of the import ID of this "+kind.typeName+" "+
				"(\"<app_id>/<id>\"). Check the "+kind.what+"'s ID, and that it belongs to this app.")
	}
}
