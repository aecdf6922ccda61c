package provider

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
)

const (
	snapshotAddr = "astra_app_snapshot.test"
	backupAddr   = "astra_app_backup.test"

	routeAppSnaps   = "/k8s/v1/apps/{app_id}/appSnaps"
	routeAppSnap    = "/k8s/v1/apps/{app_id}/appSnaps/{appSnap_id}"
	routeAppBackups = "/k8s/v1/apps/{app_id}/appBackups"
	routeAppBackup  = "/k8s/v1/apps/{app_id}/appBackups/{appBackup_id}"
)

// appRunHCL is an astra_app_snapshot or astra_app_backup (kind "snapshot" or "backup")
// named "test" of the test's app; extra holds more arguments.
func appRunHCL(kind, name string, extra ...string) string {
	return fmt.Sprintf(`
resource "astra_app_%s" "test" {
  app_id = astra_app.test.id
  name   = %q
%s
}
`, kind, name, strings.Join(extra, "\n"))
}

// appRunBase is the test's managed cluster with an app of its default namespace.
func (a *accTarget) appRunBase(key string) string {
	cred := a.kubeconfigCredential("kube-"+key, key)
	return a.config(privateManagedHCL(a.cloudID(), cred, `local.storage_classes["ontap-gold"]`, true), appHCL(a.name(key), "default"))
}

// appRunImportID is the import ID "<app_id>/<id>" of addr.
func appRunImportID(addr string) resource.ImportStateIdFunc {
	return func(s *terraform.State) (string, error) {
		r := s.RootModule().Resources[addr]
		if r == nil {
			return "", fmt.Errorf("%s is not in state", addr)
		}
		return r.Primary.Attributes["app_id"] + "/" + r.Primary.ID, nil
	}
}

// checkAppRunsDestroyed is a CheckDestroy: every snapshot and backup of the test is gone (a 404).
func (a *accTarget) checkAppRunsDestroyed(s *terraform.State) error {
	for _, r := range s.RootModule().Resources {
		appID, id := r.Primary.Attributes["app_id"], r.Primary.ID
		var get func() error
		switch r.Type {
		case "astra_app_snapshot":
			get = func() error { _, err := a.client.GetAppSnapshot(testContext(), appID, id); return err }
		case "astra_app_backup":
			get = func() error { _, err := a.client.GetAppBackup(testContext(), appID, id); return err }
		default:
			continue
		}
		if err := goneAfterDestroy(strings.TrimPrefix(r.Type, "astra_app_"), id, get); err != nil {
			return err
		}
	}
	return nil
}

// knownAnswers marks the known answers' reads and plans of typ, then checks that the
// provider answered some itself since (none when ASTRA_KNOWN_ANSWERS is off): an unchanged
// snapshot or backup is refreshed and planned without the framework.
func (a *accTarget) knownAnswers(typ string) (mark func(), check resource.TestCheckFunc) {
	before := map[string]int{}
	kinds := []string{"read", "plan"}
	mark = func() {
		for _, kind := range kinds {
			before[kind] = a.provider.answered.Get(kind + " " + typ)
		}
	}
	check = func(*terraform.State) error {
		on, err := knownanswers.Enabled()
		if err != nil {
			return err
		}
		for _, kind := range kinds {
			got := a.provider.answered.Get(kind+" "+typ) - before[kind]
			if (on && got == 0) || (!on && got != 0) {
				return fmt.Errorf("the known answers answered %d %ss of %s (on: %v)", got, kind, typ, on)
			}
		}
		return nil
	}
	return mark, check
}

// TestAccAppSnapshot_lifecycleAndImport takes a snapshot and waits until it completed
// (polled while it runs), with an empty plan afterwards; a timeouts change is an update that sends
// nothing; import by "<app_id>/<id>"; a new name replaces it (the old one deleted, a 404);
// a name the app's snapshots already have is refused with the import that adopts it;
// destroy deletes it.
func TestAccAppSnapshot_lifecycleAndImport(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) {
		o.Delays = astrasim.Delays{App: 50 * time.Millisecond, Snapshot: 300 * time.Millisecond}
	}))
	base := a.appRunBase("snap")
	first := base + appRunHCL("snapshot", "before-migration")
	sameID := statecheck.CompareValue(compare.ValuesSame())
	var counts countDelta
	var firstID, appID string
	markKnown, checkKnown := a.knownAnswers("astra_app_snapshot")
	a.test(resource.TestCase{
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(a.checkAppRunsDestroyed, a.checkAppsDestroyed),
		Steps: []resource.TestStep{
			{
				Config: first,
				ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction(snapshotAddr, plancheck.ResourceActionCreate),
					plancheck.ExpectUnknownValue(snapshotAddr, tfjsonpath.New("state"))),
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(snapshotAddr, "state", "completed"),
					expectString(snapshotAddr, "hook_state", "success"),
					expectString(snapshotAddr, "name", "before-migration"),
					expectNull(snapshotAddr, "schedule_id"),
					expectNull(snapshotAddr, "bucket_id"),
					statecheck.ExpectKnownValue(snapshotAddr, tfjsonpath.New("state_details"), knownvalue.ListExact(nil)),
					statecheck.CompareValuePairs(snapshotAddr, tfjsonpath.New("app_id"), appAddr, tfjsonpath.New("id"), compare.ValuesSame()),
					statecheck.ExpectKnownValue(snapshotAddr, tfjsonpath.New("metadata").AtMapKey("creation_timestamp"), knownvalue.NotNull()),
					sameID.AddStateValue(snapshotAddr, tfjsonpath.New("id")),
				},
				Check: resource.ComposeAggregateTestCheckFunc(recordID(snapshotAddr, &firstID), recordID(appAddr, &appID),
					a.simCheck("one POST, then polled until completed", func(sim *astrasim.Sim) error {
						if sim.Count(http.MethodGet, routeAppSnap) < 1 {
							return fmt.Errorf("the snapshot was never read while it ran")
						}
						return expectCounts(sim.Count(http.MethodPost, routeAppSnaps), 1)
					})),
			},
			{
				PreConfig: markKnown, Config: first, ConfigPlanChecks: emptyPlan(), Check: checkKnown,
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(snapshotAddr, tfjsonpath.New("id"))},
			},
			{
				// Only timeouts change: an update in place that sends nothing, every value known.
				PreConfig: func() { a.markCounts(&counts) },
				Config:    base + appRunHCL("snapshot", "before-migration", `  timeouts = { create = "10m", delete = "5m" }`),
				ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction(snapshotAddr, plancheck.ResourceActionUpdate),
					expectUnknownExactly(snapshotAddr)),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(snapshotAddr, tfjsonpath.New("id"))},
				Check: a.simCheck("nothing sent for the snapshot", func(sim *astrasim.Sim) error {
					return expectCounts(counts.since(sim, "POST "+routeAppSnaps), 0, counts.since(sim, "DELETE "+routeAppSnap), 0)
				}),
			},
			{
				Config:       requiredProvidersHCL() + base + appRunHCL("snapshot", "before-migration", `  timeouts = { create = "10m", delete = "5m" }`),
				ResourceName: snapshotAddr, ImportState: true, ImportStateVerify: true, ImportStateIdFunc: appRunImportID(snapshotAddr),
				ImportStateVerifyIgnore: []string{"timeouts"},
			},
			{
				// A new name is a new snapshot: the old one is deleted first.
				PreConfig: func() { a.markCounts(&counts) },
				Config:    base + appRunHCL("snapshot", "before-release"),
				ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction(snapshotAddr, plancheck.ResourceActionDestroyBeforeCreate),
					plancheck.ExpectResourceAction(appAddr, plancheck.ResourceActionNoop)),
				ConfigStateChecks: []statecheck.StateCheck{expectString(snapshotAddr, "name", "before-release"), expectString(snapshotAddr, "state", "completed")},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrWith(snapshotAddr, "id", func(id string) error {
						if id == firstID {
							return fmt.Errorf("the snapshot kept its ID %s; want a new one", id)
						}
						return goneAfterDestroy("snapshot", firstID, func() error {
							_, err := a.client.GetAppSnapshot(testContext(), appID, firstID)
							return err
						})
					}),
					a.simCheck("one DELETE, one POST", func(sim *astrasim.Sim) error {
						return expectCounts(counts.since(sim, "DELETE "+routeAppSnap), 1, counts.since(sim, "POST "+routeAppSnaps), 1)
					})),
			},
			{
				// A name one of the app's snapshots has (taken outside Terraform): refused (problem
				// 176), and the error names the snapshot and the import that adopts it.
				PreConfig: func() {
					if _, err := a.client.CreateAppSnapshot(testContext(), appID, astra.AppSnapshotCreate{Name: a.name("outside")}); err != nil {
						t.Fatal(err)
					}
				},
				Config: base + appRunHCL("snapshot", a.name("outside")),
				// The import ID is "<app_id>/<id>": two UUIDs.
				ExpectError: regexp.MustCompile(errorPhrases("Snapshot already exists", `Astra Control already holds the snapshot "`+a.name("outside")+`"`).String() +
					`.*terraform import astra_app_snapshot\.<name>\s+[0-9a-f-]{36}/[0-9a-f-]{36}.*\(problem\s+176\)`),
			},
		},
	})
}

// TestAccAppSnapshot_busy: while another snapshot of the app runs, the service refuses a
// new one (409, problem 148) and refuses to delete one still running (148): create and
// delete ask again until it is accepted, and nothing is duplicated.
func TestAccAppSnapshot_busy(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) { o.Delays = astrasim.Delays{App: 50 * time.Millisecond} }))
	a.requireSim("injects the service's refusals")
	base := a.appRunBase("snap-busy")
	cfg := base + appRunHCL("snapshot", "busy")
	var appID string
	a.test(resource.TestCase{
		CheckDestroy: a.checkAppRunsDestroyed,
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					a.sim.AddFault(astrasim.Fault{Method: http.MethodPost, Route: routeAppSnaps, Kind: astrasim.FaultRetryLater,
						Problem: astra.ProblemSnapshotInProgress, Times: 2})
				},
				Config:            cfg,
				ConfigStateChecks: []statecheck.StateCheck{expectString(snapshotAddr, "state", "completed")},
				Check: resource.ComposeTestCheckFunc(recordID(appAddr, &appID), a.simCheck("refused twice, taken once", func(sim *astrasim.Sim) error {
					snaps, err := a.client.ListAppSnapshots(testContext(), appID, astra.ListOptions{})
					if err != nil {
						return err
					}
					return expectCounts(sim.Fired(http.MethodPost, routeAppSnaps, astrasim.FaultRetryLater), 2,
						sim.Count(http.MethodPost, routeAppSnaps), 3, len(snaps), 1)
				})),
			},
			{
				PreConfig: func() {
					a.sim.AddFault(astrasim.Fault{Method: http.MethodDelete, Route: routeAppSnap, Kind: astrasim.FaultRetryLater,
						Problem: astra.ProblemSnapshotInProgress, Times: 2})
				},
				Config:           base,
				ConfigPlanChecks: planned(snapshotAddr, plancheck.ResourceActionDestroy),
				Check: a.simCheck("refused twice, deleted at the third DELETE", func(sim *astrasim.Sim) error {
					return expectCounts(sim.Fired(http.MethodDelete, routeAppSnap, astrasim.FaultRetryLater), 2,
						sim.Count(http.MethodDelete, routeAppSnap), 3)
				}),
			},
		},
	})
}
