package astrasim

import (
	"strings"
	"testing"
)

func TestManageAndUnmanagePublicCluster(t *testing.T) {
	e := newEnv(t, Options{})
	gcp := e.sim.Seeds().GCP
	e.get("/topology/v1/managedClusters/" + gcp.ClusterID).problem(2)
	e.get("/topology/v1/managedClusters/" + gcp.ClusterID + "/storageClasses").problem(2)
	if n := len(e.get("/topology/v1/managedClusters").items()); n != 0 {
		t.Fatalf("%d managed clusters before any manage", n)
	}
	r := e.manage(gcp.ClusterID).expect(201)
	if r.str("type") != "application/astra-managedCluster" || r.str("managedState") != "managed" || r.str("state") != "running" || r.str("managedTimestamp") == "" {
		t.Errorf("manage answer: %s", r.raw)
	}
	if loc := r.header.Get("Location"); loc != e.url("/topology/v1/managedClusters/"+gcp.ClusterID) {
		t.Errorf("Location %q", loc)
	}
	if _, has := r.body["connectorCapabilities"]; has {
		t.Error("the managedCluster schema has no connectorCapabilities")
	}
	c := e.get("/topology/v1/clusters/" + gcp.ClusterID).expect(200)
	if c.str("managedState") != "managed" || c.str("managedTimestamp") == "" {
		t.Errorf("cluster facet after manage: %s", c.raw)
	}
	e.manage(gcp.ClusterID).problem(10)
	if n := len(e.get("/topology/v1/managedClusters").items()); n != 1 {
		t.Errorf("%d managed clusters, want 1", n)
	}
	e.get("/topology/v1/managedClusters/" + gcp.ClusterID + "/storageClasses").expect(200)
	e.del("/topology/v1/managedClusters/" + gcp.ClusterID).expect(204)
	c = e.get("/topology/v1/clouds/" + gcp.CloudID + "/clusters/" + gcp.ClusterID).expect(200)
	if c.str("managedState") != "unmanaged" || c.str("state") != "running" || c.str("managedTimestamp") != "" {
		t.Errorf("a public cluster goes back to unmanaged and stays listed: %s", c.raw)
	}
	e.get("/topology/v1/managedClusters/" + gcp.ClusterID).problem(2)
	e.del("/topology/v1/managedClusters/" + gcp.ClusterID).problem(1)
	e.put("/topology/v1/managedClusters/"+gcp.ClusterID, map[string]any{"type": "application/astra-managedCluster", "version": "1.2"}).problem(1)
}

func TestManageRefusals(t *testing.T) {
	e := newEnv(t, Options{})
	seeds := e.sim.Seeds()
	r := e.manage(seeds.AWS.IneligibleClusterID).problem(9)
	if !strings.Contains(r.field("invalidFields", "id"), "1.21") {
		t.Errorf("ineligibility must give the reasons: %s", r.raw)
	}
	e.manage("0b146cda-7fc1-4f32-804c-8130a38a7e1c").problem(9)
	r = e.post("/topology/v1/managedClusters", map[string]any{
		"type": "application/astra-managedCluster", "version": "1.2", "id": seeds.AWS.ClusterID,
		"defaultStorageClass": seeds.StorageClasses[seeds.GCP.ClusterID][0],
	}).problem(9)
	r.field("invalidFields", "defaultStorageClass")
	if e.get("/topology/v1/clusters/"+seeds.AWS.ClusterID).str("managedState") != "unmanaged" {
		t.Error("a refused manage changed the cluster")
	}
}

func TestDefaultStorageClass(t *testing.T) {
	e := newEnv(t, Options{})
	seeds := e.sim.Seeds()
	id := seeds.Azure.ClusterID
	scs := seeds.StorageClasses[id]
	e.post("/topology/v1/managedClusters", map[string]any{
		"type": "application/astra-managedCluster", "version": "1.2", "id": id,
		"defaultStorageClass": scs[1], "tridentManagedStateDesired": "managed",
	}).expect(201)
	mc := e.get("/topology/v1/managedClusters/" + id).expect(200)
	if mc.str("defaultStorageClass") != scs[1] || mc.str("tridentManagedState") != "managed" {
		t.Errorf("after manage: %s", mc.raw)
	}
	sc := e.get("/topology/v1/managedClusters/" + id + "/storageClasses/" + scs[1]).expect(200)
	if sc.str("isDefault") != "true" {
		t.Errorf("the chosen storage class is not the default: %s", sc.raw)
	}
	if _, has := e.get("/topology/v1/clusters/" + id + "/storageClasses/" + scs[0]).body["isDefault"]; has {
		t.Error("two default storage classes")
	}
	e.put("/topology/v1/managedClusters/"+id, map[string]any{"type": "application/astra-managedCluster", "version": "1.2", "defaultStorageClass": scs[0]}).expect(204)
	if e.get("/topology/v1/clusters/"+id).str("defaultStorageClass") != scs[0] {
		t.Error("PUT managedCluster did not move the default storage class")
	}
	e.get("/topology/v1/clusters/" + id + "/storageClasses/" + seeds.StorageClasses[seeds.GCP.ClusterID][0]).problem(2)
}

func TestInUseBlocksUnmanage(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.sim.Seeds().GCP.ClusterID
	if err := e.sim.SetManagedApps(id, 2); err != nil {
		t.Fatal(err)
	}
	if e.get("/topology/v1/clusters/"+id).str("inUse") != "false" {
		t.Error("inUse is true only while managed")
	}
	e.manage(id).expect(201)
	if e.get("/topology/v1/managedClusters/"+id).str("inUse") != "true" {
		t.Fatal("a managed cluster with managed apps is in use")
	}
	r := e.del("/topology/v1/managedClusters/" + id).problem(10)
	if reason := r.field("invalidFields", "inUse"); !strings.Contains(reason, "gke-prod-app-1, gke-prod-app-2") {
		t.Errorf("the refusal must name the managed apps: %q", reason)
	}
	if err := e.sim.SetManagedApps(id, 0); err != nil {
		t.Fatal(err)
	}
	e.del("/topology/v1/managedClusters/" + id).expect(204)
	if e.sim.SetManagedApps("0b146cda-7fc1-4f32-804c-8130a38a7e1c", 1) == nil || e.sim.SetManagedApps(id, -1) == nil {
		t.Error("SetManagedApps accepted an unknown cluster or a negative count")
	}
}

func TestFailCluster(t *testing.T) {
	e := newEnv(t, Options{})
	_, id := e.addPrivateCluster("flaky")
	e.manage(id).expect(201)
	if err := e.sim.FailCluster(id, "etcd quorum lost", "API server unreachable"); err != nil {
		t.Fatal(err)
	}
	r := e.get("/topology/v1/managedClusters/" + id).expect(200)
	reasons, _ := r.body["stateUnready"].([]any)
	if r.str("state") != "failed" || r.str("managedState") != "managed" || len(reasons) != 2 || reasons[0] != "etcd quorum lost" {
		t.Errorf("failed cluster: %s", r.raw)
	}
	if err := e.sim.FailCluster("0b146cda-7fc1-4f32-804c-8130a38a7e1c"); err == nil {
		t.Error("FailCluster of an unknown cluster succeeded")
	}
	if err := e.sim.FailCluster(id); err != nil {
		t.Fatal(err)
	}
	if got := e.get("/topology/v1/clusters/" + id).body["stateUnready"].([]any); len(got) != 1 || got[0] == "" {
		t.Errorf("default reason: %v", got)
	}
}

func TestPutManagedCluster(t *testing.T) {
	e := newEnv(t, Options{Lenient: true})
	seeds := e.sim.Seeds()
	_, id := e.addPrivateCluster("mc")
	e.addPrivateCluster("taken")
	e.manage(id).expect(201)
	path := "/topology/v1/managedClusters/" + id
	mc := func(fields map[string]any) map[string]any {
		b := map[string]any{"type": "application/astra-managedCluster", "version": "1.2"}
		for k, v := range fields {
			b[k] = v
		}
		return b
	}
	e.put(path, mc(map[string]any{"id": seeds.GCP.ClusterID})).problem(10)
	e.put(path, mc(map[string]any{"name": "taken"})).problem(45)
	e.put(path, mc(map[string]any{"name": "bad<name>"})).problem(9)
	e.put(path, mc(map[string]any{"defaultStorageClass": seeds.StorageClasses[seeds.GCP.ClusterID][0]})).problem(9)
	// ACO updates its connector through this PUT (lenient); a relay beside a credential is refused.
	e.put(path, mc(map[string]any{"connectorCapabilities": []any{"relayV1"}})).problem(165)
	e.put(path, mc(map[string]any{"name": "mc-2", "connectorCapabilities": []any{"watcherV1"}, "privateRouteID": "loc-9", "connectorInstall": "installed"})).expect(204)
	c := e.get("/topology/v1/clusters/" + id).expect(200)
	if c.str("name") != "mc-2" || c.str("privateRouteID") != "loc-9" || c.body["connectorCapabilities"].([]any)[0] != "watcherV1" {
		t.Errorf("after the PUT: %s", c.raw)
	}
	if e.get(path).str("version") != "1.2" {
		t.Error("version echo")
	}
}

func TestPutCloudCredential(t *testing.T) {
	e := newEnv(t, Options{})
	seeds := e.sim.Seeds()
	path := "/topology/v1/clouds/" + seeds.GCP.CloudID
	body := func(fields map[string]any) map[string]any {
		b := map[string]any{"type": "application/astra-cloud", "version": "1.1"}
		for k, v := range fields {
			b[k] = v
		}
		return b
	}
	e.put(path, body(map[string]any{"credentialID": "0b146cda-7fc1-4f32-804c-8130a38a7e1c"})).problem(9)
	e.put(path, body(map[string]any{"id": seeds.AWS.CloudID})).problem(10)
	bucket := e.post("/topology/v1/buckets", s3BucketBody("b", e.s3Credential("key"), "b")).expect(201).str("id")
	e.put(path, body(map[string]any{"credentialID": seeds.AWS.CredentialID, "defaultBucketID": bucket, "cloudType": "gcp"})).expect(204)
	r := e.get(path).expect(200)
	if r.str("credentialID") != seeds.AWS.CredentialID || r.str("defaultBucketID") != bucket || r.str("cloudType") != "GCP" {
		t.Errorf("after PUT: %s", r.raw)
	}
}
