package provider

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccManagedCluster_private manages a private cluster with a storage class chosen by
// data source: a storage class the new cluster lacks (refused at apply time), create
// (waiting for managed and running), empty re-plan, in-place storage
// class change, a refused storage class listing the valid ones, import, drift (unmanaged
// outside Terraform), the refusal while apps are managed, unmanage, then destroy of the
// cluster after it.
func TestAccManagedCluster_private(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) {
		o.Delays = astrasim.Delays{Manage: 150 * time.Millisecond, Unmanage: 150 * time.Millisecond}
	}))
	cred := a.kubeconfigCredential("kube-managed", "managed")
	silver := a.config(privateManagedHCL(a.cloudID(), cred, `local.storage_classes["ontap-silver"]`, true))
	gold := a.config(privateManagedHCL(a.cloudID(), cred, `local.storage_classes["ontap-gold"]`, true))
	unmanaged := a.config(privateManagedHCL(a.cloudID(), cred, "", false))
	var counts countDelta
	var clusterID string
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{
				// The cluster does not exist at plan time, so the storage class is checked at
				// apply time, before anything is sent to manage it.
				Config:      a.config(privateManagedHCL(a.cloudID(), cred, `"0f0e0d0c-0b0a-4908-8706-050403020100"`, true)),
				ExpectError: regexp.MustCompile(`(?s)Unknown storage class.*valid storage classes:\s+local-path`),
			},
			{
				PreConfig: func() {
					if a.simulated() && a.sim.Count("POST", routeManagedClusters) != 0 {
						t.Fatal("a managed cluster was posted with a storage class the cluster does not have")
					}
				},
				Config: silver,
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(managedAddr, "managed_state", "managed"),
					expectString(managedAddr, "state", "running"),
					statecheck.ExpectKnownValue(managedAddr, tfjsonpath.New("managed_timestamp"), knownvalue.NotNull()),
					expectBool(managedAddr, "in_use", false),
					expectString(managedAddr, "cloud_id", a.cloudID()),
					expectString(managedAddr, "credential_id", cred),
					statecheck.CompareValuePairs(managedAddr, tfjsonpath.New("id"), clusterAddr, tfjsonpath.New("id"), compare.ValuesSame()),
					statecheck.CompareValuePairs(managedAddr, tfjsonpath.New("cluster_id"), clusterAddr, tfjsonpath.New("id"), compare.ValuesSame()),
				},
				Check: resource.ComposeAggregateTestCheckFunc(a.managedDefaultIs("ontap-silver"), recordID(clusterAddr, &clusterID)),
			},
			{Config: silver, ConfigPlanChecks: emptyPlan()},
			{
				PreConfig:        func() { a.markCounts(&counts) },
				Config:           gold,
				ConfigPlanChecks: planned(managedAddr, plancheck.ResourceActionUpdate),
				Check: resource.ComposeAggregateTestCheckFunc(
					a.managedDefaultIs("ontap-gold"),
					a.simCheck("one PUT, no POST", func(sim *astrasim.Sim) error {
						return expectCounts(counts.since(sim, "PUT "+routeManagedCluster), 1, counts.since(sim, "POST "+routeManagedClusters), 0)
					}),
				),
			},
			{
				Config:      a.config(privateManagedHCL(a.cloudID(), cred, `"0f0e0d0c-0b0a-4908-8706-050403020100"`, true)),
				ExpectError: regexp.MustCompile(`(?s)Unknown storage class.*valid storage classes:\s+local-path\s+\(.*\),\s+ontap-gold\s+\(.*\),\s+ontap-silver`),
			},
			{ResourceName: managedAddr, ImportState: true, ImportStateVerify: true},
			{
				// Drift: unmanaged outside Terraform, the cluster is planned to be managed again.
				PreConfig:        func() { a.unmanageOutside(clusterID) },
				Config:           gold,
				ConfigPlanChecks: planned(managedAddr, plancheck.ResourceActionCreate),
				Check:            a.managedDefaultIs("ontap-gold"),
			},
			a.simStep("marks applications of the cluster managed", resource.TestStep{
				PreConfig: func() {
					if err := a.sim.SetManagedApps(clusterID, 2); err != nil {
						t.Fatal(err)
					}
				},
				Config:      unmanaged,
				ExpectError: regexp.MustCompile(`(?s)Cannot unmanage a cluster that has managed applications.*Unmanage\s+those\s+applications\s+first`),
			}),
			{
				PreConfig: func() {
					if a.simulated() {
						if err := a.sim.SetManagedApps(clusterID, 0); err != nil {
							t.Fatal(err)
						}
					}
				},
				Config:           unmanaged,
				ConfigPlanChecks: planned(managedAddr, plancheck.ResourceActionDestroy),
				// Destroy waited for the unmanage: the cluster is unmanaged, not deleting.
				Check: func(*terraform.State) error { return a.clusterUnmanaged("", clusterID) },
			},
		},
	})
}

// publicManagedHCL manages the discovered GKE cluster found by data source.
func publicManagedHCL(cloudID, clusterName, tridentDesired string) string {
	return fmt.Sprintf(`
data "astra_cluster" "gke" {
  cloud_id = %q
  name     = %q
}

data "astra_storage_classes" "gke" {
  cluster_id = data.astra_cluster.gke.id
}

resource "astra_managed_cluster" "test" {
  cluster_id                    = data.astra_cluster.gke.id
  default_storage_class         = data.astra_storage_classes.gke.default_storage_class_id
  trident_managed_state_desired = %q
}
`, cloudID, clusterName, tridentDesired)
}

// TestAccManagedCluster_publicCloud manages a cluster Astra Control discovered in GCP,
// changes its Trident management in place, and unmanages it on destroy: the cluster stays,
// unmanaged.
func TestAccManagedCluster_publicCloud(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) {
		o.Delays = astrasim.Delays{Manage: 100 * time.Millisecond, Unmanage: 100 * time.Millisecond}
	}))
	a.requireSim("the seeded GCP cloud and its discovered cluster")
	gcp := a.sim.Seeds().GCP
	a.test(resource.TestCase{
		CheckDestroy: func(*terraform.State) error { return a.clusterUnmanaged(gcp.CloudID, gcp.ClusterID) },
		Steps: []resource.TestStep{
			{
				Config: a.config(publicManagedHCL(gcp.CloudID, gcp.ClusterName, "managed")),
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(managedAddr, "id", gcp.ClusterID),
					expectString(managedAddr, "managed_state", "managed"),
					expectString(managedAddr, "state", "running"),
					expectString(managedAddr, "cluster_type", "gke"),
					expectString(managedAddr, "location", "us-east1"),
					expectString(managedAddr, "trident_managed_state", "managed"),
					expectString(managedAddr, "default_storage_class", a.sim.Seeds().StorageClasses[gcp.ClusterID][0]),
				},
			},
			{Config: a.config(publicManagedHCL(gcp.CloudID, gcp.ClusterName, "managed")), ConfigPlanChecks: emptyPlan()},
			{
				Config:            a.config(publicManagedHCL(gcp.CloudID, gcp.ClusterName, "unmanaged")),
				ConfigPlanChecks:  planned(managedAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{expectString(managedAddr, "trident_managed_state", "unmanaged")},
			},
		},
	})
}

// TestAccManagedCluster_ineligible fails with the service's reasons, and records nothing.
func TestAccManagedCluster_ineligible(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("the seeded ineligible GKE cluster")
	gcp := a.sim.Seeds().GCP
	a.test(resource.TestCase{
		Steps: []resource.TestStep{{
			Config:      a.config(fmt.Sprintf("resource \"astra_managed_cluster\" \"test\" {\n  cluster_id = %q\n}\n", gcp.IneligibleClusterID)),
			ExpectError: regexp.MustCompile(`(?s)Cannot manage cluster.*Kubernetes\s+version\s+1.21\s+is\s+not\s+supported`),
		}},
	})
}

// TestAccManagedCluster_failed stops waiting at once when the cluster fails, with the
// server's reasons; the managed cluster stays in state (tainted) and destroy unmanages it.
func TestAccManagedCluster_failed(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("a cluster failure injected by the simulator")
	aws := a.sim.Seeds().AWS
	start := time.Now()
	a.test(resource.TestCase{
		CheckDestroy: func(*terraform.State) error { return a.clusterUnmanaged(aws.CloudID, aws.ClusterID) },
		Steps: []resource.TestStep{{
			PreConfig: func() {
				if err := a.sim.FailCluster(aws.ClusterID, "node pool lost quorum"); err != nil {
					t.Fatal(err)
				}
			},
			Config:      a.config(fmt.Sprintf("resource \"astra_managed_cluster\" \"test\" {\n  cluster_id = %q\n}\n", aws.ClusterID)),
			ExpectError: regexp.MustCompile(`(?s)Cluster did not become managed and running.*failed:\s+node\s+pool\s+lost\s+quorum`),
		}},
	})
	if a.sim.Count("DELETE", routeManagedCluster) != 1 {
		t.Errorf("destroy of the tainted managed cluster sent %d unmanage requests, want 1", a.sim.Count("DELETE", routeManagedCluster))
	}
	if elapsed := time.Since(start); elapsed > 2*time.Minute {
		t.Errorf("took %s: a failed cluster must end the wait at once", elapsed)
	}
}

// TestAccManagedCluster_defaultBucketNeedsVersion17 refuses default_bucket_id at plan time
// below api_version 1.7 (1.5 here, whatever the service speaks), before any request.
func TestAccManagedCluster_defaultBucketNeedsVersion17(t *testing.T) {
	a := newAccTarget(t)
	a.test(resource.TestCase{
		Steps: []resource.TestStep{{
			Config: a.renderProviderBlock("1.5") + fmt.Sprintf("resource \"astra_managed_cluster\" \"test\" {\n  cluster_id = %q\n  default_bucket_id = %q\n}\n",
				testClusterID, testBucketID),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)Argument needs api_version 1.7.*api_version\s+is\s+1.5`),
		}},
	})
	if a.simulated() && len(a.sim.Counts()) != 0 {
		t.Errorf("requests %v; nothing may be sent", a.sim.Counts())
	}
}

// TestAccManagedCluster_defaultBucket sets and changes default_bucket_id with api_version
// 1.7 (the service wants the neptuneV1 capability on the cluster for it).
func TestAccManagedCluster_defaultBucket(t *testing.T) {
	a := newAccTarget(t, withAPIVersion("1.7"))
	cred := a.kubeconfigCredential("kube-bucket", "bucket")
	cfg := func(bucket string) string {
		return a.config(clusterHCL(a.cloudID(), arg("credential_id", cred), `connector_capabilities = ["neptuneV1"]`),
			fmt.Sprintf("resource \"astra_managed_cluster\" \"test\" {\n  cluster_id        = astra_cluster.test.id\n  default_bucket_id = %q\n}\n", bucket))
	}
	firstBucket, otherBucket := a.bucket("mc-default"), a.bucket("mc-other")
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{
				Config:            cfg(firstBucket),
				ConfigStateChecks: []statecheck.StateCheck{expectString(managedAddr, "default_bucket_id", firstBucket), expectString(managedAddr, "managed_state", "managed")},
			},
			{Config: cfg(firstBucket), ConfigPlanChecks: emptyPlan()},
			{
				Config:            cfg(otherBucket),
				ConfigPlanChecks:  planned(managedAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{expectString(managedAddr, "default_bucket_id", otherBucket)},
				Check: func(s *terraform.State) error {
					mc, err := a.client.GetManagedCluster(testContext(), s.RootModule().Resources[managedAddr].Primary.ID)
					if err == nil && mc.DefaultBucketID != otherBucket {
						err = fmt.Errorf("Astra Control holds bucket %q", mc.DefaultBucketID)
					}
					return err
				},
			},
		},
	})
}
