package provider

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// requestBaseline measures what a step that sends nothing costs in requests of one route
// (the refreshes of plan and apply), so a later step can be held to exactly that.
type requestBaseline struct {
	counts countDelta
	gets   int
}

// TestAccManagedCluster_quietPlans: a new storage class leaves only the protection fields
// and the PUT's metadata unknown, Trident management only the Trident fields and the
// metadata, and a change of timeouts alone plans nothing unknown and sends nothing.
func TestAccManagedCluster_quietPlans(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("request counts")
	cred := a.kubeconfigCredential("kube-quiet-managed", "quiet-managed")
	managed := func(sc, extra string) string {
		hcl := privateManagedHCL(a.cloudID(), cred, `local.storage_classes["`+sc+`"]`, true)
		return a.config(strings.Replace(hcl, "default_storage_class = ", extra+"\n  default_storage_class = ", 1))
	}
	protection := []string{"protection_state", "protection_state_details", "restore_target_supported", "snapshot_supported"}
	trident := []string{"acp_version", "trident_managed_state", "trident_managed_state_details", "trident_version"}
	var base requestBaseline
	gets := func() int { return base.counts.since(a.sim, "GET "+routeManagedCluster) }
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{Config: managed("ontap-silver", "")},
			{
				Config: managed("ontap-gold", ""),
				ConfigPlanChecks: prePlan(
					plancheck.ExpectResourceAction(managedAddr, plancheck.ResourceActionUpdate),
					expectUnknownExactly(managedAddr, withPaths(protection, putMetadata...)...),
					plancheck.ExpectKnownValue(managedAddr, tfjsonpath.New("managed_state"), knownvalue.StringExact("managed")),
					plancheck.ExpectResourceAction(clusterAddr, plancheck.ResourceActionNoop),
				),
				Check: a.managedDefaultIs("ontap-gold"),
			},
			{
				Config: managed("ontap-gold", `trident_managed_state_desired = "unmanaged"`),
				ConfigPlanChecks: prePlan(
					plancheck.ExpectResourceAction(managedAddr, plancheck.ResourceActionUpdate),
					expectUnknownExactly(managedAddr, withPaths(trident, putMetadata...)...),
				),
				ConfigStateChecks: []statecheck.StateCheck{managedString("trident_managed_state_desired", "unmanaged")},
			},
			{
				// The baseline: the same configuration again sends only refreshes.
				PreConfig:        func() { base.counts.mark(a.sim) },
				Config:           managed("ontap-gold", `trident_managed_state_desired = "unmanaged"`),
				ConfigPlanChecks: emptyPlan(),
				Check:            func(*terraform.State) error { base.gets = gets(); return nil },
			},
			{
				PreConfig: func() { base.counts.mark(a.sim) },
				Config:    managed("ontap-gold", `trident_managed_state_desired = "unmanaged"`+"\n  timeouts = { update = \"5m\" }"),
				ConfigPlanChecks: prePlan(
					plancheck.ExpectResourceAction(managedAddr, plancheck.ResourceActionUpdate),
					expectUnknownExactly(managedAddr),
				),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(managedAddr, tfjsonpath.New("timeouts").AtMapKey("update"), knownvalue.StringExact("5m")),
				},
				Check: a.simCheck("a timeouts change sends no request of its own", func(sim *astrasim.Sim) error {
					if p, g := base.counts.since(sim, "PUT "+routeManagedCluster), gets(); p != 0 || g != base.gets {
						return fmt.Errorf("%d PUTs and %d GETs of the managed cluster, want 0 and the %d GETs of refreshes alone", p, g, base.gets)
					}
					return nil
				}),
			},
		},
	})
}

// TestAccKubeconfigCredential_quietPlans: a rename leaves only the PUT's metadata unknown;
// a new kubeconfig also leaves `valid` unknown.
func TestAccKubeconfigCredential_quietPlans(t *testing.T) {
	a := newAccTarget(t)
	first := writeKubeconfig(t, "quiet-cred", "https://one.k8s.example:6443")
	second := writeKubeconfig(t, "quiet-cred", "https://two.k8s.example:6443")
	name := a.name("quiet-cred")
	a.test(resource.TestCase{
		CheckDestroy: a.checkCredentialDestroyed,
		Steps: []resource.TestStep{
			{Config: a.config(credentialHCL(name, first))},
			{
				Config: a.config(credentialHCL(name+"-renamed", first)),
				ConfigPlanChecks: prePlan(
					plancheck.ExpectResourceAction(credentialAddr, plancheck.ResourceActionUpdate),
					expectUnknownExactly(credentialAddr, putMetadata...),
					plancheck.ExpectKnownValue(credentialAddr, tfjsonpath.New("valid"), knownvalue.Bool(true)),
				),
			},
			{
				Config: a.config(credentialHCL(name+"-renamed", second)),
				ConfigPlanChecks: prePlan(
					plancheck.ExpectResourceAction(credentialAddr, plancheck.ResourceActionUpdate),
					expectUnknownExactly(credentialAddr, withPaths([]string{"valid"}, putMetadata...)...),
				),
			},
		},
	})
}

// TestAccCloud_quietPlans: a new bucket leaves only the PUT's metadata unknown; a new
// credential also the state the service discovers again; timeouts alone nothing, and no PUT.
func TestAccCloud_quietPlans(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) { o.Delays.Discover = 50 * time.Millisecond }))
	a.requireSim("the seeded service-account credentials")
	seeds := a.sim.Seeds()
	gcpCred, azureCred := arg("credential_id", seeds.GCP.CredentialID), arg("credential_id", seeds.Azure.CredentialID)
	bucket := arg("default_bucket_id", testBucketID)
	var counts countDelta
	a.test(resource.TestCase{
		CheckDestroy: a.checkCloudDestroyed,
		Steps: []resource.TestStep{
			{Config: a.config(cloudHCL("gcp-quiet", "gcp", gcpCred))},
			{
				Config: a.config(cloudHCL("gcp-quiet", "gcp", gcpCred, bucket)),
				ConfigPlanChecks: prePlan(
					plancheck.ExpectResourceAction(cloudAddr, plancheck.ResourceActionUpdate),
					expectUnknownExactly(cloudAddr, putMetadata...),
					plancheck.ExpectKnownValue(cloudAddr, tfjsonpath.New("state"), knownvalue.StringExact("running")),
				),
			},
			{
				Config: a.config(cloudHCL("gcp-quiet", "gcp", azureCred, bucket)),
				ConfigPlanChecks: prePlan(
					plancheck.ExpectResourceAction(cloudAddr, plancheck.ResourceActionUpdate),
					expectUnknownExactly(cloudAddr, withPaths([]string{"state", "state_unready"}, putMetadata...)...),
				),
				ConfigStateChecks: []statecheck.StateCheck{cloudString("state", "running")},
			},
			{
				PreConfig: func() { counts.mark(a.sim) },
				Config:    a.config(cloudHCL("gcp-quiet", "gcp", azureCred, bucket, `timeouts = { update = "2m" }`)),
				ConfigPlanChecks: prePlan(
					plancheck.ExpectResourceAction(cloudAddr, plancheck.ResourceActionUpdate),
					expectUnknownExactly(cloudAddr),
				),
				Check: a.simCheck("no PUT", func(sim *astrasim.Sim) error { return expectCount(counts.since(sim, "PUT "+routeCloud), 0) }),
			},
		},
	})
}
