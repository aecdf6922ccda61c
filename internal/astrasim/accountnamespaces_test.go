package astrasim

import (
	"net/url"
	"testing"
)

// TestAccountNamespaces: GET /topology/v1/namespaces (in NetApp's published documents;
// astraSDK's getNamespaces reads it for actoolkit's "list namespaces" and "manage app")
// lists the namespaces of every managed cluster, each with its clusterID, and none of an
// unmanaged cluster; it filters, and each item is read back by ID on
// /topology/v1/namespaces/{id}; an unknown ID is 404; the routes are counted, yet are not
// among the trimmed documents' routes.
func TestAccountNamespaces(t *testing.T) {
	e := newEnv(t, Options{Release: "24.02", Namespaces: []string{"shop"}})
	managed := e.managedCluster("ns-managed")
	_, unmanaged := e.addPrivateCluster("ns-unmanaged")
	items := e.get("/topology/v1/namespaces").expect(200).items()
	var shop map[string]any
	for _, it := range items {
		ns := it.(map[string]any)
		if ns["clusterID"] == unmanaged {
			t.Errorf("a namespace of the unmanaged cluster: %v", ns)
		}
		if ns["clusterID"] == managed && ns["name"] == "shop" {
			shop = ns
		}
	}
	if shop == nil || shop["type"] != "application/astra-namespace" || shop["namespaceState"] != "discovered" {
		t.Fatalf("no namespace shop of the managed cluster in %v", items)
	}
	got := e.get("/topology/v1/namespaces/" + shop["id"].(string)).expect(200)
	if got.str("name") != "shop" || got.str("clusterID") != managed {
		t.Errorf("read back: %s", got.raw)
	}
	filtered := e.get("/topology/v1/namespaces?filter=" + url.QueryEscape("name eq 'shop'")).expect(200).items()
	if len(filtered) != 1 {
		t.Errorf("filter name eq 'shop': %d items", len(filtered))
	}
	e.get("/topology/v1/namespaces/00000000-0000-4000-8000-000000000001").expect(404)
	if n := e.sim.Count("GET", namespacesRoute); n != 2 {
		t.Errorf("GET namespaces counted %d", n)
	}
	for _, op := range e.sim.Routes() {
		if op == "GET "+namespacesRoute || op == "GET "+namespaceRoute {
			t.Errorf("%s listed among the documents' routes", op)
		}
	}
}
