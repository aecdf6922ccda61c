package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// The update's own requests go to the cloud's path; Read uses the cloud-less one, so these
// count what an apply sent, not what refreshes read.
const getCloudCluster = "GET " + routeCloudCluster

// updateSent asserts how many GETs and PUTs of the cluster the update of this step sent.
func (a *accTarget) updateSent(counts *countDelta, gets, puts int) resource.TestCheckFunc {
	return a.simCheck(fmt.Sprintf("the update sent %d GET and %d PUT", gets, puts), func(s *astrasim.Sim) error {
		if g, p := counts.since(s, getCloudCluster), counts.since(s, putCloudCluster); g != gets || p != puts {
			return fmt.Errorf("%d GETs and %d PUTs of the cluster, want %d and %d", g, p, gets, puts)
		}
		return nil
	})
}

// TestAccCluster_quietPlans: a labels-only update plans every computed value known but the
// PUT's metadata; a new credential leaves exactly the discovered fields unknown; a change
// of wait_for_running and timeouts alone plans nothing unknown and sends no request.
func TestAccCluster_quietPlans(t *testing.T) {
	a := newAccTarget(t)
	credA := a.kubeconfigCredential("kube-quiet-a", "quiet")
	credB := a.kubeconfigCredential("kube-quiet-b", "quiet")
	name := a.name("quiet")
	hcl := func(cred string, extra ...string) string {
		return a.config(clusterHCL(a.cloudID(), append([]string{arg("name", name), arg("credential_id", cred)}, extra...)...))
	}
	var counts countDelta
	mark := func() { a.markCounts(&counts) }
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{Config: hcl(credA, `labels = { team = "a" }`)},
			{
				PreConfig: mark,
				Config:    hcl(credA, `labels = { team = "b" }`),
				ConfigPlanChecks: prePlan(
					plancheck.ExpectResourceAction(clusterAddr, plancheck.ResourceActionUpdate),
					expectUnknownExactly(clusterAddr, putMetadata...),
					plancheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("state"), knownvalue.StringExact("running")),
					plancheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("credential_id"), knownvalue.StringExact(credA)),
					plancheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("metadata").AtMapKey("creation_timestamp"), knownvalue.NotNull()),
					plancheck.ExpectUnknownValue(clusterAddr, tfjsonpath.New("metadata").AtMapKey("modification_timestamp")),
				),
				Check: a.updateSent(&counts, 2, 1),
			},
			{
				PreConfig: mark,
				Config:    hcl(credB, `labels = { team = "b" }`),
				ConfigPlanChecks: prePlan(
					plancheck.ExpectResourceAction(clusterAddr, plancheck.ResourceActionUpdate),
					expectUnknownExactly(clusterAddr, withPaths(clusterDiscovered, putMetadata...)...),
					plancheck.ExpectUnknownValue(clusterAddr, tfjsonpath.New("state")),
					plancheck.ExpectUnknownValue(clusterAddr, tfjsonpath.New("namespaces")),
					plancheck.ExpectUnknownValue(clusterAddr, tfjsonpath.New("trident_version")),
					plancheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("name"), knownvalue.StringExact(name)),
					plancheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(uuidRegexp)),
				),
				ConfigStateChecks: []statecheck.StateCheck{expectString(clusterAddr, "credential_id", credB), expectString(clusterAddr, "state", "running")},
				Check:             a.updateSent(&counts, 2, 1),
			},
			{
				PreConfig: mark,
				Config:    hcl(credB, `labels = { team = "b" }`, arg("wait_for_running", false), `timeouts = { update = "5m" }`),
				ConfigPlanChecks: prePlan(
					plancheck.ExpectResourceAction(clusterAddr, plancheck.ResourceActionUpdate),
					expectUnknownExactly(clusterAddr),
					plancheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("wait_for_running"), knownvalue.Bool(false)),
				),
				ConfigStateChecks: []statecheck.StateCheck{
					expectBool(clusterAddr, "wait_for_running", false),
					statecheck.ExpectKnownValue(clusterAddr, tfjsonpath.New("timeouts").AtMapKey("update"), knownvalue.StringExact("5m")),
				},
				Check: a.updateSent(&counts, 0, 0),
			},
			{Config: hcl(credB, `labels = { team = "b" }`, arg("wait_for_running", false), `timeouts = { update = "5m" }`), PlanOnly: true},
		},
	})
}

// clusterDiscovered are astra_cluster's attributes that a new credential_id leaves unknown:
// what Astra Control discovers again on the cluster, and the PUT's metadata.
var clusterDiscovered = []string{
	"acp_version", "api_service_id", "cluster_creation_timestamp", "cluster_type", "cluster_version", "cluster_version_string",
	"default_storage_class", "in_use", "is_multizonal", "location", "managed_state", "managed_state_unready", "managed_timestamp",
	"namespaces", "protection_state", "protection_state_details", "restore_target_supported", "snapshot_supported", "state",
	"state_unready", "trident_managed_state", "trident_managed_state_allowed", "trident_managed_state_desired",
	"trident_managed_state_details", "trident_version",
}
