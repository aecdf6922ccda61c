package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// harnessAppHCL is a managed cluster and on it the app resource astra_app.<resource>, named
// key, spanning "default": what a harness test takes runs or clones of.
func harnessAppHCL(h *cliHarness, key, resource string) string {
	kube := writeKubeconfig(h.t, key, "https://"+key+".k8s.example:6443")
	return fmt.Sprintf(`
resource "astra_kubeconfig_credential" "c" {
  name       = %q
  kubeconfig = file(%q)
}

resource "astra_cluster" "c" {
  cloud_id      = %q
  credential_id = astra_kubeconfig_credential.c.id
}

resource "astra_managed_cluster" "c" {
  cluster_id = astra_cluster.c.id
}

resource "astra_app" %q {
  name                       = %q
  cluster_id                 = astra_managed_cluster.c.id
  namespace_scoped_resources = [{ namespace = "default" }]
}
`, key, kube, h.sim().Seeds().PrivateCloudID, resource, key)
}

// backupsIn is what the harness's simulator holds of backups: ID -> state.
func (h *cliHarness) backupsIn() map[string]string { return h.statesIn("backups") }

// statesIn is what the harness's simulator holds of one family of objects ("apps",
// "backups"): ID -> state.
func (h *cliHarness) statesIn(family string) map[string]string {
	raw, err := h.sim().Snapshot()
	if err != nil {
		h.t.Fatalf("snapshot: %v", err)
	}
	var view map[string]json.RawMessage
	var objects map[string]struct{ State string }
	if err := json.Unmarshal(raw, &view); err != nil {
		h.t.Fatalf("decoding the snapshot: %v", err)
	}
	if err := json.Unmarshal(view[family], &objects); err != nil && view[family] != nil {
		h.t.Fatalf("decoding the snapshot's %s: %v", family, err)
	}
	out := map[string]string{}
	for id, o := range objects {
		out[id] = o.State
	}
	return out
}

// TestAccAppBackup_interruptedHarness: the CLI is interrupted (SIGINT) while create
// waits for the backup. The backup Astra Control is taking is in state, not tainted (never
// orphaned), and it is the only one the simulator holds; the output says it is kept. The
// next apply keeps it: an update that waits for it to complete, sending no DELETE and no
// POST, the same ID in state. The plan after it is empty, and destroy leaves no backup.
func TestAccAppBackup_interruptedHarness(t *testing.T) {
	h := newCLIHarness(t, astrasim.Options{Delays: astrasim.Delays{App: 50 * time.Millisecond, Backup: 3 * time.Second}}, "")
	h.write(harnessAppHCL(h, "interrupted", "c") + `
resource "astra_s3_credential" "s" {
  name              = "interrupted-s3"
  access_key_id     = "AKIA-INTERRUPTED"
  secret_access_key = "interrupted-secret"
}

resource "astra_bucket" "b" {
  name            = "interrupted"
  bucket_provider = "generic-s3"
  credential_id   = astra_s3_credential.s.id
  s3              = { server_url = "s3.interrupted.example", bucket_name = "interrupted" }
}

resource "astra_app_backup" "b" {
  app_id    = astra_app.c.id
  name      = "interrupted"
  bucket_id = astra_bucket.b.id
}
`)
	running := func() bool {
		for _, state := range h.backupsIn() {
			if state == "pending" || state == "running" {
				return true
			}
		}
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	r := h.start(ctx, interruptWhen(running), "apply", "-auto-approve", "-input=false", "-no-color", serialFaultedApply)
	if !errorPhrases("Interrupt received", "Backup still running: kept", "was cancelled", "recorded in state, not tainted").MatchString(r.out) {
		t.Fatalf("the interrupted apply (%v): want it to say the backup is kept, not tainted:\n%s", r.err, r.out)
	}
	first := h.stateIDOf("astra_app_backup", "b")
	held := h.backupsIn()
	for _, o := range h.state() {
		if o.Tainted {
			t.Fatalf("after the interrupt %s.%s is tainted: the next apply would delete it", o.Type, o.Name)
		}
	}
	if len(held) != 1 || held[first] == "" {
		t.Fatalf("after the interrupt: backup %s in state; the simulator holds %v, want exactly that backup", first, held)
	}
	posts, deletes := h.sim().Count(http.MethodPost, routeAppBackups), h.sim().Count(http.MethodDelete, routeAppBackup)
	r = h.apply()
	if r.err != nil {
		t.Fatalf("the apply after the interrupt: %v\n%s", r.err, r.out)
	}
	// Still running when the next apply planned: it waits for the backup in place.
	expectOutput(t, "the apply after the interrupt", r, "Backup still running: the apply waits for it",
		"astra_app_backup.b will be updated in-place", "1 changed, 0 destroyed")
	second := h.stateIDOf("astra_app_backup", "b")
	if held := h.backupsIn(); second != first || len(held) != 1 || held[first] != "completed" {
		t.Fatalf("after the next apply: state holds %s (was %s); the simulator holds %v, want only it, completed", second, first, held)
	}
	if p, d := h.sim().Count(http.MethodPost, routeAppBackups)-posts, h.sim().Count(http.MethodDelete, routeAppBackup)-deletes; p != 0 || d != 0 {
		t.Fatalf("the apply after the interrupt sent %d backup POSTs and %d DELETEs, want none: the backup is kept", p, d)
	}
	if err := h.planIsEmpty(); err != nil {
		t.Fatal(err)
	}
	if r := h.run(ctx, "destroy", "-auto-approve", "-input=false", "-no-color"); r.err != nil {
		t.Fatalf("destroy: %v\n%s", r.err, r.out)
	}
	if held := h.backupsIn(); len(held) != 0 {
		t.Fatalf("the simulator holds backups after destroy: %v", held)
	}
}
