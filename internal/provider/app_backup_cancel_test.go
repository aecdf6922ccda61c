package provider

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// A backup whose create wait ended early is kept in state untainted; destroying it while it
// runs cancels it (ACC "Cancel backups": the service accepts the DELETE of a running
// backup), and one still pending is asked again until it runs (409/128: "A pending backup
// can't be canceled"), within timeouts.delete (issue 43, item 5).

// slowBackupSteps is the first step both tests share: a backup whose create wait ends
// after 300ms, kept in state in progress, with timeouts.delete deleteTimeout; it records
// the app's and the backup's IDs.
func slowBackupSteps(a *accTarget, key, deleteTimeout string, appID, backupID *string) (base string, first resource.TestStep) {
	base = a.appRunBase(key)
	cfg := base + appRunHCL(astrasim.FailBackup, "long", fmt.Sprintf("  bucket_id = %q", a.bucket(key)),
		fmt.Sprintf(`  timeouts = { create = "300ms", delete = %q }`, deleteTimeout))
	return base, resource.TestStep{
		Config: cfg, ExpectNonEmptyPlan: true,
		ConfigStateChecks: []statecheck.StateCheck{expectInProgress("astra_app_backup.test")},
		Check:             resource.ComposeTestCheckFunc(recordID(appAddr, appID), recordID("astra_app_backup.test", backupID)),
	}
}

// TestAccAppBackup_destroyCancelsRun: a running backup is destroyed by one DELETE, well
// within a timeouts.delete (5s) shorter than what is left of its run (10s): cancelled, not
// waited for.
func TestAccAppBackup_destroyCancelsRun(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) {
		o.Delays = astrasim.Delays{App: 50 * time.Millisecond, Backup: 20 * time.Second} // pending 10s, then running 10s
	}))
	a.requireSim("a backup that runs for seconds")
	var appID, backupID string
	var counts countDelta
	base, first := slowBackupSteps(a, "cancel", "5s", &appID, &backupID)
	a.test(resource.TestCase{
		CheckDestroy: a.checkAppRunsDestroyed,
		Steps: []resource.TestStep{first, {
			PreConfig: func() {
				deadline := time.Now().Add(30 * time.Second)
				for a.appRunStates(astrasim.FailBackup, appID)[backupID] != "running" {
					if time.Now().After(deadline) {
						t.Fatalf("backup %s never ran: %v", backupID, a.appRunStates(astrasim.FailBackup, appID))
					}
					time.Sleep(50 * time.Millisecond)
				}
				a.markCounts(&counts)
			},
			Config:           base,
			ConfigPlanChecks: planned("astra_app_backup.test", plancheck.ResourceActionDestroy),
			Check: a.simCheck("one DELETE cancelled the running backup", func(sim *astrasim.Sim) error {
				return expectCounts(counts.since(sim, "DELETE "+routeAppBackup), 1,
					len(a.appRunStates(astrasim.FailBackup, appID)), 0)
			}),
		}},
	})
}

// TestAccAppBackup_destroyWaitsPending: a pending backup is refused (409/128) and the
// DELETE asked again until the backup runs and the service cancels it. The backup stays
// pending 8s: the destroy's refresh, plan and first DELETE must come within it, which 4s
// did not leave on a loaded machine; timeouts.delete (15s) outlasts it.
func TestAccAppBackup_destroyWaitsPending(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) {
		o.Delays = astrasim.Delays{App: 50 * time.Millisecond, Backup: 16 * time.Second} // pending 8s
	}))
	a.requireSim("a backup pending for seconds")
	var appID, backupID string
	var counts countDelta
	base, first := slowBackupSteps(a, "pending", "15s", &appID, &backupID)
	first.Check = resource.ComposeTestCheckFunc(first.Check, func(*terraform.State) error {
		if got := a.appRunStates(astrasim.FailBackup, appID)[backupID]; got != "pending" {
			return fmt.Errorf("backup %s is %q after the first step, want pending", backupID, got)
		}
		a.markCounts(&counts)
		return nil
	})
	a.test(resource.TestCase{
		CheckDestroy: a.checkAppRunsDestroyed,
		Steps: []resource.TestStep{first, {
			Config:           base,
			ConfigPlanChecks: planned("astra_app_backup.test", plancheck.ResourceActionDestroy),
			Check: a.simCheck("the DELETE refused while pending, asked again, accepted once running", func(sim *astrasim.Sim) error {
				if n := counts.since(sim, "DELETE "+routeAppBackup); n < 2 {
					return fmt.Errorf("%d DELETEs of the backup, want a refused one and the accepted one", n)
				}
				return expectCounts(len(a.appRunStates(astrasim.FailBackup, appID)), 0, counts.since(sim, "POST "+routeAppBackups), 0)
			}),
		}},
	})
}
