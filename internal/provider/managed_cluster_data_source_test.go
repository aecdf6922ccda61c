package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccManagedClusterDataSource reads the managed view of a cluster the configuration
// manages: it matches the resource attribute for attribute. A cluster not (yet) managed is
// an error. The cluster is a private one added with a kubeconfig, so the test also runs
// against a real Astra Control.
func TestAccManagedClusterDataSource(t *testing.T) {
	a := newAccTarget(t)
	cred := a.kubeconfigCredential("kube-mc-data", "mc-data")
	cluster := clusterHCL(a.cloudID(), arg("credential_id", cred))
	addr := "data.astra_managed_cluster.test"
	cfg := a.config(cluster, `
resource "astra_managed_cluster" "test" {
  cluster_id = astra_cluster.test.id
}

data "astra_managed_cluster" "test" {
  id = astra_managed_cluster.test.id
}
`)
	same := func(attr string) statecheck.StateCheck {
		return statecheck.CompareValuePairs(addr, tfjsonpath.New(attr), managedAddr, tfjsonpath.New(attr), compare.ValuesSame())
	}
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{
				Config:      a.config(cluster, "data \"astra_managed_cluster\" \"x\" {\n  id = astra_cluster.test.id\n}\n"),
				ExpectError: regexp.MustCompile(`(?s)Managed cluster not found.*manages no cluster with ID`),
			},
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(addr, "managed_state", "managed"),
					same("cluster_id"), same("name"), same("state"), same("default_storage_class"), same("cloud_id"),
					same("trident_managed_state_desired"), same("namespaces"), same("managed_timestamp"), same("metadata"),
				},
			},
		},
	})
}
