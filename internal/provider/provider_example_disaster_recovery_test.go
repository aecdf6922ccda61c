package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccExampleDisasterRecovery applies examples/disaster-recovery as it ships, on two
// managed clusters: the app, the relationship (established) and the 5-minute replicating
// policy (sent as FREQ=MINUTELY;INTERVAL=5 with replicate "true"); then the README's
// runbook by argument, as under every CLI: fail over by changing desired_state, reverse
// by setting reversed_source_app_id, each one in-place update, each converged plan empty.
func TestAccExampleDisasterRecovery(t *testing.T) {
	a := newAccTarget(t, withSim(mirrorDelays))
	a.requireSim("two managed clusters of the simulator (against a real Astra Control, TestAccAppMirror_cycleAndImport " +
		"replicates to $" + envDRCluster + ")")
	clusters := seedClusters(a, "dr-example", 2, true)
	prod, dr := clusters["dr-example-0"], clusters["dr-example-1"]
	vars := config.Variables{"production_cluster_id": config.StringVariable(prod), "dr_cluster_id": config.StringVariable(dr),
		"app_name": config.StringVariable(a.name("web"))}
	hcl := a.exampleHCL("disaster-recovery")
	edit := func(from, to string) string {
		if !strings.Contains(hcl, from) {
			t.Fatalf("the example no longer holds %q", from)
		}
		return strings.Replace(hcl, from, to, 1)
	}
	failedOver := edit(`desired_state = "established"`, `desired_state = "failed_over"`)
	replicaVar := "dr_example_replica_" + randomHex(4)
	reversed := edit("reversed_source_app_id = null", "reversed_source_app_id = var."+replicaVar) + reversedVariable(replicaVar)
	var replica, web string
	reversedVars := config.Variables{replicaVar: laterString{&replica}}
	for k, v := range vars {
		reversedVars[k] = v
	}
	const addr, policy = "astra_app_mirror.web", "astra_protection_policy.replication"
	inPlace := prePlan(plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate))
	a.test(resource.TestCase{
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(a.checkMirrorsDestroyed, a.checkAppsDestroyed),
		Steps: []resource.TestStep{
			{
				Config: hcl, ConfigVariables: vars,
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(addr, "state", "established"), expectString(policy, "granularity", "custom"),
					expectBool(policy, "replicate", true),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					recordID("astra_app.web", &web),
					resource.TestCheckResourceAttrWith(addr, "destination_app_id", func(v string) error { replica = v; return nil }),
					resource.TestCheckResourceAttr(policy, "interval_minutes", "5"),
					a.simCheck("the policy replicates every 5 minutes", func(*astrasim.Sim) error {
						s, err := a.client.ListAppSchedules(testContext(), web)
						if err != nil || len(s) != 1 {
							return fmt.Errorf("schedules %+v: %w", s, err)
						}
						if !strings.Contains(s[0].RecurrenceRule, "FREQ=MINUTELY;INTERVAL=5") || s[0].Replicate == nil || !s[0].Replicate.Value() {
							return fmt.Errorf("schedule %+v", s[0])
						}
						return nil
					})),
			},
			{Config: hcl, ConfigVariables: vars, ConfigPlanChecks: emptyPlan()},
			{Config: failedOver, ConfigVariables: vars, ConfigPlanChecks: inPlace,
				ConfigStateChecks: []statecheck.StateCheck{expectString(addr, "state", "failedOver")}},
			{Config: failedOver, ConfigVariables: vars, ConfigPlanChecks: emptyPlan()},
			{
				Config: reversed, ConfigVariables: reversedVars, ConfigPlanChecks: inPlace,
				ConfigStateChecks: []statecheck.StateCheck{expectString(addr, "state", "established")},
				Check:             resource.TestCheckResourceAttrPtr(addr, "current_source_app_id", &replica),
			},
			{Config: reversed, ConfigVariables: reversedVars, ConfigPlanChecks: emptyPlan()},
		},
	})
}
