package provider

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccApp_cloneWithoutMapping: a clone without namespace_mapping goes into a namespace
// named after the clone (NetApp's toolkit docs, clone; astrasim/clones.go), so the plan
// predicts that namespace, refuses the source's own name with the one Astra Control will
// create, and refuses a source of several namespaces without a mapping.
func TestAccApp_cloneWithoutMapping(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) { o.Namespaces = []string{"front", "back"} }))
	a.requireSim("a source app of two namespaces, front and back, which the simulator's seeded clusters have")
	cred := a.kubeconfigCredential("kube-clone-nomap", "clone-nomap")
	base := privateManagedHCL(a.cloudID(), cred, `local.storage_classes["ontap-gold"]`, true)
	name := a.name("web-copy")
	clone := func(namespace, sourceApp string) string {
		return fmt.Sprintf(`
resource "astra_app" "clone" {
  name       = %q
  cluster_id = astra_managed_cluster.test.id
  namespace_scoped_resources = [{ namespace = %q }]
  source = { app_id = %s }
}
`, name, namespace, sourceApp)
	}
	twoNamespaces := `
resource "astra_app" "two" {
  name       = "` + a.name("shop") + `"
  cluster_id = astra_managed_cluster.test.id
  namespace_scoped_resources = [{ namespace = "front" }, { namespace = "back" }]
}
`
	source := a.config(base, appHCL(a.name("web"), "default"), twoNamespaces)
	a.test(resource.TestCase{
		CheckDestroy: a.checkAppsDestroyed,
		Steps: []resource.TestStep{
			{Config: source},
			{
				Config:      a.config(base, appHCL(a.name("web"), "default"), twoNamespaces, clone("default", "astra_app.test.id")),
				ExpectError: errorPhrases("Not the clone's namespaces", `gives: [{ namespace = "`+name+`", label_selectors = [] }]`),
			},
			{
				Config:      a.config(base, appHCL(a.name("web"), "default"), twoNamespaces, clone(name, "astra_app.two.id")),
				ExpectError: errorPhrases("Missing namespace mapping", "spans back, front", "map each of them"),
			},
			{
				Config: a.config(base, appHCL(a.name("web"), "default"), twoNamespaces, clone(name, "astra_app.test.id")),
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(cloneAddr, "state", "ready"),
					statecheck.ExpectKnownValue(cloneAddr, tfjsonpath.New("namespaces"), listContaining{name}),
				},
			},
			{Config: a.config(base, appHCL(a.name("web"), "default"), twoNamespaces, clone(name, "astra_app.test.id")), ConfigPlanChecks: emptyPlan()},
		},
	})
}

// TestAccApp_cloneThenSnapshot: a clone passes through discovering before it is ready
// (NetApp's captured answers; astrasim/clones.go), and the service refuses a snapshot of an
// app that is not ready (409/112). A snapshot chained right after the clone in one apply is
// taken with one POST: the clone's create waited through discovering until ready.
func TestAccApp_cloneThenSnapshot(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) { o.Delays = astrasim.Delays{Restore: 800 * time.Millisecond} }))
	cred := a.kubeconfigCredential("kube-clone-chain", "clone-chain")
	base := privateManagedHCL(a.cloudID(), cred, `local.storage_classes["ontap-gold"]`, true)
	staging := a.name("chain-staging")
	chained := a.config(base, appHCL(a.name("chain"), "default"), cloneHCL(a.name("chain-copy"), staging), `
resource "astra_app_snapshot" "chained" {
  app_id = astra_app.clone.id
  name   = "right-after-the-clone"
}
`)
	a.test(resource.TestCase{
		CheckDestroy: a.checkAppsDestroyed,
		Steps: []resource.TestStep{{
			Config: chained,
			ConfigStateChecks: []statecheck.StateCheck{
				expectString(cloneAddr, "state", "ready"),
				expectString("astra_app_snapshot.chained", "state", "completed"),
			},
			Check: a.simCheck("one snapshot POST, none refused", func(sim *astrasim.Sim) error {
				return expectCounts(sim.Count(http.MethodPost, routeAppSnaps), 1)
			}),
		}},
	})
}
