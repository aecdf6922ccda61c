package provider

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// appRunsDataSourcesHCL reads the app's snapshots and backups (kind "snapshots" and
// "backups") four ways: all, on demand, taken by a policy, failed.
func appRunsDataSourcesHCL() string {
	var out string
	for _, kind := range []string{"snapshots", "backups"} {
		out += fmt.Sprintf(`
data "astra_app_%[1]s" "all" {
  app_id     = astra_app.test.id
  depends_on = [astra_app_snapshot.test, astra_app_backup.test]
}

data "astra_app_%[1]s" "on_demand" {
  app_id     = astra_app.test.id
  on_demand  = true
  depends_on = [astra_app_snapshot.test, astra_app_backup.test]
}

data "astra_app_%[1]s" "scheduled" {
  app_id     = astra_app.test.id
  on_demand  = false
  depends_on = [astra_app_snapshot.test, astra_app_backup.test]
}

data "astra_app_%[1]s" "failed" {
  app_id     = astra_app.test.id
  state      = "failed"
  depends_on = [astra_app_snapshot.test, astra_app_backup.test]
}
`, kind)
	}
	return out
}

// TestAccAppRunsDataSources: astra_app_snapshots and astra_app_backups list an app's
// snapshots and backups, those taken on demand (the resources', and a failed one taken
// outside Terraform) and those an hourly policy took when the clock passed its minute,
// filtered by how they were taken and by state; latest_completed is the newest completed
// one (a newer failed one never is), and null when none matches.
func TestAccAppRunsDataSources(t *testing.T) {
	clock := &testClock{}
	a := newAccTarget(t, withSim(func(o *astrasim.Options) {
		o.Now = clock.now
		o.PausePolicies = false // the policy fires when the test moves the clock past its minute
		o.Delays = astrasim.Delays{App: 50 * time.Millisecond}
	}))
	a.requireSim("moves the schedule clock")
	bucket := a.bucket("listed")
	// The policy's next firing is about 30 minutes away: none happens until the clock moves 45.
	minute := (clock.now().UTC().Minute() + 30) % 60
	resources := a.appRunBase("listed") + policyHCL(fmt.Sprintf("  granularity = \"hourly\"\n  minute = %d\n  bucket_id = %q", minute, bucket)) +
		appRunHCL("snapshot", "on-demand") + appRunHCL("backup", "on-demand", fmt.Sprintf("  bucket_id = %q", bucket))
	var appID string
	size := func(addr, list string, n int) statecheck.StateCheck {
		return statecheck.ExpectKnownValue(addr, tfjsonpath.New(list), knownvalue.ListSizeExact(n))
	}
	same := func(addr string, path tfjsonpath.Path, other string, otherPath tfjsonpath.Path) statecheck.StateCheck {
		return statecheck.CompareValuePairs(addr, path, other, otherPath, compare.ValuesSame())
	}
	id := tfjsonpath.New("id")
	a.test(resource.TestCase{
		CheckDestroy: a.checkAppRunsDestroyed,
		Steps: []resource.TestStep{
			{Config: resources, Check: recordID(appAddr, &appID)},
			{
				PreConfig: func() {
					clock.advance(45 * time.Minute)
					// A request lets the policy fire (at its minute) before the failure is queued,
					// which is then the outside snapshot's.
					if _, err := a.client.GetApp(testContext(), appID); err != nil {
						t.Fatal(err)
					}
					if err := a.sim.FailNextSnapshot(appID, "The volume snapshot class was not found"); err != nil {
						t.Fatal(err)
					}
					if _, err := a.client.CreateAppSnapshot(testContext(), appID, astra.AppSnapshotCreate{Name: "outside-failed"}); err != nil {
						t.Fatal(err)
					}
				},
				Config: resources + appRunsDataSourcesHCL(),
				ConfigStateChecks: []statecheck.StateCheck{
					// Snapshots: the resource's, the policy's, the failed one.
					size("data.astra_app_snapshots.all", "snapshots", 3),
					same("data.astra_app_snapshots.all", tfjsonpath.New("latest_completed").AtMapKey("schedule_id"), policyAddr, id),
					size("data.astra_app_snapshots.on_demand", "snapshots", 2),
					same("data.astra_app_snapshots.on_demand", tfjsonpath.New("latest_completed").AtMapKey("id"), snapshotAddr, id),
					statecheck.ExpectKnownValue("data.astra_app_snapshots.on_demand", tfjsonpath.New("snapshots").AtSliceIndex(1).AtMapKey("name"),
						knownvalue.StringExact("outside-failed")),
					size("data.astra_app_snapshots.scheduled", "snapshots", 1),
					same("data.astra_app_snapshots.scheduled", tfjsonpath.New("snapshots").AtSliceIndex(0).AtMapKey("schedule_id"), policyAddr, id),
					size("data.astra_app_snapshots.failed", "snapshots", 1),
					statecheck.ExpectKnownValue("data.astra_app_snapshots.failed", tfjsonpath.New("snapshots").AtSliceIndex(0).AtMapKey("state_unready").AtSliceIndex(0),
						knownvalue.StringExact("The volume snapshot class was not found")),
					statecheck.ExpectKnownValue("data.astra_app_snapshots.failed", tfjsonpath.New("latest_completed"), knownvalue.Null()),
					// Backups: the resource's and the policy's.
					size("data.astra_app_backups.all", "backups", 2),
					same("data.astra_app_backups.all", tfjsonpath.New("latest_completed").AtMapKey("schedule_id"), policyAddr, id),
					size("data.astra_app_backups.on_demand", "backups", 1),
					same("data.astra_app_backups.on_demand", tfjsonpath.New("latest_completed").AtMapKey("id"), backupAddr, id),
					size("data.astra_app_backups.scheduled", "backups", 1),
					statecheck.ExpectKnownValue("data.astra_app_backups.scheduled", tfjsonpath.New("backups").AtSliceIndex(0).AtMapKey("percent_done"),
						knownvalue.Int64Exact(100)),
					size("data.astra_app_backups.failed", "backups", 0),
					statecheck.ExpectKnownValue("data.astra_app_backups.failed", tfjsonpath.New("latest_completed"), knownvalue.Null()),
				},
			},
			{
				// An app_id that names no app is an error naming it.
				Config:      a.config(`data "astra_app_backups" "gone" { app_id = "4b2d0c55-8a7e-4f0e-9d51-2c8f3b6a1e07" }`),
				ExpectError: errorPhrases("Unknown app", `Astra Control has no app with ID "4b2d0c55-8a7e-4f0e-9d51-2c8f3b6a1e07"`),
			},
		},
	})
}
