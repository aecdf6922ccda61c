package provider

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccAppBackup_protectsAndImport: the honest protection sequence. An enabled policy
// that takes backups makes the app partial (no backup yet); a backup taken from a snapshot into the
// bucket completes (progress 100%, its size known) and the app is then protected. A
// snapshot_id of no snapshot of the app is refused with the service's reason; a timeouts
// change sends nothing; import by "<app_id>/<id>".
func TestAccAppBackup_protectsAndImport(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) {
		o.Delays = astrasim.Delays{App: 50 * time.Millisecond, Snapshot: 100 * time.Millisecond, Backup: 300 * time.Millisecond}
	}))
	bucket := a.bucket("backups")
	base := a.appRunBase("backup") + policyHCL(fmt.Sprintf(`  granularity = "hourly"
  bucket_id   = %q`, bucket))
	backupWith := func(extra string) string {
		return base + appRunHCL("snapshot", "before-release") + fmt.Sprintf(`
resource "astra_app_backup" "test" {
  app_id      = astra_app.test.id
  name        = "before-release"
  snapshot_id = astra_app_snapshot.test.id
  bucket_id   = %q
%s
}
`, bucket, extra)
	}
	backup := backupWith("")
	var counts countDelta
	markKnown, checkKnown := a.knownAnswers("astra_app_backup")
	a.test(resource.TestCase{
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(a.checkAppRunsDestroyed, a.checkAppsDestroyed),
		Steps: []resource.TestStep{
			{Config: base},
			{
				// A policy that takes backups, and no backup yet: partially protected.
				Config:            base,
				ConfigPlanChecks:  emptyPlan(),
				ConfigStateChecks: []statecheck.StateCheck{expectString(appAddr, "protection_state", "partial")},
			},
			{
				// A snapshot_id that names no snapshot of the app: the service's refusal names
				// the attribute, and nothing is in state.
				Config:      base + appRunHCL("backup", "no-snapshot", `  snapshot_id = "4b2d0c55-8a7e-4f0e-9d51-2c8f3b6a1e07"`),
				ExpectError: errorPhrases("Cannot take the backup", "snapshot_id"),
			},
			{
				Config: backup,
				ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction(backupAddr, plancheck.ResourceActionCreate),
					plancheck.ExpectResourceAction(snapshotAddr, plancheck.ResourceActionCreate)),
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(backupAddr, "state", "completed"),
					expectString(backupAddr, "hook_state", "success"),
					expectString(backupAddr, "bucket_id", bucket),
					expectNull(backupAddr, "schedule_id"),
					statecheck.CompareValuePairs(backupAddr, tfjsonpath.New("snapshot_id"), snapshotAddr, tfjsonpath.New("id"), compare.ValuesSame()),
					statecheck.ExpectKnownValue(backupAddr, tfjsonpath.New("percent_done"), knownvalue.Int64Exact(100)),
					statecheck.ExpectKnownValue(backupAddr, tfjsonpath.New("total_bytes"), knownvalue.Int64Func(func(v int64) error {
						if v <= 0 {
							return fmt.Errorf("total_bytes %d, want a size", v)
						}
						return nil
					})),
					statecheck.ExpectKnownValue(backupAddr, tfjsonpath.New("creation_timestamp"), knownvalue.NotNull()),
				},
				Check: a.simCheck("one POST of the backup (the refused one before it), polled until completed", func(sim *astrasim.Sim) error {
					if sim.Count(http.MethodGet, routeAppBackup) < 1 {
						return fmt.Errorf("the backup was never read while it ran")
					}
					return expectCounts(sim.Count(http.MethodPost, routeAppBackups), 2, sim.Count(http.MethodPost, routeAppSnaps), 1)
				}),
			},
			{
				// A completed backup under a week old and a policy that takes backups: protected.
				PreConfig:         markKnown,
				Config:            backup,
				ConfigPlanChecks:  emptyPlan(),
				Check:             checkKnown,
				ConfigStateChecks: []statecheck.StateCheck{expectString(appAddr, "protection_state", "protected")},
			},
			{
				// Only timeouts change: an update in place that sends nothing, every value known.
				PreConfig: func() { a.markCounts(&counts) },
				Config:    backupWith(`  timeouts = { delete = "5m" }`),
				ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction(backupAddr, plancheck.ResourceActionUpdate),
					expectUnknownExactly(backupAddr)),
				Check: a.simCheck("nothing sent for the backup", func(sim *astrasim.Sim) error {
					return expectCounts(counts.since(sim, "POST "+routeAppBackups), 0, counts.since(sim, "DELETE "+routeAppBackup), 0)
				}),
			},
			{
				Config: requiredProvidersHCL() + backupWith(`  timeouts = { delete = "5m" }`), ResourceName: backupAddr, ImportState: true,
				ImportStateVerify: true, ImportStateIdFunc: appRunImportID(backupAddr), ImportStateVerifyIgnore: []string{"timeouts"},
			},
		},
	})
}

// TestAccAppRun_failed: a snapshot or a backup that fails fails the apply with the
// service's reasons and stays in state, tainted; the next apply deletes it (a failed backup
// with Force-Delete, which the service requires: one DELETE suffices) and takes it again.
func TestAccAppRun_failed(t *testing.T) {
	for _, c := range []struct {
		kind, summary, route, routeOne string
	}{
		{kind: astrasim.FailSnapshot, summary: "Snapshot did not complete", route: routeAppSnaps, routeOne: routeAppSnap},
		{kind: astrasim.FailBackup, summary: "Backup did not complete", route: routeAppBackups, routeOne: routeAppBackup},
	} {
		t.Run(c.kind, func(t *testing.T) {
			key := "failed-" + c.kind
			a := newAccTarget(t, withSim(func(o *astrasim.Options) {
				o.Delays = astrasim.Delays{App: 50 * time.Millisecond, Snapshot: 200 * time.Millisecond, Backup: 200 * time.Millisecond}
				o.FailNext = []astrasim.FailNext{{Kind: c.kind, App: key, Reasons: []string{"The volume snapshot class was not found"}}}
			}))
			a.requireSim("fails the next " + c.kind)
			var extra []string
			if c.kind == astrasim.FailBackup {
				extra = append(extra, fmt.Sprintf("  bucket_id = %q", a.bucket("failed")))
			}
			cfg := a.appRunBase(key) + appRunHCL(c.kind, "kept", extra...)
			addr := "astra_app_" + c.kind + ".test"
			var counts countDelta
			a.test(resource.TestCase{
				CheckDestroy: a.checkAppRunsDestroyed,
				Steps: []resource.TestStep{
					{
						Config: cfg,
						ExpectError: errorPhrases(c.summary, "as failed: The volume snapshot class was not found",
							"recorded in state as tainted"),
					},
					{
						// The failed one is in state, tainted: replaced.
						PreConfig:         func() { a.markCounts(&counts) },
						Config:            cfg,
						ConfigPlanChecks:  planned(addr, plancheck.ResourceActionDestroyBeforeCreate),
						ConfigStateChecks: []statecheck.StateCheck{expectString(addr, "state", "completed")},
						Check: a.simCheck("the failed one deleted with one DELETE, one new POST", func(sim *astrasim.Sim) error {
							return expectCounts(counts.since(sim, "DELETE "+c.routeOne), 1, counts.since(sim, "POST "+c.route), 1)
						}),
					},
				},
			})
		})
	}
}

// TestAccAppRun_lostAnswer: Astra Control takes the snapshot and the backup but the answers
// to both POSTs are lost; the provider finds each by name instead of posting again.
func TestAccAppRun_lostAnswer(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) { o.Delays = astrasim.Delays{App: 50 * time.Millisecond} }))
	a.requireSim("loses answers on purpose")
	for _, route := range []string{routeAppSnaps, routeAppBackups} {
		a.sim.AddFault(astrasim.Fault{Method: http.MethodPost, Route: route, Kind: astrasim.FaultLostAnswer, Times: 1})
	}
	cfg := a.appRunBase("lost") + appRunHCL("snapshot", "lost") +
		appRunHCL("backup", "lost", fmt.Sprintf("  bucket_id = %q", a.bucket("lost")), "  snapshot_id = astra_app_snapshot.test.id")
	var appID string
	a.test(resource.TestCase{
		CheckDestroy: a.checkAppRunsDestroyed,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{expectString(snapshotAddr, "state", "completed"),
					expectString(backupAddr, "state", "completed")},
				Check: resource.ComposeTestCheckFunc(recordID(appAddr, &appID), a.simCheck("one POST of each, each answer lost", func(sim *astrasim.Sim) error {
					snaps, err := a.client.ListAppSnapshots(testContext(), appID, astra.ListOptions{})
					if err != nil {
						return err
					}
					backups, err := a.client.ListAppBackups(testContext(), appID, astra.ListOptions{})
					if err != nil {
						return err
					}
					return expectCounts(sim.Count(http.MethodPost, routeAppSnaps), 1, sim.Count(http.MethodPost, routeAppBackups), 1,
						sim.Fired(http.MethodPost, routeAppSnaps, astrasim.FaultLostAnswer), 1,
						sim.Fired(http.MethodPost, routeAppBackups, astrasim.FaultLostAnswer), 1, len(snaps), 1, len(backups), 1)
				})),
			},
			{Config: cfg, ConfigPlanChecks: emptyPlan()},
		},
	})
}

// TestAccAppRun_identity: a snapshot's and a backup's identity is { app_id, id }; import
// blocks naming only the identity import both with an empty plan.
func TestAccAppRun_identity(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) { o.Delays = astrasim.Delays{App: 50 * time.Millisecond} }))
	cfg := requiredProvidersHCL() + a.appRunBase("identity") + appRunHCL("snapshot", "kept") +
		appRunHCL("backup", "kept", fmt.Sprintf("  bucket_id = %q", a.bucket("identity")))
	a.test(resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		CheckDestroy:           a.checkAppRunsDestroyed,
		Steps: []resource.TestStep{
			{Config: cfg, ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectIdentityValueMatchesState(snapshotAddr, tfjsonpath.New("id")),
				statecheck.ExpectIdentityValueMatchesState(snapshotAddr, tfjsonpath.New("app_id")),
				statecheck.ExpectIdentityValueMatchesState(backupAddr, tfjsonpath.New("id")),
				statecheck.ExpectIdentityValueMatchesState(backupAddr, tfjsonpath.New("app_id")),
			}},
			{Config: cfg, ResourceName: snapshotAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity},
			{Config: cfg, ResourceName: backupAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity},
		},
	})
}

// TestAccAppRun_planTimeRules: a bucket_id the apply would send is checked at plan time,
// naming the attribute: a snapshot's needs api_version 1.7 (refused before any request),
// and a backup's must name a bucket Astra Control has (one read of it, nothing created).
func TestAccAppRun_planTimeRules(t *testing.T) {
	a := newAccTarget(t)
	const appID, missingBucket = "0f284377-e5dc-4dcd-bacd-3197f2b8a347", "4b2d0c55-8a7e-4f0e-9d51-2c8f3b6a1e07"
	run := func(kind string) string {
		return fmt.Sprintf("resource \"astra_app_%s\" \"test\" {\n  app_id    = %q\n  name      = \"checked\"\n  bucket_id = %q\n}\n",
			kind, appID, missingBucket)
	}
	a.test(resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config:      a.renderProviderBlock("1.5") + run("snapshot"),
				PlanOnly:    true,
				ExpectError: errorPhrases("Argument needs api_version 1.7", "api_version is 1.5", "remove bucket_id"),
			},
			{
				PreConfig: func() {
					if a.simulated() {
						if n := len(a.sim.Counts()); n != 0 {
							t.Fatalf("the version check sent requests: %v", a.sim.Counts())
						}
					}
				},
				Config:      a.config(run("backup")),
				PlanOnly:    true,
				ExpectError: errorPhrases("Unknown bucket", `Astra Control has no bucket with ID "`+missingBucket+`"`),
			},
		},
		CheckDestroy: func(*terraform.State) error {
			if a.simulated() {
				if a.sim.Count(http.MethodGet, routeBucket) == 0 {
					return fmt.Errorf("the bucket was never read")
				}
				return expectCounts(a.sim.Count(http.MethodPost, routeAppSnaps), 0, a.sim.Count(http.MethodPost, routeAppBackups), 0)
			}
			return nil
		},
	})
}
