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

// savedPlanHCL is a cluster (with a label the configuration owns), its management, an app
// without labels and an hourly policy that leaves its bucket to the service, beside two
// buckets; v changes the cluster's and the app's names and the policy's retention.
func savedPlanHCL(h *cliHarness, v int) string {
	kube := writeKubeconfig(h.t, "saved", "https://saved.k8s.example:6443")
	return fmt.Sprintf(`
resource "astra_kubeconfig_credential" "c" {
  name       = "saved"
  kubeconfig = file(%[1]q)
}

resource "astra_cluster" "c" {
  cloud_id      = %[2]q
  name          = "saved-v%[3]d"
  credential_id = astra_kubeconfig_credential.c.id
  labels        = { tier = "gold" }
}

resource "astra_managed_cluster" "c" {
  cluster_id = astra_cluster.c.id
}

resource "astra_app" "c" {
  name                       = "saved-app-v%[3]d"
  cluster_id                 = astra_managed_cluster.c.id
  namespace_scoped_resources = [{ namespace = "default" }]
}

resource "astra_protection_policy" "c" {
  app_id             = astra_app.c.id
  name               = "hourly"
  granularity        = "hourly"
  snapshot_retention = %[4]d
  backup_retention   = 1
}

resource "astra_s3_credential" "s" {
  name              = "saved-s3"
  access_key_id     = "AKIA-SAVED"
  secret_access_key = "saved-secret"
}

resource "astra_bucket" "first" {
  name            = "saved-first"
  bucket_provider = "generic-s3"
  credential_id   = astra_s3_credential.s.id
  s3              = { server_url = "s3.saved.example", bucket_name = "saved-first" }
}

resource "astra_bucket" "second" {
  name            = "saved-second"
  bucket_provider = "generic-s3"
  credential_id   = astra_s3_credential.s.id
  s3              = { server_url = "s3.saved.example", bucket_name = "saved-second" }
}
`, kube, h.sim().Seeds().PrivateCloudID, v, v+3)
}

// apiClient is a client of the harness's simulator: another writer, outside Terraform.
func (h *cliHarness) apiClient() *astra.Client {
	c, err := astra.New(astra.Config{Endpoint: h.url, AccountID: h.sim().AccountID(), Token: astrasim.DefaultToken})
	if err != nil {
		h.t.Fatal(err)
	}
	return c
}

// stateIDOf is the ID state holds for the resource of that type and name.
func (h *cliHarness) stateIDOf(typ, name string) string {
	for _, o := range h.state() {
		if o.Type == typ && o.Name == name {
			return o.ID
		}
	}
	h.t.Fatalf("no %s.%s in state", typ, name)
	return ""
}

// TestAccNoLostUpdate_savedPlan: another writer changes what the configuration does not
// set between a saved plan and its apply: a label on the cluster (whose labels the plan
// does not change) and on the app, and the policy's bucket and a label on its schedule.
// Applying the saved plan renames the cluster and the app and changes the policy's
// retention without an "inconsistent result", and keeps every change of the other writer;
// the next plan shows the labels as drift (the configuration owns labels) and plans
// nothing for the policy (its bucket is the service's).
func TestAccNoLostUpdate_savedPlan(t *testing.T) {
	h := newCLIHarness(t, astrasim.Options{}, "")
	h.write(savedPlanHCL(h, 0))
	if r := h.apply(); r.err != nil {
		t.Fatalf("the first apply failed: %v\n%s", r.err, r.out)
	}
	h.write(savedPlanHCL(h, 1))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if r := h.run(ctx, "plan", "-out=saved.tfplan", "-input=false", "-no-color"); r.err != nil {
		t.Fatalf("plan: %v\n%s", r.err, r.out)
	}

	c := h.apiClient()
	clusterID, appID := h.stateIDOf("astra_cluster", "c"), h.stateIDOf("astra_app", "c")
	scheduleID, second := h.stateIDOf("astra_protection_policy", "c"), h.stateIDOf("astra_bucket", "second")
	writer := astra.Label{Name: "writer", Value: "outside"}
	cluster, err := c.GetCluster(ctx, "", clusterID)
	if err == nil {
		cluster.Metadata.Labels = append(cluster.Metadata.Labels, writer)
		_, err = c.UpdateCluster(ctx, "", cluster)
	}
	app, err2 := c.GetApp(ctx, appID)
	if err2 == nil {
		app.Metadata.Labels = append(app.Metadata.Labels, writer)
		_, err2 = c.UpdateApp(ctx, app)
	}
	schedule, err3 := c.GetAppSchedule(ctx, appID, scheduleID)
	if err3 == nil {
		schedule.BucketID, schedule.Metadata.Labels = second, append(schedule.Metadata.Labels, writer)
		_, err3 = c.UpdateAppSchedule(ctx, appID, schedule)
	}
	if err != nil || err2 != nil || err3 != nil {
		t.Fatalf("the other writer failed: %v, %v, %v", err, err2, err3)
	}

	if r := h.run(ctx, "apply", "-input=false", "-no-color", "saved.tfplan"); r.err != nil {
		t.Fatalf("applying the saved plan failed: %v\n%s", r.err, r.out)
	}
	cluster, err = c.GetCluster(ctx, "", clusterID)
	app, err2 = c.GetApp(ctx, appID)
	schedule, err3 = c.GetAppSchedule(ctx, appID, scheduleID)
	if err != nil || err2 != nil || err3 != nil {
		t.Fatalf("reading the objects back: %v, %v, %v", err, err2, err3)
	}
	var lost []string
	if cluster.Name != "saved-v1" || astraLabel(cluster.Metadata.Labels, "writer") != "outside" || astraLabel(cluster.Metadata.Labels, "tier") != "gold" {
		lost = append(lost, fmt.Sprintf("cluster %q, labels %v", cluster.Name, cluster.Metadata.Labels))
	}
	if app.Name != "saved-app-v1" || astraLabel(app.Metadata.Labels, "writer") != "outside" {
		lost = append(lost, fmt.Sprintf("app %q, labels %v", app.Name, app.Metadata.Labels))
	}
	if schedule.SnapshotRetention != "4" || schedule.BucketID != second || astraLabel(schedule.Metadata.Labels, "writer") != "outside" {
		lost = append(lost, fmt.Sprintf("schedule retention %s, bucket %s (want %s), labels %v", schedule.SnapshotRetention, schedule.BucketID, second, schedule.Metadata.Labels))
	}
	if len(lost) > 0 {
		t.Fatalf("the saved plan's apply lost the other writer's changes or its own: %s", strings.Join(lost, "; "))
	}

	r := h.run(ctx, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	if r.err == nil || !strings.Contains(r.out, "astra_cluster.c will be updated in-place") ||
		!strings.Contains(r.out, "astra_app.c will be updated in-place") || strings.Contains(r.out, "astra_protection_policy.c will be") {
		t.Fatalf("the next plan should show the labels as drift on the cluster and the app, and nothing for the policy:\n%s", r.out)
	}
}

// TestAccConditionalWrites: a condition never locks a user out. A service (or proxy) that
// refuses the very ETag it answers gets one conditional PUT, then one without a condition
// and a warning naming the object; a weak ETag is never sent; conditional_writes = false
// sends no If-Match at all. Each updates a cluster's name once.
func TestAccConditionalWrites(t *testing.T) {
	const warning = "The cluster was updated without a condition"
	for _, c := range []struct {
		name                       string
		opts                       astrasim.Options
		extra                      string
		puts, conditional, warning int
	}{
		{"a service that never matches its ETags", astrasim.Options{ETagNeverMatches: true}, "", 2, 1, 1},
		{"weak ETags", astrasim.Options{WeakETag: true}, "", 1, 0, 0},
		{"conditional_writes = false", astrasim.Options{ETagNeverMatches: true}, "  conditional_writes = false\n", 1, 0, 0},
		{"strong ETags (the default)", astrasim.Options{}, "", 1, 1, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newCLIHarness(t, c.opts, c.extra)
			kube := writeKubeconfig(t, "cond", "https://cond.k8s.example:6443")
			hcl := func(name string) string {
				return fmt.Sprintf(`
resource "astra_kubeconfig_credential" "c" {
  name       = "cond"
  kubeconfig = file(%q)
}

resource "astra_cluster" "c" {
  cloud_id      = %q
  name          = %q
  credential_id = astra_kubeconfig_credential.c.id
}
`, kube, h.sim().Seeds().PrivateCloudID, name)
			}
			h.write(hcl("before"))
			if r := h.apply(); r.err != nil {
				t.Fatalf("create: %v\n%s", r.err, r.out)
			}
			puts, conditional := h.sim().Count(http.MethodPut, routeCloudCluster), h.sim().CountConditional(http.MethodPut, routeCloudCluster)
			h.write(hcl("after"))
			r := h.apply()
			if r.err != nil {
				t.Fatalf("the update failed: %v\n%s", r.err, r.out)
			}
			gotPuts := h.sim().Count(http.MethodPut, routeCloudCluster) - puts
			gotConditional := h.sim().CountConditional(http.MethodPut, routeCloudCluster) - conditional
			if gotPuts != c.puts || gotConditional != c.conditional || strings.Count(r.out, warning) != c.warning {
				t.Fatalf("%d PUTs (%d conditional), %d warnings; want %d (%d), %d:\n%s", gotPuts, gotConditional,
					strings.Count(r.out, warning), c.puts, c.conditional, c.warning, r.out)
			}
			if c.warning > 0 && !strings.Contains(r.out, "conditional_writes = false") {
				t.Fatalf("the warning does not say how to turn conditions off:\n%s", r.out)
			}
			if err := h.planIsEmpty(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
