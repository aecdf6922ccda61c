package astrasim

import (
	"strings"
	"testing"
)

// TestStorageBackendsPerCluster: one ONTAP backend per managed cluster, none for a cluster
// named non-ONTAP, at the release's version (1.2 in 22.11, 1.3 with capabilities after).
func TestStorageBackendsPerCluster(t *testing.T) {
	for release, version := range map[string]string{"22.11": "1.2", "24.02": "1.3"} {
		e := newEnv(t, Options{Release: release, NonONTAPClusters: []string{"cloudy"}})
		if n := len(e.get("/topology/v1/storageBackends").items()); n != 0 {
			t.Fatalf("%s: %d backends before any cluster is managed", release, n)
		}
		e.managedCluster("alpha")
		e.managedCluster("cloudy")
		_, unmanaged := e.addPrivateCluster("beta")
		_ = unmanaged
		list := e.get("/topology/v1/storageBackends").expect(200)
		items := list.items()
		if len(items) != 1 || itemField(items, 0, "backendName") != "ontap-alpha" || itemField(items, 0, "version") != version ||
			itemField(items, 0, "managedState") != "managed" || itemField(items, 0, "state") != "running" || list.str("version") != version {
			t.Fatalf("%s: %s", release, list.raw)
		}
		caps := strings.Contains(string(list.raw), `"snapMirror":"true"`)
		if caps != (version == "1.3") {
			t.Fatalf("%s: capabilities %v: %s", release, caps, list.raw)
		}
		id := itemField(items, 0, "id")
		e.get("/topology/v1/storageBackends/" + id).expect(200)
	}
}

// TestStorageBackendWrites: a PUT renames (a taken name is 409/139); a DELETE unmanages a
// cluster's backend (then the cluster cannot replicate: 409/150), a second removes it; a
// backend carrying a relationship is refused, 409/10.
func TestStorageBackendWrites(t *testing.T) {
	d := newDR(t, Options{Release: "24.02"})
	items := d.get("/topology/v1/storageBackends").items()
	if len(items) != 2 {
		t.Fatalf("backends: %v", items)
	}
	src, dst := itemField(items, 0, "id"), itemField(items, 1, "id")
	put := func(name string) map[string]any {
		return map[string]any{"type": "application/astra-storageBackend", "version": "1.3", "backendName": name}
	}
	d.put("/topology/v1/storageBackends/"+src, put("ontap-dr")).problem(139)
	d.put("/topology/v1/storageBackends/"+src, put("prod-a700")).expect(204)
	if got := d.get("/topology/v1/storageBackends/" + src).str("backendName"); got != "prod-a700" {
		t.Fatalf("renamed: %s", got)
	}
	d.post("/topology/v1/storageBackends", map[string]any{"type": "application/astra-storageBackend", "version": "1.3", "backendName": "prod-a700", "backendType": "ontap"}).problem(139)

	id := d.establish("1.1")
	if f := d.del("/topology/v1/storageBackends/"+dst).problem(10).field("invalidFields", "id"); !strings.Contains(f, id) {
		t.Fatalf("refusal: %s", f)
	}
	d.del("/k8s/v1/appMirrors/" + id).expect(204)
	d.del("/topology/v1/storageBackends/" + dst).expect(204)
	b := d.get("/topology/v1/storageBackends/" + dst)
	if b.str("managedState") != "unmanaged" || b.str("state") != "discovered" {
		t.Fatalf("after one DELETE: %s", b.raw)
	}
	other := d.post("/k8s/v2/apps", appBody("other", d.src, "default")).expect(201).str("id")
	d.get("/k8s/v2/apps/" + other)
	body := d.mirrorBody("1.1", "x", map[string]any{"sourceAppID": other, "namespaceMapping": nil})
	if f := d.post("/k8s/v1/appMirrors", body).problem(150).field("invalidFields", "destinationClusterID"); !strings.Contains(f, "not managed by Astra Control") {
		t.Fatalf("unmanaged backend: %s", f)
	}
	d.del("/topology/v1/storageBackends/" + dst).expect(204)
	d.get("/topology/v1/storageBackends/" + dst).problem(2)
	d.del("/topology/v1/storageBackends/" + dst).problem(1)
	if n := len(d.get("/topology/v1/storageBackends").items()); n != 1 {
		t.Fatalf("a removed backend came back: %d", n)
	}
}
