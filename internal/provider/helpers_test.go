package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// Helpers shared by the acceptance tests of this package, in one place. Where the tests run
// (simulator or real Astra Control) and how (newAccTarget, a.test, a.simCheck, a.simStep,
// a.requireSim) is the harness: acc_target_test.go; tests that drive the CLI binary
// themselves use cli_harness_test.go. A helper only one test file needs stays in that file.
//
// Conventions: the object under test is named "test" (clusterAddr...); expect* are state
// checks taking the address; planned/emptyPlan/prePlan are a step's ConfigPlanChecks;
// "same ID" and "new ID" are statecheck.CompareValue with compare.ValuesSame/ValuesDiffer.

// ---- Addresses of the objects under test, and the API routes the simulator counts

// The object under test of each resource is named "test".
const (
	clusterAddr    = "astra_cluster.test"
	cloudAddr      = "astra_cloud.test"
	credentialAddr = "astra_kubeconfig_credential.test"
	managedAddr    = "astra_managed_cluster.test"
	bucketAddr     = "astra_bucket.test"
)

// Routes as the simulator counts them (astrasim.Sim.Count takes method and route;
// countDelta.since takes "METHOD route").
const (
	routeClusters       = "/topology/v1/clouds/{cloud_id}/clusters"
	routeCloudCluster   = "/topology/v1/clouds/{cloud_id}/clusters/{cluster_id}"
	routeClusterByID    = "/topology/v1/clusters/{cluster_id}"
	postClusters        = "POST " + routeClusters
	putCloudCluster     = "PUT " + routeCloudCluster
	deleteCloudCluster  = "DELETE " + routeCloudCluster
	getClusterByIDRoute = "GET " + routeClusterByID

	routeClouds = "/topology/v1/clouds"
	routeCloud  = "/topology/v1/clouds/{cloud_id}"

	routeCredentials = "/core/v1/credentials"
	routeCredential  = "/core/v1/credentials/{credential_id}"

	routeBuckets = "/topology/v1/buckets"
	routeBucket  = "/topology/v1/buckets/{bucket_id}"

	routeManagedClusters = "/topology/v1/managedClusters"
	routeManagedCluster  = "/topology/v1/managedClusters/{managedCluster_id}"
)

// ---- HCL builders

// arg renders one argument: arg("name", "x") is name = "x", arg("acc_host", true) is acc_host = true.
func arg(name string, value any) string {
	switch v := value.(type) {
	case string:
		return fmt.Sprintf("%s = %q", name, v)
	default:
		return fmt.Sprintf("%s = %v", name, v)
	}
}

// clusterHCL renders an astra_cluster "test" block; body holds the arguments after cloud_id.
func clusterHCL(cloudID string, body ...string) string {
	return fmt.Sprintf("resource \"astra_cluster\" \"test\" {\n  cloud_id = %q\n  %s\n}\n", cloudID, strings.Join(body, "\n  "))
}

// cloudHCL renders an astra_cloud "test"; extra holds further arguments.
func cloudHCL(name, cloudType string, extra ...string) string {
	return fmt.Sprintf("resource \"astra_cloud\" \"test\" {\n  name       = %q\n  cloud_type = %q\n  %s\n}\n",
		name, cloudType, strings.Join(extra, "\n  "))
}

// writeKubeconfig writes a simulator kubeconfig for server to a file of the test and
// returns its path (HCL reads it with file(), as users do).
func writeKubeconfig(t *testing.T, name, server string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name+".yaml")
	if err := os.WriteFile(path, astrasim.TestKubeconfig(name, server), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// credentialHCL renders an astra_kubeconfig_credential "test" that reads its kubeconfig from a file.
func credentialHCL(name, kubeconfigPath string) string {
	return fmt.Sprintf("resource \"astra_kubeconfig_credential\" \"test\" {\n  name       = %q\n  kubeconfig = file(%q)\n}\n", name, kubeconfigPath)
}

// credentialWOHCL is credentialHCL with the write-only kubeconfig_wo and its version.
func credentialWOHCL(name, kubeconfigPath, version string) string {
	return fmt.Sprintf("resource \"astra_kubeconfig_credential\" \"test\" {\n  name                  = %q\n  kubeconfig_wo         = file(%q)\n  kubeconfig_wo_version = %q\n}\n",
		name, kubeconfigPath, version)
}

// privateManagedHCL is a private cluster (with an existing credential) whose storage
// classes are in local.storage_classes (name => ID, from astra_storage_classes), managed
// with the default storage class the HCL expression scExpr gives; managed false leaves the
// managed cluster out (it is then destroyed).
func privateManagedHCL(cloudID, credentialID, scExpr string, managed bool) string {
	hcl := fmt.Sprintf(`
resource "astra_cluster" "test" {
  cloud_id      = %q
  credential_id = %q
}

data "astra_storage_classes" "test" {
  cluster_id = astra_cluster.test.id
}

locals {
  storage_classes = { for sc in data.astra_storage_classes.test.storage_classes : sc.name => sc.id }
}
`, cloudID, credentialID)
	if managed {
		hcl += fmt.Sprintf(`
resource "astra_managed_cluster" "test" {
  cluster_id            = astra_cluster.test.id
  default_storage_class = %s
}
`, scExpr)
	}
	return hcl
}

// requiredProvidersHCL names the in-process provider's address, as plugin-testing does for
// configuration steps but not for import steps with their own configuration: without it
// OpenTofu looks for hashicorp/astra in its own registry instead of the test's provider.
func requiredProvidersHCL() string {
	host, namespace := os.Getenv("TF_ACC_PROVIDER_HOST"), os.Getenv("TF_ACC_PROVIDER_NAMESPACE")
	if host == "" {
		host = "registry.terraform.io"
	}
	if namespace == "" {
		namespace = "hashicorp"
	}
	return fmt.Sprintf("terraform {\n  required_providers {\n    astra = { source = %q }\n  }\n}\n", host+"/"+namespace+"/astra")
}

// ---- State checks

// expectString checks that attribute attr of addr holds value in state.
func expectString(addr, attr, value string) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(addr, tfjsonpath.New(attr), knownvalue.StringExact(value))
}

// expectNull checks that attribute attr of addr is null in state.
func expectNull(addr, attr string) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(addr, tfjsonpath.New(attr), knownvalue.Null())
}

// expectBool checks that attribute attr of addr holds value in state.
func expectBool(addr, attr string, value bool) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(addr, tfjsonpath.New(attr), knownvalue.Bool(value))
}

// uuidRegexp matches the lowercase UUIDs Astra Control gives its objects.
var uuidRegexp = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// onlyReads checks that data sources sent nothing but GETs: they are side-effect free.
func (a *accTarget) onlyReads() resource.TestCheckFunc {
	return a.simCheck("data sources only read", func(sim *astrasim.Sim) error {
		for key, n := range sim.Counts() {
			if !strings.HasPrefix(key, "GET ") && n > 0 {
				return fmt.Errorf("%d × %s", n, key)
			}
		}
		return nil
	})
}

// listAttr reads attribute attr of every item of the list attribute list of a data source
// in state (flatmap form), in order.
func listAttr(s *terraform.State, addr, list, attr string) ([]string, error) {
	r, ok := s.RootModule().Resources[addr]
	if !ok {
		return nil, fmt.Errorf("%s is not in state", addr)
	}
	n, err := strconv.Atoi(r.Primary.Attributes[list+".#"])
	if err != nil {
		return nil, fmt.Errorf("%s.%s has no length: %w", addr, list, err)
	}
	out := make([]string, n)
	for i := range out {
		out[i] = r.Primary.Attributes[fmt.Sprintf("%s.%d.%s", list, i, attr)]
	}
	return out, nil
}

// expectIDs checks the IDs of a plural data source against what Astra Control holds.
func expectIDs(addr, list string, want func() ([]string, error)) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		got, err := listAttr(s, addr, list, "id")
		if err != nil {
			return err
		}
		expected, err := want()
		if err != nil {
			return err
		}
		if strings.Join(got, ",") != strings.Join(expected, ",") {
			return fmt.Errorf("%s.%s IDs = %v, Astra Control holds %v", addr, list, got, expected)
		}
		return nil
	}
}

// sortedIDs lists the IDs of the items keep accepts, sorted by name then ID, the order of
// the plural data sources.
func sortedIDs[T any](items []T, nameID func(T) (string, string), keep func(T) bool) []string {
	type entry struct{ name, id string }
	var kept []entry
	for _, it := range items {
		if keep(it) {
			name, id := nameID(it)
			kept = append(kept, entry{name, id})
		}
	}
	sort.SliceStable(kept, func(i, j int) bool {
		if kept[i].name != kept[j].name {
			return kept[i].name < kept[j].name
		}
		return kept[i].id < kept[j].id
	})
	out := make([]string, 0, len(kept))
	for _, e := range kept {
		out = append(out, e.id)
	}
	return out
}

// storageClassID is the ID of the named storage class of the cluster in state.
func (a *accTarget) storageClassID(s *terraform.State, name string) (string, error) {
	clusterID := s.RootModule().Resources[clusterAddr].Primary.ID
	classes, err := a.client.ListStorageClasses(testContext(), "", clusterID)
	if err != nil {
		return "", err
	}
	for _, sc := range classes {
		if sc.Name == name {
			return sc.ID, nil
		}
	}
	return "", fmt.Errorf("cluster %s has no storage class %s", clusterID, name)
}

// managedDefaultIs checks, in state and in Astra Control, the managed cluster's default
// storage class.
func (a *accTarget) managedDefaultIs(name string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		want, err := a.storageClassID(s, name)
		if err != nil {
			return err
		}
		r := s.RootModule().Resources[managedAddr].Primary
		if got := r.Attributes["default_storage_class"]; got != want {
			return fmt.Errorf("default_storage_class in state is %s, want %s (%s)", got, want, name)
		}
		mc, err := a.client.GetManagedCluster(testContext(), r.ID)
		if err != nil {
			return err
		}
		if mc.DefaultStorageClass != want {
			return fmt.Errorf("Astra Control holds default storage class %s, want %s (%s)", mc.DefaultStorageClass, want, name)
		}
		return nil
	}
}

// clusterUnmanaged checks Astra Control reports the cluster unmanaged (and not gone).
func (a *accTarget) clusterUnmanaged(cloudID, id string) error {
	c, err := a.client.GetCluster(testContext(), cloudID, id)
	if err != nil {
		return err
	}
	if c.ManagedState != "unmanaged" {
		return fmt.Errorf("cluster %s is %s, want unmanaged", id, c.ManagedState)
	}
	return nil
}

// listContaining checks a list of strings holds each of want, in any order, among others
// (every Kubernetes cluster has the namespaces default and kube-system).
type listContaining []string

func (want listContaining) CheckValue(v any) error {
	items, ok := v.([]any)
	if !ok {
		return fmt.Errorf("expected a list, got %T", v)
	}
	for _, w := range want {
		if !slices.Contains(items, any(w)) {
			return fmt.Errorf("list %v lacks %q", items, w)
		}
	}
	return nil
}

func (want listContaining) String() string {
	return fmt.Sprintf("a list containing %q", []string(want))
}

// ---- Plan checks

// emptyPlan expects the step's plan to change nothing.
func emptyPlan() resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
}

// planned expects the step's plan to take action on addr.
func planned(addr string, action plancheck.ResourceActionType) resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, action)}}
}

// prePlan runs checks on the step's plan before it is applied.
func prePlan(checks ...plancheck.PlanCheck) resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PreApply: checks}
}

// simCountCheck is a plan check that asserts on the simulator's request counts.
type simCountCheck struct {
	a     *accTarget
	what  string
	check func(*astrasim.Sim) error
}

func (c simCountCheck) CheckPlan(_ context.Context, _ plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	if err := c.a.simCheck(c.what, c.check)(nil); err != nil {
		resp.Error = err
	}
}

// expectUnknownExactly is a plan check that the planned change of addr leaves exactly the
// given attribute paths unknown ("metadata.modification_timestamp" for a nested one): no
// other value shows as "(known after apply)", and each given one does.
func expectUnknownExactly(addr string, paths ...string) plancheck.PlanCheck {
	want := slices.Clone(paths)
	sort.Strings(want)
	return unknownExactly{addr: addr, want: want}
}

type unknownExactly struct {
	addr string
	want []string
}

func (c unknownExactly) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != c.addr || rc.Change == nil {
			continue
		}
		var got []string
		collectUnknown("", rc.Change.AfterUnknown, &got)
		sort.Strings(got)
		if !slices.Equal(got, c.want) {
			resp.Error = fmt.Errorf("%s: unknown after apply %v, want exactly %v", c.addr, got, c.want)
		}
		return
	}
	resp.Error = fmt.Errorf("%s: no planned change", c.addr)
}

// collectUnknown lists the paths Terraform's JSON plan marks true in after_unknown. A
// wholly unknown object or list is one path; its members are not listed.
func collectUnknown(prefix string, v any, out *[]string) {
	join := func(k string) string {
		if prefix == "" {
			return k
		}
		return prefix + "." + k
	}
	switch x := v.(type) {
	case bool:
		if x {
			*out = append(*out, prefix)
		}
	case map[string]any:
		for k, e := range x {
			collectUnknown(join(k), e, out)
		}
	case []any:
		for i, e := range x {
			collectUnknown(join(strconv.Itoa(i)), e, out)
		}
	}
}

// putMetadata are the metadata fields any PUT moves.
var putMetadata = []string{"metadata.modification_timestamp", "metadata.modified_by"}

func withPaths(a []string, b ...string) []string { return append(slices.Clone(a), b...) }

// ---- Request counts

// countDelta remembers the simulator's request counts, to assert on what one step sent.
type countDelta struct {
	mu     sync.Mutex
	before map[string]int
}

// mark records the counts now (call it in PreConfig).
func (c *countDelta) mark(sim *astrasim.Sim) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.before = sim.Counts()
}

// all is every request that arrived after mark, in total and by "METHOD route".
func (c *countDelta) all(sim *astrasim.Sim) (int, map[string]int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	total, detail := 0, map[string]int{}
	for key, n := range sim.Counts() {
		if d := n - c.before[key]; d != 0 {
			total += d
			detail[key] = d
		}
	}
	return total, detail
}

// since is how many requests of "METHOD route" arrived after mark.
func (c *countDelta) since(sim *astrasim.Sim, key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return sim.Counts()[key] - c.before[key]
}

// markCounts marks c on the simulator (against a real Astra Control there is nothing to count).
func (a *accTarget) markCounts(c *countDelta) {
	if a.simulated() {
		c.mark(a.sim)
	}
}

// expectCount checks one request count.
func expectCount(got, want int) error {
	if got != want {
		return fmt.Errorf("%d requests, want %d", got, want)
	}
	return nil
}

// expectCounts checks got/want pairs.
func expectCounts(pairs ...int) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i] != pairs[i+1] {
			return fmt.Errorf("request count %d is %d, want %d", i/2+1, pairs[i], pairs[i+1])
		}
	}
	return nil
}

// ---- Destroy checks: gone means a 404

// goneAfterDestroy checks that get answers "not found" for an object destroy removed (any
// other error, a 401 or a refused connection, proves nothing).
func goneAfterDestroy(what, id string, get func() error) error {
	switch err := get(); {
	case err == nil:
		return fmt.Errorf("%s %s still exists after destroy", what, id)
	case !astra.IsNotFound(err):
		return fmt.Errorf("reading %s %s after destroy: %w", what, id, err)
	}
	return nil
}

// allGone checks that every object of resourceType in the final state is gone from Astra
// Control: get reads one by ID.
func allGone(s *terraform.State, resourceType, what string, get func(id string) error) error {
	for _, r := range s.RootModule().Resources {
		if r.Type != resourceType {
			continue
		}
		if err := goneAfterDestroy(what, r.Primary.ID, func() error { return get(r.Primary.ID) }); err != nil {
			return err
		}
	}
	return nil
}

// checkClusterDestroyed is a CheckDestroy: every astra_cluster of the test is gone.
func (a *accTarget) checkClusterDestroyed(s *terraform.State) error {
	return allGone(s, "astra_cluster", "cluster", func(id string) error { _, err := a.client.GetCluster(testContext(), "", id); return err })
}

// checkCloudDestroyed is a CheckDestroy: every astra_cloud of the test is gone.
func (a *accTarget) checkCloudDestroyed(s *terraform.State) error {
	return allGone(s, "astra_cloud", "cloud", func(id string) error { _, err := a.client.GetCloud(testContext(), id); return err })
}

// checkCredentialDestroyed is a CheckDestroy: every credential of the test (kubeconfig, S3,
// service account) is gone.
func (a *accTarget) checkCredentialDestroyed(s *terraform.State) error {
	for _, resourceType := range []string{"astra_kubeconfig_credential", "astra_s3_credential", "astra_service_account_credential"} {
		if err := allGone(s, resourceType, "credential", func(id string) error {
			_, err := a.client.GetCredential(testContext(), id)
			return err
		}); err != nil {
			return err
		}
	}
	return nil
}

// ---- Errors

// errorPhrases matches an error output holding each phrase, in order, wherever the CLI
// wrapped its lines.
func errorPhrases(phrases ...string) *regexp.Regexp {
	quoted := make([]string, len(phrases))
	for i, p := range phrases {
		quoted[i] = spaced(p)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(quoted, ".*"))
}

// uuidPattern matches an ID in an error message.
const uuidPattern = `[0-9a-f-]{36}`

// spaced matches text literally, any run of spaces matching any run of white space (the
// CLI wraps long messages).
func spaced(text string) string {
	return strings.Join(strings.Fields(regexp.QuoteMeta(text)), `\s+`)
}

// ---- IDs
//
// "Same ID" (an update in place) and "new ID" (a replacement) are state checks:
//
//	sameID := statecheck.CompareValue(compare.ValuesSame())
//	ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(clusterAddr, tfjsonpath.New("id"))}
//
// in every step that must keep it. recordID is only for a step that needs the ID itself:
// to change the object outside Terraform, or to ask Astra Control about it.

// recordID is a check that stores the ID of addr in *dst, for a later step's own use.
func recordID(addr string, dst *string) resource.TestCheckFunc {
	return resource.TestCheckResourceAttrWith(addr, "id", func(v string) error { *dst = v; return nil })
}

// checkClusterReplaced asserts state holds a new cluster and the one with ID *old is gone
// (a 404). It takes the old ID from a variable, not a CompareValue, because the step that
// left the old cluster in state may have failed, and a failed step runs no state checks.
func (a *accTarget) checkClusterReplaced(old *string) resource.TestCheckFunc {
	return resource.TestCheckResourceAttrWith(clusterAddr, "id", func(id string) error {
		if *old == "" || id == *old {
			return fmt.Errorf("state holds %s; want a replacement of %q", id, *old)
		}
		if _, err := a.client.GetCluster(testContext(), "", *old); !astra.IsNotFound(err) {
			return fmt.Errorf("the replaced cluster %s is still there (%w)", *old, err)
		}
		return nil
	})
}

// ---- Setup and changes outside Terraform

// testClock is a simulator clock that tests move forward or hold still, so delayed
// transitions happen exactly when a test wants them.
type testClock struct{ offset, pausedAt atomic.Int64 }

func (c *testClock) now() time.Time {
	if p := c.pausedAt.Load(); p != 0 {
		return time.Unix(0, p)
	}
	return time.Now().Add(time.Duration(c.offset.Load()))
}

func (c *testClock) advance(d time.Duration) { c.offset.Add(int64(d)) }

// pause holds the clock still until resume: a run in progress stays in its state however
// slowly a loaded machine gets to the next step.
func (c *testClock) pause() { c.pausedAt.Store(c.now().UnixNano()) }

// resume starts the clock again from where it stood; a clock that runs keeps running.
func (c *testClock) resume() {
	if p := c.pausedAt.Load(); p != 0 {
		c.offset.Store(p - time.Now().UnixNano())
		c.pausedAt.Store(0)
	}
}

// testContext is the context of the calls tests make outside Terraform (setup, changes,
// assertions against Astra Control).
func testContext() context.Context { return context.Background() }

// unmanageOutside unmanages the cluster outside Terraform and waits until Astra Control
// reports it unmanaged, as a user's other tool would.
func (a *accTarget) unmanageOutside(id string) {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(testContext(), 15*time.Minute)
	defer cancel()
	if err := a.client.DeleteManagedCluster(ctx, id); err != nil {
		a.t.Fatalf("unmanaging cluster %s: %v", id, err)
	}
	if _, err := astra.Wait(ctx, a.waitSchedule(), func(ctx context.Context) (*astra.Cluster, error) {
		return a.client.GetCluster(ctx, "", id)
	}, astra.ClusterUnmanaged); err != nil {
		a.t.Fatalf("waiting until cluster %s is unmanaged: %v", id, err)
	}
}

// ---- The CLI under test

// cliAtLeast reports whether the acceptance tests' CLI (Terraform or OpenTofu) is at least
// version major.minor.
func cliAtLeast(t *testing.T, major, minor int) bool { //nolint:unparam // every CLI today is 1.x; the major is kept so a check reads as a version
	t.Helper()
	desc, err := describeCLI(os.Getenv("TF_ACC_TERRAFORM_PATH"))
	if err != nil {
		t.Fatalf("TF_ACC_TERRAFORM_PATH: %v", err)
	}
	_, version, _ := strings.Cut(desc, " v")
	parts := strings.SplitN(version, ".", 3)
	if len(parts) < 2 {
		t.Fatalf("cannot read the version of %q", desc)
	}
	gotMajor, _ := strconv.Atoi(parts[0])
	gotMinor, _ := strconv.Atoi(parts[1])
	return gotMajor > major || gotMajor == major && gotMinor >= minor
}
