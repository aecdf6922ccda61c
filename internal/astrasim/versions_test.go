package astrasim

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// session runs the same script against a release and records what a client observes.
func session(t *testing.T, release string) map[string]string {
	clock := newClock()
	e := newEnv(t, Options{Release: release, Now: clock.Now, Delays: Delays{Unmanage: time.Minute}})
	seen := map[string]string{}
	private := "/topology/v1/clouds/" + e.sim.Seeds().PrivateCloudID + "/clusters"
	cv, mv := e.sim.newest["cluster"], e.sim.newest["managedCluster"]
	seen["cluster version"], seen["managedCluster version"] = cv, mv

	// A connector cluster, its relay capability named both ways.
	for _, relay := range []string{"relayV1", "connectorV2"} {
		r := e.post(private, clusterBody(cv, map[string]any{
			"name": "edge-" + strings.ToLower(relay), "privateRouteID": "loc-" + relay,
			"connectorCapabilities": []any{relay, "watcherV1", "neptuneV1"},
		}))
		seen["POST "+relay] = fmt.Sprint(r.status)
		if r.status == 201 {
			caps := e.get("/topology/v1/clusters/" + r.str("id")).body["connectorCapabilities"].([]any)
			seen["capabilities"] = fmt.Sprint(caps)
			seen["connector cluster"] = r.str("id")
		}
	}
	// clusterType on POST (cluster 1.7 only).
	cred := e.post("/core/v1/credentials", kubeconfigBody("typed", "https://typed.example.com")).expect(201).str("id")
	r := e.post(private, clusterBody(cv, map[string]any{"credentialID": cred, "clusterType": "openshift"}))
	seen["POST clusterType"] = fmt.Sprint(r.status)

	// Manage the connector cluster with a default bucket (managedCluster 1.7 only).
	id := seen["connector cluster"]
	bucket := e.post("/topology/v1/buckets", s3BucketBody("b", e.s3Credential("key"), "b")).expect(201).str("id")
	r = e.post("/topology/v1/managedClusters", map[string]any{
		"type": "application/astra-managedCluster", "version": mv, "id": id, "defaultBucketID": bucket,
	})
	seen["manage with bucket"] = fmt.Sprint(r.status)
	if r.status != 201 {
		e.manage(id).expect(201)
	}
	mc := e.get("/topology/v1/managedClusters/" + id).expect(200)
	_, hasACP := mc.body["acpVersion"]
	_, hasDetails := mc.body["managedStateDetails"]
	seen["acpVersion present"], seen["managedStateDetails present"] = fmt.Sprint(hasACP), fmt.Sprint(hasDetails)
	seen["defaultBucketID"] = strings.ReplaceAll(mc.str("defaultBucketID"), bucket, "the bucket")
	// A kubeconfig cluster without neptuneV1 can't take a bucket.
	_, plain := e.addPrivateCluster("plain")
	e.manage(plain).expect(201)
	r = e.put("/topology/v1/managedClusters/"+plain, map[string]any{"type": "application/astra-managedCluster", "version": mv, "defaultBucketID": bucket})
	seen["bucket without neptuneV1"] = fmt.Sprint(r.status, " ", problemNumber(r.str("type")))

	// Unmanage, observed during the delay.
	e.del("/topology/v1/managedClusters/" + id).expect(204)
	seen["managedState while unmanaging"] = e.get("/topology/v1/managedClusters/" + id).str("managedState")
	clock.advance(time.Minute)
	seen["managedState after"] = e.get("/topology/v1/clusters/" + id).str("managedState")
	return seen
}

func TestSameSessionOnTwoReleases(t *testing.T) {
	old, cur := session(t, "23.07"), session(t, "24.02")
	want := map[string][2]string{
		"cluster version":               {"1.5", "1.7"},
		"managedCluster version":        {"1.2", "1.7"},
		"POST relayV1":                  {"201", "400"},
		"POST connectorV2":              {"400", "201"},
		"capabilities":                  {"[relayV1 watcherV1 neptuneV1]", "[connectorV2 watcherV1 neptuneV1]"},
		"POST clusterType":              {"400", "201"},
		"manage with bucket":            {"400", "201"},
		"acpVersion present":            {"false", "true"},
		"managedStateDetails present":   {"false", "true"},
		"defaultBucketID":               {"", "the bucket"},
		"bucket without neptuneV1":      {"400 8", "400 171"},
		"managedState while unmanaging": {"managed", "deleting"},
		"managedState after":            {"unmanaged", "unmanaged"},
	}
	for k, w := range want {
		if old[k] != w[0] || cur[k] != w[1] {
			t.Errorf("%s: 23.07 %q, 24.02 %q; want %q and %q", k, old[k], cur[k], w[0], w[1])
		}
	}
}

// TestOlderBodiesOnNewerRelease: a 24.02 service still takes a 1.5 body (relayV1
// included) and answers it at 1.5; a 1.7 PUT later renames the capability.
func TestOlderBodiesOnNewerRelease(t *testing.T) {
	e := newEnv(t, Options{Release: "24.02"})
	private := "/topology/v1/clouds/" + e.sim.Seeds().PrivateCloudID + "/clusters"
	r := e.post(private, clusterBody("1.5", map[string]any{"name": "old-aco", "privateRouteID": "loc", "connectorCapabilities": []any{"relayV1"}})).expect(201)
	id := r.str("id")
	if r.str("version") != "1.5" {
		t.Errorf("version %q, want 1.5", r.str("version"))
	}
	e.put("/topology/v1/clusters/"+id, clusterBody("1.7", map[string]any{"name": "new-aco"})).expect(204)
	got := e.get("/topology/v1/clusters/" + id).expect(200)
	if caps := got.body["connectorCapabilities"].([]any); got.str("version") != "1.7" || len(caps) != 1 || caps[0] != "connectorV2" {
		t.Errorf("after a 1.7 PUT: version %q capabilities %v", got.str("version"), caps)
	}
	// Every release answers its own newest versions for seeded objects.
	for release, want := range map[string]string{"22.11": "1.3", "23.05": "1.4", "23.10": "1.6"} {
		e := newEnv(t, Options{Release: release})
		if v := e.get("/topology/v1/clusters/" + e.sim.Seeds().GCP.ClusterID).str("version"); v != want {
			t.Errorf("%s seeded cluster version %q, want %q", release, v, want)
		}
	}
}
