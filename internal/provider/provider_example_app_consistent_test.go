package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccExampleAppConsistentPostgres applies examples/app-consistent-postgres as it ships,
// on the simulator's GKE cluster brought under management beforehand, the workload in
// namespace default: the hooks match the postgres container, the script's hash is the
// file's, the policy exists, and a snapshot runs the hooks; the simulator fails the
// script's hooks (-fail-hook-source), so the snapshot completes with hookState failed
// naming the pre-snapshot hook. A second plan is empty.
func TestAccExampleAppConsistentPostgres(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) { o.FailHookSources = []string{"postgres-snapshot-hook"} }))
	a.requireSim("manages a seeded cluster and fails the example's hooks on demand")
	scriptPath, err := filepath.Abs("../../examples/app-consistent-postgres/scripts/postgres-snapshot-hook.sh")
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(scriptPath)
	if err != nil {
		t.Fatal(err)
	}
	gke := a.sim.Seeds().GCP.ClusterID
	if _, err := a.client.CreateManagedCluster(testContext(), astra.ManagedClusterCreate{ID: gke}); err != nil {
		t.Fatalf("managing the GKE cluster: %v", err)
	}
	vars := config.Variables{"managed_cluster_id": config.StringVariable(gke), "namespace": config.StringVariable("default"),
		"hook_script_path": config.StringVariable(scriptPath), "bucket_id": config.StringVariable(a.bucket("postgres-backups"))}
	hcl := a.exampleHCL("app-consistent-postgres")
	a.test(resource.TestCase{
		CheckDestroy: a.checkHookSourcesDestroyed,
		Steps: []resource.TestStep{
			{
				Config:          hcl,
				ConfigVariables: vars,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownOutputValue("hook_containers", knownvalue.ListExact([]knownvalue.Check{
						knownvalue.StringExact("default/postgres-0/postgres")})),
					statecheck.ExpectKnownOutputValue("script_sha256", knownvalue.StringExact(scriptSHA256(string(script)))),
					statecheck.CompareValuePairs("astra_execution_hook.post_snapshot", tfjsonpath.New("hook_source_id"),
						"astra_hook_source.postgres", tfjsonpath.New("id"), compare.ValuesSame()),
					expectString("astra_protection_policy.daily", "granularity", "daily"),
					// The hook source fails on demand: the backup completes, its hooks failed.
					expectString("astra_app_backup.before_upgrade", "state", "completed"),
					statecheck.ExpectKnownOutputValue("before_upgrade_hook_state", knownvalue.StringExact("failed")),
				},
				Check: func(s *terraform.State) error {
					snap, err := a.snapshotOf(s, "astra_app.postgres", "example")
					if err != nil {
						return err
					}
					if snap.State != "completed" || snap.HookState != "failed" || len(snap.HookStateDetails) != 2 {
						return fmt.Errorf("snapshot %s, hookState %q, %d details; want completed, failed, both hooks named",
							snap.State, snap.HookState, len(snap.HookStateDetails))
					}
					return nil
				},
			},
			{Config: hcl, ConfigVariables: vars, ConfigPlanChecks: emptyPlan()},
		},
	})
}
