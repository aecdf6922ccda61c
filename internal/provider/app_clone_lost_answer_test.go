package provider

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// cloneOfWebHCL is an astra_app named name, a live clone of webAppHCL's app "web" into
// namespace ns of the same cluster.
func cloneOfWebHCL(resource, name, ns string) string {
	return fmt.Sprintf(`
resource "astra_app" %q {
  name                       = %q
  cluster_id                 = astra_managed_cluster.c.id
  namespace_scoped_resources = [{ namespace = %q }]
  source = {
    app_id            = astra_app.web.id
    namespace_mapping = [{ source = "default", destination = %q }]
  }
}
`, resource, name, ns, ns)
}

// TestAccApp_cloneLostAnswer: a clone POST applied but its answer lost is not sent again:
// the clone it made is found and recorded (one POST, one new app, a clone of the source);
// when the clone POST is refused because an unrelated app of that name exists (and that
// answer is lost), the unrelated app is not adopted and nothing is posted again.
func TestAccApp_cloneLostAnswer(t *testing.T) {
	h := newCLIHarness(t, astrasim.Options{}, settleFast)
	base := webAppHCL(h)
	h.write(base)
	expectActionOutput(t, "the first apply", h.apply(), false)
	webID := h.stateIDOf("astra_app", "web")
	c, ctx, sim := h.apiClient(), context.Background(), h.sim()
	appCount := func() int {
		apps, err := c.ListApps(ctx, astra.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return len(apps)
	}
	// An unrelated app, made now so that it is older than the clock skew allowed by the end.
	unrelated, err := c.CreateApp(ctx, astra.AppCreate{Name: "web-dr", ClusterID: h.stateIDOf("astra_managed_cluster", "c"),
		NamespaceScopedResources: []astra.NamespaceScope{{Namespace: "kube-public"}}})
	if err != nil {
		t.Fatal(err)
	}

	apps, posts := appCount(), sim.Count(http.MethodPost, routeApps)
	sim.AddFault(astrasim.Fault{Method: http.MethodPost, Route: routeApps, Kind: astrasim.FaultLostAnswer, Times: 1})
	h.write(base + cloneOfWebHCL("staging", "web-staging", "staging"))
	expectActionOutput(t, "a clone whose answer is lost", h.apply(), false, "1 added")
	cloneID := h.stateIDOf("astra_app", "staging")
	clone, err := c.GetApp(ctx, cloneID)
	if err != nil || clone.SourceAppID != webID || clone.Name != "web-staging" {
		t.Fatalf("the clone recorded: %+v (%v)", clone, err)
	}
	if n, fired, added := sim.Count(http.MethodPost, routeApps)-posts, sim.Fired(http.MethodPost, routeApps, astrasim.FaultLostAnswer), appCount()-apps; n != 1 || fired != 1 || added != 1 {
		t.Fatalf("%d clone POSTs (lost answers %d), %d apps added; want 1, 1, 1", n, fired, added)
	}
	if err := h.planIsEmpty(); err != nil {
		t.Fatal(err)
	}

	olderThanSkew(t, unrelated.Metadata.CreationTimestamp)
	apps, posts = appCount(), sim.Count(http.MethodPost, routeApps)
	sim.AddFault(astrasim.Fault{Method: http.MethodPost, Route: routeApps, Kind: astrasim.FaultLostAnswer, Times: 1})
	h.write(base + cloneOfWebHCL("staging", "web-staging", "staging") + cloneOfWebHCL("dr", "web-dr", "dr"))
	expectActionOutput(t, "a clone refused for an unrelated app's name, the answer lost", h.apply(), true,
		"Outcome of creating app web-dr is unknown",
		"app "+unrelated.ID+" named \"web-dr\" on cluster", "is not a clone of app "+webID+" (its source app: \"\"), so it is not the clone this request created",
		"Nothing was recorded in state")
	if n, fired, added := sim.Count(http.MethodPost, routeApps)-posts, sim.Fired(http.MethodPost, routeApps, astrasim.FaultLostAnswer), appCount()-apps; n != 1 || fired != 2 || added != 0 {
		t.Fatalf("%d clone POSTs (lost answers %d in all), %d apps added; want 1, 2, 0", n, fired, added)
	}
	for _, o := range h.state() {
		if o.Type == "astra_app" && o.ID == unrelated.ID {
			t.Fatalf("the unrelated app %s was adopted as %s", unrelated.ID, o.Name)
		}
	}
}
