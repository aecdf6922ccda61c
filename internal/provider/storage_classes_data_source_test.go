package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccStorageClassesDataSource lists a cluster's storage classes, checked against what
// Astra Control holds, with the default one's ID; an unknown cluster is an error.
func TestAccStorageClassesDataSource(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("the seeded GKE cluster")
	gcp := a.sim.Seeds().GCP
	addr := "data.astra_storage_classes.gke"
	classes, err := a.client.ListStorageClasses(testContext(), "", gcp.ClusterID)
	if err != nil || len(classes) != 2 {
		t.Fatalf("the seeded GKE cluster has storage classes %v (%v), want 2", classes, err)
	}
	byName := map[string]string{}
	for _, sc := range classes {
		byName[sc.Name] = sc.ID
	}
	a.test(resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: a.config(fmt.Sprintf("data \"astra_storage_classes\" \"gke\" {\n  cluster_id = %q\n}\n", gcp.ClusterID)),
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(addr, "default_storage_class_id", byName["standard-rwo"]),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("storage_classes"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectExact(map[string]knownvalue.Check{
							"id": knownvalue.StringExact(byName["netapp-cvs-perf-premium"]), "name": knownvalue.StringExact("netapp-cvs-perf-premium"),
							"provisioner": knownvalue.StringExact("csi.trident.netapp.io"), "is_default": knownvalue.Bool(false),
							"available": knownvalue.NotNull(), "allow_volume_expansion": knownvalue.StringExact("true"),
							"reclaim_policy": knownvalue.StringExact("Delete"), "volume_binding_mode": knownvalue.StringExact("Immediate"),
						}),
						knownvalue.ObjectExact(map[string]knownvalue.Check{
							"id": knownvalue.StringExact(byName["standard-rwo"]), "name": knownvalue.StringExact("standard-rwo"),
							"provisioner": knownvalue.StringExact("pd.csi.storage.gke.io"), "is_default": knownvalue.Bool(true),
							"available": knownvalue.NotNull(), "allow_volume_expansion": knownvalue.StringExact("true"),
							"reclaim_policy": knownvalue.StringExact("Delete"), "volume_binding_mode": knownvalue.StringExact("WaitForFirstConsumer"),
						}),
					})),
				},
				Check: a.onlyReads(),
			},
			{
				Config:      a.config(fmt.Sprintf("data \"astra_storage_classes\" \"x\" {\n  cluster_id = %q\n}\n", testClusterID)),
				ExpectError: regexp.MustCompile(`(?s)Cluster not found.*no cluster with ID ` + testClusterID),
			},
		},
	})
}
