package provider

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccManagedCluster_deleteLostAnswer replays the soak's step that failed (SOAK_SEED=
// 1796410809767339352, step 406): the answer to the unmanage DELETE is lost twice (the
// cluster unmanaged at the first), then the retry meets a 500, which is not retried. The
// DELETE gave up, but reading the managed cluster answers 404: the delete happened, the
// apply succeeds and state holds no managed cluster.
func TestAccManagedCluster_deleteLostAnswer(t *testing.T) {
	testUnmanageLostAnswer(t, 0)
}

// TestAccManagedCluster_deleteLostAnswerWhileUnmanaging: the same faults while the unmanage
// takes a while: the managed cluster's own GET answers managedState "deleting" (cluster 1.7;
// an older version shows "managed" until the unmanage ends, and the destroy then fails as
// the DELETE did) rather than a 404, which also says the DELETE went through; the destroy
// waits for the unmanage.
func TestAccManagedCluster_deleteLostAnswerWhileUnmanaging(t *testing.T) {
	testUnmanageLostAnswer(t, 2*time.Second, withAPIVersion("1.7"))
}

func testUnmanageLostAnswer(t *testing.T, unmanageDelay time.Duration, opts ...accOption) {
	a := newAccTarget(t, append(opts, withSim(func(o *astrasim.Options) { o.Delays.Unmanage = unmanageDelay }))...)
	a.requireSim("injects lost answers and 500s")
	cred := a.kubeconfigCredential("kube-lost-unmanage", "lost-unmanage")
	managed := a.config(privateManagedHCL(a.cloudID(), cred, `local.storage_classes["ontap-gold"]`, true))
	var clusterID string
	var counts countDelta
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{Config: managed, Check: recordID(clusterAddr, &clusterID)},
			{
				PreConfig: func() {
					a.sim.AddFault(astrasim.Fault{Method: http.MethodDelete, Route: routeManagedCluster, Kind: astrasim.FaultLostAnswer, Times: 2})
					a.sim.AddFault(astrasim.Fault{Method: http.MethodDelete, Route: routeManagedCluster, Kind: astrasim.FaultInternal, Times: 2})
					a.markCounts(&counts)
				},
				Config:           a.config(privateManagedHCL(a.cloudID(), cred, "", false)),
				ConfigPlanChecks: planned(managedAddr, plancheck.ResourceActionDestroy),
				Check: resource.ComposeAggregateTestCheckFunc(
					func(s *terraform.State) error {
						if _, ok := s.RootModule().Resources[managedAddr]; ok {
							return fmt.Errorf("%s is still in state", managedAddr)
						}
						return a.clusterUnmanaged("", clusterID)
					},
					a.simCheck("lost twice, a 500, then read", func(sim *astrasim.Sim) error {
						// Three DELETEs (lost, lost, 500), and no more: the 500 is not retried.
						return expectCounts(sim.Fired(http.MethodDelete, routeManagedCluster, astrasim.FaultLostAnswer), 2,
							sim.Fired(http.MethodDelete, routeManagedCluster, astrasim.FaultInternal), 1,
							counts.since(sim, "DELETE "+routeManagedCluster), 3)
					})),
			},
		},
	})
}
