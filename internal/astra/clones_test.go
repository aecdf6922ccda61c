package astra

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

const (
	cloneSourceApp = "a1b2c3d4-0000-4000-8000-000000000001"
	cloneSnapshot  = "a1b2c3d4-0000-4000-8000-000000000002"
	cloneBackup    = "a1b2c3d4-0000-4000-8000-000000000003"
)

// TestCloneAndRestoreBodies: a clone's POST and a restore's PUT are valid against the
// published schemas; only the restore sends forceUpdate, and its body names nothing else.
func TestCloneAndRestoreBodies(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		if r.Method == http.MethodPut {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		reply(w, 201, "application/json", appJSON)
	})
	c := f.client(t)
	ctx := context.Background()
	if _, err := c.CloneApp(ctx, AppClone{Name: "web-staging", ClusterID: testCluster, SourceAppID: cloneSourceApp, SourceClusterID: testCluster,
		BackupID: cloneBackup, NamespaceMapping: []Mapping{{"prod", "staging"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CloneApp(ctx, AppClone{Name: "web-dr", ClusterID: testCluster, SourceAppID: cloneSourceApp, SourceClusterID: testCluster,
		StorageClassMapping: []Mapping{{"*", "ontap-silver"}}}); err != nil {
		t.Fatal(err)
	}
	if err := c.RestoreApp(ctx, cloneSourceApp, cloneSnapshot, ""); err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	checkPublished(t, apispec.App, apispec.PostRequest, reqs[0].Body)
	for _, want := range []string{`"version":"2.1"`, `"sourceAppID":"` + cloneSourceApp + `"`, `"sourceClusterID":"` + testCluster + `"`,
		`"backupID":"` + cloneBackup + `"`, `"namespaceMapping":[{"source":"prod","destination":"staging"}]`} {
		if !strings.Contains(string(reqs[0].Body), want) {
			t.Errorf("clone body lacks %s: %s", want, reqs[0].Body)
		}
	}
	// A storage class mapping needs app 2.2 (24.02's schema; 22.11 has no such member).
	if !strings.Contains(string(reqs[1].Body), `"version":"2.2"`) || strings.Contains(string(reqs[1].Body), "snapshotID") {
		t.Errorf("clone with a storage class mapping: %s", reqs[1].Body)
	}
	if schema, _, ok := apispec.Schema("24.02", apispec.App, "2.2", apispec.PostRequest); !ok || apispec.Validate(schema, reqs[1].Body) != nil {
		t.Errorf("clone body invalid against app 2.2: %s", reqs[1].Body)
	}
	restore := reqs[2]
	if restore.Method != http.MethodPut || restore.Header.Get("forceUpdate") != "true" {
		t.Fatalf("restore: %s with forceUpdate %q", restore.Method, restore.Header.Get("forceUpdate"))
	}
	checkPublished(t, apispec.App, apispec.PutRequest, restore.Body)
	var members map[string]json.RawMessage
	if err := json.Unmarshal(restore.Body, &members); err != nil {
		t.Fatal(err)
	}
	if len(members) != 3 || string(members["snapshotID"]) != `"`+cloneSnapshot+`"` {
		t.Errorf("restore body: %s", restore.Body)
	}
	for _, r := range reqs[:2] {
		if r.Header.Get("forceUpdate") != "" {
			t.Errorf("%s sent forceUpdate", r.Method)
		}
	}
}

// TestCloneAndRestoreRefusedLocally: what the client knows to be wrong never reaches the
// service.
func TestCloneAndRestoreRefusedLocally(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) { w.WriteHeader(500) })
	c := f.client(t, func(cfg *Config) { cfg.ClusterVersion = "1.3" })
	ctx := context.Background()
	for name, err := range map[string]error{
		"both":             c.RestoreApp(ctx, cloneSourceApp, cloneSnapshot, cloneBackup),
		"neither":          c.RestoreApp(ctx, cloneSourceApp, "", ""),
		"22.11 sc mapping": second(c.CloneApp(ctx, AppClone{Name: "x", ClusterID: testCluster, SourceAppID: cloneSourceApp, SourceClusterID: testCluster, StorageClassMapping: []Mapping{{"*", "gold"}}})),
		"clone both":       second(c.CloneApp(ctx, AppClone{Name: "x", ClusterID: testCluster, SourceAppID: cloneSourceApp, SourceClusterID: testCluster, SnapshotID: cloneSnapshot, BackupID: cloneBackup})),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if f.count() != 0 {
		t.Errorf("%d requests sent", f.count())
	}
}

func second[T any](_ T, err error) error { return err }

// TestUpdateAppNeverSendsForceUpdate: an ordinary update carries neither the header nor the
// members of a restore, even for an app that was cloned from a backup.
func TestUpdateAppNeverSendsForceUpdate(t *testing.T) {
	var app App
	raw := strings.Replace(appJSON, `"name":"web",`, `"name":"web","sourceAppID":"`+cloneSourceApp+`","backupID":"`+cloneBackup+`",`, 1)
	if err := json.Unmarshal([]byte(raw), &app); err != nil {
		t.Fatal(err)
	}
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		if r.Method == http.MethodPut {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		reply(w, 200, "application/json", raw)
	})
	app.Name = "web-2"
	if _, err := f.client(t).UpdateApp(context.Background(), &app); err != nil {
		t.Fatal(err)
	}
	put := f.requests()[0]
	if put.Method != http.MethodPut || put.Header.Get("forceUpdate") != "" || strings.Contains(string(put.Body), "backupID") ||
		strings.Contains(string(put.Body), "snapshotID") || !strings.Contains(string(put.Body), `"name":"web-2"`) {
		t.Errorf("update: %s %v %s", put.Method, put.Header, put.Body)
	}
}

// TestCloneAndRestoreAgainstTheSimulator: a clone from a snapshot into a new namespace of
// the cluster is ready and names its source; a restore goes restoring, then ready, and is
// the simulator's only one; a refused restore comes back as the service's problem.
func TestCloneAndRestoreAgainstTheSimulator(t *testing.T) {
	fx := newDayTwoFixture(t, astrasim.Options{Release: "24.02"})
	ctx := context.Background()
	src, err := fx.c.GetApp(ctx, fx.appID)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := fx.c.CreateAppSnapshot(ctx, fx.appID, AppSnapshotCreate{Name: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := WaitFrom(ctx, fastWait, snap, func(ctx context.Context) (*AppSnapshot, error) { return fx.c.GetAppSnapshot(ctx, fx.appID, snap.ID) }, AppSnapshotCompleted); err != nil {
		t.Fatal(err)
	}
	clone, err := fx.c.CloneApp(ctx, AppClone{Name: "web-staging", ClusterID: src.ClusterID, SourceAppID: src.ID, SourceClusterID: src.ClusterID,
		SnapshotID: snap.ID, NamespaceMapping: []Mapping{{"default", "staging"}}, StorageClassMapping: []Mapping{{"*", "ontap-silver"}}})
	if err != nil {
		t.Fatal(err)
	}
	clone, err = WaitFrom(ctx, fastWait, clone, func(ctx context.Context) (*App, error) { return fx.c.GetApp(ctx, clone.ID) }, AppReady)
	if err != nil {
		t.Fatal(err)
	}
	if clone.SourceAppID != src.ID || len(clone.Namespaces) != 1 || clone.Namespaces[0] != "staging" {
		t.Fatalf("clone: %+v", clone)
	}
	clone.Name = "web-staging-2"
	if _, err := fx.c.UpdateApp(ctx, clone); err != nil {
		t.Fatalf("ordinary update of a clone: %v", err)
	}
	if n := fx.sim.Restores(clone.ID); n != 0 {
		t.Fatalf("the update restored the clone %d times", n)
	}
	if err := fx.c.RestoreApp(ctx, fx.appID, snap.ID, ""); err != nil {
		t.Fatal(err)
	}
	restored, err := Wait(ctx, fastWait, func(ctx context.Context) (*App, error) { return fx.c.GetApp(ctx, fx.appID) }, AppReady)
	if err != nil || restored.State != "ready" || fx.sim.Restores(fx.appID) != 1 {
		t.Fatalf("restore: %+v, %v, %d restores", restored, err, fx.sim.Restores(fx.appID))
	}
	var apiErr *APIError
	err = fx.c.RestoreApp(ctx, fx.appID, "", snap.ID) // a snapshot's ID is no backup of the app
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 || !strings.Contains(err.Error(), "no backup of this app") {
		t.Errorf("restore from an unknown backup: %v", err)
	}
}
