package provider

import (
	"context"
	"fmt"
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
)

const (
	preHookAddr  = "astra_execution_hook.pre"
	postHookAddr = "astra_execution_hook.post"
)

// hooksHCL is a PostgreSQL app (its simulated pod postgres-0 runs container postgres), two
// hook sources, a quiescing one and one the simulator fails, and a pre- and a post-snapshot
// hook; preSource names the pre hook's source (good or failing), preExtra its other
// arguments. withFailing false leaves the failing source out.
func hooksHCL(a *accTarget, preSource, preExtra string, withFailing bool) string {
	failing := ""
	if withFailing {
		failing = fmt.Sprintf(`
resource "astra_hook_source" "failing" {
  name   = %q
  source = "#!/bin/sh\nexit 1\n"

  # Removed while a hook moves off it: the hook's update must come first.
  lifecycle {
    create_before_destroy = true
  }
}
`, a.name("failing"))
	}
	return fmt.Sprintf(`
resource "astra_app" "test" {
  name       = %[1]q
  cluster_id = astra_managed_cluster.test.id
  namespace_scoped_resources = [{ namespace = "default", label_selectors = ["app=postgres"] }]
}

resource "astra_hook_source" "test" {
  name   = %[2]q
  source = %[3]q
}
%[4]s
resource "astra_execution_hook" "pre" {
  name           = %[5]q
  app_id         = astra_app.test.id
  hook_source_id = astra_hook_source.%[6]s.id
  action         = "snapshot"
  stage          = "pre"
%[7]s
}

resource "astra_execution_hook" "post" {
  name              = %[8]q
  app_id            = astra_app.test.id
  hook_source_id    = astra_hook_source.test.id
  action            = "snapshot"
  stage             = "post"
  arguments         = ["thaw"]
  matching_criteria = [{ type = "container_image", value = "postgres" }]
  enabled           = false
}
`, a.name("pg"), a.name("pg-quiesce"), quiesceV1, failing, a.name("pre-snap"), preSource, preExtra, a.name("post-snap"))
}

// snapshotHookState takes a snapshot of the test's app and returns it once completed.
func (a *accTarget) snapshotHookState(s *terraform.State, name string) (*astra.AppSnapshot, error) {
	return a.snapshotOf(s, appAddr, name)
}

// snapshotOf takes a snapshot of the app at appAddr in state and returns it once completed.
func (a *accTarget) snapshotOf(s *terraform.State, appAddr, name string) (*astra.AppSnapshot, error) {
	appID := s.RootModule().Resources[appAddr].Primary.ID
	snap, err := a.client.CreateAppSnapshot(testContext(), appID, astra.AppSnapshotCreate{Name: name})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(testContext(), time.Minute)
	defer cancel()
	return astra.Wait(ctx, a.waitSchedule(), func(ctx context.Context) (*astra.AppSnapshot, error) {
		return a.client.GetAppSnapshot(ctx, appID, snap.ID)
	}, astra.AppSnapshotCompleted)
}

// TestAccExecutionHook_failedHooksAndImport: hooks of a PostgreSQL app created on the app's path (one
// POST each) with the containers they match, read back by one GET each (a POST answer has no
// matchingContainers); the pre hook changed in place (its script,
// arguments and criteria: one PUT); a hook whose script fails leaves the next snapshot
// completed with hookState failed and the hook named, and one whose script succeeds with
// success; the data sources list the hooks by app, action and stage; import by ID plans
// nothing, and (Terraform and OpenTofu 1.12+) import by identity works; destroying a hook
// source another hook still runs is refused, naming the hook.
func TestAccExecutionHook_failedHooksAndImport(t *testing.T) {
	// The simulator fails every hook that runs the source named "failing" (astra-sim
	// -fail-hook-source); names carry no suffix against the simulator.
	a := newAccTarget(t, withSim(func(o *astrasim.Options) { o.FailHookSources = []string{"failing"} }))
	a.requireSim("makes a hook fail on demand (astra-sim -fail-hook-source)")
	cred := a.kubeconfigCredential("kube-hooks", "hooks")
	base := privateManagedHCL(a.cloudID(), cred, `local.storage_classes["ontap-gold"]`, true)
	initial := a.config(base, hooksHCL(a, "test", `  arguments = ["--checkpoint"]
  matching_criteria = [{ type = "container_name", value = "^postgres$" }]`, true))
	failing := a.config(base, hooksHCL(a, "failing", `  arguments = ["--checkpoint", "--fast"]
  matching_criteria = [{ type = "container_name", value = "^postgres$" }, { type = "pod_label", value = "app=postgres" }]`, true))
	lookups := `
data "astra_execution_hooks" "pre" {
  app_id = astra_app.test.id
  stage  = "pre"
}

data "astra_execution_hooks" "snapshot" {
  app_id = astra_app.test.id
  action = "snapshot"
}

data "astra_execution_hooks" "backup" {
  app_id = astra_app.test.id
  action = "backup"
}

data "astra_hook_sources" "failing" {
  name = astra_hook_source.failing.name
}
`
	sameID := statecheck.CompareValue(compare.ValuesSame())
	var counts countDelta
	working := a.config(base, hooksHCL(a, "test", `  arguments = ["--checkpoint"]`, false))
	var preID string
	a.test(resource.TestCase{
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(a.checkHookSourcesDestroyed, a.checkAppsDestroyed),
		Steps: []resource.TestStep{
			{
				Config: initial,
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(preHookAddr, tfjsonpath.New("id")),
					statecheck.CompareValuePairs(preHookAddr, tfjsonpath.New("hook_source_id"), hookSourceAddr, tfjsonpath.New("id"), compare.ValuesSame()),
					statecheck.ExpectKnownValue(preHookAddr, tfjsonpath.New("matching_containers"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectExact(map[string]knownvalue.Check{
							"namespace_name": knownvalue.StringExact("default"), "pod_name": knownvalue.StringExact("postgres-0"),
							"container_name": knownvalue.StringExact("postgres"), "container_image": knownvalue.StringExact("docker.io/library/postgres:latest"),
						}),
					})),
					expectBool(preHookAddr, "enabled", true),
					expectNull(preHookAddr, "description"),
					expectBool(postHookAddr, "enabled", false),
					statecheck.ExpectKnownValue(postHookAddr, tfjsonpath.New("matching_criteria").AtSliceIndex(0).AtMapKey("type"), knownvalue.StringExact("container_image")),
				},
				Check: resource.ComposeAggregateTestCheckFunc(recordID(preHookAddr, &preID),
					a.simCheck("one POST per hook, on the app's path, and one GET reading back the containers it matches", func(sim *astrasim.Sim) error {
						return expectCounts(sim.Count("POST", routeAppExecutionHooks), 2, sim.Count("POST", routeExecutionHooks), 0,
							sim.Count("POST", routeHookSources), 2, sim.Count("GET", routeExecutionHook), 2)
					}),
					func(s *terraform.State) error {
						snap, err := a.snapshotHookState(s, "with-working-hooks")
						if err != nil {
							return err
						}
						if snap.HookState != "success" {
							return fmt.Errorf("hookState %q (%v), want success", snap.HookState, snap.HookStateDetails)
						}
						return nil
					}),
			},
			{Config: initial, ConfigPlanChecks: emptyPlan()},
			{
				// The script, the arguments and the criteria change in place: one PUT.
				PreConfig: func() { a.markCounts(&counts) },
				Config:    failing,
				ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction(preHookAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction(postHookAddr, plancheck.ResourceActionNoop),
					expectUnknownExactly(preHookAddr, withPaths(putMetadata, "matching_containers")...)),
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(preHookAddr, tfjsonpath.New("id")),
					statecheck.CompareValuePairs(preHookAddr, tfjsonpath.New("hook_source_id"), "astra_hook_source.failing", tfjsonpath.New("id"), compare.ValuesSame()),
					statecheck.ExpectKnownValue(preHookAddr, tfjsonpath.New("arguments"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.StringExact("--checkpoint"), knownvalue.StringExact("--fast")})),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					a.simCheck("one PUT of the hook, nothing posted", func(sim *astrasim.Sim) error {
						return expectCounts(counts.since(sim, "PUT "+routeExecutionHook), 1, counts.since(sim, "POST "+routeAppExecutionHooks), 0,
							counts.since(sim, "DELETE "+routeExecutionHook), 0)
					}),
					// The failing script: the snapshot completes, its hookState says which hook failed.
					func(s *terraform.State) error {
						snap, err := a.snapshotHookState(s, "with-a-failing-hook")
						if err != nil {
							return err
						}
						if snap.State != "completed" || snap.HookState != "failed" || len(snap.HookStateDetails) != 1 ||
							!strings.Contains(snap.HookStateDetails[0].Detail, "Execution hook "+a.name("pre-snap")+" (pre-snapshot, script "+a.name("failing")+") exited with status 1 in default/postgres-0/postgres") {
							return fmt.Errorf("snapshot %s, hookState %q, details %+v; want completed, failed, naming the pre hook", snap.State, snap.HookState, snap.HookStateDetails)
						}
						return nil
					}),
			},
			{
				Config: failing + lookups,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.astra_execution_hooks.pre", tfjsonpath.New("hooks"), knownvalue.ListSizeExact(1)),
					statecheck.CompareValuePairs("data.astra_execution_hooks.pre", tfjsonpath.New("hooks").AtSliceIndex(0).AtMapKey("id"), preHookAddr, tfjsonpath.New("id"), compare.ValuesSame()),
					statecheck.ExpectKnownValue("data.astra_execution_hooks.snapshot", tfjsonpath.New("hooks"), knownvalue.ListSizeExact(2)),
					statecheck.ExpectKnownValue("data.astra_execution_hooks.snapshot", tfjsonpath.New("hooks").AtSliceIndex(0).AtMapKey("name"), knownvalue.StringExact(a.name("post-snap"))),
					statecheck.ExpectKnownValue("data.astra_execution_hooks.backup", tfjsonpath.New("hooks"), knownvalue.ListSizeExact(0)),
					statecheck.ExpectKnownValue("data.astra_hook_sources.failing", tfjsonpath.New("hook_sources"), knownvalue.ListSizeExact(1)),
					statecheck.ExpectKnownValue("data.astra_hook_sources.failing", tfjsonpath.New("hook_sources").AtSliceIndex(0).AtMapKey("source"), knownvalue.StringExact("#!/bin/sh\nexit 1\n")),
				},
			},
			{
				Config: requiredProvidersHCL() + failing, ResourceName: preHookAddr, ImportState: true,
				ImportStateKind: resource.ImportBlockWithID, ImportStateIdFunc: func(*terraform.State) (string, error) { return preID, nil },
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{Config: requiredProvidersHCL() + failing, ResourceName: postHookAddr, ImportState: true, ImportStateVerify: true},
			{
				// Terraform and OpenTofu 1.12 and later import by identity { id } too.
				SkipFunc: func() (bool, error) { return !cliAtLeast(t, 1, 12), nil },
				Config:   requiredProvidersHCL() + failing, ResourceName: preHookAddr, ImportState: true,
				ImportStateKind: resource.ImportBlockWithResourceIdentity,
			},
			{
				SkipFunc: func() (bool, error) { return !cliAtLeast(t, 1, 12), nil },
				Config:   requiredProvidersHCL() + failing, ResourceName: hookSourceAddr, ImportState: true,
				ImportStateKind: resource.ImportBlockWithResourceIdentity,
			},
			{
				// Back to the working script, without the failing one, while a hook made outside
				// Terraform still runs it: the pre hook moves first (create_before_destroy on the
				// source orders its destroy after its dependents' updates), then destroying the
				// failing source is refused, naming that hook.
				PreConfig: func() {
					if _, err := a.client.CreateExecutionHook(testContext(), astra.ExecutionHookCreate{Name: a.name("outside"),
						AppID: appIDOf(t, a), HookSourceID: failingID(t, a), Action: astra.HookActionBackup, Stage: astra.HookStagePost}); err != nil {
						t.Fatal(err)
					}
				},
				Config:      working,
				ExpectError: errorPhrases("Hook source in use", "while execution hooks run it: "+a.name("outside")+" (", "Delete those hooks first"),
			},
			{
				PreConfig: func() {
					hooks, err := a.client.ListExecutionHooks(testContext(), astra.ListOptions{})
					if err != nil {
						t.Fatal(err)
					}
					for _, h := range hooks {
						if h.Name == a.name("outside") {
							if err := a.client.DeleteExecutionHook(testContext(), h.ID); err != nil {
								t.Fatal(err)
							}
						}
					}
				},
				Config: working,
				ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction(preHookAddr, plancheck.ResourceActionNoop),
					plancheck.ExpectResourceAction("astra_hook_source.failing", plancheck.ResourceActionDestroy)),
				ConfigStateChecks: []statecheck.StateCheck{expectNull(preHookAddr, "matching_criteria"),
					sameID.AddStateValue(preHookAddr, tfjsonpath.New("id"))},
			},
			{Config: working, ConfigPlanChecks: emptyPlan()},
		},
	})
}

// failingID is the ID of the hook source named "failing".
func failingID(t *testing.T, a *accTarget) string {
	t.Helper()
	h, err := a.client.FindHookSource(testContext(), a.name("failing"))
	if err != nil || h == nil {
		t.Fatalf("hook source failing: %v", err)
	}
	return h.ID
}

// appIDOf is the ID of the test's app in the simulator (the only app).
func appIDOf(t *testing.T, a *accTarget) string {
	t.Helper()
	apps, err := a.client.ListApps(testContext(), astra.ListOptions{})
	if err != nil || len(apps) != 1 {
		t.Fatalf("apps: %v, %d", err, len(apps))
	}
	return apps[0].ID
}

// TestAccExecutionHook_planTimeErrors: a regular expression that does not compile (the
// criterion named), a pre-restore hook, too many or too long arguments, and, at api_version
// 1.4 (release 23.05), a failover hook, naming the release that has it; a hook source the
// account does not have. No hook is sent.
func TestAccExecutionHook_planTimeErrors(t *testing.T) {
	a := newAccTarget(t, withAPIVersion("1.4"))
	hook := func(body string) string {
		return a.config(fmt.Sprintf(`
resource "astra_execution_hook" "test" {
  name           = "hook"
  app_id         = "0f284377-e5dc-4dcd-bacd-3197f2b8a347"
  hook_source_id = "5f7e2e31-280d-4984-a28b-2d19ab5b77c0"
%s
}
`, body))
	}
	long := strings.Repeat("x", 128)
	var sixteen []string
	for i := 0; i < 17; i++ {
		sixteen = append(sixteen, fmt.Sprintf("%q", fmt.Sprint(i)))
	}
	steps := []resource.TestStep{
		{Config: hook(`  action = "snapshot"
  stage  = "pre"
  matching_criteria = [{ type = "pod_name", value = "^pg-" }, { type = "container_image", value = "postgres:1[45" }]`),
			ExpectError: errorPhrases("Invalid regular expression in a matching criterion",
				`matching_criteria[1] (type container_image): "postgres:1[45" is not an RE2 regular expression: error parsing regexp: missing closing ]: `+"`[45`")},
		{Config: hook(`  action = "restore"
  stage  = "pre"`), ExpectError: errorPhrases("A restore hook runs post only", `Astra Control runs restore hooks after the restore only: set stage = "post".`)},
		{Config: hook(`  action    = "backup"
  stage     = "pre"
  arguments = ["` + long + `"]`), ExpectError: errorPhrases(`Attribute arguments[0] string length must be at most 127, got: 128`)},
		{Config: hook(`  action    = "backup"
  stage     = "pre"
  arguments = [` + strings.Join(sixteen, ", ") + `]`), ExpectError: errorPhrases(`Attribute arguments list must contain at most 16 elements, got: 17`)},
		{Config: hook(`  action = "backup"
  stage  = "pre"
  matching_criteria = [{ type = "image", value = "pg" }]`), ExpectError: errorPhrases(`Attribute matching_criteria[0].type value must be one of:`)},
		{Config: hook(`  action = "failover"
  stage  = "post"`), ExpectError: errorPhrases("Failover hooks need Astra Control 23.07",
			"Failover hooks need execution hook version 1.3, which Astra Control 23.07 and later speak. The provider's api_version is 1.4 (release 23.05), whose execution hooks are version 1.2 and have no failover action.",
			"Raise api_version (or ASTRA_API_VERSION) to 1.5 or later")},
		{Config: hook(`  action = "snapshot"
  stage  = "pre"`), ExpectError: errorPhrases("Unknown hook source",
			`Astra Control has no hook source with ID "5f7e2e31-280d-4984-a28b-2d19ab5b77c0". Set hook_source_id to an astra_hook_source's id`)},
	}
	for i := range steps {
		steps[i].PlanOnly = true
	}
	a.test(resource.TestCase{
		Steps: steps,
		CheckDestroy: func(*terraform.State) error {
			if a.simulated() && a.sim.Count("POST", routeAppExecutionHooks)+a.sim.Count("POST", routeExecutionHooks) != 0 {
				return fmt.Errorf("a refused hook was sent")
			}
			return nil
		},
	})
}

// TestAccExecutionHook_failoverFrom2307: at api_version 1.5 (23.07) a failover hook is
// planned and created at execution hook version 1.3; a second hook of its name is refused
// naming the first and its import.
func TestAccExecutionHook_failoverFrom2307(t *testing.T) {
	a := newAccTarget(t, withAPIVersion("1.5"))
	cred := a.kubeconfigCredential("kube-failover", "failover")
	cfg := a.config(privateManagedHCL(a.cloudID(), cred, `local.storage_classes["ontap-gold"]`, true), appHCL(a.name("web"), "default"),
		hookSourceHCL(a.name("promote"), "source", `"#!/bin/sh\necho promoted\n"`), `
resource "astra_execution_hook" "failover" {
  name           = "`+a.name("after-failover")+`"
  app_id         = astra_app.test.id
  hook_source_id = astra_hook_source.test.id
  action         = "failover"
  stage          = "post"
}
`)
	a.test(resource.TestCase{
		CheckDestroy: a.checkHookSourcesDestroyed,
		Steps: []resource.TestStep{
			{
				Config:            cfg,
				ConfigStateChecks: []statecheck.StateCheck{expectString("astra_execution_hook.failover", "action", "failover")},
				Check: func(s *terraform.State) error {
					h, err := a.client.GetExecutionHook(testContext(), s.RootModule().Resources["astra_execution_hook.failover"].Primary.ID)
					if err != nil {
						return err
					}
					if h.Version != "1.3" {
						return fmt.Errorf("the hook is version %s, want 1.3", h.Version)
					}
					return nil
				},
			},
			{Config: cfg, ConfigPlanChecks: emptyPlan()},
			{
				// Hook names are unique in the account: a second one of the name names the first.
				Config: cfg + `
resource "astra_execution_hook" "twin" {
  name           = "` + a.name("after-failover") + `"
  app_id         = astra_app.test.id
  hook_source_id = astra_hook_source.test.id
  action         = "snapshot"
  stage          = "post"
}
`,
				ExpectError: errorPhrases("Execution hook already exists",
					"Astra Control already holds the execution hook \""+a.name("after-failover")+"\" (app", "terraform import astra_execution_hook.<name>"),
			},
		},
	})
}
