package astrasim

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// cloneBody is a clone's POST body as NetApp's clients send it (sourceAppID beside the
// snapshot or backup), at app version 2.2.
func cloneBody(name, clusterID, sourceClusterID, sourceAppID string, fields map[string]any) map[string]any {
	b := map[string]any{"type": "application/astra-app", "version": "2.2", "name": name, "clusterID": clusterID,
		"sourceClusterID": sourceClusterID, "sourceAppID": sourceAppID}
	if sourceClusterID == "" {
		delete(b, "sourceClusterID")
	}
	for k, v := range fields {
		b[k] = v
	}
	return b
}

func nsMap(pairs ...string) []any {
	out := []any{}
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, map[string]any{"source": pairs[i], "destination": pairs[i+1]})
	}
	return out
}

// TestCloneWithinCluster: a clone in the source's cluster needs every namespace mapped to
// one that does not exist; the clone creates it, is provisioning, then ready, and carries
// sourceAppID (not sourceClusterID: it was not cloned from another cluster).
func TestCloneWithinCluster(t *testing.T) {
	clock := newClock()
	e := newEnv(t, Options{Now: clock.Now, Delays: Delays{Restore: 10 * time.Second}})
	srcID := e.readyApp("web", "prod")
	clusterID := e.sim.st.Apps[srcID].ClusterID
	reason := e.post("/k8s/v2/apps", cloneBody("web-staging", clusterID, clusterID, srcID, map[string]any{"namespaceMapping": nsMap("prod", "prod")})).problem(9).field("invalidFields", "namespaceMapping")
	if !strings.Contains(reason, "needs a different namespace: map prod") {
		t.Errorf("same-cluster clone into the source's namespace: %q", reason)
	}
	reason = e.post("/k8s/v2/apps", cloneBody("web-staging", clusterID, clusterID, srcID, map[string]any{"namespaceMapping": nsMap("prod", "default")})).problem(9).field("invalidFields", "namespaceMapping")
	if !strings.Contains(reason, "namespace default exists on the target cluster") {
		t.Errorf("existing destination: %q", reason)
	}
	e.post("/k8s/v2/apps", cloneBody("web-staging", clusterID, clusterID, srcID, map[string]any{"namespaceMapping": nsMap("nope", "staging")})).problem(9).field("invalidFields", "namespaceMapping[0].source")
	e.post("/k8s/v2/apps", cloneBody("web-staging", clusterID, "", srcID, map[string]any{"namespaceMapping": nsMap("prod", "staging")})).problem(9).field("invalidFields", "sourceClusterID")
	e.post("/k8s/v2/apps", cloneBody("web-staging", clusterID, clusterID, srcID, map[string]any{"namespaceMapping": nsMap("prod", "staging"),
		"storageClassMapping": nsMap("*", "platinum")})).problem(156).field("invalidFields", "storageClassMapping[0].destination")
	if slices.Contains(e.sim.st.Clusters[clusterID].Namespaces, "staging") {
		t.Fatal("a refused clone created its namespace")
	}
	if n := e.sim.Clones("web-staging"); n != 0 {
		t.Fatalf("refused clones counted as accepted: %d", n)
	}

	r := e.post("/k8s/v2/apps", cloneBody("web-staging", clusterID, clusterID, srcID, map[string]any{"namespaceMapping": nsMap("prod", "staging"),
		"storageClassMapping": nsMap("*", "ontap-silver")})).expect(201)
	id := r.str("id")
	if n := e.sim.Clones("web-staging"); n != 1 {
		t.Errorf("accepted clones of web-staging: %d, want 1", n)
	}
	if r.str("state") != "provisioning" || r.str("sourceAppID") != srcID || r.body["sourceClusterID"] != nil ||
		itemField(r.body["namespaceScopedResources"].([]any), 0, "namespace") != "staging" {
		t.Fatalf("clone's POST answer: %s", r.raw)
	}
	if !slices.Contains(e.sim.st.Clusters[clusterID].Namespaces, "staging") {
		t.Error("the clone did not create its namespace")
	}
	e.del("/k8s/v2/apps/" + id).problem(112)
	clock.advance(10 * time.Second)
	got := e.get("/k8s/v2/apps/" + id).expect(200)
	if got.str("state") != "ready" || !strings.Contains(string(got.raw), `"namespaces":["staging"]`) ||
		!strings.Contains(string(got.raw), `"storageClassMapping":[{"destination":"ontap-silver","source":"*"}]`) {
		t.Fatalf("clone once ready: %s", got.raw)
	}
	// An ordinary update of the clone sends its GET members back: accepted unchanged.
	put := copyMap(got.body)
	delete(put, "links")
	put["name"] = "web-staging-2"
	e.put("/k8s/v2/apps/"+id, put).expect(204)
	put["sourceAppID"] = id
	e.put("/k8s/v2/apps/"+id, put).problem(10).field("invalidFields", "sourceAppID")
}

// TestCloneFromBackupToAnotherCluster: a completed backup clones to another cluster, without
// a mapping into a namespace named after the clone (NetApp's toolkit docs, clone); the clone
// carries sourceClusterID and the backup's ID.
func TestCloneFromBackupToAnotherCluster(t *testing.T) {
	clock := newClock()
	e := newEnv(t, Options{Now: clock.Now, Delays: Delays{Backup: 10 * time.Second}})
	e.bucket("bk")
	srcID := e.readyApp("db", "prod")
	srcCluster := e.sim.st.Apps[srcID].ClusterID
	target := e.managedCluster("dr")
	backupID := e.post(backupsOf(srcID), backupBody("nightly", nil)).expect(201).str("id")
	body := cloneBody("db-dr", target, srcCluster, srcID, map[string]any{"backupID": backupID})
	e.post("/k8s/v2/apps", body).problem(148) // a backup in progress: the 24.02 spec's 148, not 164
	clock.advance(10 * time.Second)
	both := cloneBody("db-dr", target, srcCluster, srcID, map[string]any{"backupID": backupID, "snapshotID": backupID})
	e.post("/k8s/v2/apps", both).problem(9).field("invalidFields", "backupID")
	r := e.post("/k8s/v2/apps", body).expect(201)
	if r.str("backupID") != backupID || r.str("sourceClusterID") != srcCluster || r.str("sourceClusterName") != "db-cluster" {
		t.Fatalf("clone from a backup: %s", r.raw)
	}
	if got := e.get("/k8s/v2/apps/" + r.str("id")).str("state"); got != "ready" {
		t.Errorf("state %q without a restore delay", got)
	}
	if !slices.Contains(e.sim.st.Clusters[target].Namespaces, "db-dr") {
		t.Error("the clone did not create namespace db-dr on the target cluster")
	}
	// Into the same namespace again: it exists now.
	e.post("/k8s/v2/apps", cloneBody("db-dr-2", target, srcCluster, srcID, map[string]any{"backupID": backupID,
		"namespaceMapping": nsMap("prod", "db-dr")})).problem(9).field("invalidFields", "namespaceMapping")
}

// TestCloneWithoutMappingNamedAfterClone: NetApp's toolkit docs (clone, --cloneNamespace):
// "if not specified, the namespace is the same value as cloneAppName", and actoolkit then
// sends no namespaceMapping. So a clone within the source's own cluster needs no mapping;
// a source of several namespaces, which one name cannot cover, needs one (400/9).
func TestCloneWithoutMappingNamedAfterClone(t *testing.T) {
	e := newEnv(t, Options{})
	srcID := e.readyApp("web", "prod")
	clusterID := e.sim.st.Apps[srcID].ClusterID
	r := e.post("/k8s/v2/apps", cloneBody("web-copy", clusterID, clusterID, srcID, nil)).expect(201)
	if got := itemField(r.body["namespaceScopedResources"].([]any), 0, "namespace"); got != "web-copy" {
		t.Fatalf("the clone's namespace is %q, want web-copy: %s", got, r.raw)
	}
	if !slices.Contains(e.sim.st.Clusters[clusterID].Namespaces, "web-copy") {
		t.Error("the clone did not create namespace web-copy")
	}
	two := e.readyApp("shop", "front", "back")
	reason := e.post("/k8s/v2/apps", cloneBody("shop-copy", e.sim.st.Apps[two].ClusterID, e.sim.st.Apps[two].ClusterID, two, nil)).
		problem(9).field("invalidFields", "namespaceMapping")
	if !strings.Contains(reason, "several namespaces") {
		t.Errorf("a source of two namespaces without a mapping: %q", reason)
	}
}

// TestCloneMembersOnlyOnClones: the members of a clone without a source are refused, and
// release 22.11 (app 2.1) has no storageClassMapping.
func TestCloneMembersOnlyOnClones(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.managedCluster("c")
	body := appBody("web", id, "default")
	body["namespaceMapping"] = nsMap("default", "other")
	e.post("/k8s/v2/apps", body).problem(9).field("invalidFields", "namespaceMapping")

	old := newEnv(t, Options{Release: "22.11"})
	srcID := old.readyApp("web", "prod")
	cl := old.sim.st.Apps[srcID].ClusterID
	b := cloneBody("web2", cl, cl, srcID, map[string]any{"namespaceMapping": nsMap("prod", "s"), "storageClassMapping": nsMap("*", "ontap-gold")})
	b["version"] = "2.1"
	old.post("/k8s/v2/apps", b).problem(8)
}

// TestInPlaceRestore: a PUT naming a snapshot restores only with forceUpdate: true; the app
// is restoring, then ready, and names the snapshot; forceUpdate on any other PUT is refused.
func TestInPlaceRestore(t *testing.T) {
	clock := newClock()
	e := newEnv(t, Options{Now: clock.Now, Delays: Delays{Restore: 4 * time.Second}})
	appID := e.readyApp("web", "prod")
	snapID := e.post(snapsOf(appID), snapBody("s1")).expect(201).str("id")
	path := "/k8s/v2/apps/" + appID
	restore := map[string]any{"type": "application/astra-app", "version": "2.2", "snapshotID": snapID}
	force := http.Header{"Forceupdate": {"true"}}

	if reason := e.put(path, restore).problem(9).field("invalidFields", "snapshotID"); !strings.Contains(reason, "forceUpdate: true") {
		t.Errorf("restore without the header: %q", reason)
	}
	plain := map[string]any{"type": "application/astra-app", "version": "2.2", "name": "web"}
	e.doURL(http.MethodPut, e.url(path), plain, force).problem(12)
	other := e.readyApp("other", "o")
	otherSnap := e.post(snapsOf(other), snapBody("o1")).expect(201).str("id")
	e.doURL(http.MethodPut, e.url(path), map[string]any{"type": "application/astra-app", "version": "2.2", "snapshotID": otherSnap}, force).problem(9)
	if n := e.sim.Restores(appID); n != 0 {
		t.Fatalf("%d restores after refused PUTs", n)
	}

	e.doURL(http.MethodPut, e.url(path), restore, force).expect(204)
	if got := e.get(path); got.str("state") != "restoring" || got.str("snapshotID") != snapID {
		t.Fatalf("during the restore: %s", got.raw)
	}
	e.post(snapsOf(appID), snapBody("s2")).problem(112)
	e.doURL(http.MethodPut, e.url(path), restore, force).problem(112)
	clock.advance(4 * time.Second)
	if got := e.get(path).str("state"); got != "ready" {
		t.Fatalf("after the restore: %q", got)
	}
	if n := e.sim.Restores(appID); n != 1 {
		t.Errorf("Restores = %d, want 1", n)
	}
}

// TestInPlaceRestoreFailureAndBusy: a restore refused while a backup runs (152), one of an
// incomplete backup (164), and an injected failure ending the app failed with the reason.
func TestInPlaceRestoreFailureAndBusy(t *testing.T) {
	clock := newClock()
	e := newEnv(t, Options{Now: clock.Now, Delays: Delays{Backup: 10 * time.Second}})
	e.bucket("bk")
	appID := e.readyApp("web", "prod")
	path := "/k8s/v2/apps/" + appID
	force := http.Header{"Forceupdate": {"true"}}
	backupID := e.post(backupsOf(appID), backupBody("b1", nil)).expect(201).str("id")
	body := map[string]any{"type": "application/astra-app", "version": "2.2", "backupID": backupID}
	e.doURL(http.MethodPut, e.url(path), body, force).problem(152)
	clock.advance(10 * time.Second)
	if err := e.sim.FailNextRestore("web", "Volume prod/data could not be restored"); err != nil {
		t.Fatal(err)
	}
	e.doURL(http.MethodPut, e.url(path), body, force).expect(204)
	got := e.get(path)
	if got.str("state") != "failed" || got.str("backupID") != backupID || !strings.Contains(string(got.raw), "Volume prod/data could not be restored") {
		t.Fatalf("failed restore: %s", got.raw)
	}
}

// TestCloneAndRestoreRediscover: NetApp's captured app answers (toolkit docs: clone and
// restore) list provisioning -> discovering and restoring -> discovering, never straight to
// ready. Half way through Delays.Restore the app is discovering, and a snapshot or a backup
// chained right after is refused 409/112 until it is ready.
func TestCloneAndRestoreRediscover(t *testing.T) {
	clock := newClock()
	e := newEnv(t, Options{Now: clock.Now, Delays: Delays{Restore: 10 * time.Second}})
	e.bucket("bk")
	srcID := e.readyApp("web", "prod")
	clusterID := e.sim.st.Apps[srcID].ClusterID
	clone := e.post("/k8s/v2/apps", cloneBody("web-copy", clusterID, clusterID, srcID, nil)).expect(201)
	if !strings.Contains(string(clone.raw), `{"from":"provisioning","to":["discovering","failed"]}`) ||
		!strings.Contains(string(clone.raw), `{"from":"restoring","to":["discovering","failed"]}`) {
		t.Errorf("stateTransitions lack the captured provisioning and restoring rows: %s", clone.raw)
	}
	path := "/k8s/v2/apps/" + clone.str("id")
	clock.advance(5 * time.Second)
	if got := e.get(path).str("state"); got != "discovering" {
		t.Fatalf("the clone half way: %q, want discovering", got)
	}
	e.post(snapsOf(clone.str("id")), snapBody("chained")).problem(112)
	e.post(backupsOf(clone.str("id")), backupBody("chained", nil)).problem(10) // 24.02: not 112
	clock.advance(5 * time.Second)
	if got := e.get(path).str("state"); got != "ready" {
		t.Fatalf("the clone at the end: %q, want ready", got)
	}
	snapID := e.post(snapsOf(clone.str("id")), snapBody("chained")).expect(201).str("id")

	restore := map[string]any{"type": "application/astra-app", "version": "2.2", "snapshotID": snapID}
	e.doURL(http.MethodPut, e.url(path), restore, http.Header{"Forceupdate": {"true"}}).expect(204)
	clock.advance(5 * time.Second)
	if got := e.get(path).str("state"); got != "discovering" {
		t.Fatalf("the restore half way: %q, want discovering", got)
	}
	e.post(snapsOf(clone.str("id")), snapBody("after-restore")).problem(112)
	clock.advance(5 * time.Second)
	if got := e.get(path).str("state"); got != "ready" {
		t.Fatalf("the restore at the end: %q, want ready", got)
	}
	e.post(snapsOf(clone.str("id")), snapBody("after-restore")).expect(201)
}
