package provider

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccApp_cloneUnknownDestination: a clone whose destination namespace is not known at
// plan time ("<name>-${terraform_data.suffix.output}") plans (it was refused as "Not the
// clone's namespaces", the unknown read as ""), and is created into the namespace it
// resolves to. The check runs when the value is known, during the apply: a destination
// that resolves to a namespace the cluster has fails that apply before any clone request.
func TestAccApp_cloneUnknownDestination(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) { o.Delays = astrasim.Delays{Restore: 100 * time.Millisecond} }))
	cred := a.kubeconfigCredential("kube-clone-unknown", "clone-unknown")
	base := privateManagedHCL(a.cloudID(), cred, `local.storage_classes["ontap-gold"]`, true)
	staging := a.name("staging")
	// destination is an expression: the clone's namespace, as cloneHCL writes it.
	cfg := func(input, destination string) string {
		data := fmt.Sprintf("resource \"terraform_data\" \"suffix\" {\n  input = %q\n}\n", input)
		clone := strings.ReplaceAll(cloneHCL(a.name("web-staging"), "@ns@"), `"@ns@"`, destination)
		return a.config(base, appHCL(a.name("web"), "default"), data+clone)
	}
	var counts countDelta
	a.test(resource.TestCase{
		CheckDestroy: a.checkAppsDestroyed,
		Steps: []resource.TestStep{
			// The cluster and the source app first: with the cluster known, the plan checks run.
			{Config: a.config(base, appHCL(a.name("web"), "default"))},
			{
				Config: cfg("b", fmt.Sprintf(`"%s-${terraform_data.suffix.output}"`, staging)),
				ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction(cloneAddr, plancheck.ResourceActionCreate),
					plancheck.ExpectUnknownValue(cloneAddr, tfjsonpath.New("namespace_scoped_resources").AtSliceIndex(0).AtMapKey("namespace"))),
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(cloneAddr, "state", "ready"),
					statecheck.ExpectKnownValue(cloneAddr, tfjsonpath.New("namespaces"), listContaining{staging + "-b"}),
				},
			},
			{Config: cfg("b", fmt.Sprintf(`"%s-${terraform_data.suffix.output}"`, staging)), ConfigPlanChecks: emptyPlan()},
			{
				// Resolved during the apply to a namespace the cluster has: refused then, the
				// old clone destroyed by the replacement but no new clone requested.
				PreConfig: func() { a.markCounts(&counts) },
				Config:    cfg("kube-public", "terraform_data.suffix.output"),
				ExpectError: errorPhrases("Destination namespace exists", `Namespace "kube-public" already exists on managed cluster`,
					"must rename every namespace"),
				Check: a.simCheck("no clone request", func(sim *astrasim.Sim) error {
					return expectCounts(counts.since(sim, "POST "+routeApps), 0)
				}),
			},
		},
	})
}

// TestAccApp_cloneWaitEndedHarness: a clone whose create wait ends early (timeouts.create)
// is tainted, and Terraform plans it as a new create. The plan check finds the clone's
// own namespace on the cluster: it no longer advises renaming it (which left the clone
// unmanaged beside a new one) but says the namespace holds this clone and to untaint it;
// the plan sends no unmanage. After `untaint`, the plan is empty and the clone is kept.
func TestAccApp_cloneWaitEndedHarness(t *testing.T) {
	h := newCLIHarness(t, astrasim.Options{Delays: astrasim.Delays{App: 50 * time.Millisecond, Restore: 3 * time.Second}}, "")
	// The clone's create wait cut to 300ms.
	h.write(harnessAppHCL(h, "web", "web") + `
resource "astra_app" "clone" {
  name                       = "web-staging"
  cluster_id                 = astra_managed_cluster.c.id
  namespace_scoped_resources = [{ namespace = "staging" }]
  source = {
    app_id            = astra_app.web.id
    namespace_mapping = [{ source = "default", destination = "staging" }]
  }
  timeouts = { create = "300ms" }
}
`)
	r := h.apply()
	if r.err == nil || !errorPhrases("App did not become ready", "Timed out after 300ms", "The clone is recorded in state as tainted", "terraform untaint <address>").MatchString(r.out) {
		t.Fatalf("the first apply: %v, want the clone's wait to time out:\n%s", r.err, r.out)
	}
	id := h.stateIDOf("astra_app", "clone")
	deadline := time.Now().Add(time.Minute)
	for h.appsIn()[id] != "ready" {
		if time.Now().After(deadline) {
			t.Fatalf("the clone %s is still %q", id, h.appsIn()[id])
		}
		time.Sleep(50 * time.Millisecond)
	}
	deletes := h.sim().Count(http.MethodDelete, routeApp)
	r = h.plan()
	if r.err == nil {
		t.Fatalf("the plan of the tainted clone succeeded; applying it would unmanage the clone:\n%s", r.out)
	}
	expectOutput(t, "the plan of the tainted clone", r, "Destination namespace holds this clone",
		`Namespace "staging"`, "belongs to app \"web-staging\" ("+id+", state ready)", "terraform untaint <address>")
	if n := h.sim().Count(http.MethodDelete, routeApp) - deletes; n != 0 {
		t.Fatalf("the plan sent %d unmanage requests", n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if r := h.run(ctx, "untaint", "-no-color", "astra_app.clone"); r.err != nil {
		t.Fatalf("untaint: %v\n%s", r.err, r.out)
	}
	if err := h.planIsEmpty(); err != nil {
		t.Fatal(err)
	}
	if got := h.stateIDOf("astra_app", "clone"); got != id {
		t.Fatalf("state holds clone %s, want %s kept", got, id)
	}
	if r := h.run(ctx, "destroy", "-auto-approve", "-input=false", "-no-color"); r.err != nil {
		t.Fatalf("destroy: %v\n%s", r.err, r.out)
	}
	if apps := h.appsIn(); len(apps) != 0 {
		t.Fatalf("apps after destroy: %v", apps)
	}
}

// appsIn is what the harness's simulator holds of apps: ID -> state.
func (h *cliHarness) appsIn() map[string]string { return h.statesIn("apps") }
