package provider

// `terraform query` end to end, for every list resource: the CLI of TF_ACC_TERRAFORM_PATH
// runs a .tfquery.hcl against the simulator (filters, limit, include_resource), then
// `query -generate-config-out` writes resource and import blocks that plan only imports,
// apply without a write request and re-plan empty. plugin-testing's Query steps cannot keep
// the generated file, so the CLI is driven directly (cliWork).

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// queryCase is one list resource: seed registers, outside Terraform, at least two objects
// that filter (the body of the list block's config) finds, and returns them by name → ID.
type queryCase struct {
	typ  string
	seed func(a *accTarget) (filter string, want map[string]string)
}

// queryCases has one row per list resource (the provider's ListResources).
var queryCases = []queryCase{
	{typ: "astra_cluster", seed: func(a *accTarget) (string, map[string]string) {
		seedClusters(a, "q-managed", 2, true) // filtered out by managed_state
		return fmt.Sprintf("cloud_id = %q\n    managed_state = \"unmanaged\"", a.cloudID()), seedClusters(a, "q-unmanaged", 2, false)
	}},
	{typ: "astra_managed_cluster", seed: func(a *accTarget) (string, map[string]string) {
		seedClusters(a, "q-unmanaged", 1, false) // registered but not managed: not listed
		return fmt.Sprintf("cloud_id = %q", a.cloudID()), seedClusters(a, "q-managed", 2, true)
	}},
	{typ: "astra_bucket", seed: func(a *accTarget) (string, map[string]string) {
		if _, err := a.client.CreateBucket(testContext(), astra.BucketCreate{ // filtered out by bucket_provider
			Name: a.name("q-gcs"), CredentialID: a.sim.Seeds().GCP.CredentialID, Provider: astra.BucketProviderGCP,
			Parameters: astra.BucketParameters{GCP: &astra.GCPBucketParameters{BucketName: a.name("q-gcs")}},
		}); err != nil {
			a.t.Fatal(err)
		}
		want := map[string]string{}
		for _, name := range []string{"q-s3-0", "q-s3-1"} {
			want[a.name(name)] = a.bucket(name)
		}
		return `bucket_provider = "generic-s3"`, want
	}},
	{typ: "astra_app", seed: func(a *accTarget) (string, map[string]string) {
		seedApp(a, "q-elsewhere") // on another cluster: filtered out by cluster_id
		cluster, first := seedApp(a, "q-app-0")
		return fmt.Sprintf("cluster_id = %q", cluster), map[string]string{"q-app-0": first, "q-app-1": seedAppOn(a, cluster, "q-app-1")}
	}},
	{typ: "astra_protection_policy", seed: func(a *accTarget) (string, map[string]string) {
		seedPolicies(a, "q-elsewhere", "hourly") // another app's: filtered out by app_id
		app, want := seedPolicies(a, "q-policy", "hourly", "daily")
		return fmt.Sprintf("app_id = %q", app), want
	}},
}

// queryScheduleFields are the policies seedPolicies makes, by granularity.
var queryScheduleFields = map[string]astra.AppScheduleFields{
	"hourly": {Granularity: "hourly", Minute: "10", SnapshotRetention: "24", BackupRetention: "0"},
	"daily":  {Granularity: "daily", Minute: "20", Hour: "1", SnapshotRetention: "7", BackupRetention: "0"},
}

// seedPolicies manages, outside Terraform, the default namespace of a new managed cluster as
// the app name, gives it one policy of each granularity, named name-granularity, and returns
// the app's ID and its policies by name → ID.
func seedPolicies(a *accTarget, name string, granularities ...string) (appID string, policies map[string]string) {
	a.t.Helper()
	cluster := onlyID(a.t, seedClusters(a, name+"-cluster", 1, true))
	appID = seedReadyApp(a, astra.AppCreate{Name: name, ClusterID: cluster, NamespaceScopedResources: []astra.NamespaceScope{{Namespace: "default"}}})
	policies = map[string]string{}
	for _, g := range granularities {
		fields := queryScheduleFields[g]
		fields.Name = name + "-" + g
		s, err := a.client.CreateAppSchedule(testContext(), appID, fields)
		if err != nil {
			a.t.Fatalf("seeding policy %s: %v", fields.Name, err)
		}
		policies[fields.Name] = s.ID
	}
	return appID, policies
}

// seedClusters registers n clusters named prefix-0 … in the private cloud through the API,
// managed or not, and returns them by name → ID.
func seedClusters(a *accTarget, prefix string, n int, managed bool) map[string]string {
	t, ctx := a.t, testContext()
	t.Helper()
	out := map[string]string{}
	for i := range n {
		name := fmt.Sprintf("%s-%d", prefix, i)
		c, err := a.client.CreateCluster(ctx, a.cloudID(), astra.ClusterCreate{Name: name, CredentialID: a.kubeconfigCredential(name, name)})
		if err != nil {
			t.Fatal(err)
		}
		if managed {
			if _, err := a.client.CreateManagedCluster(ctx, astra.ManagedClusterCreate{ID: c.ID}); err != nil {
				t.Fatal(err)
			}
		}
		out[name] = c.ID
	}
	return out
}

// skipWithoutQuery skips a test of `terraform query` under a CLI that lacks the command,
// saying why.
func skipWithoutQuery(t *testing.T) {
	t.Helper()
	desc, err := describeCLI(os.Getenv("TF_ACC_TERRAFORM_PATH"))
	if err != nil {
		t.Fatalf("TF_ACC_TERRAFORM_PATH: %v", err)
	}
	if strings.HasPrefix(desc, "OpenTofu ") || !cliAtLeast(t, 1, 14) {
		t.Skipf("%s has no `query` command (list resources need Terraform 1.14 or later)", desc)
	}
}

// queryResult is one result of `query -json`.
type queryResult struct {
	address, name, id string
	resource          map[string]any // with include_resource
}

// query runs `terraform query -json` and returns its results by list block address.
func (w *cliWork) query() map[string][]queryResult {
	w.t.Helper()
	out := w.cmd("query", "-json", "-no-color")
	results := map[string][]queryResult{}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var msg struct {
			Type   string `json:"type"`
			Result *struct {
				Address     string         `json:"address"`
				DisplayName string         `json:"display_name"`
				Identity    map[string]any `json:"identity"`
				Resource    map[string]any `json:"resource_object"`
			} `json:"list_resource_found"`
			Diagnostic *struct{ Severity, Summary, Detail string } `json:"diagnostic"`
		}
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
			w.t.Fatalf("query -json printed a line that is not JSON: %s", sc.Text())
		}
		if msg.Diagnostic != nil && msg.Diagnostic.Severity == "error" {
			w.t.Fatalf("query: %s: %s", msg.Diagnostic.Summary, msg.Diagnostic.Detail)
		}
		if msg.Result != nil {
			id, _ := msg.Result.Identity["id"].(string)
			results[msg.Result.Address] = append(results[msg.Result.Address],
				queryResult{address: msg.Result.Address, name: msg.Result.DisplayName, id: id, resource: msg.Result.Resource})
		}
	}
	if len(results) == 0 {
		w.t.Fatalf("query -json found nothing:\n%s", out)
	}
	return results
}

// TestAccQuery_listResources runs every list resource under `terraform query`: the filters
// find exactly the seeded objects, limit keeps one, include_resource carries each object's
// state; `query -generate-config-out` then writes one resource and one import block (by
// identity) per object, which plan only imports, apply without a write request to Astra
// Control and re-plan empty. Terraform 1.14 or later; other CLIs skip, saying why.
func TestAccQuery_listResources(t *testing.T) {
	requireTFAcc(t)
	testAccPreCheck(t)
	skipWithoutQuery(t)
	for _, tc := range queryCases {
		t.Run(tc.typ, func(t *testing.T) {
			a := newAccTarget(t)
			a.requireSim("seeds objects and counts the simulator's requests")
			filter, want := tc.seed(a)
			if len(want) < 2 {
				t.Fatalf("seed %s: %d objects; the limit check needs at least two", tc.typ, len(want))
			}
			w := a.newCLIWork()
			block := func(label, extra string) string {
				return fmt.Sprintf("list %q %q {\n  provider = astra\n%s\n  config {\n    %s\n  }\n}\n", tc.typ, label, extra, filter)
			}
			root := w.rootModule(map[string]string{"query.tfquery.hcl": block("found", "  include_resource = true") + block("first", "  limit = 1")})

			before := a.sim.Counts()
			results := root.query()
			if writes := writesSince(before, a.sim.Counts()); len(writes) > 0 {
				t.Fatalf("query sent writes to Astra Control: %v", writes)
			}
			found := results["list."+tc.typ+".found"]
			got := map[string]string{}
			for _, r := range found {
				got[r.name] = r.id
				if r.resource["id"] != r.id {
					t.Errorf("%s: include_resource gave the object %v, want one with id %s", r.name, r.resource, r.id)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("list.%s.found: %v, want %v (all results: %v)", tc.typ, got, want, results)
			}
			if first := results["list."+tc.typ+".first"]; len(first) != 1 || want[first[0].name] != first[0].id || first[0].resource != nil {
				t.Fatalf("list.%s.first (limit = 1, no include_resource): %+v, want one of %v without its object", tc.typ, first, want)
			}

			// Only the block with include_resource generates configuration.
			if err := os.WriteFile(filepath.Join(root.dir, "query.tfquery.hcl"), []byte(block("found", "  include_resource = true")), 0o600); err != nil {
				t.Fatal(err)
			}
			root.cmd("query", "-no-color", "-generate-config-out=generated.tf")
			generated, err := os.ReadFile(filepath.Join(root.dir, "generated.tf"))
			if err != nil {
				t.Fatalf("query -generate-config-out wrote nothing: %v", err)
			}
			checkGeneratedImports(t, string(generated), tc.typ, want)
			if err := os.Remove(filepath.Join(root.dir, "query.tfquery.hcl")); err != nil {
				t.Fatal(err)
			}
			root.cmd("validate", "-no-color")
			if summary, wantSummary := root.planOnlyImports(map[string]int{tc.typ: len(want)}),
				fmt.Sprintf("Plan: %d to import, 0 to add, 0 to change, 0 to destroy.", len(want)); summary != wantSummary {
				t.Errorf("plan summary %q, want %q", summary, wantSummary)
			}
			root.applyAndReplan()
			t.Logf("generated configuration:\n%s", generated)
		})
	}
}

// checkGeneratedImports checks configuration generated for the objects want (name → ID) of
// typ: one resource block and one import block by identity per object, and nothing else.
func checkGeneratedImports(t *testing.T, generated, typ string, want map[string]string) {
	t.Helper()
	resources := regexp.MustCompile(`(?m)^resource "`+typ+`" "[^"]+" \{`).FindAllString(generated, -1)
	// The identity's id, after its other attributes (a policy's is { app_id, id }).
	identities := regexp.MustCompile(`(?s)import \{.*?identity\s*=\s*\{(?:\s*[a-z_]+\s*=\s*"[^"]*")*?\s*id\s*=\s*"([^"]+)"`).FindAllStringSubmatch(generated, -1)
	var ids, wantIDs []string
	for _, m := range identities {
		ids = append(ids, m[1])
	}
	for _, id := range want {
		wantIDs = append(wantIDs, id)
	}
	sort.Strings(ids)
	sort.Strings(wantIDs)
	if len(resources) != len(want) || strings.Join(ids, ",") != strings.Join(wantIDs, ",") {
		t.Fatalf("generated %d resource blocks and imports of %v; want %d and %v:\n%s", len(resources), ids, len(want), wantIDs, generated)
	}
	if n := strings.Count(generated, "resource \""); n != len(want) {
		t.Fatalf("generated %d resource blocks in all, want %d:\n%s", n, len(want), generated)
	}
}

// TestQueryAndIdentityCasesCoverEveryType: the tables of TestAccQuery_listResources and
// TestAccIdentity_generatedConfig have a row for every list resource and every resource the
// provider serves, so a new one cannot go untested under the CLIs that use them.
func TestQueryAndIdentityCasesCoverEveryType(t *testing.T) {
	ctx := testContext()
	p, ok := New("test")().(provider.ProviderWithListResources)
	if !ok {
		t.Fatal("the provider serves no list resources")
	}
	var lists, resources []string
	for _, newList := range p.ListResources(ctx) {
		var md resource.MetadataResponse
		newList().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: typeName}, &md)
		lists = append(lists, md.TypeName)
	}
	for _, newResource := range p.Resources(ctx) {
		var md resource.MetadataResponse
		newResource().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: typeName}, &md)
		resources = append(resources, md.TypeName)
	}
	var queried, imported []string
	for _, c := range queryCases {
		queried = append(queried, c.typ)
	}
	for _, c := range identityImportCases {
		imported = append(imported, c.typ)
	}
	for _, check := range []struct {
		table       string
		served, has []string
	}{{"queryCases", lists, queried}, {"identityImportCases", resources, imported}} {
		sort.Strings(check.served)
		sort.Strings(check.has)
		if strings.Join(check.served, ",") != strings.Join(check.has, ",") {
			t.Errorf("%s has rows for %v; the provider serves %v: add one row per type", check.table, check.has, check.served)
		}
	}
}
