package provider

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
	"github.com/astra-control/terraform-provider-astra/internal/kubeconfig"
)

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
					expectString(clusterAddr, "name", name),
					expectString(clusterAddr, "cloud_id", a.cloudID()),
					expectString(clusterAddr, "credential_id", cred),
					expectString(clusterAddr, "state", "running"),
					expectString(clusterAddr, "managed_state", "unmanaged"),
					expectBool(clusterAddr, "wait_for_running", true),
					expectNull(clusterAddr, "private_route_id"),
					expectNull(clusterAddr, "connector_capabilities"),
					expectNull(clusterAddr, "acc_host"),
					expectNull(clusterAddr, "labels"),
					statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(uuidRegexp)),
					statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("api_service_id"), knownvalue.StringRegexp(uuidRegexp)),
					statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("default_storage_class"), knownvalue.StringRegexp(uuidRegexp)),
					statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("cluster_type"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("cluster_version"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("namespaces"), listContaining{"default", "kube-system"}),
					expectBool(clusterAddr, "in_use", false),
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
					expectString(clusterAddr, "state", "pending"),
					expectNull(clusterAddr, "credential_id"),
					expectString(clusterAddr, "private_route_id", testRouteID),
					statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("connector_capabilities"),
						knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("relayV1"), knownvalue.StringExact("watcherV1")})),
					expectBool(clusterAddr, "wait_for_running", false),
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
				expectString(clusterAddr, "state", "pending"),
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
	a.requireAPIVersion("1.5") // connector_capabilities
	cred := a.kubeconfigCredential("kube-route", "routed")
	cfg := a.config(clusterHCL(a.cloudID(), arg("credential_id", cred), arg("private_route_id", testRouteID),
		`connector_capabilities = ["watcherV1", "neptuneV1"]`, arg("acc_host", false)))
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(clusterAddr, "state", "running"),
					// The name defaults to the kubeconfig's cluster name.
					expectString(clusterAddr, "name", a.kubeconfigClusterName("routed")),
					expectString(clusterAddr, "credential_id", cred),
					expectString(clusterAddr, "private_route_id", testRouteID),
					expectBool(clusterAddr, "acc_host", false),
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
	// Every step keeps the first step's ID (updates never replace) and its read-only labels.
	sameID := statecheck.CompareValue(compare.ValuesSame())
	var readOnly map[string]string
	step := func(checks []statecheck.StateCheck, body ...string) resource.TestStep {
		return resource.TestStep{
			PreConfig:         func() { a.markCounts(&counts) },
			Config:            a.config(clusterHCL(a.cloudID(), body...)),
			ConfigPlanChecks:  planned(clusterAddr, plancheck.ResourceActionUpdate),
			ConfigStateChecks: append(checks, sameID.AddStateValue(clusterAddr, tfjsonpath.New("id"))),
			Check: resource.ComposeAggregateTestCheckFunc(
				a.simCheck("exactly one PUT and no POST", func(s *astrasim.Sim) error {
					if put, post := counts.since(s, putCloudCluster), counts.since(s, postClusters); put != 1 || post != 0 {
						return fmt.Errorf("%d PUTs and %d POSTs, want 1 and 0", put, post)
					}
					return nil
				}),
				a.checkReadOnlyLabelsKept(&readOnly),
			),
		}
	}
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{
				Config: a.config(clusterHCL(a.cloudID(), arg("name", first), arg("credential_id", credA), `labels = { team = "a" }`)),
				Check:  a.recordReadOnlyLabels(&readOnly),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("labels"), knownvalue.MapExact(map[string]knownvalue.Check{"team": knownvalue.StringExact("a")})),
					sameID.AddStateValue(clusterAddr, tfjsonpath.New("id")),
				},
			},
			step([]statecheck.StateCheck{expectString(clusterAddr, "name", second)},
				arg("name", second), arg("credential_id", credA), `labels = { team = "a" }`),
			step([]statecheck.StateCheck{statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("labels"),
				knownvalue.MapExact(map[string]knownvalue.Check{"team": knownvalue.StringExact("b"), "env": knownvalue.StringExact("test")}))},
				arg("name", second), arg("credential_id", credA), `labels = { team = "b", env = "test" }`),
			step([]statecheck.StateCheck{expectString(clusterAddr, "credential_id", credB), expectString(clusterAddr, "state", "running")},
				arg("name", second), arg("credential_id", credB), `labels = { team = "b", env = "test" }`),
			// private_route_id needs cluster API 1.4, connector_capabilities 1.5: against an
			// older service the steps from there on are skipped.
			a.apiVersionStep("1.4", step([]statecheck.StateCheck{expectString(clusterAddr, "private_route_id", testRouteID)},
				arg("name", second), arg("credential_id", credB), `labels = { team = "b", env = "test" }`, arg("private_route_id", testRouteID))),
			a.apiVersionStep("1.5", step([]statecheck.StateCheck{statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("connector_capabilities"),
				knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("watcherV1")}))},
				arg("name", second), arg("credential_id", credB), `labels = { team = "b", env = "test" }`, arg("private_route_id", testRouteID),
				`connector_capabilities = ["watcherV1"]`)),
			a.apiVersionStep("1.5", step([]statecheck.StateCheck{expectString(clusterAddr, "private_route_id", "route-2"), statecheck.ExpectKnownValue(clusterAddr,
				tfjsonpath.New("connector_capabilities"), knownvalue.SetSizeExact(2))},
				arg("name", second), arg("credential_id", credB), `labels = { team = "b", env = "test" }`, arg("private_route_id", "route-2"),
				`connector_capabilities = ["watcherV1", "neptuneV1"]`)),
			a.apiVersionStep("1.5", step([]statecheck.StateCheck{expectBool(clusterAddr, "acc_host", true)},
				arg("name", second), arg("credential_id", credB), `labels = { team = "b", env = "test" }`, arg("private_route_id", "route-2"),
				`connector_capabilities = ["watcherV1", "neptuneV1"]`, arg("acc_host", true))),
			a.apiVersionStep("1.5", step([]statecheck.StateCheck{expectNull(clusterAddr, "labels")},
				arg("name", second), arg("credential_id", credB), arg("private_route_id", "route-2"),
				`connector_capabilities = ["watcherV1", "neptuneV1"]`, arg("acc_host", true))),
			// An argument the API cannot unset, left out, keeps the service's value: no change.
			a.apiVersionStep("1.5", resource.TestStep{
				Config: a.config(clusterHCL(a.cloudID(), arg("name", second), arg("credential_id", credB),
					`connector_capabilities = ["watcherV1", "neptuneV1"]`, arg("acc_host", true))),
				ConfigPlanChecks:  emptyPlan(),
				ConfigStateChecks: []statecheck.StateCheck{expectString(clusterAddr, "private_route_id", "route-2"), sameID.AddStateValue(clusterAddr, tfjsonpath.New("id"))},
			}),
		},
	})
}

// readOnlyLabels are the labels the service set on cluster id itself, as Astra Control holds them.
func (a *accTarget) readOnlyLabels(id string) (map[string]string, error) {
	c, err := a.client.GetCluster(testContext(), "", id)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, l := range c.Metadata.Labels {
		if strings.HasPrefix(l.Name, "astra.netapp.io/labels/read-only/") {
			out[l.Name] = l.Value
		}
	}
	return out, nil
}

// recordReadOnlyLabels keeps, in *dst, the service's own labels of the cluster in state;
// the simulator always sets some, so the later checks cannot pass by having none to keep.
func (a *accTarget) recordReadOnlyLabels(dst *map[string]string) resource.TestCheckFunc {
	return resource.TestCheckResourceAttrWith(clusterAddr, "id", func(id string) error {
		labels, err := a.readOnlyLabels(id)
		if err == nil && len(labels) == 0 && a.simulated() {
			err = fmt.Errorf("the simulator set no read-only label on cluster %s", id)
		}
		*dst = labels
		return err
	})
}

// checkReadOnlyLabelsKept asserts the service's own labels of the cluster in state survived
// the PUT, values included.
func (a *accTarget) checkReadOnlyLabelsKept(want *map[string]string) resource.TestCheckFunc {
	return resource.TestCheckResourceAttrWith(clusterAddr, "id", func(id string) error {
		got, err := a.readOnlyLabels(id)
		if err != nil {
			return err
		}
		for name, value := range *want {
			if got[name] != value {
				return fmt.Errorf("read-only labels after the update: %v; want %v kept", got, *want)
			}
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
	newID := statecheck.CompareValue(compare.ValuesDiffer())
	var before string // to ask Astra Control about the replaced cluster
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{
				Config:            a.config(clusterHCL(a.cloudID(), arg("credential_id", cred))),
				ConfigStateChecks: []statecheck.StateCheck{newID.AddStateValue(clusterAddr, tfjsonpath.New("id"))},
				Check:             recordID(clusterAddr, &before),
			},
			{
				Config:           a.config(clusterHCL(other, arg("credential_id", cred))),
				ConfigPlanChecks: planned(clusterAddr, plancheck.ResourceActionDestroyBeforeCreate),
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(clusterAddr, "cloud_id", other), expectString(clusterAddr, "state", "running"),
					newID.AddStateValue(clusterAddr, tfjsonpath.New("id")),
				},
				Check: a.checkClusterReplaced(&before),
			},
		},
	})
}

// privateCloud adds another private cloud to the simulator, outside Terraform.
func (a *accTarget) privateCloud(name string) string {
	a.t.Helper()
	cloud, err := a.client.CreateCloud(testContext(), astra.CloudCreate{Name: name, CloudType: "private"})
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
	c, err := a.client.FindCluster(testContext(), a.cloudID(), astra.ClusterMatch{Name: name})
	if err != nil || c == nil {
		a.t.Fatalf("finding cluster %s: %v", name, err)
	}
	slices.Reverse(c.ConnectorCapabilities)
	if _, err := a.client.UpdateCluster(testContext(), c.CloudID, c); err != nil {
		a.t.Fatalf("reordering the capabilities of %s: %v", name, err)
	}
}

// TestAccCluster_importBlock adopts a cluster added outside Terraform with an import
// block: the import plans no change, and neither does the plan after it.
func TestAccCluster_importBlock(t *testing.T) {
	a := newAccTarget(t)
	cred := a.kubeconfigCredential("kube-import", "imported")
	name := a.name("imported")
	c, err := a.client.CreateCluster(testContext(), a.cloudID(), astra.ClusterCreate{Name: name, CredentialID: cred,
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
				ConfigPlanChecks:  planned(clusterAddr, plancheck.ResourceActionNoop),
				ConfigStateChecks: []statecheck.StateCheck{expectString(clusterAddr, "id", c.ID), expectBool(clusterAddr, "wait_for_running", true)},
			},
			{Config: a.config(resourceHCL), ConfigPlanChecks: emptyPlan()},
		},
	})
}
