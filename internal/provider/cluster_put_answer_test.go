package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccCluster_updateAnsweredWithBody renames a cluster on a service whose PUT answers 200
// with the object (as the real service does for some resources) instead of the documented
// 204: the answer itself becomes state, with no read-back, and nothing drifts.
func TestAccCluster_updateAnsweredWithBody(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) { o.PutReturnsBody = true }))
	a.requireSim("switches the simulator's PUT answer")
	cred := a.kubeconfigCredential("kube", "put-body")
	before := a.config(clusterHCL(a.cloudID(), arg("name", "before"), arg("credential_id", cred)))
	after := a.config(clusterHCL(a.cloudID(), arg("name", "after"), arg("credential_id", cred)))
	var counts countDelta
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{Config: before},
			{
				PreConfig:         func() { a.markCounts(&counts) },
				Config:            after,
				ConfigPlanChecks:  planned(clusterAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{expectString(clusterAddr, "name", "after"), expectString(clusterAddr, "state", "running")},
				Check: a.simCheck("one PUT, and only the GET before it", func(s *astrasim.Sim) error {
					// Update reads the object once before the PUT; a 204 would add a read-back.
					if put, get := counts.since(s, putCloudCluster), counts.since(s, "GET "+routeCloudCluster); put != 1 || get != 1 {
						return fmt.Errorf("%d PUTs and %d GETs of the cluster, want 1 and 1", put, get)
					}
					return nil
				}),
			},
			{Config: after, ConfigPlanChecks: emptyPlan()},
		},
	})
}
