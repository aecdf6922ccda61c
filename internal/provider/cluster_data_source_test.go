package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// clusterIDs lists, as astra_clusters orders them, the clusters of a cloud ("" for all)
// that Astra Control holds and keep accepts.
func (a *accTarget) clusterIDs(cloudID string, keep func(astra.Cluster) bool) func() ([]string, error) {
	return func() ([]string, error) {
		clusters, err := a.client.ListClusters(testContext(), cloudID, astra.ListOptions{})
		return sortedIDs(clusters, func(c astra.Cluster) (string, string) { return c.Name, c.ID }, keep), err
	}
}

// TestAccClusterDataSources reads clusters by ID, by cloud and name, and as filtered lists,
// checked against what Astra Control holds.
func TestAccClusterDataSources(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("the seeded public clouds and their discovered clusters")
	gcp, aws := a.sim.Seeds().GCP, a.sim.Seeds().AWS
	cfg := a.config(fmt.Sprintf(`
data "astra_cluster" "by_name" {
  cloud_id = %[1]q
  name     = %[2]q
}

data "astra_cluster" "by_id" {
  id = %[3]q
}

data "astra_clusters" "all" {}

data "astra_clusters" "gcp" {
  cloud_id = %[1]q
}

data "astra_clusters" "ineligible" {
  managed_state = "ineligible"
}

data "astra_clusters" "eks_running" {
  cluster_type = "eks"
  state        = "running"
  name         = %[4]q
}

data "astra_clusters" "none" {
  cloud_id     = %[1]q
  cluster_type = "aks"
}
`, gcp.CloudID, gcp.ClusterName, gcp.IneligibleClusterID, aws.ClusterName))
	byName := "data.astra_cluster.by_name"
	a.test(resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config:      a.config(fmt.Sprintf("data \"astra_cluster\" \"x\" {\n  cloud_id = %q\n  name     = \"gke-staging\"\n}\n", gcp.CloudID)),
				ExpectError: regexp.MustCompile(`(?s)Cluster not found.*no cluster named\s+"gke-staging".*gke-legacy\s+\(`),
			},
			{
				Config:      a.config(fmt.Sprintf(`data "astra_cluster" "x" { id = %q }`, testClusterID)),
				ExpectError: regexp.MustCompile(`(?s)Cluster not found.*no cluster with ID ` + testClusterID),
			},
			{
				Config:      a.config(`data "astra_cluster" "x" { name = "gke-prod" }`),
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Combination.*cloud_id`),
			},
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(byName, "id", gcp.ClusterID),
					expectString(byName, "cluster_type", "gke"),
					expectString(byName, "managed_state", "unmanaged"),
					expectString(byName, "location", "us-east1"),
					statecheck.ExpectKnownValue(byName, tfjsonpath.New("default_storage_class"),
						knownvalue.StringExact(a.sim.Seeds().StorageClasses[gcp.ClusterID][0])),
					expectString("data.astra_cluster.by_id", "name", gcp.IneligibleClusterName),
					expectString("data.astra_cluster.by_id", "cloud_id", gcp.CloudID),
					statecheck.ExpectKnownValue("data.astra_cluster.by_id", tfjsonpath.New("managed_state_unready"),
						knownvalue.ListExact([]knownvalue.Check{knownvalue.StringRegexp(regexp.MustCompile("1.21 is not supported"))})),
					statecheck.ExpectKnownValue("data.astra_clusters.none", tfjsonpath.New("clusters"), knownvalue.ListExact([]knownvalue.Check{})),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					expectIDs("data.astra_clusters.all", "clusters", a.clusterIDs("", func(astra.Cluster) bool { return true })),
					expectIDs("data.astra_clusters.gcp", "clusters", a.clusterIDs(gcp.CloudID, func(astra.Cluster) bool { return true })),
					expectIDs("data.astra_clusters.ineligible", "clusters", a.clusterIDs("", func(c astra.Cluster) bool { return c.ManagedState == "ineligible" })),
					expectIDs("data.astra_clusters.eks_running", "clusters", func() ([]string, error) { return []string{aws.ClusterID}, nil }),
					resource.TestCheckResourceAttr("data.astra_clusters.ineligible", "clusters.#", "3"),
					a.onlyReads(),
				),
			},
		},
	})
}
