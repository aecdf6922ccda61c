package provider

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// managedWaitHCL is a private cluster under management with wait_for_running as given; a
// create that waited would run into the 3s timeout while the simulator takes an hour.
func managedWaitHCL(cloudID, credentialID string, wait bool) string {
	return fmt.Sprintf(`
resource "astra_cluster" "test" {
  cloud_id      = %q
  credential_id = %q
}

resource "astra_managed_cluster" "test" {
  cluster_id       = astra_cluster.test.id
  wait_for_running = %t
  timeouts = {
    create = "3s"
  }
}
`, cloudID, credentialID, wait)
}

// TestAccManagedCluster_noWait: with wait_for_running = false, create returns once Astra
// Control accepted the request (managed_state "managing" in state); turning the wait back
// on later is an update that sends nothing.
func TestAccManagedCluster_noWait(t *testing.T) {
	clock := &testClock{}
	a := newAccTarget(t, withSim(func(o *astrasim.Options) {
		o.Now, o.Delays.Manage = clock.now, time.Hour
	}))
	a.requireSim("the simulator's clock holds the cluster in managing")
	cred := a.kubeconfigCredential("kube-nowait", "nowait")
	var counts countDelta
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{
				Config: a.config(managedWaitHCL(a.cloudID(), cred, false)),
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(managedAddr, "managed_state", "managing"),
					expectBool(managedAddr, "wait_for_running", false),
				},
			},
			{
				PreConfig: func() {
					clock.advance(2 * time.Hour)
					a.markCounts(&counts)
				},
				Config:           a.config(managedWaitHCL(a.cloudID(), cred, true)),
				ConfigPlanChecks: planned(managedAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(managedAddr, "managed_state", "managed"),
					expectBool(managedAddr, "wait_for_running", true),
				},
				Check: a.simCheck("no PUT for a provider-side argument", func(sim *astrasim.Sim) error {
					return expectCount(counts.since(sim, "PUT "+routeManagedCluster), 0)
				}),
			},
			{Config: a.config(managedWaitHCL(a.cloudID(), cred, true)), ConfigPlanChecks: emptyPlan()},
		},
	})
}
