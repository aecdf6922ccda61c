package astrasim

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestHookTimeout: a hook whose script runs longer than the limit (25 minutes unless
// HookTimeout says) fails, and the snapshot or backup it ran for fails with it (ACC: "Any
// affected snapshot will time out and be marked as failed"); one under the limit is fine.
func TestHookTimeout(t *testing.T) {
	e := newEnv(t, Options{HookDurations: map[string]time.Duration{"slow": 26 * time.Minute, "steady": 24 * time.Minute}})
	e.bucket("hooks")
	appID := e.readyApp("web", "mysql")
	slow, steady := e.hookSource("slow"), e.hookSource("steady")
	add := func(name, action, stage, source string) {
		b := hookBody(name, appID, source)
		b["action"], b["stage"] = action, stage
		e.post(hooksOf(appID), b).expect(201)
	}
	add("steady-pre", "snapshot", "pre", steady)
	snap := e.post(snapsOf(appID), snapBody("s1")).expect(201)
	if snap.str("state") != "completed" || snap.str("hookState") != "success" {
		t.Fatalf("a hook under 25 minutes: %s", snap.raw)
	}
	add("slow-post", "backup", "post", slow)
	b := e.post(backupsOf(appID), backupBody("b1", map[string]any{"snapshotID": snap.str("id")})).expect(201)
	got := e.get(backupsOf(appID) + "/" + b.str("id")).expect(200)
	if got.str("state") != "failed" || got.str("hookState") != "failed" || !strings.Contains(string(got.raw), "timed out after 25m0s") ||
		!strings.Contains(string(got.raw), "ran longer than 25m0s: the backup timed out") {
		t.Fatalf("a post-backup hook over 25 minutes: %s", got.raw)
	}
	add("slow-pre", "snapshot", "pre", slow)
	snap = e.post(snapsOf(appID), snapBody("s2")).expect(201)
	if snap.str("state") != "failed" || !strings.Contains(string(snap.raw), "the snapshot timed out") {
		t.Fatalf("a pre-snapshot hook over 25 minutes: %s", snap.raw)
	}
	// A configured limit: 20 minutes makes the 24-minute hook too long.
	e2 := newEnv(t, Options{HookTimeout: 20 * time.Minute, HookDurations: map[string]time.Duration{"steady": 24 * time.Minute}})
	app2 := e2.readyApp("web", "mysql")
	h := hookBody("steady-pre", app2, e2.hookSource("steady"))
	h["action"], h["stage"] = "snapshot", "pre"
	e2.post(hooksOf(app2), h).expect(201)
	if s := e2.post(snapsOf(app2), snapBody("s1")).expect(201); s.str("state") != "failed" || !strings.Contains(string(s.raw), "timed out after 20m0s") {
		t.Fatalf("a hook over a 20-minute limit: %s", s.raw)
	}
}

// TestRestoreHooks: post-restore hooks run after an in-place restore (the app's own) and
// after a clone (the source app's, on the clone's containers), in every scenario of ACC's
// table; a failing one is soft (the app still goes ready); snapshot hooks do not run for an
// in-place restore.
func TestRestoreHooks(t *testing.T) {
	e := newEnv(t, Options{Release: "24.02", FailHookSources: []string{"broken"}})
	appID := e.readyApp("web", "prod")
	clusterID := e.sim.st.Apps[appID].ClusterID
	fine, broken := e.hookSource("fine"), e.hookSource("broken")
	for _, h := range []struct{ name, action, src string }{{"warm-cache", "restore", fine}, {"reindex", "restore", broken}, {"thaw", "snapshot", fine}} {
		b := hookBody(h.name, appID, h.src)
		b["action"], b["stage"] = h.action, "post"
		e.post(hooksOf(appID), b).expect(201)
	}
	snapID := e.post(snapsOf(appID), snapBody("s1")).expect(201).str("id")
	e.doURL(http.MethodPut, e.url("/k8s/v2/apps/"+appID), map[string]any{"type": "application/astra-app", "version": "2.2", "snapshotID": snapID},
		http.Header{"Forceupdate": {"true"}}).expect(204)
	ran := e.sim.RestoreHooks(appID)
	if len(ran) != 2 || ran[0] != "warm-cache: success" || !strings.HasPrefix(ran[1], "reindex: Execution hook reindex (post-restore, script broken) exited with status 1 in prod/prod-0/prod") {
		t.Fatalf("restore hooks after an in-place restore: %q", ran)
	}
	if got := e.get("/k8s/v2/apps/" + appID).str("state"); got != "ready" {
		t.Fatalf("a failing restore hook is soft: the app is %s", got)
	}
	for name, from := range map[string]map[string]any{"clone-live": nil, "clone-snap": {"snapshotID": snapID}} {
		fields := map[string]any{"namespaceMapping": nsMap("prod", name)}
		for k, v := range from {
			fields[k] = v
		}
		id := e.post("/k8s/v2/apps", cloneBody(name, clusterID, clusterID, appID, fields)).expect(201).str("id")
		ran := e.sim.RestoreHooks(id)
		if len(ran) != 2 || ran[0] != "warm-cache: success" || !strings.Contains(ran[1], "in "+name+"/"+name+"-0/"+name) {
			t.Errorf("restore hooks after a clone %v: %q", from, ran)
		}
	}
	if slices.ContainsFunc(e.sim.RestoreHooks(appID), func(s string) bool { return strings.HasPrefix(s, "thaw") }) {
		t.Error("a snapshot hook ran for a restore")
	}
}
