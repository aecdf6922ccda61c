package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

const clusterAddr = "astra_cluster.test"

// Routes of the cluster API, as the simulator counts them.
const (
	routeClusters       = "/topology/v1/clouds/{cloud_id}/clusters"
	routeCloudCluster   = "/topology/v1/clouds/{cloud_id}/clusters/{cluster_id}"
	routeClusterByID    = "/topology/v1/clusters/{cluster_id}"
	postClusters        = "POST " + routeClusters
	putCloudCluster     = "PUT " + routeCloudCluster
	deleteCloudCluster  = "DELETE " + routeCloudCluster
	getClusterByIDRoute = "GET " + routeClusterByID
)

// clusterHCL renders an astra_cluster "test" block; body holds the arguments after cloud_id.
func clusterHCL(cloudID string, body ...string) string {
	return fmt.Sprintf("resource \"astra_cluster\" \"test\" {\n  cloud_id = %q\n  %s\n}\n", cloudID, strings.Join(body, "\n  "))
}

func arg(name string, value any) string {
	switch v := value.(type) {
	case string:
		return fmt.Sprintf("%s = %q", name, v)
	default:
		return fmt.Sprintf("%s = %v", name, v)
	}
}

func expectString(name, value string) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New(name), knownvalue.StringExact(value))
}

func expectNull(name string) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New(name), knownvalue.Null())
}

func expectBool(name string, value bool) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New(name), knownvalue.Bool(value))
}

func emptyPlan() resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
}

func planned(action plancheck.ResourceActionType) resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(clusterAddr, action)}}
}

// checkDestroyed asserts the cluster is gone from Astra Control after the test.
func (a *accTarget) checkClusterDestroyed(s *terraform.State) error {
	for _, r := range s.RootModule().Resources {
		if r.Type != "astra_cluster" {
			continue
		}
		if _, err := a.client.GetCluster(t0(), "", r.Primary.ID); err == nil {
			return fmt.Errorf("cluster %s still exists after destroy", r.Primary.ID)
		}
	}
	return nil
}

// TestAccCluster_kubeconfig adds a cluster with a kubeconfig credential: it is running at
// once, every computed field is in state, a second plan is empty, and import matches.
func TestAccCluster_kubeconfig(t *testing.T) {
	a := newAccTarget(t)
	cred := a.kubeconfigCredential("kube-basic", "basic")
	name := a.name("basic")
	cfg := a.config(clusterHCL(a.cloudID(), arg("name", name), arg("credential_id", cred)))
	var counts countDelta
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{
				PreConfig: func() { a.markCounts(&counts) },
				Config:    cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					expectString("name", name),
					expectString("cloud_id", a.cloudID()),
					expectString("credential_id", cred),
					expectString("state", "running"),
					expectString("managed_state", "unmanaged"),
					expectBool("wait_for_running", true),
					expectNull("private_route_id"),
					expectNull("connector_capabilities"),
					expectNull("acc_host"),
					expectNull("labels"),
					statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(uuidRegexp)),
					statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("api_service_id"), knownvalue.StringRegexp(uuidRegexp)),
					statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("default_storage_class"), knownvalue.StringRegexp(uuidRegexp)),
					statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("cluster_type"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("cluster_version"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("namespaces"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("in_use"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("metadata").AtMapKey("creation_timestamp"), knownvalue.NotNull()),
				},
				Check: a.simCheck("one POST, no PUT", func(s *astrasim.Sim) error {
					if n := counts.since(s, postClusters); n != 1 {
						return fmt.Errorf("%d POSTs of a cluster, want 1", n)
					}
					if n := counts.since(s, putCloudCluster); n != 0 {
						return fmt.Errorf("%d PUTs, want 0", n)
					}
					return nil
				}),
			},
			{Config: cfg, ConfigPlanChecks: emptyPlan()},
			{ResourceName: clusterAddr, ImportState: true, ImportStateVerify: true},
		},
	})
}

func (a *accTarget) markCounts(c *countDelta) {
	if a.sim != nil {
		c.mark(a.sim)
	}
}

var uuidRegexp = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
