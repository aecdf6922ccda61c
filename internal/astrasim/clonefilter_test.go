package astrasim

import (
	"slices"
	"testing"
)

// TestSelectiveRestoreIntoNewApp: the 24.02 app POST takes restoreFilter on a clone from a
// snapshot or a backup (astraSDK's cloneApp sends it for actoolkit's "restore
// --filterSelection --filterSet"): the new app gets back what the filter selects of the
// source's assets, in its mapped namespaces; without a filter, everything. A filter on a
// live clone or on an ordinary POST is 400/9 naming restoreFilter, an empty GVKN filter
// 400/9 naming it; no refused POST creates an app.
func TestSelectiveRestoreIntoNewApp(t *testing.T) {
	e := newEnv(t, Options{Release: "24.02"})
	srcID := e.readyApp("web", "prod")
	clusterID := e.sim.st.Apps[srcID].ClusterID
	snapID := e.post(snapsOf(srcID), snapBody("s1")).expect(201).str("id")
	include := map[string]any{"resourceSelectionCriteria": "include", "GVKN": []any{map[string]any{"group": "apps", "version": "v1", "kind": "StatefulSet"}}}
	restore := func(name string, fields map[string]any) *result {
		return e.post("/k8s/v2/apps", cloneBody(name, clusterID, clusterID, srcID, fields))
	}
	id := restore("web-sts", map[string]any{"snapshotID": snapID, "namespaceMapping": nsMap("prod", "prod-sts"), "restoreFilter": include}).expect(201).str("id")
	if got, want := e.sim.Restored(id), []string{"StatefulSet prod-sts/prod"}; !slices.Equal(got, want) {
		t.Errorf("filtered restore put back %q, want %q", got, want)
	}
	all := restore("web-all", map[string]any{"snapshotID": snapID, "namespaceMapping": nsMap("prod", "prod-all")}).expect(201).str("id")
	if got := e.sim.Restored(all); len(got) != 4 || got[0] != "Pod prod-all/prod-0" {
		t.Errorf("an unfiltered restore put back %q", got)
	}
	apps := len(e.sim.st.Apps)
	restore("web-live", map[string]any{"namespaceMapping": nsMap("prod", "prod-live"), "restoreFilter": include}).problem(9).field("invalidFields", "restoreFilter")
	restore("web-empty", map[string]any{"snapshotID": snapID, "namespaceMapping": nsMap("prod", "prod-empty"),
		"restoreFilter": map[string]any{"resourceSelectionCriteria": "exclude", "GVKN": []any{map[string]any{}}}}).problem(9).field("invalidFields", "restoreFilter.GVKN[0]")
	plain := appBody("plain", clusterID, "prod")
	plain["version"], plain["restoreFilter"] = "2.2", include
	e.post("/k8s/v2/apps", plain).problem(9).field("invalidFields", "restoreFilter")
	if len(e.sim.st.Apps) != apps {
		t.Errorf("a refused POST created an app: %d apps, want %d", len(e.sim.st.Apps), apps)
	}
}
