package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
)

// knownFleetSize is the realistic fleet of TestAccKnownAnswers_fleet: three times as many
// clusters as the client reads one by one before it lists a whole collection.
const knownFleetSize = 30

// sharedReadsBefore is how many distinct objects of a collection a process reads on their
// own before it lists the whole collection (wideAfter in internal/astra/share.go).
const sharedReadsBefore = 10

// knownFleetRequests bounds the requests of a plan of the fleet whatever its size: per
// collection read (credentials, clusters, managed clusters) at most sharedReadsBefore
// reads of single objects (or batches of them), then the whole listing, once more if a
// slow machine makes the plan outlast the listing's 10 s; 11 to 22 measured.
const knownFleetRequests = 3 * (sharedReadsBefore + 2)

// fleetAnswerKinds are the requests of a steady plan the known answers take, each at
// least once per resource (the CLI validates each instance's configuration as it plans it).
// "read by bytes": each read finds the bytes of the state and the answer the apply's read
// matched and sealed, and decodes neither.
var fleetAnswerKinds = []string{"upgrade", "validate", "read", "read by bytes", "plan"}

// TestAccKnownAnswers_fleet plans a realistic fleet (per cluster a kubeconfig credential,
// the cluster with three labels, its management) once its state is steady: every state
// upgrade, configuration validation, read and plan of the 3N resources (and, before, each create's apply) is answered by the known answers, not the
// framework, and the plan's requests do not grow with the fleet (each collection is
// listed, not read object by object). It runs under every CLI, Terraform 1.5.7 included,
// which sends no resource identity: the shortcuts must not depend on one. With the known
// answers off (ASTRA_KNOWN_ANSWERS=off, one pass of `make test`), the framework answers all
// of them, with the same plans and requests.
func TestAccKnownAnswers_fleet(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("counts the provider's answers and the simulator's requests")
	on, err := knownanswers.Enabled()
	if err != nil {
		t.Fatal(err)
	}
	// answered is whether got known answers are what the switch asks for: at least want
	// when on, none when off.
	answered := func(got, want int) bool { return (on && got >= want) || (!on && got == 0) }
	kubeDir := filepath.Join(t.TempDir(), "kube")
	if err := os.MkdirAll(kubeDir, 0o700); err != nil {
		t.Fatal(err)
	}
	for i := range knownFleetSize {
		name := fmt.Sprintf("known-%d", i)
		if err := os.WriteFile(filepath.Join(kubeDir, name+".yaml"), a.kubeconfig(name), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cfg := a.config(fmt.Sprintf(`
resource "astra_kubeconfig_credential" "k" {
  count      = %[1]d
  name       = "known-${count.index}"
  kubeconfig = file("%[2]s/known-${count.index}.yaml")
}

resource "astra_cluster" "c" {
  count         = %[1]d
  cloud_id      = %[3]q
  credential_id = astra_kubeconfig_credential.k[count.index].id
  labels = {
    team = "team-${count.index %% 7}"
    env  = "prod"
    tier = "gold"
  }
}

resource "astra_managed_cluster" "m" {
  count      = %[1]d
  cluster_id = astra_cluster.c[count.index].id
}
`, knownFleetSize, filepath.ToSlash(kubeDir), a.cloudID()))
	types := []string{"astra_kubeconfig_credential", "astra_cluster", "astra_managed_cluster"}
	var counts countDelta
	before := map[string]int{}
	a.test(resource.TestCase{
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					for _, typ := range types {
						before["apply "+typ] = a.provider.answered.Get("apply " + typ)
						before["plan "+typ] = a.provider.answered.Get("plan " + typ)
					}
				},
				Config: cfg,
				// Every create's apply is answered by knownApply, none replayed through the
				// framework; so are both plans of each create (the plan's, and the apply's
				// own, which Terraform 1.16 sends allowing deferrals).
				Check: func(*terraform.State) error {
					for _, typ := range types {
						if got := a.provider.answered.Get("plan "+typ) - before["plan "+typ]; !answered(got, 2*knownFleetSize) {
							return fmt.Errorf("the known answers answered %d plans of %s, want both plans of all %d creates (on: %v)", got, typ, knownFleetSize, on)
						}
						if got := a.provider.answered.Get("apply "+typ) - before["apply "+typ]; !answered(got, knownFleetSize) || got > knownFleetSize {
							return fmt.Errorf("knownApply answered %d creates of %s, want all %d (replayed: %d; on: %v)", got, typ, knownFleetSize,
								a.provider.answered.Get("replayed apply "+typ), on)
						}
					}
					return nil
				},
			},
			// The plan right after the creates. Since the credentials' and the clusters' states
			// were written, the service has labelled each credential (clusterID, clusterName)
			// and managed each cluster. A credential's state is not made of those labels, so
			// its read is answered still; a managed cluster is as its create left it. Each
			// cluster's read finds it managed: its Read is called directly, without the
			// framework's walks (directRead).
			{
				PreConfig: func() {
					for _, typ := range types {
						before["read "+typ] = a.provider.answered.Get("read " + typ)
					}
					before["direct read astra_cluster"] = a.provider.answered.Get("direct read astra_cluster")
				},
				Config:   cfg,
				PlanOnly: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
					simCountCheck{a, "reads answered right after the creates", func(*astrasim.Sim) error {
						for _, typ := range []string{"astra_kubeconfig_credential", "astra_managed_cluster"} {
							if got := a.provider.answered.Get("read "+typ) - before["read "+typ]; !answered(got, knownFleetSize) {
								return fmt.Errorf("the known answers answered %d reads of %s right after the creates, want all %d (on: %v)", got, typ, knownFleetSize, on)
							}
						}
						if got := a.provider.answered.Get("direct read astra_cluster") - before["direct read astra_cluster"]; !answered(got, knownFleetSize) {
							return fmt.Errorf("%d reads of astra_cluster right after the creates were direct, want all %d (on: %v)", got, knownFleetSize, on)
						}
						return nil
					}},
				}},
			},
			// Nothing to change: the apply writes the state the refresh read (each cluster
			// managed).
			{Config: cfg},
			{
				PreConfig: func() {
					a.markCounts(&counts)
					for _, typ := range types {
						for _, kind := range fleetAnswerKinds {
							before[kind+" "+typ] = a.provider.answered.Get(kind + " " + typ)
						}
					}
				},
				Config:   cfg,
				PlanOnly: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
					simCountCheck{a, "requests and known answers of a steady fleet's plan", func(s *astrasim.Sim) error {
						total, detail := counts.all(s)
						if total > knownFleetRequests {
							return fmt.Errorf("a plan of %d clusters sent %d requests (%v), want at most %d", knownFleetSize, total, detail, knownFleetRequests)
						}
						for _, route := range []string{routeCredential, routeClusterByID, routeManagedCluster} {
							if got := detail["GET "+route]; got > sharedReadsBefore {
								return fmt.Errorf("%d GETs of %s for %d objects: reads of the collection are not shared (%v)", got, route, knownFleetSize, detail)
							}
						}
						for _, typ := range types {
							for _, kind := range fleetAnswerKinds {
								key := kind + " " + typ
								if got := a.provider.answered.Get(key) - before[key]; !answered(got, knownFleetSize) {
									return fmt.Errorf("the known answers answered %d %ss of %s, want all %d (the rest went to the framework; on: %v)", got, kind, typ, knownFleetSize, on)
								}
							}
						}
						t.Logf("a steady plan of %d clusters (%d resources): %d requests (%v), every state upgrade, validation, read and plan answered by %s",
							knownFleetSize, 3*knownFleetSize, total, detail, map[bool]string{true: "the known answers", false: "the framework"}[on])
						return nil
					}},
				}},
			},
		},
	})
}
