package astrasim

import (
	"strings"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// drEnv is a simulator with two managed private clusters (ONTAP unless the options say
// otherwise) and a ready app on the first, in namespace "wp".
type drEnv struct {
	*env
	src, dst, app string
}

func newDR(t *testing.T, opts Options) *drEnv {
	t.Helper()
	opts.Namespaces = append(opts.Namespaces, "wp")
	e := newEnv(t, opts)
	src := e.managedCluster("prod")
	dst := e.managedCluster("dr")
	app := e.post("/k8s/v2/apps", appBody("wordpress", src, "wp")).expect(201).str("id")
	e.get("/k8s/v2/apps/" + app).expect(200) // discovered: ready
	return &drEnv{env: e, src: src, dst: dst, app: app}
}

// mirrorBody is an AppMirror POST as actoolkit sends it (research notes §4.12): both
// namespaceMapping items, the destination's storage class without role.
func (d *drEnv) mirrorBody(version string, destNS string, extra map[string]any) map[string]any {
	b := map[string]any{"type": "application/astra-appMirror", "version": version, "sourceAppID": d.app,
		"destinationClusterID": d.dst, "stateDesired": "established",
		"namespaceMapping": []any{
			map[string]any{"clusterID": d.src, "namespaces": []any{"wp"}},
			map[string]any{"clusterID": d.dst, "namespaces": []any{destNS}},
		},
		"storageClasses": []any{map[string]any{"clusterID": d.dst, "storageClassName": "ontap-gold"}}}
	for k, v := range extra {
		if v == nil {
			delete(b, k)
			continue
		}
		b[k] = v
	}
	return b
}

// establish creates a relationship and returns its ID (the POST answers establishing).
func (d *drEnv) establish(version string) string {
	d.t.Helper()
	r := d.post("/k8s/v1/appMirrors", d.mirrorBody(version, "wp-dr", nil)).expect(201)
	if r.str("state") != "establishing" || r.str("stateDesired") != "established" {
		d.t.Fatalf("POST answer: %s", r.raw)
	}
	return r.str("id")
}

// mirrorPut is a PUT body: stateDesired plus the four IDs, swapped when swap.
func mirrorPut(version, desired string, m *result, swap bool) map[string]any {
	b := map[string]any{"type": "application/astra-appMirror", "version": version, "stateDesired": desired}
	if m != nil {
		sa, sc, da, dc := m.str("sourceAppID"), m.str("sourceClusterID"), m.str("destinationAppID"), m.str("destinationClusterID")
		if swap {
			sa, sc, da, dc = da, dc, sa, sc
		}
		b["sourceAppID"], b["sourceClusterID"], b["destinationAppID"], b["destinationClusterID"] = sa, sc, da, dc
	}
	return b
}

// expectMirror fails unless the relationship's state, health and transfer state are these.
func (r *result) expectMirror(state, health, transfer string) *result {
	r.t.Helper()
	if r.str("state") != state || r.str("healthState") != health || r.str("transferState") != transfer {
		r.t.Fatalf("want %s/%s/%s, got %s/%s/%s: %s", state, health, transfer, r.str("state"), r.str("healthState"), r.str("transferState"), r.raw)
	}
	return r
}

// bindReplication points a published example of the replication paths at objects that
// exist (examples_test.go bind): two managed clusters and a ready app, a relationship for
// the item paths, a storage backend for its item path.
func (e *env) bindReplication(template string, body map[string]any) string {
	e.t.Helper()
	path := template
	set := func(param, id string) { path = strings.ReplaceAll(path, "{"+param+"}", id) }
	if strings.HasPrefix(template, "/topology/v1/storageBackends") {
		e.managedCluster("ontap")
		id := itemField(e.get("/topology/v1/storageBackends").items(), 0, "id")
		set("storageBackend_id", id)
		return path
	}
	src, dst := e.managedCluster("prod"), e.managedCluster("dr")
	app := e.post("/k8s/v2/apps", appBody("example", src, "default")).expect(201).str("id")
	e.get("/k8s/v2/apps/" + app)
	set("app_id", app)
	if strings.HasSuffix(template, "{appMirror_id}") {
		v := e.sim.newest[apispec.AppMirror] // the breakers of TestBrokenExamplesAreRefused mutate body
		b := map[string]any{"type": "application/astra-appMirror", "version": v, "sourceAppID": app, "destinationClusterID": dst, "stateDesired": "established"}
		id := e.post("/k8s/v1/appMirrors", b).expect(201).str("id")
		e.get("/k8s/v1/appMirrors/" + id) // established
		set("appMirror_id", id)
		return path
	}
	body["sourceAppID"], body["destinationClusterID"] = app, dst
	return path
}

// tourReplication walks every replication operation once, successfully (TestTour).
func (e *env) tourReplication(src, dst string) {
	e.t.Helper()
	app := e.post("/k8s/v2/apps", appBody("tour-app", src, "default")).expect(201).str("id")
	e.get("/k8s/v2/apps/" + app).expect(200)
	v := e.sim.newest[apispec.AppMirror]
	body := map[string]any{"type": "application/astra-appMirror", "version": v, "sourceAppID": app, "destinationClusterID": dst, "stateDesired": "established"}
	id := e.post("/k8s/v1/apps/"+app+"/appMirrors", body).expect(201).str("id")
	e.get("/k8s/v1/appMirrors").expect(200)
	e.get("/k8s/v1/apps/" + app + "/appMirrors").expect(200)
	e.get("/k8s/v1/apps/" + app + "/appMirrors/" + id).expect(200)
	e.put("/k8s/v1/apps/"+app+"/appMirrors/"+id, map[string]any{"type": "application/astra-appMirror", "version": v, "stateDesired": "failedOver"}).expect(200)
	e.del("/k8s/v1/apps/" + app + "/appMirrors/" + id).expect(204)
	app2 := e.post("/k8s/v2/apps", appBody("tour-app-2", src, "kube-public")).expect(201).str("id")
	e.get("/k8s/v2/apps/" + app2).expect(200)
	body["sourceAppID"] = app2
	id = e.post("/k8s/v1/appMirrors", body).expect(201).str("id")
	e.get("/k8s/v1/appMirrors/" + id).expect(200)
	e.put("/k8s/v1/appMirrors/"+id, map[string]any{"type": "application/astra-appMirror", "version": v, "stateDesired": "failedOver"}).expect(200)
	e.del("/k8s/v1/appMirrors/" + id).expect(204)
	sbv := e.sim.newest[apispec.StorageBackend]
	e.get("/topology/v1/storageBackends").expect(200)
	sb := e.post("/topology/v1/storageBackends", map[string]any{"type": "application/astra-storageBackend", "version": sbv, "backendName": "tour", "backendType": "ontap"}).expect(201).str("id")
	e.get("/topology/v1/storageBackends/" + sb).expect(200)
	e.put("/topology/v1/storageBackends/"+sb, map[string]any{"type": "application/astra-storageBackend", "version": sbv, "backendName": "tour-2"}).expect(200)
	e.del("/topology/v1/storageBackends/" + sb).expect(204)
	// Both apps are unmanaged, so the tour can unmanage their clusters later.
	for _, a := range e.get("/k8s/v2/apps").items() {
		m := a.(map[string]any)
		if c := m["clusterID"]; c == src || c == dst {
			e.del("/k8s/v2/apps/" + m["id"].(string)).expect(204)
		}
	}
}

// lastReplicated is the snapshotID of the completed replication in a relationship's
// stateDetails, or "".
func (r *result) lastReplicated() string {
	details, _ := r.body["stateDetails"].([]any)
	for _, d := range details {
		m, _ := d.(map[string]any)
		if m["type"] == replicationCompleted {
			add, _ := m["additionalDetails"].(map[string]any)
			id, _ := add["snapshotID"].(string)
			return id
		}
	}
	return ""
}
