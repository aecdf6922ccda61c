package astrasim

import (
	"net/http"
	"slices"
)

// GET /k8s/v1/apps/{app_id}/appAssets (issue 43, item 12): an app's Kubernetes resources.
// No published document has the path (22.11 to 24.02), yet NetApp's own client calls it:
// astraSDK's getAppAssets, which actoolkit's clone and restore call first and its "list
// assets" prints. Its answer is modelled from what that client reads, nothing more:
//   - a top-level "metadata" object (getAppAssets adds the appID to it) and "items";
//   - per item assetName, assetType (the kind: clone looks for assetType "Pod"),
//     namespace, labels [{name, value}] and GVK {group, version, kind} (the columns of
//     actoolkit's documented "list assets" table: assetName, group, version, kind).
//
// The items are the app's modelled assets (restorefilter.go). Being outside the documents,
// the route is not among Sim.Routes and its answers are not checked against a schema; the
// list takes no query (filter, order, paging) and carries no type or version, which no
// source shows. An unknown app is 404 problem 2, as on the app's other collections.
const appAssetsRoute = "/k8s/v1/apps/{app_id}/appAssets"

// offSpecRoutes are the routes served outside the published documents.
var offSpecRoutes = []string{probeRoute, appAssetsRoute, namespacesRoute, namespaceRoute}

func isOffSpec(route string) bool { return slices.Contains(offSpecRoutes, route) }

func (s *Sim) listAppAssets(q *request) *reply {
	a := s.st.Apps[q.params["app_id"]]
	if a == nil {
		return fail(problem(2))
	}
	items := []any{}
	for _, x := range appAssets(a) {
		labels := make([]any, 0, len(x.Labels))
		for _, l := range x.Labels {
			labels = append(labels, map[string]any{"name": l.Name, "value": l.Value})
		}
		items = append(items, map[string]any{"assetName": x.Name, "assetType": x.Kind, "namespace": x.Namespace, "labels": labels,
			"GVK": map[string]any{"group": x.Group, "version": x.Version, "kind": x.Kind}})
	}
	return answer(http.StatusOK, "", "", "", map[string]any{"items": items, "metadata": map[string]any{}})
}
