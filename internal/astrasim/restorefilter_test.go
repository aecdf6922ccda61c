package astrasim

import (
	"net/http"
	"slices"
	"testing"
)

// TestSelectiveRestore: a restoreFilter (the 24.02 app PUT's) restores what it selects, by
// kind, names, namespaces or labels, included or excluded; an empty GVKN filter, an unknown
// kind and an unreadable label selector are 400/9 naming the member, a shape outside the
// schema 400/8; 22.11's app schema has no restoreFilter.
func TestSelectiveRestore(t *testing.T) {
	e := newEnv(t, Options{Release: "24.02"})
	appID := e.readyApp("web", "prod")
	snapID := e.post(snapsOf(appID), snapBody("s1")).expect(201).str("id")
	force := http.Header{"Forceupdate": {"true"}}
	restore := func(filter map[string]any) *result {
		b := map[string]any{"type": "application/astra-app", "version": "2.2", "snapshotID": snapID}
		if filter != nil {
			b["restoreFilter"] = filter
		}
		return e.doURL(http.MethodPut, e.url("/k8s/v2/apps/"+appID), b, force)
	}
	all := []string{"Pod prod/prod-0", "PersistentVolumeClaim prod/data-prod-0", "Service prod/prod", "StatefulSet prod/prod"}
	cases := []struct {
		name   string
		filter map[string]any
		want   []string
	}{
		{"no filter", nil, all},
		{"include PVCs", map[string]any{"resourceSelectionCriteria": "include", "GVKN": []any{map[string]any{"version": "v1", "kind": "PersistentVolumeClaim"}}},
			[]string{"PersistentVolumeClaim prod/data-prod-0"}},
		{"exclude by name and group", map[string]any{"resourceSelectionCriteria": "exclude", "GVKN": []any{
			map[string]any{"names": []any{"prod-0"}}, map[string]any{"group": "apps"}}},
			[]string{"PersistentVolumeClaim prod/data-prod-0", "Service prod/prod"}},
		{"include by label, another namespace", map[string]any{"resourceSelectionCriteria": "include", "GVKN": []any{
			map[string]any{"labelSelectors": []any{"app=prod"}, "namespaces": []any{"other"}}}}, nil},
		{"include by label", map[string]any{"resourceSelectionCriteria": "include", "GVKN": []any{
			map[string]any{"labelSelectors": []any{"app=prod,tier!=cache"}, "kind": "Service"}}}, []string{"Service prod/prod"}},
	}
	for _, c := range cases {
		restore(c.filter).expect(204)
		if got := e.sim.Restored(appID); !slices.Equal(got, c.want) {
			t.Errorf("%s: restored %q, want %q", c.name, got, c.want)
		}
	}
	n := e.sim.Restores(appID)
	restore(map[string]any{"resourceSelectionCriteria": "include", "GVKN": []any{map[string]any{}}}).problem(9).field("invalidFields", "restoreFilter.GVKN[0]")
	restore(map[string]any{"resourceSelectionCriteria": "include", "GVKN": []any{map[string]any{"kind": "Gadget"}}}).problem(9).field("invalidFields", "restoreFilter.GVKN[0].kind")
	restore(map[string]any{"resourceSelectionCriteria": "include", "GVKN": []any{map[string]any{"labelSelectors": []any{"tier in (web)"}}}}).problem(9).field("invalidFields", "restoreFilter.GVKN[0].labelSelectors[0]")
	restore(map[string]any{"resourceSelectionCriteria": "some", "GVKN": []any{map[string]any{"kind": "Pod"}}}).problem(8)
	restore(map[string]any{"resourceSelectionCriteria": "include"}).problem(8)
	if got := e.sim.Restores(appID); got != n {
		t.Errorf("refused restores counted: %d, want %d", got, n)
	}
	old := newEnv(t, Options{Release: "22.11"})
	oldApp := old.readyApp("web", "prod")
	oldSnap := old.post(snapsOf(oldApp), snapBody("s1")).expect(201).str("id")
	old.doURL(http.MethodPut, old.url("/k8s/v2/apps/"+oldApp), map[string]any{"type": "application/astra-app", "version": "2.1", "snapshotID": oldSnap,
		"restoreFilter": map[string]any{"resourceSelectionCriteria": "include", "GVKN": []any{map[string]any{"kind": "Pod"}}}}, force).problem(8)
}
