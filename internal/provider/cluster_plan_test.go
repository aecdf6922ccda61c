package provider

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccCluster_importMinimal imports clusters whose service-set arguments a minimal
// configuration leaves out (accHost true, a private route, capabilities): the import plans
// no change, with an import block and with `terraform import`, and a plan after it is empty.
func TestAccCluster_importMinimal(t *testing.T) {
	cases := []struct {
		name string
		// setup returns the cluster to create outside Terraform and the minimal arguments
		// (after cloud_id) of a configuration that imports it.
		setup func(a *accTarget) (astra.ClusterCreate, []string)
		caps  []string
	}{
		{
			name: "kubeconfig cluster hosting Astra Control Center, behind a route",
			setup: func(a *accTarget) (astra.ClusterCreate, []string) {
				cred := a.kubeconfigCredential("kube-acc-host", "acc-host")
				return astra.ClusterCreate{Name: a.name("acc-host"), CredentialID: cred, PrivateRouteID: testRouteID,
					ConnectorCapabilities: []string{"watcherV1"}, AccHost: astra.BoolPtr(true)}, []string{arg("credential_id", cred)}
			},
			caps: []string{"watcherV1"},
		},
		{
			name: "connector cluster hosting Astra Control Center",
			setup: func(a *accTarget) (astra.ClusterCreate, []string) {
				return astra.ClusterCreate{Name: a.name("acc-connector"), PrivateRouteID: testRouteID,
					ConnectorCapabilities: []string{"relayV1", "watcherV1"}, AccHost: astra.BoolPtr(true)}, []string{arg("private_route_id", testRouteID)}
			},
			caps: []string{"relayV1", "watcherV1"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := newAccTarget(t)
			a.requireSim("a cluster that hosts Astra Control Center")
			body, minimal := c.setup(a)
			created, err := a.client.CreateCluster(testContext(), a.cloudID(), body)
			if err != nil {
				t.Fatal(err)
			}
			cfg := requiredProvidersHCL() + a.config(clusterHCL(a.cloudID(), minimal...))
			var capChecks []knownvalue.Check
			for _, s := range c.caps {
				capChecks = append(capChecks, knownvalue.StringExact(s))
			}
			kept := []plancheck.PlanCheck{
				plancheck.ExpectEmptyPlan(),
				plancheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("acc_host"), knownvalue.Bool(true)),
				plancheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("private_route_id"), knownvalue.StringExact(testRouteID)),
				plancheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("connector_capabilities"), knownvalue.SetExact(capChecks)),
			}
			var counts countDelta
			a.test(resource.TestCase{
				CheckDestroy: a.checkClusterDestroyed,
				Steps: []resource.TestStep{
					{
						Config: cfg, ResourceName: clusterAddr, ImportState: true, ImportStateId: created.ID,
						ImportStateKind: resource.ImportBlockWithID, ImportPlanChecks: resource.ImportPlanChecks{PreApply: kept},
					},
					{Config: cfg, ResourceName: clusterAddr, ImportState: true, ImportStateId: created.ID, ImportStatePersist: true},
					{
						PreConfig:        func() { a.markCounts(&counts) },
						Config:           cfg,
						ConfigPlanChecks: prePlan(slices.Clone(kept)...),
						Check: a.simCheck("nothing sent", func(s *astrasim.Sim) error {
							if p, d := counts.since(s, putCloudCluster), counts.since(s, deleteCloudCluster); p != 0 || d != 0 {
								return fmt.Errorf("%d PUTs and %d DELETEs of the cluster, want none", p, d)
							}
							return nil
						}),
					},
				},
			})
		})
	}
}

// TestAccCluster_omittedArgumentsNeverReplace removes each argument the API cannot unset
// from the configuration in turn: each keeps the service's value and plans nothing. Only an
// explicit value the API cannot apply (no capabilities, acc_host false) replaces.
func TestAccCluster_omittedArgumentsNeverReplace(t *testing.T) {
	a := newAccTarget(t)
	cred := a.kubeconfigCredential("kube-omit", "omitted")
	full := map[string]string{
		"credential_id":          arg("credential_id", cred),
		"private_route_id":       arg("private_route_id", testRouteID),
		"connector_capabilities": `connector_capabilities = ["watcherV1"]`,
		"acc_host":               arg("acc_host", true),
	}
	without := func(left string) string {
		var body []string
		for _, k := range []string{"credential_id", "private_route_id", "connector_capabilities", "acc_host"} {
			if k != left {
				body = append(body, full[k])
			}
		}
		return a.config(clusterHCL(a.cloudID(), body...))
	}
	kept := []statecheck.StateCheck{
		expectString(clusterAddr, "credential_id", cred), expectString(clusterAddr, "private_route_id", testRouteID), expectBool(clusterAddr, "acc_host", true),
		statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("connector_capabilities"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("watcherV1")})),
	}
	// Each explicit value the API cannot apply gives the cluster a new ID.
	newID := statecheck.CompareValue(compare.ValuesDiffer())
	steps := []resource.TestStep{{Config: without(""), ConfigStateChecks: append(kept, newID.AddStateValue(clusterAddr, tfjsonpath.New("id")))}}
	for _, left := range []string{"credential_id", "private_route_id", "connector_capabilities", "acc_host"} {
		// PlanOnly fails on any planned change, refreshed or not: the cheapest empty-plan check.
		steps = append(steps, resource.TestStep{Config: without(left), PlanOnly: true})
	}
	replaced := func(extra string) resource.TestStep {
		return resource.TestStep{
			Config:            a.config(clusterHCL(a.cloudID(), full["credential_id"], full["private_route_id"], extra)),
			ConfigPlanChecks:  planned(clusterAddr, plancheck.ResourceActionDestroyBeforeCreate),
			ConfigStateChecks: []statecheck.StateCheck{newID.AddStateValue(clusterAddr, tfjsonpath.New("id"))},
		}
	}
	steps = append(steps,
		replaced(`connector_capabilities = []`+"\n  "+full["acc_host"]),
		replaced(`connector_capabilities = []`+"\n  "+arg("acc_host", false)),
	)
	a.test(resource.TestCase{CheckDestroy: a.checkClusterDestroyed, Steps: steps})
}

// TestAccCluster_clusterType sets cluster_type with cluster API 1.7: sent on create, updated
// in place (only the PUT's metadata unknown), and kept when left out.
func TestAccCluster_clusterType(t *testing.T) {
	a := newAccTarget(t, withAPIVersion("1.7"))
	cred := a.kubeconfigCredential("kube-type", "typed")
	hcl := func(extra ...string) string {
		return a.config(clusterHCL(a.cloudID(), append([]string{arg("credential_id", cred)}, extra...)...))
	}
	// serviceHas checks the clusterType Astra Control holds for the cluster in state.
	serviceHas := func(kind string) resource.TestCheckFunc {
		return resource.TestCheckResourceAttrWith(clusterAddr, "id", func(id string) error {
			c, err := a.client.GetCluster(testContext(), "", id)
			if err == nil && c.ClusterType != kind {
				err = fmt.Errorf("Astra Control reports clusterType %q, want %q", c.ClusterType, kind)
			}
			return err
		})
	}
	sameID := statecheck.CompareValue(compare.ValuesSame()) // the type changes in place
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{
				Config:            hcl(arg("cluster_type", "openshift")),
				ConfigStateChecks: []statecheck.StateCheck{expectString(clusterAddr, "cluster_type", "openshift"), sameID.AddStateValue(clusterAddr, tfjsonpath.New("id"))},
				Check:             serviceHas("openshift"),
			},
			{
				Config: hcl(arg("cluster_type", "rke")),
				ConfigPlanChecks: prePlan(
					plancheck.ExpectResourceAction(clusterAddr, plancheck.ResourceActionUpdate),
					expectUnknownExactly(clusterAddr, putMetadata...),
				),
				ConfigStateChecks: []statecheck.StateCheck{expectString(clusterAddr, "cluster_type", "rke"), sameID.AddStateValue(clusterAddr, tfjsonpath.New("id"))},
				Check:             serviceHas("rke"),
			},
			{Config: hcl(), PlanOnly: true}, // left out, cluster_type keeps "rke": no change
		},
	})
}
