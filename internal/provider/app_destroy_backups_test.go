package provider

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// destroyBackupsHCL is an app, a bucket and a policy backing up into it, destroyed together
// as the examples are; optIn sets delete_backups_on_destroy.
func destroyBackupsHCL(h *cliHarness, optIn bool) string {
	return managedStackHCL(h, "unmanage") + fmt.Sprintf(`
resource "astra_app" "c" {
  name                       = "unmanage"
  cluster_id                 = astra_managed_cluster.c.id
  namespace_scoped_resources = [{ namespace = "default" }]
  delete_backups_on_destroy  = %t
  # Destroyed before the bucket: its backups are gone (or named) when the bucket goes.
  depends_on = [astra_bucket.b]
}

resource "astra_s3_credential" "k" {
  name              = "unmanage-key"
  access_key_id     = "AKIAEXAMPLE"
  secret_access_key = "secret-example"
}

resource "astra_bucket" "b" {
  name            = "unmanage"
  bucket_provider = "generic-s3"
  credential_id   = astra_s3_credential.k.id
  s3              = { server_url = "s3.example.com", bucket_name = "unmanage" }
}

resource "astra_protection_policy" "p" {
  app_id             = astra_app.c.id
  name               = "hourly"
  granularity        = "hourly"
  snapshot_retention = 1
  backup_retention   = 1
  bucket_id          = astra_bucket.b.id
}
`, optIn)
}

// undeclaredBackup takes a backup the configuration does not declare (as a policy's firing
// or an action would) into bucketID, and fails it when failed is set.
func undeclaredBackup(h *cliHarness, appID, bucketID, name string, failed bool) string {
	h.t.Helper()
	if failed {
		if err := h.sim().FailNextBackup(appID); err != nil {
			h.t.Fatal(err)
		}
	}
	b, err := h.apiClient().CreateAppBackup(context.Background(), appID, astra.AppBackupCreate{Name: name, BucketID: bucketID})
	if err != nil {
		h.t.Fatalf("taking backup %s: %v", name, err)
	}
	return b.ID
}

func (h *cliHarness) destroy() cliResult {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	return h.run(ctx, "destroy", "-auto-approve", "-input=false", "-no-color")
}

// TestAccApp_destroyBackupsHarness: what destroying an app, its policy and its bucket
// together does with backups the configuration did not declare, under both readings of
// unmanaging (astrasim/unmanage.go). Never is one deleted without delete_backups_on_destroy:
//   - REST workflow (the default): the app is unmanaged with a warning naming the backups
//     Astra Control kept, the bucket's destroy fails naming them (83), and the backups are
//     all still there; deleted as the warning says, the next destroy finishes.
//   - Astra Control Center's page: the service deletes the completed ones itself, and a
//     failed one refuses the unmanage (142): the error says the opt-in that removes it.
//   - delete_backups_on_destroy = true: under either reading the backups (a failed one with
//     Force-Delete) are deleted first and one destroy removes everything.
func TestAccApp_destroyBackupsHarness(t *testing.T) {
	cases := []struct {
		name          string
		accReading    bool
		optIn         bool
		failed        bool
		firstErr      []string // the first destroy fails with these; none: it succeeds
		keptAfter     int      // backups left after the first destroy
		warnKeptNames bool
	}{
		{name: "REST workflow, no opt-in", firstErr: []string{"Cannot delete a bucket that is in use", "It holds backups:"},
			keptAfter: 2, warnKeptNames: true},
		{name: "ACC docs, failed backup, no opt-in", accReading: true, failed: true,
			firstErr: []string{"Cannot unmanage the app", "set delete_backups_on_destroy = true and apply"}, keptAfter: 2},
		{name: "ACC docs, no failed backup", accReading: true},
		{name: "REST workflow, opt-in", optIn: true, failed: true},
		{name: "ACC docs, opt-in", accReading: true, optIn: true, failed: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newCLIHarness(t, astrasim.Options{UnmanageDeletesBackups: tc.accReading}, "")
			h.write(destroyBackupsHCL(h, tc.optIn))
			if r := h.apply(); r.err != nil {
				t.Fatalf("apply: %v\n%s", r.err, r.out)
			}
			appID, bucketID := h.stateIDOf("astra_app", "c"), h.stateIDOf("astra_bucket", "b")
			ids := []string{undeclaredBackup(h, appID, bucketID, "outside-1", false), undeclaredBackup(h, appID, bucketID, "outside-2", tc.failed)}
			r := h.destroy()
			if got := len(h.backupsIn()); got != tc.keptAfter {
				t.Fatalf("%d backups after the destroy, want %d: %v\n%s", got, tc.keptAfter, h.backupsIn(), r.out)
			}
			if len(tc.firstErr) == 0 {
				if r.err != nil {
					t.Fatalf("destroy: %v\n%s", r.err, r.out)
				}
				if strings.Contains(r.out, "Astra Control kept the app's backups") {
					t.Errorf("a warning about kept backups where none was kept:\n%s", r.out)
				}
				return
			}
			if r.err == nil {
				t.Fatalf("the destroy succeeded; want %q\n%s", tc.firstErr, r.out)
			}
			expectOutput(t, "the first destroy", r, tc.firstErr...)
			if tc.warnKeptNames {
				expectOutput(t, "the first destroy", r, "Warning: Astra Control kept the app's backups",
					"outside-1 ("+ids[0]+") in bucket "+bucketID, "outside-2 ("+ids[1]+") in bucket "+bucketID,
					"DELETE /accounts/<account ID>/topology/v1/appBackups/<backup ID>")
			}
			// Do what the message says, then destroy again.
			for _, id := range ids {
				deleteBackupAccountWide(t, h, id)
			}
			if r := h.destroy(); r.err != nil {
				t.Fatalf("the second destroy: %v\n%s", r.err, r.out)
			}
			if len(h.state()) != 0 {
				t.Errorf("state after the second destroy: %v", h.state())
			}
		})
	}
}

// deleteBackupAccountWide deletes a backup as the warning tells (Force-Delete for a failed one).
func deleteBackupAccountWide(t *testing.T, h *cliHarness, id string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodDelete, h.url+"/accounts/"+h.sim().AccountID()+"/topology/v1/appBackups/"+id, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+astrasim.DefaultToken)
	req.Header.Set("Force-Delete", "true")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE backup %s: %d", id, resp.StatusCode)
	}
}
