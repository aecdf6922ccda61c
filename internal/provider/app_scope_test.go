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

// appScopeHCL is an app of two namespaces (namespace, with two selectors, and kube-public)
// and two cluster-scoped kinds, and its hourly policy; reordered lists the namespaces, the
// selectors and the kinds in the opposite order.
func appScopeHCL(h *cliHarness, namespace string, reordered bool) string {
	namespaces := []string{fmt.Sprintf(`{ namespace = %q, label_selectors = ["tier=web", "app=shop"] }`, namespace), `{ namespace = "kube-public" }`}
	kinds := []string{"ClusterRole", "ClusterRoleBinding"}
	if reordered {
		namespaces = []string{`{ namespace = "kube-public" }`, fmt.Sprintf(`{ namespace = %q, label_selectors = ["app=shop", "tier=web"] }`, namespace)}
		kinds = []string{"ClusterRoleBinding", "ClusterRole"}
	}
	return managedStackHCL(h, "scope") + fmt.Sprintf(`
resource "astra_app" "c" {
  name                       = "scope"
  cluster_id                 = astra_managed_cluster.c.id
  namespace_scoped_resources = [%s, %s]
  cluster_scoped_resources = [
    { group = "rbac.authorization.k8s.io", version = "v1", kind = %q },
    { group = "rbac.authorization.k8s.io", version = "v1", kind = %q },
  ]
}

resource "astra_protection_policy" "c" {
  app_id             = astra_app.c.id
  name               = "hourly"
  granularity        = "hourly"
  snapshot_retention = 3
  backup_retention   = 1
}
`, namespaces[0], namespaces[1], kinds[0], kinds[1])
}

// managedStackHCL is a harness test's managed cluster, all named name: its kubeconfig
// credential "c", the cluster "c" in the private cloud and its management "c".
func managedStackHCL(h *cliHarness, name string) string {
	kube := writeKubeconfig(h.t, name, "https://"+name+".k8s.example:6443")
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
`, name, kube, h.sim().Seeds().PrivateCloudID)
}

// TestAccApp_scope: the order of an app's namespaces, of their selectors and of its
// cluster-scoped kinds is not a change (sets): reordering all three plans nothing and sends
// nothing. A real change of scope replaces the app, and the plan warns what that costs: the
// app's policies, snapshots and backups, counted, which unmanaging is documented to delete.
func TestAccApp_scope(t *testing.T) {
	h := newCLIHarness(t, astrasim.Options{}, "")
	h.write(appScopeHCL(h, "default", false))
	if r := h.apply(); r.err != nil {
		t.Fatalf("apply: %v\n%s", r.err, r.out)
	}
	writes := func() int {
		n := 0
		for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete} {
			for _, route := range []string{routeApps, routeApp, routeSchedules, routeSchedule} {
				n += h.sim().Count(m, route)
			}
		}
		return n
	}
	before := writes()
	h.write(appScopeHCL(h, "default", true))
	if err := h.planIsEmpty(); err != nil {
		t.Fatalf("reordering the scope: %v", err)
	}
	if r := h.apply(); r.err != nil || writes() != before {
		t.Fatalf("reordering the scope wrote %d times (%v):\n%s", writes()-before, r.err, r.out)
	}

	// A snapshot and a backup of the app, taken outside Terraform.
	c, ctx := h.apiClient(), context.Background()
	appID := h.stateIDOf("astra_app", "c")
	key, err := c.CreateCredential(ctx, astra.S3Credential("scope-key", "AKIA-SCOPE", "scope-secret"))
	var bucket *astra.Bucket
	if err == nil {
		bucket, err = c.CreateBucket(ctx, astra.BucketCreate{Name: "scope", CredentialID: key.ID, Provider: astra.BucketProviderGenericS3,
			Parameters: astra.BucketParameters{S3: &astra.S3BucketParameters{ServerURL: "s3.example.com", BucketName: "scope"}}})
	}
	var snap *astra.AppSnapshot
	if err == nil {
		snap, err = c.CreateAppSnapshot(ctx, appID, astra.AppSnapshotCreate{Name: "before-change"})
	}
	if err == nil {
		_, err = c.CreateAppBackup(ctx, appID, astra.AppBackupCreate{Name: "before-change", SnapshotID: snap.ID, BucketID: bucket.ID})
	}
	if err != nil {
		t.Fatal(err)
	}
	schedule := astra.Schedule{Min: time.Millisecond, Max: 10 * time.Millisecond, Multiplier: 2}
	if _, err := astra.Wait(ctx, schedule, func(ctx context.Context) ([]astra.AppBackup, error) {
		return c.ListAppBackups(ctx, appID, astra.ListOptions{})
	}, func(b []astra.AppBackup) (bool, error) {
		return len(b) == 1 && strings.EqualFold(b[0].State, "completed"), nil
	}); err != nil {
		t.Fatal(err)
	}

	h.write(appScopeHCL(h, "kube-system", true))
	r := h.run(ctx, "plan", "-no-color", "-input=false")
	for _, want := range []string{"must be replaced", "Warning: Replacing the app unmanages it, with its snapshots and backups",
		`replaces the app "scope" (` + appID + `)`, `protection policies: 1 ("hourly" (hourly))`, "snapshots: 1", "backups: 1",
		"To keep them, set namespace_scoped_resources back"} {
		if !strings.Contains(strings.Join(strings.Fields(r.out), " "), want) {
			t.Fatalf("the plan of a new namespace lacks %q:\n%s", want, r.out)
		}
	}
}
