package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccManagedClusterDataSource reads the managed view of a cluster the configuration
// manages: it matches the resource attribute for attribute. An unmanaged cluster is an error.
func TestAccManagedClusterDataSource(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("the seeded GKE clusters")
	gcp := a.sim.Seeds().GCP
	addr := "data.astra_managed_cluster.test"
	cfg := a.config(fmt.Sprintf(`
resource "astra_managed_cluster" "test" {
  cluster_id = %q
}

data "astra_managed_cluster" "test" {
  id = astra_managed_cluster.test.id
}
`, gcp.ClusterID))
	same := func(attr string) statecheck.StateCheck {
		return statecheck.CompareValuePairs(addr, tfjsonpath.New(attr), managedAddr, tfjsonpath.New(attr), compare.ValuesSame())
	}
	a.test(resource.TestCase{
		CheckDestroy: func(*terraform.State) error { return a.clusterManagedStateIs(gcp.CloudID, gcp.ClusterID, "unmanaged") },
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("managed_state"), knownvalue.StringExact("managed")),
					same("cluster_id"), same("name"), same("state"), same("default_storage_class"), same("cloud_id"),
					same("trident_managed_state_desired"), same("namespaces"), same("managed_timestamp"), same("metadata"),
				},
			},
			{
				Config:      a.config(fmt.Sprintf("data \"astra_managed_cluster\" \"x\" {\n  id = %q\n}\n", gcp.IneligibleClusterID)),
				ExpectError: regexp.MustCompile(`(?s)Managed cluster not found.*manages no cluster with ID`),
			},
		},
	})
}
