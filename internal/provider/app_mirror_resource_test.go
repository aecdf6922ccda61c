package provider

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

const (
	mirrorAddr      = "astra_app_mirror.test"
	routeAppMirrors = "/k8s/v1/appMirrors"
	routeAppMirror  = "/k8s/v1/appMirrors/{appMirror_id}"
)

// mirrorDelays make establishing and failing over take a few polls.
func mirrorDelays(o *astrasim.Options) {
	o.Delays = astrasim.Delays{App: 50 * time.Millisecond, Mirror: 300 * time.Millisecond, Failover: 300 * time.Millisecond}
}

// mirrorHCL is the test's relationship; source and destination are HCL expressions.
func mirrorHCL(source, destination, desired string, extra ...string) string {
	body := ""
	for _, e := range extra {
		body += e + "\n"
	}
	return fmt.Sprintf(`
resource "astra_app_mirror" "test" {
  source_app_id          = %s
  destination_cluster_id = %s
  desired_state          = %q
%s}
`, source, destination, desired, body)
}

// envDRCluster names, against a real Astra Control Center, a second managed cluster on
// ONTAP storage (peered with the first) the replication tests replicate to.
const envDRCluster = "ASTRA_TEST_DR_CLUSTER_ID"

// drClusterID is the managed cluster to replicate to: on the simulator a second one seeded
// for the test; against a real Astra Control the one $ASTRA_TEST_DR_CLUSTER_ID names (the
// test skips, saying so, without it: the harness's one kubeconfig is one cluster).
func (a *accTarget) drClusterID() string {
	a.t.Helper()
	if a.sim == nil {
		id := os.Getenv(envDRCluster)
		if id == "" {
			a.t.Skipf("needs a second managed cluster on ONTAP storage to replicate to: set %s to run it against a real "+
				"Astra Control Center; skipped", envDRCluster)
		}
		return id
	}
	return onlyID(a.t, seedClusters(a, "dr", 1, true))
}

// laterString is a configuration variable whose value a step before the one that uses it
// records (the replica's ID, known once the relationship is established).
type laterString struct{ p *string }

func (l laterString) MarshalJSON() ([]byte, error) { return json.Marshal(*l.p) }

// reversedVariable declares the variable the reversed configuration names its source with
// (the app Astra Control created on the destination: only known once the relationship is).
func reversedVariable(name string) string {
	return fmt.Sprintf("\nvariable %q {\n  type = string\n}\n", name)
}

// mirrorPuts checks the PUTs and POSTs sent to the relationship since c was marked.
func (a *accTarget) mirrorRequests(what string, c *countDelta, posts, puts int) resource.TestCheckFunc {
	return a.simCheck(what, func(sim *astrasim.Sim) error {
		return expectCounts(c.since(sim, "POST "+routeAppMirrors), posts, c.since(sim, "PUT "+routeAppMirror), puts,
			c.since(sim, "DELETE "+routeAppMirror), 0)
	})
}

// TestAccAppMirror_cycleAndImport: the whole disaster-recovery cycle with arguments only,
// as under OpenTofu and Terraform before 1.14 (no actions): establish → failover → reverse
// (the sides swapped in the configuration) → failover back → resync, then an import. Each
// step is one in-place update with exactly one PUT; no plan replaces or deletes the
// relationship, and each converged configuration plans nothing.
func TestAccAppMirror_cycleAndImport(t *testing.T) {
	a := newAccTarget(t, withSim(mirrorDelays))
	dest := a.drClusterID()
	base := a.appRunBase("mirror")
	reversedVar := "mirror_reversed_" + randomHex(4)
	sourceCluster := "astra_managed_cluster.test.id"
	forward := func(desired string) string {
		return base + mirrorHCL("astra_app.test.id", fmt.Sprintf("%q", dest), desired)
	}
	reversed := func(desired string) string {
		return base + reversedVariable(reversedVar) + mirrorHCL("var."+reversedVar, sourceCluster, desired,
			"  depends_on = [astra_app.test] # destroyed before the app, which Astra Control refuses to unmanage while replicated")
	}
	var destApp, sourceApp string
	var counts countDelta
	mark := func() { a.markCounts(&counts) }
	inPlace := prePlan(plancheck.ExpectResourceAction(mirrorAddr, plancheck.ResourceActionUpdate))
	reversedVars := config.Variables{reversedVar: laterString{&destApp}}
	a.test(resource.TestCase{
		CheckDestroy: a.checkMirrorsDestroyed,
		Steps: []resource.TestStep{
			{
				PreConfig:        mark,
				Config:           forward("established"),
				ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction(mirrorAddr, plancheck.ResourceActionCreate)),
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(mirrorAddr, "state", "established"),
					expectString(mirrorAddr, "desired_state", "established"),
					expectString(mirrorAddr, "destination_cluster_id", dest),
					statecheck.ExpectKnownValue(mirrorAddr, tfjsonpath.New("destination_app_id"), knownvalue.NotNull()),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrWith(mirrorAddr, "destination_app_id", func(v string) error { destApp = v; return nil }), recordID("astra_app.test", &sourceApp),
					resource.TestCheckResourceAttrPair(mirrorAddr, "current_source_app_id", "astra_app.test", "id"),
					resource.TestCheckResourceAttrPair(mirrorAddr, "source_cluster_id", "astra_managed_cluster.test", "id"),
					a.mirrorRequests("one POST, then polled until established", &counts, 1, 0)),
			},
			{Config: forward("established"), ConfigPlanChecks: emptyPlan()},
			{
				// Failover: in place, one PUT, waited for until failedOver.
				PreConfig: mark, Config: forward("failed_over"), ConfigPlanChecks: inPlace,
				ConfigStateChecks: []statecheck.StateCheck{expectString(mirrorAddr, "state", "failedOver"),
					expectString(mirrorAddr, "desired_state", "failed_over")},
				Check: a.mirrorRequests("one PUT for the failover", &counts, 0, 1),
			},
			{PreConfig: mark, Config: forward("failed_over"), ConfigPlanChecks: emptyPlan(),
				Check: a.mirrorRequests("nothing failed over twice", &counts, 0, 0)},
			{
				// Reverse (resync from the failed-over copy): the sides swapped in the
				// configuration, in place, one PUT; the relationship now replicates from the
				// app Astra Control created on the destination.
				PreConfig:       mark,
				ConfigVariables: reversedVars, Config: reversed("established"), ConfigPlanChecks: inPlace,
				ConfigStateChecks: []statecheck.StateCheck{expectString(mirrorAddr, "state", "established")},
				Check: resource.ComposeAggregateTestCheckFunc(
					func(s *terraform.State) error {
						attrs := s.RootModule().Resources[mirrorAddr].Primary.Attributes
						if attrs["current_source_app_id"] != destApp || attrs["destination_app_id"] != sourceApp ||
							attrs["destination_cluster_id"] == dest || attrs["source_cluster_id"] != dest {
							return fmt.Errorf("after the reverse: %v (source app %s, destination app %s)", attrs, sourceApp, destApp)
						}
						return nil
					},
					a.mirrorRequests("one PUT for the reverse", &counts, 0, 1)),
			},
			{ConfigVariables: reversedVars, Config: reversed("established"), ConfigPlanChecks: emptyPlan()},
			{
				// Failover back: the original app becomes writable again.
				PreConfig: mark, ConfigVariables: reversedVars, Config: reversed("failed_over"), ConfigPlanChecks: inPlace,
				ConfigStateChecks: []statecheck.StateCheck{expectString(mirrorAddr, "state", "failedOver")},
				Check:             a.mirrorRequests("one PUT for the failover back", &counts, 0, 1),
			},
			{
				// Resync: replication from the current source resumes, overwriting the other side.
				PreConfig: mark, ConfigVariables: reversedVars, Config: reversed("established"), ConfigPlanChecks: inPlace,
				ConfigStateChecks: []statecheck.StateCheck{expectString(mirrorAddr, "state", "established")},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrPtr(mirrorAddr, "current_source_app_id", &destApp),
					a.mirrorRequests("one PUT for the resync", &counts, 0, 1)),
			},
			{PreConfig: mark, ConfigVariables: reversedVars, Config: reversed("established"), ConfigPlanChecks: emptyPlan(),
				Check: a.mirrorRequests("a converged relationship sends nothing", &counts, 0, 0)},
			{
				ConfigVariables: reversedVars, Config: requiredProvidersHCL() + reversed("established"), ResourceName: mirrorAddr, ImportState: true, ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"timeouts"},
			},
		},
	})
}

// checkMirrorsDestroyed is a CheckDestroy: every relationship of the test is gone (a 404).
func (a *accTarget) checkMirrorsDestroyed(s *terraform.State) error {
	return allGone(s, "astra_app_mirror", "app mirror", func(id string) error {
		_, err := a.client.GetAppMirror(testContext(), id)
		return err
	})
}

// TestAccAppMirror_planTime: what the plan refuses or replaces, each naming its attribute:
// a new relationship that asks to be failed over; a reverse (the sides swapped) that would
// end failed over; and another app as the source, the one change that replaces it.
func TestAccAppMirror_planTime(t *testing.T) {
	a := newAccTarget(t, withSim(mirrorDelays))
	dest := a.drClusterID()
	base := a.appRunBase("mirror-plan") + `
resource "astra_app" "other" {
  name                       = "other"
  cluster_id                 = astra_managed_cluster.test.id
  namespace_scoped_resources = [{ namespace = "kube-public" }]
}
`
	reversedVar := "mirror_plan_reversed_" + randomHex(4)
	var destApp string
	reversedVars := config.Variables{reversedVar: laterString{&destApp}}
	forward := func(source, desired string) string { return base + mirrorHCL(source, fmt.Sprintf("%q", dest), desired) }
	a.test(resource.TestCase{
		CheckDestroy: a.checkMirrorsDestroyed,
		Steps: []resource.TestStep{
			{Config: forward("astra_app.test.id", "failed_over"), ExpectError: errorPhrases("A new relationship starts established",
				"desired_state")},
			{Config: forward("astra_app.test.id", "established"),
				Check: resource.TestCheckResourceAttrWith(mirrorAddr, "destination_app_id", func(v string) error { destApp = v; return nil })},
			{ConfigVariables: reversedVars, Config: base + reversedVariable(reversedVar) +
				mirrorHCL("var."+reversedVar, "astra_managed_cluster.test.id", "failed_over", "  depends_on = [astra_app.test]"),
				PlanOnly: true, ExpectError: errorPhrases("A reverse ends established", "desired_state")},
			{Config: forward("astra_app.other.id", "established"),
				ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction(mirrorAddr, plancheck.ResourceActionDestroyBeforeCreate))},
		},
	})
}
