package astrasim

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSaveAndLoadState(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	e := newEnv(t, Options{})
	credID, id := e.addPrivateCluster("persisted")
	e.manage(id).expect(201)
	if err := e.sim.SaveState(path); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the atomic write left %d files", len(entries))
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Errorf("state file mode %v, want 0600", info.Mode().Perm())
	}
	data, _ := os.ReadFile(path)
	if bytes.Contains(data, []byte("sim-fake-token")) || bytes.Contains(data, []byte("keyStore")) {
		t.Error("the state file holds kubeconfig content")
	}

	// A restarted simulator (same options) picks the state up.
	again := newEnv(t, Options{})
	if err := again.sim.LoadState(path); err != nil {
		t.Fatal(err)
	}
	if again.get("/topology/v1/managedClusters/"+id).expect(200).str("managedState") != "managed" {
		t.Error("the managed cluster did not survive the restart")
	}
	again.get("/core/v1/credentials/" + credID).expect(200)
	before, _ := e.sim.Snapshot()
	after, _ := again.sim.Snapshot()
	if !bytes.Equal(before, after) {
		t.Error("the snapshot changed across save and load")
	}
	// New objects after a restart get new IDs.
	_, next := again.addPrivateCluster("after-restart")
	if next == id || next == credID {
		t.Error("an ID was reused after loading the state")
	}

	if err := newEnv(t, Options{AccountID: "3f2a1b0c-1d2e-4f3a-8b4c-5d6e7f8a9b0c"}).sim.LoadState(path); err == nil || !strings.Contains(err.Error(), "account") {
		t.Errorf("loading another account's state: %v", err)
	}
	if err := newEnv(t, Options{Release: "24.02"}).sim.LoadState(path); err == nil || !strings.Contains(err.Error(), "release") {
		t.Errorf("loading another release's state: %v", err)
	}
	if err := again.sim.LoadState(filepath.Join(dir, "missing.json")); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "junk.json"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := again.sim.LoadState(filepath.Join(dir, "junk.json")); err == nil {
		t.Error("a corrupt file loaded")
	}
}

// TestSnapshotRoundTrip: a full apply (credential, cluster, manage with settings) and
// destroy leaves the simulator as it was, and the snapshot says so; anything lasting shows.
func TestSnapshotRoundTrip(t *testing.T) {
	e := newEnv(t, Options{})
	seeds := e.sim.Seeds()
	before, err := e.sim.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	credID, id := e.addPrivateCluster("round-trip")
	e.post("/topology/v1/managedClusters", map[string]any{"type": "application/astra-managedCluster", "version": "1.2", "id": id, "tridentManagedStateDesired": "managed"}).expect(201)
	e.post("/topology/v1/managedClusters", map[string]any{"type": "application/astra-managedCluster", "version": "1.2", "id": seeds.GCP.ClusterID, "tridentManagedStateDesired": "managed"}).expect(201)
	during, _ := e.sim.Snapshot()
	if bytes.Equal(before, during) {
		t.Fatal("the snapshot did not change after apply")
	}
	e.del("/topology/v1/managedClusters/" + seeds.GCP.ClusterID).expect(204)
	e.del("/topology/v1/managedClusters/" + id).expect(204)
	e.del("/topology/v1/clusters/" + id).expect(204)
	e.del("/core/v1/credentials/" + credID).expect(204)
	after, _ := e.sim.Snapshot()
	if !bytes.Equal(before, after) {
		t.Errorf("destroy did not restore the simulator:\nbefore %d bytes, after %d bytes\n%s", len(before), len(after), firstDifference(before, after))
	}
	// A lasting change (a renamed cloud) shows.
	e.put("/topology/v1/clouds/"+seeds.PrivateCloudID, map[string]any{"type": "application/astra-cloud", "version": "1.1", "name": "renamed"}).expect(204)
	if changed, _ := e.sim.Snapshot(); bytes.Equal(before, changed) {
		t.Error("a rename did not show in the snapshot")
	}
}

func firstDifference(a, b []byte) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return "line " + itoa(i+1) + ":\n- " + la[i] + "\n+ " + lb[i]
		}
	}
	return "one is a prefix of the other"
}

// TestStateFileKeepsBucketCredentials: s3 and service-account credentials survive a
// restart from -state-file with their kind and key digest, and the file holds no secret.
func TestStateFileKeepsBucketCredentials(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	e := newEnv(t, Options{})
	secret := "c2VjcmV0LXRoYXQtbXVzdC1ub3QtYmUtc3RvcmVk" // base64 of a secret
	s3 := e.post("/core/v1/credentials", bucketCredentialBody("s3", "s3", "s3", map[string]any{"accessKey": "QUtJQQ==", "accessSecret": secret})).expect(201).str("id")
	sa := e.post("/core/v1/credentials", bucketCredentialBody("generic", "service-account", "AWS", map[string]any{"base64": secret})).expect(201).str("id")
	digests := map[string]string{s3: e.sim.CredentialKeyDigest(s3), sa: e.sim.CredentialKeyDigest(sa)}
	if err := e.sim.SaveState(path); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); bytes.Contains(data, []byte(secret)) {
		t.Error("the state file holds a key store value")
	}
	again := newEnv(t, Options{})
	if err := again.sim.LoadState(path); err != nil {
		t.Fatal(err)
	}
	for id, kind := range map[string]string{s3: "s3", sa: "service-account"} {
		if got := again.sim.st.credentialKind(id); got != kind || !again.sim.st.bucketCredential(id) {
			t.Errorf("after the restart credential %s is %q (bucket %v), want %q", id, got, again.sim.st.bucketCredential(id), kind)
		}
		if got := again.sim.CredentialKeyDigest(id); got != digests[id] || got == "" {
			t.Errorf("after the restart credential %s has key digest %q, want %q", id, got, digests[id])
		}
	}
}
