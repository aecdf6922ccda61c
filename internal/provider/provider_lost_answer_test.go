package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccCreateWithLostAnswer: Astra Control applies each create (credential, cloud,
// managed cluster) but the answer is lost. The provider does not post again: it finds the
// object it created and adopts it, so state holds it once and a second plan is empty.
func TestAccCreateWithLostAnswer(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("loses answers on purpose")
	seeds := a.sim.Seeds()
	routes := []string{routeCredentials, routeClouds, routeManagedClusters}
	for _, route := range routes {
		a.sim.AddFault(astrasim.Fault{Method: "POST", Route: route, Kind: astrasim.FaultLostAnswer, Times: 1})
	}
	cfg := a.config(
		credentialHCL("lost", writeKubeconfig(t, "lost", "https://lost.k8s.example:6443")),
		cloudHCL("gcp-lost", "gcp", arg("credential_id", seeds.GCP.CredentialID)),
		fmt.Sprintf("resource \"astra_managed_cluster\" \"test\" {\n  cluster_id = %q\n}\n", seeds.GCP.ClusterID),
	)
	a.test(resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			return a.clusterUnmanaged(seeds.GCP.CloudID, seeds.GCP.ClusterID)
		},
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrSet(credentialAddr, "id"),
					resource.TestCheckResourceAttr(cloudAddr, "state", "running"),
					resource.TestCheckResourceAttr(managedAddr, "managed_state", "managed"),
					a.simCheck("one POST of each, despite the lost answers", func(sim *astrasim.Sim) error {
						for _, route := range routes {
							if n := sim.Count("POST", route); n != 1 {
								return fmt.Errorf("%d POSTs to %s, want 1", n, route)
							}
						}
						for _, route := range routes {
							if n := sim.Fired("POST", route, astrasim.FaultLostAnswer); n != 1 {
								return fmt.Errorf("the lost-answer fault on POST %s fired %d times, want 1", route, n)
							}
						}
						// Only the search after a lost answer lists credentials and clouds (the
						// managed cluster is read by its ID).
						if sim.Count("GET", routeCredentials) != 1 || sim.Count("GET", routeClouds) != 1 {
							return fmt.Errorf("searches: %d of credentials, %d of clouds; want one each",
								sim.Count("GET", routeCredentials), sim.Count("GET", routeClouds))
						}
						return nil
					}),
				),
			},
			{Config: cfg, ConfigPlanChecks: emptyPlan()},
		},
	})
}
