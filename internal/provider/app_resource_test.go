package provider

import (
	"context"
	"fmt"
	"net/http"
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
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

const (
	appAddr    = "astra_app.test"
	policyAddr = "astra_protection_policy.test"

	routeApps      = "/k8s/v2/apps"
	routeApp       = "/k8s/v2/apps/{app_id}"
	routeSchedules = "/k8s/v1/apps/{app_id}/schedules"
	routeSchedule  = "/k8s/v1/apps/{app_id}/schedules/{schedule_id}"
)

// appHCL is an app on the test's managed cluster, protecting namespace.
func appHCL(name, namespace string, extra ...string) string {
	return fmt.Sprintf(`
resource "astra_app" "test" {
  name       = %q
  cluster_id = astra_managed_cluster.test.id
  namespace_scoped_resources = [{ namespace = %q }]
%s
}
`, name, namespace, strings.Join(extra, "\n"))
}

// policyHCL is a protection policy of the test's app; body holds the schedule's arguments.
func policyHCL(body string) string {
	return fmt.Sprintf(`
resource "astra_protection_policy" "test" {
  app_id             = astra_app.test.id
  name               = "policy"
  snapshot_retention = 7
  backup_retention   = 3
%s
}
`, body)
}

// appsGone is a CheckDestroy: every astra_app of the test is gone (a 404).
func (a *accTarget) checkAppsDestroyed(s *terraform.State) error {
	return allGone(s, "astra_app", "app", func(id string) error { _, err := a.client.GetApp(testContext(), id); return err })
}

// TestAccApp_protect manages an app on a managed cluster and protects it: create (waiting
// for ready through discovering), protection_state following the policy (partial with an
// active policy and no backup yet, none when disabled), in-place updates of both with one PUT each, the
// plan-time errors, import by ID, and destroy in order (policy, app, managed cluster).
func TestAccApp_protect(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) { o.Delays = astrasim.Delays{App: 100 * time.Millisecond} }))
	cred := a.kubeconfigCredential("kube-app", "app")
	base := privateManagedHCL(a.cloudID(), cred, `local.storage_classes["ontap-gold"]`, true)
	hourly := a.config(base, appHCL(a.name("web"), "default"), policyHCL(`  granularity = "hourly"
  minute      = 15`))
	daily := a.config(base, appHCL(a.name("web"), "default"), policyHCL(`  granularity = "daily"
  minute      = 30
  hour        = 2`))
	disabled := a.config(base, appHCL(a.name("web"), "default"), policyHCL(`  granularity = "daily"
  minute      = 30
  hour        = 2
  enabled     = false`))
	renamed := a.config(base, appHCL(a.name("web-2"), "default", `  labels = { team = "platform" }`), policyHCL(`  granularity = "daily"
  minute      = 30
  hour        = 2
  enabled     = false`))
	var counts countDelta
	var clusterID, outsideID string
	unmanaged := a.config(privateManagedHCL(a.cloudID(), cred, "", false))
	a.test(resource.TestCase{
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(a.checkAppsDestroyed, a.checkClusterDestroyed),
		Steps: []resource.TestStep{
			{
				Config: hourly,
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(appAddr, "state", "ready"),
					statecheck.CompareValuePairs(appAddr, tfjsonpath.New("cluster_name"), clusterAddr, tfjsonpath.New("name"), compare.ValuesSame()),
					statecheck.ExpectKnownValue(appAddr, tfjsonpath.New("namespaces"), listContaining{"default"}),
					expectString(policyAddr, "granularity", "hourly"),
					expectNull(policyAddr, "hour"),
				},
				Check: resource.ComposeAggregateTestCheckFunc(recordID(clusterAddr, &clusterID),
					a.simCheck("the app was polled through discovery", func(sim *astrasim.Sim) error {
						if sim.Count("GET", routeApp) < 1 {
							return fmt.Errorf("the app was never read while it was discovered")
						}
						return expectCounts(sim.Count("POST", routeApps), 1, sim.Count("POST", routeSchedules), 1)
					})),
			},
			{
				// An active policy makes the app partially protected (fully only once a backup
				// under a week old exists): a refresh shows it, with nothing to change.
				Config:            hourly,
				ConfigPlanChecks:  emptyPlan(),
				ConfigStateChecks: []statecheck.StateCheck{expectString(appAddr, "protection_state", "partial")},
			},
			{
				// Another granularity replaces the policy: no source shows the service changing a
				// schedule's granularity in place.
				PreConfig: func() { a.markCounts(&counts) },
				Config:    daily,
				ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction(policyAddr, plancheck.ResourceActionDestroyBeforeCreate),
					plancheck.ExpectResourceAction(appAddr, plancheck.ResourceActionNoop)),
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(policyAddr, "granularity", "daily"),
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("hour"), knownvalue.Int64Exact(2)),
				},
				Check: a.simCheck("the schedule deleted and posted again, never PUT", func(sim *astrasim.Sim) error {
					return expectCounts(counts.since(sim, "DELETE "+routeSchedule), 1, counts.since(sim, "POST "+routeSchedules), 1,
						counts.since(sim, "PUT "+routeSchedule), 0, counts.since(sim, "PUT "+routeApp), 0)
				}),
			},
			{
				PreConfig: func() { a.markCounts(&counts) },
				Config:    disabled,
				ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction(policyAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction(appAddr, plancheck.ResourceActionNoop), expectUnknownExactly(policyAddr, putMetadata...)),
				Check: a.simCheck("one PUT of the policy, nothing posted", func(sim *astrasim.Sim) error {
					return expectCounts(counts.since(sim, "PUT "+routeSchedule), 1, counts.since(sim, "POST "+routeSchedules), 0,
						counts.since(sim, "PUT "+routeApp), 0)
				}),
			},
			{
				// Every policy disabled, and nothing taken yet: the app is not protected.
				Config:            disabled,
				ConfigPlanChecks:  emptyPlan(),
				ConfigStateChecks: []statecheck.StateCheck{expectString(appAddr, "protection_state", "none")},
			},
			{
				PreConfig: func() { a.markCounts(&counts) },
				Config:    renamed,
				ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction(appAddr, plancheck.ResourceActionUpdate), plancheck.ExpectResourceAction(policyAddr, plancheck.ResourceActionNoop),
					// A rename leaves every computed attribute known but the service's bookkeeping.
					expectUnknownExactly(appAddr, putMetadata...)),
				ConfigStateChecks: []statecheck.StateCheck{expectString(appAddr, "name", a.name("web-2")), statecheck.ExpectKnownValue(appAddr, tfjsonpath.New("labels").AtMapKey("team"), knownvalue.StringExact("platform"))},
				Check: a.simCheck("one PUT of the app", func(sim *astrasim.Sim) error {
					return expectCounts(counts.since(sim, "PUT "+routeApp), 1, counts.since(sim, "POST "+routeApps), 0)
				}),
			},
			{
				// A namespace the managed cluster does not have: refused at plan time.
				Config:      a.config(base, appHCL(a.name("web-2"), "nope", `  labels = { team = "platform" }`)),
				ExpectError: errorPhrases(`Unknown namespace`, `has no namespace "nope"; its namespaces are: default, kube-node-lease, kube-public, kube-system, trident. Set namespace to one of them`),
			},
			{Config: requiredProvidersHCL() + renamed, ResourceName: appAddr, ImportState: true, ImportStateVerify: true},
			{
				Config: requiredProvidersHCL() + renamed, ResourceName: policyAddr, ImportState: true, ImportStateVerify: true,
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					r := s.RootModule().Resources[policyAddr]
					return r.Primary.Attributes["app_id"] + "/" + r.Primary.ID, nil
				},
			},
			{
				// Another namespace replaces the app, and with it its policy.
				Config: a.config(base, appHCL(a.name("web-2"), "kube-public", `  labels = { team = "platform" }`), policyHCL(`  granularity = "daily"
  minute      = 30
  hour        = 2
  enabled     = false`)),
				ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction(appAddr, plancheck.ResourceActionDestroyBeforeCreate),
					plancheck.ExpectResourceAction(policyAddr, plancheck.ResourceActionDestroyBeforeCreate)),
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(appAddr, tfjsonpath.New("namespace_scoped_resources").AtSliceIndex(0).AtMapKey("namespace"), knownvalue.StringExact("kube-public"))},
			},
			{
				// An app managed outside Terraform keeps the cluster managed: the plan is refused,
				// naming the app, before Terraform's own app and policy go (issue 44).
				PreConfig: func() {
					app, err := a.client.CreateApp(testContext(), astra.AppCreate{Name: a.name("outside"), ClusterID: clusterID,
						NamespaceScopedResources: []astra.NamespaceScope{{Namespace: "default"}}})
					if err != nil {
						t.Fatal(err)
					}
					outsideID = app.ID
					if _, err := astra.Wait(testContext(), a.waitSchedule(), func(ctx context.Context) (*astra.App, error) {
						return a.client.GetApp(ctx, outsideID)
					}, astra.AppReady); err != nil {
						t.Fatal(err)
					}
				},
				Config:      unmanaged,
				ExpectError: errorPhrases("Cannot unmanage a cluster that has managed applications", "Managed applications: "+a.name("outside")+" ("),
			},
			{
				PreConfig: func() {
					if err := a.client.DeleteApp(testContext(), outsideID); err != nil {
						t.Fatal(err)
					}
				},
				Config:           unmanaged,
				ConfigPlanChecks: planned(managedAddr, plancheck.ResourceActionDestroy),
				Check:            func(*terraform.State) error { return a.clusterUnmanaged("", clusterID) },
			},
		},
	})
}

// TestAccProtectionPolicy_planErrors: the granularity rules, ranges and the label selector
// grammar are refused at plan time with messages naming the attribute, before any request.
func TestAccProtectionPolicy_planErrors(t *testing.T) {
	a := newAccTarget(t)
	app := `
resource "astra_app" "test" {
  name       = "web"
  cluster_id = "0f284377-e5dc-4dcd-bacd-3197f2b8a347"
  namespace_scoped_resources = [{ namespace = "default", label_selectors = ["app in mysql"] }]
}
`
	policy := func(body string) string {
		return a.config(fmt.Sprintf(`
resource "astra_protection_policy" "test" {
  app_id             = "0f284377-e5dc-4dcd-bacd-3197f2b8a347"
  name               = "policy"
  snapshot_retention = 7
  backup_retention   = 3
%s
}
`, body))
	}
	steps := []resource.TestStep{
		{Config: a.config(app), ExpectError: errorPhrases(`Invalid Kubernetes label selector`, `"app in mysql" is not a Kubernetes label selector: found "mysql" after in; expected '(': the values of in are in parentheses`)},
		{Config: policy(`granularity = "hourly"
hour = 3`), ExpectError: errorPhrases(`Argument not used by an hourly policy`, `hour is not used by an hourly policy (it runs every hour at minute). Remove hour, or choose a granularity that uses it.`)},
		{Config: policy(`granularity = "weekly"
hour = 3`), ExpectError: errorPhrases(`Missing day_of_week`, `A weekly policy needs day_of_week (it runs on day_of_week at hour:minute). Set day_of_week.`)},
		{Config: policy(`granularity = "monthly"
hour = 3
day_of_month = 1
day_of_week = 2`), ExpectError: errorPhrases(`Argument not used by a monthly policy`, `day_of_week is not used by a monthly policy`)},
		{Config: policy(`granularity = "daily"`), ExpectError: errorPhrases(`Missing hour`, `A daily policy needs hour (it runs every day at hour:minute). Set hour.`)},
		{Config: policy(`granularity = "hourly"
minute = 75`), ExpectError: errorPhrases(`Attribute minute value must be between 0 and 59, got: 75`)},
		{Config: a.config(`
resource "astra_protection_policy" "test" {
  app_id             = "0f284377-e5dc-4dcd-bacd-3197f2b8a347"
  name               = "policy"
  granularity        = "hourly"
  snapshot_retention = -1
  backup_retention   = 0
}
`), ExpectError: errorPhrases(`Attribute snapshot_retention value must be at least 0, got: -1`)},
	}
	for i := range steps {
		steps[i].PlanOnly = true
	}
	a.test(resource.TestCase{
		Steps: steps,
		CheckDestroy: func(*terraform.State) error {
			if a.simulated() && a.sim.Count("POST", routeApps)+a.sim.Count("POST", routeSchedules) != 0 {
				return fmt.Errorf("a refused configuration was sent")
			}
			return nil
		},
	})
}

// TestAccApp_failed: an app that fails discovery fails the apply with its state_details
// and stays in state, tainted; the next apply replaces it.
func TestAccApp_failed(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) { o.Delays = astrasim.Delays{App: 2 * time.Second} }))
	a.requireSim("an app that fails discovery")
	cred := a.kubeconfigCredential("kube-app-failed", "app-failed")
	cfg := a.config(privateManagedHCL(a.cloudID(), cred, `local.storage_classes["ontap-gold"]`, true), appHCL(a.name("web"), "default"))
	go func() {
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			apps, err := a.client.ListApps(testContext(), astra.ListOptions{})
			if err == nil && len(apps) == 1 {
				_ = a.sim.FailApp(apps[0].ID, "The application's volumes could not be found")
				return
			}
		}
	}()
	a.test(resource.TestCase{
		CheckDestroy: a.checkAppsDestroyed,
		Steps: []resource.TestStep{
			{Config: cfg, ExpectError: errorPhrases(`App did not become ready`, `as failed: Application failed: The application's volumes could not be found`, `recorded in state as tainted`)},
			{
				Config:           cfg,
				ConfigPlanChecks: planned(appAddr, plancheck.ResourceActionDestroyBeforeCreate),
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(appAddr, "state", "ready"),
				},
			},
		},
	})
}

// TestAccApp_identity: the app's identity is { id }, the policy's { app_id, id }; import
// blocks naming only the identity import both with an empty plan.
func TestAccApp_identity(t *testing.T) {
	a := newAccTarget(t)
	cred := a.kubeconfigCredential("kube-app-identity", "app-identity")
	cfg := requiredProvidersHCL() + a.config(privateManagedHCL(a.cloudID(), cred, `local.storage_classes["ontap-gold"]`, true),
		appHCL(a.name("web"), "default"), policyHCL(`  granularity = "hourly"`))
	a.test(resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		Steps: []resource.TestStep{
			{Config: cfg, ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectIdentityValueMatchesState(appAddr, tfjsonpath.New("id")),
				statecheck.ExpectIdentityValueMatchesState(policyAddr, tfjsonpath.New("id")),
				statecheck.ExpectIdentityValueMatchesState(policyAddr, tfjsonpath.New("app_id")),
			}},
			{Config: cfg, ResourceName: appAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity},
			{Config: cfg, ResourceName: policyAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity},
		},
	})
}

// TestAccApp_deleteRefusals: unmanaging is asked again only while the service says the app
// is busy (problems 112 and 164, and 148 and 157 while a run ends: TestAccApp_destroyWaitsOutRuns);
// any other refusal (119, an active replication relationship) fails at once with the
// service's reasons instead of asking until the timeout.
func TestAccApp_deleteRefusals(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("injects the service's refusals")
	cred := a.kubeconfigCredential("kube-app-delete", "app-delete")
	base := a.config(privateManagedHCL(a.cloudID(), cred, `local.storage_classes["ontap-gold"]`, true))
	withApp := a.config(privateManagedHCL(a.cloudID(), cred, `local.storage_classes["ontap-gold"]`, true),
		appHCL(a.name("web"), "default", `  timeouts = { delete = "20s" }`))
	deletes := 0
	refuse := func(problem, times int) func() {
		return func() {
			a.sim.ClearFaults()
			a.sim.AddFault(astrasim.Fault{Method: http.MethodDelete, Route: routeApp, Kind: astrasim.FaultRetryLater, Problem: problem, Times: times})
			deletes = a.sim.Count(http.MethodDelete, routeApp)
		}
	}
	deletesSince := func(want int) error {
		if n := a.sim.Count(http.MethodDelete, routeApp) - deletes; n != want {
			return fmt.Errorf("%d DELETEs of the app, want %d", n, want)
		}
		return nil
	}
	a.test(resource.TestCase{
		CheckDestroy: a.checkAppsDestroyed,
		Steps: []resource.TestStep{
			{Config: withApp},
			{
				PreConfig:   refuse(119, 0),
				Config:      base,
				ExpectError: errorPhrases("Cannot unmanage the app", "(problem 119)", "The app stays in state"),
			},
			{
				PreConfig: func() {
					if err := deletesSince(1); err != nil {
						t.Fatal(err)
					}
					refuse(164, 2)()
				},
				Config:           base,
				ConfigPlanChecks: planned(appAddr, plancheck.ResourceActionDestroy),
				Check:            func(*terraform.State) error { return deletesSince(3) },
			},
		},
	})
}
