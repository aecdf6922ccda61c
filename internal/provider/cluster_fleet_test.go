package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// fleetSize is the number of clusters of the fleet tests; a plan of them must cost at most
// fleetPlanRequests requests (the client shares its reads, see internal/astra/share.go).
const (
	fleetSize         = 200
	fleetPlanRequests = 10
)

// TestAccCluster_fleetPlan plans 200 existing clusters: at most 10 requests in all (today
// one GET each), and the plan is empty.
func TestAccCluster_fleetPlan(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("registers 200 clusters")
	creds := make([]string, fleetSize)
	for i := range creds {
		creds[i] = fmt.Sprintf("%q", a.kubeconfigCredential(fmt.Sprintf("fleet-%d", i), fmt.Sprintf("fleet-%d", i)))
	}
	cfg := a.config(fmt.Sprintf(`locals {
  credentials = [%s]
}

resource "astra_cluster" "fleet" {
  count         = %d
  cloud_id      = %q
  credential_id = local.credentials[count.index]
}
`, strings.Join(creds, ", "), fleetSize, a.cloudID()))
	var counts countDelta
	a.test(resource.TestCase{
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig: func() { a.markCounts(&counts) },
				Config:    cfg,
				PlanOnly:  true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
					simCountCheck{a, "requests of a plan of 200 clusters", func(s *astrasim.Sim) error {
						total, detail := counts.all(s)
						if total > fleetPlanRequests || detail["GET /topology/v1/clusters"]+detail[getClusterByIDRoute] == 0 {
							return fmt.Errorf("%d requests (%v), want at most %d, reading the clusters", total, detail, fleetPlanRequests)
						}
						t.Logf("a plan of %d clusters sent %d requests: %v", fleetSize, total, detail)
						return nil
					}},
				}},
			},
		},
	})
}
