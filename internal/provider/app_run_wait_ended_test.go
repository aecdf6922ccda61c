package provider

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// A create wait that ends early (timeouts.create here; an interrupt in
// TestAccAppBackup_interruptedHarness) keeps the run in state untainted, with its state:
// the next apply never deletes a run that has since completed (issue 42).

// appRunKinds are the runs a create wait may leave: kind, its routes.
var appRunKinds = []struct{ kind, route, routeOne string }{
	{kind: astrasim.FailSnapshot, route: routeAppSnaps, routeOne: routeAppSnap},
	{kind: astrasim.FailBackup, route: routeAppBackups, routeOne: routeAppBackup},
}

// appRunStates is what Astra Control holds of the app's runs of kind: ID -> state.
func (a *accTarget) appRunStates(kind, appID string) map[string]string {
	a.t.Helper()
	out := map[string]string{}
	if kind == astrasim.FailSnapshot {
		snaps, err := a.client.ListAppSnapshots(testContext(), appID, astra.ListOptions{})
		if err != nil {
			a.t.Fatalf("listing the snapshots: %v", err)
		}
		for _, s := range snaps {
			out[s.ID] = s.State
		}
		return out
	}
	backups, err := a.client.ListAppBackups(testContext(), appID, astra.ListOptions{})
	if err != nil {
		a.t.Fatalf("listing the backups: %v", err)
	}
	for _, b := range backups {
		out[b.ID] = b.State
	}
	return out
}

// awaitAppRuns waits until none of the app's runs of kind is in progress (the simulator's
// delay has passed): what a user finds who comes back later.
func (a *accTarget) awaitAppRuns(kind string, appID *string) func() {
	return func() {
		deadline := time.Now().Add(time.Minute)
		for {
			busy := false
			for _, state := range a.appRunStates(kind, *appID) {
				busy = busy || runInProgress(state)
			}
			if !busy {
				return
			}
			if time.Now().After(deadline) {
				a.t.Fatalf("the %ss of app %s are still in progress: %v", kind, *appID, a.appRunStates(kind, *appID))
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// expectInProgress checks that addr's state is one of a run Astra Control is still taking.
func expectInProgress(addr string) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(addr, tfjsonpath.New("state"), knownvalue.StringFunc(func(v string) error {
		if !runInProgress(v) {
			return fmt.Errorf("state %q, want a run in progress (pending, running, discovering)", v)
		}
		return nil
	}))
}

// TestAccAppRun_createTimeoutFault: a create whose wait ends by timeouts.create succeeds
// with a warning and keeps the run in state, untainted, in progress: exactly one run is
// taken. When the run has completed by the next plan, that plan is empty (NoOp); while it
// still runs, the next apply is an update that waits for it (the service's values unknown)
// and sends nothing. Neither deletes it or takes another: the ID stays, completed.
func TestAccAppRun_createTimeoutFault(t *testing.T) {
	for _, c := range appRunKinds {
		for _, later := range []string{"completed", "running"} {
			t.Run(c.kind+"/"+later, func(t *testing.T) {
				// Long enough to outlast the first step and its plan, on a busy machine too.
				delay := 8 * time.Second
				if later == "running" {
					delay = 15 * time.Second // and the second step's plan
				}
				a := newAccTarget(t, withSim(func(o *astrasim.Options) {
					o.Delays = astrasim.Delays{App: 50 * time.Millisecond, Snapshot: delay, Backup: delay}
				}))
				a.requireSim("a run that takes seconds")
				var extra []string
				if c.kind == astrasim.FailBackup {
					extra = append(extra, fmt.Sprintf("  bucket_id = %q", a.bucket("slow")))
				}
				base := a.appRunBase("slow-" + c.kind)
				short := base + appRunHCL(c.kind, "slow", append(extra, `  timeouts = { create = "300ms" }`)...)
				addr := "astra_app_" + c.kind + ".test"
				var appID string
				var counts countDelta
				same := statecheck.CompareValue(compare.ValuesSame())
				next := resource.TestStep{
					PreConfig:        func() { a.markCounts(&counts) },
					Config:           short,
					ConfigPlanChecks: planned(addr, plancheck.ResourceActionNoop),
					ConfigStateChecks: []statecheck.StateCheck{same.AddStateValue(addr, tfjsonpath.New("id")),
						expectString(addr, "state", "completed")},
				}
				if later == "completed" {
					next.PreConfig = func() { a.awaitAppRuns(c.kind, &appID)(); a.markCounts(&counts) }
				} else {
					// A longer wait this time, as the warning advises.
					next.Config = base + appRunHCL(c.kind, "slow", append(extra, `  timeouts = { create = "1m" }`)...)
					next.ConfigPlanChecks = prePlan(plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						plancheck.ExpectUnknownValue(addr, tfjsonpath.New("state")),
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.NotNull()))
				}
				next.Check = a.simCheck("the run kept: no DELETE, no new POST, one run of the app", func(sim *astrasim.Sim) error {
					return expectCounts(counts.since(sim, "DELETE "+c.routeOne), 0, counts.since(sim, "POST "+c.route), 0,
						len(a.appRunStates(c.kind, appID)), 1)
				})
				a.test(resource.TestCase{
					CheckDestroy: a.checkAppRunsDestroyed,
					Steps: []resource.TestStep{
						{
							// Succeeds (a warning only): not tainted, so the post-apply plan is the
							// update that waits for the run, not a replacement.
							Config:             short,
							ExpectNonEmptyPlan: true,
							ConfigStateChecks: []statecheck.StateCheck{same.AddStateValue(addr, tfjsonpath.New("id")),
								expectInProgress(addr)},
							Check: resource.ComposeTestCheckFunc(recordID(appAddr, &appID),
								a.simCheck("one run taken", func(sim *astrasim.Sim) error {
									return expectCounts(sim.Count("POST", c.route), 1)
								})),
						},
						next,
						{Config: next.Config, ConfigPlanChecks: emptyPlan()},
					},
				})
			})
		}
	}
}

// TestAccAppRun_failedAfterTimeout: a run whose create wait ended early, and which failed
// afterwards, is replaced by the next apply (the failed one deleted, a backup with
// Force-Delete, and a new one taken): a plan keeps only runs that did not fail.
func TestAccAppRun_failedAfterTimeout(t *testing.T) {
	for _, c := range appRunKinds {
		t.Run(c.kind, func(t *testing.T) {
			key := "late-" + c.kind
			a := newAccTarget(t, withSim(func(o *astrasim.Options) {
				o.Delays = astrasim.Delays{App: 50 * time.Millisecond, Snapshot: 2 * time.Second, Backup: 2 * time.Second}
				o.FailNext = []astrasim.FailNext{{Kind: c.kind, App: key, Reasons: []string{"The volume snapshot class was not found"}}}
			}))
			a.requireSim("fails the next " + c.kind)
			var extra []string
			if c.kind == astrasim.FailBackup {
				extra = append(extra, fmt.Sprintf("  bucket_id = %q", a.bucket("late")))
			}
			base := a.appRunBase(key)
			cfg := base + appRunHCL(c.kind, "late", append(extra, `  timeouts = { create = "300ms" }`)...)
			addr := "astra_app_" + c.kind + ".test"
			var appID, first string
			var counts countDelta
			a.test(resource.TestCase{
				CheckDestroy: a.checkAppRunsDestroyed,
				Steps: []resource.TestStep{
					{
						Config: cfg, ExpectNonEmptyPlan: true,
						ConfigStateChecks: []statecheck.StateCheck{expectInProgress(addr)},
						Check:             resource.ComposeTestCheckFunc(recordID(appAddr, &appID), recordID(addr, &first)),
					},
					{
						PreConfig: func() {
							a.awaitAppRuns(c.kind, &appID)()
							if got := a.appRunStates(c.kind, appID)[first]; got != "failed" {
								t.Fatalf("%s %s is %q, want failed (the injected failure)", c.kind, first, got)
							}
							a.markCounts(&counts)
						},
						// A wait long enough for the new run this time.
						Config:           base + appRunHCL(c.kind, "late", append(extra, `  timeouts = { create = "1m" }`)...),
						ConfigPlanChecks: planned(addr, plancheck.ResourceActionDestroyBeforeCreate),
						ConfigStateChecks: []statecheck.StateCheck{expectString(addr, "state", "completed"),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"),
								knownvalue.StringFunc(func(v string) error {
									if v == first {
										return fmt.Errorf("the failed %s %s is still in state", c.kind, v)
									}
									return nil
								}))},
						Check: a.simCheck("the failed one deleted with one DELETE, one new POST", func(sim *astrasim.Sim) error {
							return expectCounts(counts.since(sim, "DELETE "+c.routeOne), 1, counts.since(sim, "POST "+c.route), 1)
						}),
					},
				},
			})
		})
	}
}
