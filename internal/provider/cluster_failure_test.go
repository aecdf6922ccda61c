package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccCluster_waitTimeout: a connector cluster never runs, so waiting for it times out.
// The cluster is in state, tainted, and the next apply replaces it.
func TestAccCluster_waitTimeout(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("an Astra Connector that never registers")
	body := func(wait bool) string {
		return a.config(clusterHCL(a.cloudID(), arg("name", "never-running"), arg("private_route_id", testRouteID),
			`connector_capabilities = ["relayV1"]`, arg("wait_for_running", wait), `timeouts = { create = "400ms" }`))
	}
	var tainted string
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{
				Config: body(true),
				ExpectError: errorPhrases("Cluster did not reach running", "Timed out after 400ms waiting for cluster",
					"(last seen: state pending, managedState pending)", "marked as tainted", "set wait_for_running = false"),
			},
			{
				PreConfig: func() { tainted = a.onlyClusterID() },
				Config:    body(false),
				// The tainted cluster is replaced, although only wait_for_running changed.
				ConfigPlanChecks:  planned(clusterAddr, plancheck.ResourceActionDestroyBeforeCreate),
				ConfigStateChecks: []statecheck.StateCheck{expectString(clusterAddr, "state", "pending")},
				Check:             a.checkClusterReplaced(&tainted),
			},
		},
	})
}

// TestAccCluster_failed: the cluster fails while create waits. The error gives the server's
// reasons; the failed cluster is in state, tainted, and the next apply replaces it. The
// create timeout bounds the test should the trigger miss (it then fails on "Timed out").
func TestAccCluster_failed(t *testing.T) {
	clock := &testClock{}
	a := newAccTarget(t, withSim(func(o *astrasim.Options) {
		o.Now = clock.now
		o.Delays.Discover = time.Hour // discovering until the test moves the clock
	}))
	a.requireSim("a cluster sent to state failed")
	cred := a.kubeconfigCredential("kube-failing", "failing")
	cfg := a.config(clusterHCL(a.cloudID(), arg("name", "failing"), arg("credential_id", cred), `timeouts = { create = "20s" }`))
	var failed string
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					a.whenCluster("failing", "discovering", func(id string) {
						failed = id
						if err := a.sim.FailCluster(id, "The kubeconfig's certificate has expired"); err != nil {
							t.Error(err)
						}
					})
				},
				Config:      cfg,
				ExpectError: errorPhrases("Cluster did not reach running", "as failed: The kubeconfig's certificate has expired.", "marked as tainted"),
			},
			{
				// The replacement is discovered as soon as it appears.
				PreConfig:         func() { a.whenCluster("failing", "discovering", func(string) { clock.advance(2 * time.Hour) }) },
				Config:            cfg,
				ConfigPlanChecks:  planned(clusterAddr, plancheck.ResourceActionDestroyBeforeCreate),
				ConfigStateChecks: []statecheck.StateCheck{expectString(clusterAddr, "state", "running")},
				Check:             a.checkClusterReplaced(&failed),
			},
		},
	})
}

// onlyClusterID is the ID of the single cluster the test added (outside the seeds).
func (a *accTarget) onlyClusterID() string {
	clusters, err := a.client.ListClusters(testContext(), a.cloudID(), astra.ListOptions{})
	if err != nil || len(clusters) != 1 {
		a.t.Fatalf("want exactly one cluster in the private cloud, got %d (%v)", len(clusters), err)
	}
	return clusters[0].ID
}

// whenCluster runs do once, in the background, as soon as the simulator holds a cluster
// named name in state state. It gives up when the test ends.
func (a *accTarget) whenCluster(name, state string, do func(id string)) {
	ctx, cancel := context.WithCancel(context.Background())
	a.t.Cleanup(cancel)
	go func() {
		for ctx.Err() == nil {
			if id := a.simClusterIn(name, state); id != "" {
				do(id)
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
}

// simClusterIn finds a cluster by name and state in the simulator's snapshot (which, unlike
// an API call, leaves the request counts alone).
func (a *accTarget) simClusterIn(name, state string) string {
	raw, err := a.sim.Snapshot()
	if err != nil {
		return ""
	}
	var view struct {
		Clusters map[string]struct{ Name, State string } `json:"clusters"`
	}
	if json.Unmarshal(raw, &view) != nil {
		return ""
	}
	for id, c := range view.Clusters {
		if c.Name == name && c.State == state {
			return id
		}
	}
	return ""
}

// TestAccCluster_lostAnswer: the POST is applied but its answer lost. The provider finds
// the cluster it created (one search of the cloud's clusters) and adopts it instead of
// posting again.
func TestAccCluster_lostAnswer(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("an answer lost on the wire")
	a.sim.AddFault(astrasim.Fault{Method: "POST", Route: routeClusters, Kind: astrasim.FaultLostAnswer, Times: 1})
	cred := a.kubeconfigCredential("kube-lost", "lost")
	var counts countDelta
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{{
			PreConfig:         func() { a.markCounts(&counts) },
			Config:            a.config(clusterHCL(a.cloudID(), arg("name", "lost"), arg("credential_id", cred))),
			ConfigStateChecks: []statecheck.StateCheck{expectString(clusterAddr, "state", "running"), expectString(clusterAddr, "name", "lost")},
			// The simulator check first: onlyClusterID lists the clusters too.
			Check: resource.ComposeAggregateTestCheckFunc(
				a.simCheck("the answer was lost, one search found the cluster, no second POST", func(s *astrasim.Sim) error {
					if n := s.Fired("POST", routeClusters, astrasim.FaultLostAnswer); n != 1 {
						return fmt.Errorf("the lost-answer fault fired %d times, want 1", n)
					}
					if n := counts.since(s, "GET "+routeClusters); n != 1 {
						return fmt.Errorf("%d searches of the cloud's clusters, want 1 (the adoption look-up)", n)
					}
					if n := counts.since(s, postClusters); n != 1 {
						return fmt.Errorf("%d POSTs, want 1", n)
					}
					return nil
				}),
				resource.TestCheckResourceAttrWith(clusterAddr, "id", func(id string) error {
					if got := a.onlyClusterID(); got != id {
						return fmt.Errorf("state holds %s, the simulator %s", id, got)
					}
					return nil
				}),
			),
		}},
	})
}

// TestAccCluster_lostAnswerNeverAdoptsAnOlderCluster: a cluster of the same name and
// credential existed before the apply, so the POST is refused (409) and that answer lost.
// The search finds the old cluster; it is older than the request, so it is not adopted:
// the apply reports the unknown outcome, and the old cluster survives destroy.
func TestAccCluster_lostAnswerNeverAdoptsAnOlderCluster(t *testing.T) {
	clock := &testClock{}
	a := newAccTarget(t, withSim(func(o *astrasim.Options) { o.Now = clock.now }))
	a.requireSim("an answer lost on the wire")
	cred := a.kubeconfigCredential("kube-older", "older")
	clock.advance(-time.Hour) // the existing cluster was added an hour ago
	old, err := a.client.CreateCluster(testContext(), a.cloudID(), astra.ClusterCreate{Name: "older", CredentialID: cred})
	clock.advance(time.Hour)
	if err != nil {
		t.Fatalf("adding the existing cluster: %v", err)
	}
	a.sim.AddFault(astrasim.Fault{Method: "POST", Route: routeClusters, Kind: astrasim.FaultLostAnswer, Times: 1})
	var counts countDelta
	a.test(resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			if _, err := a.client.GetCluster(testContext(), "", old.ID); err != nil {
				return fmt.Errorf("the cluster that existed before the apply is gone: %w", err)
			}
			return nil
		},
		Steps: []resource.TestStep{{
			PreConfig: func() { a.markCounts(&counts) },
			Config:    a.config(clusterHCL(a.cloudID(), arg("name", "older"), arg("credential_id", cred))),
			ExpectError: errorPhrases("Outcome of creating the cluster is unknown", "the object found, ID "+old.ID+", matches the request",
				"before this request was sent", "it was not adopted", "Nothing was recorded in state"),
		}, {
			// Nothing in state: the next plan proposes the create again, it does not own the old cluster.
			PreConfig: func() {
				if n := a.sim.Fired("POST", routeClusters, astrasim.FaultLostAnswer); n != 1 {
					t.Errorf("the lost-answer fault fired %d times, want 1", n)
				}
				if n := counts.since(a.sim, "GET "+routeClusters); n != 1 {
					t.Errorf("%d searches of the cloud's clusters, want 1", n)
				}
			},
			Config:             a.config(clusterHCL(a.cloudID(), arg("name", "older"), arg("credential_id", cred))),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		}},
	})
}

// TestAccCluster_deleteWhileManaged: destroying a managed cluster is refused with advice;
// once unmanaged, it is destroyed.
func TestAccCluster_deleteWhileManaged(t *testing.T) {
	a := newAccTarget(t)
	cred := a.kubeconfigCredential("kube-managed", "managed")
	cfg := a.config(clusterHCL(a.cloudID(), arg("name", a.name("managed")), arg("credential_id", cred)))
	var id string
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check:  recordID(clusterAddr, &id),
			},
			{
				PreConfig: func() {
					a.manage(id)
				},
				Config:      cfg,
				Destroy:     true,
				ExpectError: errorPhrases("Cluster is still managed", "managedState managed", "Unmanage it first: destroy or remove the astra_managed_cluster that manages it"),
			},
			{
				PreConfig: func() { a.unmanageOutside(id) },
				Config:    cfg,
			},
		},
	})
}

// TestAccCluster_managedDuringDelete: the cluster becomes managed between the provider's
// check and its DELETE; the service's conflict gets the same advice as the check.
func TestAccCluster_managedDuringDelete(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("a DELETE held back while the cluster gets managed")
	cred := a.kubeconfigCredential("kube-race", "racing")
	cfg := a.config(clusterHCL(a.cloudID(), arg("name", "racing"), arg("credential_id", cred)))
	var id string
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check:  recordID(clusterAddr, &id),
			},
			{
				PreConfig: func() {
					a.sim.AddFault(astrasim.Fault{Method: "DELETE", Route: routeCloudCluster, Kind: astrasim.FaultLatency, Latency: 300 * time.Millisecond, Times: 1})
					a.whenRequested("DELETE "+routeCloudCluster, func() {
						a.manage(id)
					})
				},
				Config:  cfg,
				Destroy: true,
				ExpectError: errorPhrases("Cluster is still managed", "Unmanage it first",
					"409", "the cluster is managed; unmanage it first"),
			},
			{
				PreConfig: func() {
					if err := a.client.DeleteManagedCluster(testContext(), id); err != nil {
						t.Fatalf("unmanaging the cluster: %v", err)
					}
				},
				Config: cfg,
			},
		},
	})
}

// whenRequested runs do once, in the background, as soon as the simulator has counted a
// request "METHOD route" (counted before an injected latency delays its handling).
func (a *accTarget) whenRequested(key string, do func()) {
	ctx, cancel := context.WithCancel(context.Background())
	a.t.Cleanup(cancel)
	before := a.sim.Counts()[key]
	go func() {
		for ctx.Err() == nil {
			if a.sim.Counts()[key] > before {
				do()
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
}

// TestAccCluster_drift: deleted outside Terraform, the cluster is planned for creation;
// renamed outside, it is renamed back in place.
func TestAccCluster_drift(t *testing.T) {
	a := newAccTarget(t)
	cred := a.kubeconfigCredential("kube-drift", "drifting")
	name := a.name("drifting")
	cfg := a.config(clusterHCL(a.cloudID(), arg("name", name), arg("credential_id", cred)))
	var id string // to delete and rename the cluster outside Terraform
	// The cluster deleted outside is created anew (a new ID); renamed outside, it keeps its ID.
	newID, sameID := statecheck.CompareValue(compare.ValuesDiffer()), statecheck.CompareValue(compare.ValuesSame())
	idPath := tfjsonpath.New("id")
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{Config: cfg, Check: recordID(clusterAddr, &id), ConfigStateChecks: []statecheck.StateCheck{newID.AddStateValue(clusterAddr, idPath)}},
			{
				PreConfig: func() {
					if err := a.client.DeleteCluster(testContext(), "", id); err != nil {
						t.Fatalf("deleting outside Terraform: %v", err)
					}
				},
				Config:            cfg,
				ConfigPlanChecks:  planned(clusterAddr, plancheck.ResourceActionCreate),
				ConfigStateChecks: []statecheck.StateCheck{newID.AddStateValue(clusterAddr, idPath), sameID.AddStateValue(clusterAddr, idPath)},
				Check:             recordID(clusterAddr, &id),
			},
			{
				PreConfig: func() {
					c, err := a.client.GetCluster(testContext(), "", id)
					if err == nil {
						c.Name = name + "-renamed"
						_, err = a.client.UpdateCluster(testContext(), "", c)
					}
					if err != nil {
						t.Fatalf("renaming outside Terraform: %v", err)
					}
				},
				Config:            cfg,
				ConfigPlanChecks:  planned(clusterAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{expectString(clusterAddr, "name", name), sameID.AddStateValue(clusterAddr, idPath)},
			},
		},
	})
}

// manage brings the cluster under management outside Terraform, as astra_managed_cluster
// would. It may run on a background goroutine, so it reports with Errorf.
func (a *accTarget) manage(id string) {
	if _, err := a.client.CreateManagedCluster(testContext(), astra.ManagedClusterCreate{ID: id}); err != nil {
		a.t.Errorf("managing cluster %s: %v", id, err)
	}
}
