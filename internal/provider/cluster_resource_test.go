package provider

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
	"github.com/astra-control/terraform-provider-astra/internal/kubeconfig"
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

// TestAccCluster_connector registers a cluster through an Astra Connector (private route and
// relayV1, no credential): it stays pending, so wait_for_running = false; nothing drifts.
func TestAccCluster_connector(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("an Astra Connector that never registers")
	cfg := a.config(clusterHCL(a.cloudID(), arg("name", a.name("via-connector")), arg("private_route_id", testRouteID),
		`connector_capabilities = ["relayV1", "watcherV1"]`, arg("wait_for_running", false)))
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					expectString("state", "pending"),
					expectNull("credential_id"),
					expectString("private_route_id", testRouteID),
					statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("connector_capabilities"),
						knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("relayV1"), knownvalue.StringExact("watcherV1")})),
					expectBool("wait_for_running", false),
				},
			},
			{Config: cfg, ConfigPlanChecks: emptyPlan()},
			// The service answering the set in another order is no change.
			{
				PreConfig: func() { a.reorderCapabilities(clusterName(cfg)) },
				Config:    cfg, ConfigPlanChecks: emptyPlan(),
			},
			// An import cannot know wait_for_running; it takes the default.
			{ResourceName: clusterAddr, ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"wait_for_running"}},
		},
	})
}

// TestAccCluster_connectorV2 is the connector path of cluster API 1.7, where relayV1 became
// connectorV2.
func TestAccCluster_connectorV2(t *testing.T) {
	a := newAccTarget(t, withAPIVersion("1.7"))
	a.requireSim("an Astra Connector that never registers")
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{{
			Config: a.config(clusterHCL(a.cloudID(), arg("name", "connector-v2"), arg("private_route_id", testRouteID),
				`connector_capabilities = ["connectorV2"]`, arg("wait_for_running", false))),
			ConfigStateChecks: []statecheck.StateCheck{
				expectString("state", "pending"),
				statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("connector_capabilities"),
					knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("connectorV2")})),
			},
		}},
	})
}

// TestAccCluster_credentialWithRoute is a kubeconfig cluster reached through a private
// route, with capabilities that do not relay: the credential is still required, and used.
func TestAccCluster_credentialWithRoute(t *testing.T) {
	a := newAccTarget(t)
	cred := a.kubeconfigCredential("kube-route", "routed")
	cfg := a.config(clusterHCL(a.cloudID(), arg("credential_id", cred), arg("private_route_id", testRouteID),
		`connector_capabilities = ["watcherV1", "neptuneV1"]`, arg("acc_host", false)))
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					expectString("state", "running"),
					// The name defaults to the kubeconfig's cluster name.
					expectString("name", a.kubeconfigClusterName("routed")),
					expectString("credential_id", cred),
					expectString("private_route_id", testRouteID),
					expectBool("acc_host", false),
				},
			},
			{Config: cfg, ConfigPlanChecks: emptyPlan()},
			// acc_host = false is never reported by the service: an import reads it as unset.
			{ResourceName: clusterAddr, ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"acc_host"}},
		},
	})
}

// TestAccCluster_update changes each in-place argument in turn: one PUT per step, no
// replacement, the service's read-only labels kept, and an empty plan after each step.
func TestAccCluster_update(t *testing.T) {
	a := newAccTarget(t)
	credA := a.kubeconfigCredential("kube-a", "updated")
	credB := a.kubeconfigCredential("kube-b", "updated")
	first, second := a.name("first"), a.name("second")
	var counts countDelta
	var id string
	step := func(checks []statecheck.StateCheck, body ...string) resource.TestStep {
		return resource.TestStep{
			PreConfig:         func() { a.markCounts(&counts) },
			Config:            a.config(clusterHCL(a.cloudID(), body...)),
			ConfigPlanChecks:  planned(plancheck.ResourceActionUpdate),
			ConfigStateChecks: checks,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttrPtr(clusterAddr, "id", &id),
				a.simCheck("exactly one PUT and no POST", func(s *astrasim.Sim) error {
					if put, post := counts.since(s, putCloudCluster), counts.since(s, postClusters); put != 1 || post != 0 {
						return fmt.Errorf("%d PUTs and %d POSTs, want 1 and 0", put, post)
					}
					return nil
				}),
				a.checkReadOnlyLabelsKept(&id),
			),
		}
	}
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{
				Config: a.config(clusterHCL(a.cloudID(), arg("name", first), arg("credential_id", credA), `labels = { team = "a" }`)),
				// Every later step must keep this ID: updates never replace.
				Check: captureID(&id),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("labels"), knownvalue.MapExact(map[string]knownvalue.Check{"team": knownvalue.StringExact("a")})),
				},
			},
			step([]statecheck.StateCheck{expectString("name", second)},
				arg("name", second), arg("credential_id", credA), `labels = { team = "a" }`),
			step([]statecheck.StateCheck{statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("labels"),
				knownvalue.MapExact(map[string]knownvalue.Check{"team": knownvalue.StringExact("b"), "env": knownvalue.StringExact("test")}))},
				arg("name", second), arg("credential_id", credA), `labels = { team = "b", env = "test" }`),
			step([]statecheck.StateCheck{expectString("credential_id", credB), expectString("state", "running")},
				arg("name", second), arg("credential_id", credB), `labels = { team = "b", env = "test" }`),
			step([]statecheck.StateCheck{expectString("private_route_id", testRouteID)},
				arg("name", second), arg("credential_id", credB), `labels = { team = "b", env = "test" }`, arg("private_route_id", testRouteID)),
			step([]statecheck.StateCheck{statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("connector_capabilities"),
				knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("watcherV1")}))},
				arg("name", second), arg("credential_id", credB), `labels = { team = "b", env = "test" }`, arg("private_route_id", testRouteID),
				`connector_capabilities = ["watcherV1"]`),
			step([]statecheck.StateCheck{expectString("private_route_id", "route-2"), statecheck.ExpectKnownValue(clusterAddr,
				tfjsonpath.New("connector_capabilities"), knownvalue.SetSizeExact(2))},
				arg("name", second), arg("credential_id", credB), `labels = { team = "b", env = "test" }`, arg("private_route_id", "route-2"),
				`connector_capabilities = ["watcherV1", "neptuneV1"]`),
			step([]statecheck.StateCheck{expectBool("acc_host", true)},
				arg("name", second), arg("credential_id", credB), `labels = { team = "b", env = "test" }`, arg("private_route_id", "route-2"),
				`connector_capabilities = ["watcherV1", "neptuneV1"]`, arg("acc_host", true)),
			step([]statecheck.StateCheck{expectNull("labels")},
				arg("name", second), arg("credential_id", credB), arg("private_route_id", "route-2"),
				`connector_capabilities = ["watcherV1", "neptuneV1"]`, arg("acc_host", true)),
			// An argument the API cannot unset, left out, keeps the service's value: no change.
			{
				Config: a.config(clusterHCL(a.cloudID(), arg("name", second), arg("credential_id", credB),
					`connector_capabilities = ["watcherV1", "neptuneV1"]`, arg("acc_host", true))),
				ConfigPlanChecks:  emptyPlan(),
				ConfigStateChecks: []statecheck.StateCheck{expectString("private_route_id", "route-2")},
			},
		},
	})
}

// checkReadOnlyLabelsKept asserts the service's own labels survived the PUT.
func (a *accTarget) checkReadOnlyLabelsKept(id *string) resource.TestCheckFunc {
	return a.simCheck("the service's read-only labels are kept", func(*astrasim.Sim) error {
		c, err := a.client.GetCluster(t0(), "", *id)
		if err != nil {
			return err
		}
		readOnly := 0
		for _, l := range c.Metadata.Labels {
			if strings.HasPrefix(l.Name, "astra.netapp.io/labels/read-only/") {
				readOnly++
			}
		}
		if readOnly < 2 {
			return fmt.Errorf("labels after the update: %v; the read-only ones are gone", c.Metadata.Labels)
		}
		return nil
	})
}

// TestAccCluster_replaceOnCloudChange moves the cluster to another cloud: a replacement.
func TestAccCluster_replaceOnCloudChange(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("a second private cloud")
	other := a.privateCloud("second-private")
	cred := a.kubeconfigCredential("kube-move", "moving")
	var before, after string
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{
				Config: a.config(clusterHCL(a.cloudID(), arg("credential_id", cred))),
				Check:  captureID(&before),
			},
			{
				Config:            a.config(clusterHCL(other, arg("credential_id", cred))),
				ConfigPlanChecks:  planned(plancheck.ResourceActionDestroyBeforeCreate),
				ConfigStateChecks: []statecheck.StateCheck{expectString("cloud_id", other), expectString("state", "running")},
				Check: resource.TestCheckResourceAttrWith(clusterAddr, "id", func(v string) error {
					after = v
					if after == before {
						return fmt.Errorf("id %s unchanged: the cluster was not replaced", v)
					}
					if _, err := a.client.GetCluster(t0(), "", before); err == nil {
						return fmt.Errorf("the old cluster %s still exists", before)
					}
					return nil
				}),
			},
		},
	})
}

// privateCloud adds another private cloud to the simulator, outside Terraform.
func (a *accTarget) privateCloud(name string) string {
	a.t.Helper()
	cloud, err := a.client.CreateCloud(t0(), astra.CloudCreate{Name: name, CloudType: "private"})
	if err != nil {
		a.t.Fatalf("adding cloud %s: %v", name, err)
	}
	return cloud.ID
}

// kubeconfigClusterName is the cluster name in the kubeconfig a.kubeconfig(base) returns,
// which the service takes as the default name.
func (a *accTarget) kubeconfigClusterName(base string) string {
	_, info, err := kubeconfig.Parse(a.kubeconfig(base))
	if err != nil {
		a.t.Fatalf("test kubeconfig: %v", err)
	}
	return info.ClusterName
}

// clusterName extracts the name argument of an astra_cluster configuration.
func clusterName(cfg string) string {
	m := regexp.MustCompile(`(?m)^\s*name\s*=\s*"([^"]*)"`).FindStringSubmatch(cfg)
	if m == nil {
		return ""
	}
	return m[1]
}

// reorderCapabilities rewrites, outside Terraform, the connector capabilities of the
// cluster named name in reverse order, as a service free to order a set might answer.
func (a *accTarget) reorderCapabilities(name string) {
	a.t.Helper()
	c, err := a.client.FindCluster(t0(), a.cloudID(), astra.ClusterMatch{Name: name})
	if err != nil || c == nil {
		a.t.Fatalf("finding cluster %s: %v", name, err)
	}
	slices.Reverse(c.ConnectorCapabilities)
	if _, err := a.client.UpdateCluster(t0(), c.CloudID, c); err != nil {
		a.t.Fatalf("reordering the capabilities of %s: %v", name, err)
	}
}

// TestAccCluster_importBlock adopts a cluster added outside Terraform with an import
// block: the import plans no change, and neither does the plan after it.
func TestAccCluster_importBlock(t *testing.T) {
	a := newAccTarget(t)
	cred := a.kubeconfigCredential("kube-import", "imported")
	name := a.name("imported")
	c, err := a.client.CreateCluster(t0(), a.cloudID(), astra.ClusterCreate{Name: name, CredentialID: cred,
		Labels: []astra.Label{{Name: "origin", Value: "outside"}}})
	if err != nil {
		t.Fatalf("adding the cluster outside Terraform: %v", err)
	}
	resourceHCL := clusterHCL(a.cloudID(), arg("name", name), arg("credential_id", cred), `labels = { origin = "outside" }`)
	importHCL := fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\n", clusterAddr, c.ID)
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{
				Config:            a.config(importHCL, resourceHCL),
				ConfigPlanChecks:  planned(plancheck.ResourceActionNoop),
				ConfigStateChecks: []statecheck.StateCheck{expectString("id", c.ID), expectBool("wait_for_running", true)},
			},
			{Config: a.config(resourceHCL), ConfigPlanChecks: emptyPlan()},
		},
	})
}
