package astrasim

import "testing"

// TestAppAssets: GET appAssets answers what astraSDK's getAppAssets and actoolkit's clone
// read (items with assetName, assetType, namespace, labels and GVK; a metadata object),
// the app's modelled assets; an unknown app is 404/2; the route is counted, yet is not one
// of the documents' routes.
func TestAppAssets(t *testing.T) {
	e := newEnv(t, Options{Release: "24.02"})
	appID := e.readyApp("web", "prod")
	r := e.get("/k8s/v1/apps/" + appID + "/appAssets").expect(200)
	if _, ok := r.body["metadata"].(map[string]any); !ok {
		t.Fatalf("no metadata object: %s", r.raw)
	}
	items := r.items()
	if len(items) != 4 {
		t.Fatalf("items: %s", r.raw)
	}
	pod := items[0].(map[string]any)
	gvk, _ := pod["GVK"].(map[string]any)
	labels, _ := pod["labels"].([]any)
	if pod["assetName"] != "prod-0" || pod["assetType"] != "Pod" || pod["namespace"] != "prod" || gvk["kind"] != "Pod" ||
		gvk["version"] != "v1" || gvk["group"] != "" || len(labels) != 1 {
		t.Errorf("the pod: %v", pod)
	}
	if sts := items[3].(map[string]any); sts["assetType"] != "StatefulSet" || sts["GVK"].(map[string]any)["group"] != "apps" {
		t.Errorf("the workload: %v", sts)
	}
	e.get("/k8s/v1/apps/00000000-0000-4000-8000-000000000001/appAssets").problem(2)
	if n := e.sim.Count("GET", appAssetsRoute); n != 2 {
		t.Errorf("GET appAssets counted %d", n)
	}
	for _, op := range e.sim.Routes() {
		if op == "GET "+appAssetsRoute {
			t.Error("appAssets listed among the documents' routes")
		}
	}
}
