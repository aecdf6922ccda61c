package provider

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// restoreFilterHCL is the restore action from snapshotID with filter as its restore_filter.
func restoreFilterHCL(snapshotID, filter string) string {
	return `
action "astra_app_restore" "now" {
  config {
    app_id         = astra_app.web.id
    snapshot_id    = "` + snapshotID + `"
    restore_filter = ` + filter + `
  }
}
`
}

// TestAccActions_selectiveRestore: restore_filter restores only what it selects (one PUT at
// app 2.2, the simulator's Sim.Restored says what came back), included or excluded; an entry
// that sets nothing and an unknown selection are refused at plan time, naming the
// attribute, with nothing sent.
func TestAccActions_selectiveRestore(t *testing.T) {
	skipWithoutActions(t)
	h := newCLIHarness(t, astrasim.Options{Delays: astrasim.Delays{Restore: 300 * time.Millisecond}}, "")
	h.write(webAppHCL(h))
	expectActionOutput(t, "the first apply", h.apply(), false)
	appID := h.stateIDOf("astra_app", "web")
	c, ctx, sim := h.apiClient(), context.Background(), h.sim()
	snap, err := c.CreateAppSnapshot(ctx, appID, astra.AppSnapshotCreate{Name: "base"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := astra.Wait(ctx, accWaitSchedule, func(ctx context.Context) (*astra.AppSnapshot, error) {
		return c.GetAppSnapshot(ctx, appID, snap.ID)
	}, astra.AppSnapshotCompleted); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ what, filter string }{
		{"include the PVC", `{ selection = "include", resources = [{ group = "", kind = "PersistentVolumeClaim" }] }`},
		{"exclude the pod and the workload", `{ selection = "exclude", resources = [{ names = ["default-0"] }, { group = "apps", label_selectors = ["app=default"] }] }`},
	}
	want := [][]string{
		{"PersistentVolumeClaim default/data-default-0"},
		{"PersistentVolumeClaim default/data-default-0", "Service default/default"},
	}
	for i, cs := range cases {
		puts := sim.Count(http.MethodPut, routeApp)
		h.write(webAppHCL(h) + restoreFilterHCL(snap.ID, cs.filter))
		expectActionOutput(t, cs.what, h.apply("-invoke=action.astra_app_restore.now"), false,
			"only what restore_filter selects", "restored from snapshot "+snap.ID)
		if got := sim.Restored(appID); !slices.Equal(got, want[i]) || sim.Count(http.MethodPut, routeApp)-puts != 1 {
			t.Fatalf("%s: restored %q in %d PUTs, want %q in 1", cs.what, got, sim.Count(http.MethodPut, routeApp)-puts, want[i])
		}
	}
	puts := sim.Count(http.MethodPut, routeApp)
	h.write(webAppHCL(h) + restoreFilterHCL(snap.ID, `{ selection = "include", resources = [{ kind = "Pod" }, {}] }`))
	expectActionOutput(t, "an empty entry", h.apply("-invoke=action.astra_app_restore.now"), true,
		"Empty restore filter entry", "restore_filter.resources[1] sets nothing")
	h.write(webAppHCL(h) + restoreFilterHCL(snap.ID, `{ selection = "some", resources = [{ kind = "Pod" }] }`))
	expectActionOutput(t, "an unknown selection", h.apply("-invoke=action.astra_app_restore.now"), true, "selection", "include", "exclude")
	h.write(webAppHCL(h) + restoreFilterHCL(snap.ID, `{ selection = "include", resources = [{ names = ["Web.Server"] }] }`))
	expectActionOutput(t, "a name Kubernetes refuses", h.apply("-invoke=action.astra_app_restore.now"), true, "Web.Server", "is not a Kubernetes name")
	if n := sim.Count(http.MethodPut, routeApp) - puts; n != 0 {
		t.Fatalf("refused filters sent %d PUTs", n)
	}
}
