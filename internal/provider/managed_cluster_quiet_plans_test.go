package provider

import (
	"fmt"
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
				ConfigStateChecks: []statecheck.StateCheck{expectString(managedAddr, "trident_managed_state_desired", "unmanaged")},
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
