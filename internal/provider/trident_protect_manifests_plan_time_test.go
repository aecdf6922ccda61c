package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccTridentProtectManifests_planTimeDiagnostics drives the CLI: a plan renders the
// estate and shows each rendering warning naming its object (and one about a project given
// for a bucket nothing renders), with one request per listing and one schedule listing per
// app; an ID that names nothing, or a bad argument, fails the plan with a clear error. No
// output shows a credential value.
func TestAccTridentProtectManifests_planTimeDiagnostics(t *testing.T) {
	// Every log at TRACE, the CLI's and the provider's, into files searched at the end.
	logs := t.TempDir()
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_LOG_PATH", filepath.Join(logs, "cli.log"))
	t.Setenv("TF_LOG_PATH_MASK", filepath.Join(logs, "%s.log"))
	h := newCLIHarness(t, astrasim.Options{Release: "24.02"}, "")
	c, err := astra.New(astra.Config{Endpoint: h.url, AccountID: h.sim().AccountID(), Token: astrasim.DefaultToken, ClusterVersion: "1.7"})
	if err != nil {
		t.Fatal(err)
	}
	e := seedTPEstate(t, c, h.sim().Seeds().PrivateCloudID)
	h.write(fmt.Sprintf(`
data "astra_trident_protect_manifests" "cluster" {
  cluster_id      = %q
  gcp_project_ids = { %q = "acme-prod", %q = "typo" }
  azure_endpoints = { %q = "core.windows.net" }
}

output "kinds" {
  value = [for m in data.astra_trident_protect_manifests.cluster.manifests : m.kind]
}
`, e.clusterID, e.buckets["gcs-backups"], e.buckets["unused"], e.buckets["gcs-backups"]))
	r, sent := tpPlanCounting(h)
	if want := map[string]int{
		"GET /topology/v1/managedClusters/{managedCluster_id}": 1, "GET /k8s/v2/apps": 1, "GET /k8s/v1/apps/{app_id}/schedules": 2,
		"GET /core/v1/executionHooks": 1, "GET /core/v1/hookSources": 1, "GET /topology/v1/buckets": 1, "GET /core/v1/credentials": 1,
	}; fmt.Sprint(sent) != fmt.Sprint(want) {
		t.Errorf("one plan by cluster sent %v, want %v", sent, want)
	}
	expectOutput(t, "the plan", r,
		fmt.Sprintf(`Warning: Trident protect: bucket "minio" (%s)`, e.buckets["minio"]),
		"server URL carries user information, left out (credentials belong in the Secret)",
		fmt.Sprintf(`Warning: Trident protect: protection policy "weekly" (%s)`, e.policies["shop/weekly"]),
		`day of week 7 is rendered as "0": Trident protect reads both as Sunday`,
		fmt.Sprintf(`Warning: Trident protect: execution hook "after-failover" (%s)`, e.hooks["after-failover"]),
		"Warning: No Google Cloud bucket with this ID is rendered",
		fmt.Sprintf("gcp_project_ids names bucket %s, which is not a Google Cloud bucket", e.buckets["unused"]),
		"Warning: No Azure bucket with this ID is rendered",
		fmt.Sprintf("azure_endpoints names bucket %s, which is not an Azure bucket", e.buckets["gcs-backups"]),
		`"AppVault"`, `"ExecHook"`)
	if n := strings.Count(r.out, "Warning: Trident protect: "); n != 8 {
		t.Errorf("%d rendering warnings in the plan, want 8 (one per object):\n%s", n, r.out)
	}
	for _, s := range tpSecretForms() {
		if strings.Contains(r.out, s) {
			t.Errorf("the plan prints the credential value %q", s)
		}
	}
	tpNoSecretInLogs(t, logs)

	// One app: its own hooks' listing; the cloud is not read, the managed cluster has a default bucket.
	h.write(fmt.Sprintf("data \"astra_trident_protect_manifests\" \"shop\" {\n  app_id = %q\n  gcp_project_ids = { %q = \"acme-prod\" }\n}\n",
		e.shop, e.buckets["gcs-backups"]))
	if _, sent := tpPlanCounting(h); fmt.Sprint(sent) != fmt.Sprint(map[string]int{
		"GET /k8s/v2/apps/{app_id}": 1, "GET /topology/v1/managedClusters/{managedCluster_id}": 1, "GET /k8s/v1/apps/{app_id}/schedules": 1,
		"GET /k8s/v1/apps/{app_id}/executionHooks": 1, "GET /core/v1/hookSources": 1, "GET /topology/v1/buckets": 1, "GET /core/v1/credentials": 1,
	}) {
		t.Errorf("one plan by app sent %v", sent)
	}

	missing := "0e9d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b"
	for _, tt := range []struct {
		name, body string
		want       []string
	}{
		{"an app that does not exist", `app_id = "` + missing + `"`,
			[]string{"Error: App not found", "Astra Control has no app with ID " + missing + "."}},
		{"a cluster that is not managed", `cluster_id = "` + missing + `"`,
			[]string{"Error: Managed cluster not found", "Astra Control manages no cluster with ID " + missing + ": its apps are rendered only while it is managed."}},
		{"a default bucket that does not exist", `app_id = "` + e.shop + `"` + "\n" + `default_bucket_id = "` + missing + `"`,
			[]string{"Error: Bucket not found", "Astra Control has no bucket with ID " + missing + "."}},
		{"both IDs", `app_id = "` + e.shop + `"` + "\n" + `cluster_id = "` + e.clusterID + `"`,
			[]string{"Error: Invalid Attribute Combination", "Exactly one of these attributes must be configured: [app_id,cluster_id]"}},
		{"neither ID", `protect_namespace = "trident-protect"`,
			[]string{"Error: Missing Attribute Configuration", "Exactly one of these attributes must be configured: [app_id,cluster_id]"}},
		// What the CRDs require and Astra Control does not record fails the plan, on the argument.
		{"a Google Cloud bucket without its project", `cluster_id = "` + e.clusterID + `"`, []string{
			fmt.Sprintf(`Error: Trident protect would refuse the resource of bucket "gcs-backups" (%s)`, e.buckets["gcs-backups"]),
			fmt.Sprintf(`Astra Control does not record it: set gcp_project_ids["%s"] to the project of bucket "acme-gcs-backups".`, e.buckets["gcs-backups"])}},
		{"an Azure endpoint that is not a DNS name", `cluster_id = "` + e.clusterID + `"` + "\n" +
			fmt.Sprintf(`gcp_project_ids = { %q = "acme-prod" }`, e.buckets["gcs-backups"]) + "\n" +
			fmt.Sprintf(`azure_endpoints = { %q = "https://acmestorage.blob.core.windows.net" }`, e.buckets["azure-blob"]), []string{
			fmt.Sprintf(`Error: Trident protect would refuse the resource of bucket "azure-blob" (%s)`, e.buckets["azure-blob"]),
			fmt.Sprintf(`azure_endpoints["%s"] is "https://acmestorage.blob.core.windows.net", not the storage endpoint suffix of an Azure cloud`, e.buckets["azure-blob"])}},
		{"a namespace Kubernetes refuses", `app_id = "` + e.shop + `"` + "\n" + `protect_namespace = "Trident_Protect"`,
			[]string{"Error: Invalid DNS-1123 label", `"Trident_Protect" is not a Kubernetes name`}},
	} {
		h.write("data \"astra_trident_protect_manifests\" \"x\" {\n" + tt.body + "\n}\n")
		r := h.plan()
		if r.err == nil {
			t.Errorf("%s: the plan succeeded:\n%s", tt.name, r.out)
			continue
		}
		expectOutput(t, tt.name, r, tt.want...)
	}
}

// tpPlanCounting plans, failing the test if the plan fails, and returns the requests it sent
// by route.
func tpPlanCounting(h *cliHarness) (cliResult, map[string]int) {
	h.t.Helper()
	before := h.sim().Counts()
	r := h.plan()
	if r.err != nil {
		h.t.Fatalf("plan: %v\n%s", r.err, r.out)
	}
	sent := map[string]int{}
	for route, n := range h.sim().Counts() {
		if d := n - before[route]; d > 0 {
			sent[route] = d
		}
	}
	return r, sent
}

// tpNoSecretInLogs searches every log file under dir for the estate's credential values.
func tpNoSecretInLogs(t *testing.T, dir string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.log"))
	if err != nil || len(files) < 2 {
		t.Fatalf("log files %v (%v): want the CLI's and the provider's", files, err)
	}
	read, reads := 0, false
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		read += len(raw)
		reads = reads || strings.Contains(string(raw), "/topology/v1/buckets")
		for _, s := range tpSecretForms() {
			if strings.Contains(string(raw), s) {
				t.Errorf("%s holds the credential value %q", filepath.Base(f), s)
			}
		}
	}
	if !strings.Contains(strings.Join(files, " "), "cli.log") || read < 10000 || !reads {
		t.Errorf("%d bytes of logs in %v, the bucket listing logged: %v; TRACE logging did not happen", read, files, reads)
	}
}
