package astrasim

import (
	"strings"
	"testing"
	"time"
)

// mirrorDelays make each step of the state machine visible on a fake clock.
var mirrorDelays = Delays{Mirror: time.Minute, Failover: 30 * time.Second, Transfer: 10 * time.Second}

// TestAppMirrorCycle walks establish -> failover -> reverse resync -> failover back ->
// resync, asserting each state, the spec's stateAllowed, the apps' states and the IDs.
func TestAppMirrorCycle(t *testing.T) {
	clock := newClock()
	d := newDR(t, Options{Release: "24.02", Now: clock.Now, Delays: mirrorDelays})
	id := d.establish("1.1")
	path := "/k8s/v1/appMirrors/" + id
	m := d.get(path).expectMirror("establishing", "normal", "idle")
	if got := m.body["stateAllowed"]; !sameAny(got, "established", "deleted") {
		t.Fatalf("stateAllowed while establishing: %v", got)
	}
	destApp := m.str("destinationAppID")
	da := d.get("/k8s/v2/apps/" + destApp).expect(200)
	if da.str("state") != "provisioning" || da.str("clusterID") != d.dst || da.str("name") != "wordpress" ||
		!strings.Contains(string(da.raw), `"namespace":"wp-dr"`) {
		t.Fatalf("the destination app while establishing: %s", da.raw)
	}
	ns := d.get("/topology/v1/managedClusters/" + d.dst + "/namespaces").items()
	if !strings.Contains(string(mustJSON(ns)), `"name":"wp-dr"`) {
		t.Fatalf("the service did not create namespace wp-dr on the destination: %s", mustJSON(ns))
	}

	clock.advance(time.Minute)
	m = d.get(path).expectMirror("established", "normal", "idle")
	if !sameAny(m.body["stateAllowed"], "failedOver", "deleted") {
		t.Fatalf("established: %s", m.raw)
	}
	if !strings.Contains(string(m.raw), `"title":"Snapshot replication completed"`) || !strings.Contains(string(m.raw), replicationCompleted) {
		t.Fatalf("no completed replication in stateDetails: %s", m.raw)
	}
	if got := d.get("/k8s/v2/apps/" + destApp).str("state"); got != "unavailable" {
		t.Fatalf("the destination app is %s before a failover, want unavailable", got)
	}

	// Failover: failingOver, then failedOver; the destination app is ready; a repeated
	// failover changes nothing.
	d.put(path, mirrorPut("1.1", "failedOver", nil, false)).expect(200)
	d.get(path).expectMirror("failingOver", "warning", "idle")
	d.put(path, mirrorPut("1.1", "failedOver", nil, false)).expect(200)
	clock.advance(30 * time.Second)
	m = d.get(path).expectMirror("failedOver", "warning", "idle")
	if !sameAny(m.body["stateAllowed"], "established", "deleted") {
		t.Fatalf("stateAllowed failed over: %v", m.body["stateAllowed"])
	}
	if got := d.get("/k8s/v2/apps/" + destApp).str("state"); got != "ready" {
		t.Fatalf("the destination app after failover: %s", got)
	}
	if got := d.get("/k8s/v2/apps/" + d.app).str("state"); got != "ready" {
		t.Fatalf("the source app keeps running after a failover (ACC-DOCS): %s", got)
	}

	// Reverse resync: the failed-over copy becomes the source; the old source stops.
	d.put(path, mirrorPut("1.1", "established", m, true)).expect(200)
	m = d.get(path).expectMirror("establishing", "normal", "idle")
	if m.str("sourceAppID") != destApp || m.str("destinationAppID") != d.app || m.str("sourceClusterID") != d.dst || m.str("destinationClusterID") != d.src {
		t.Fatalf("IDs after a reverse resync: %s", m.raw)
	}
	if got := d.get("/k8s/v2/apps/" + d.app).str("state"); got != "unavailable" {
		t.Fatalf("the former source (now overwritten) is %s, want unavailable", got)
	}
	clock.advance(time.Minute)
	d.get(path).expectMirror("established", "normal", "idle")

	// Fail back: failover to the original app, then resync keeping its data.
	d.put(path, mirrorPut("1.1", "failedOver", nil, false)).expect(200)
	clock.advance(30 * time.Second)
	m = d.get(path).expectMirror("failedOver", "warning", "idle")
	if got := d.get("/k8s/v2/apps/" + d.app).str("state"); got != "ready" {
		t.Fatalf("the original app after failing back: %s", got)
	}
	d.put(path, mirrorPut("1.1", "established", m, false)).expect(200)
	d.get(path).expectMirror("establishing", "normal", "idle")
	if got := d.get("/k8s/v2/apps/" + d.app).str("state"); got != "unavailable" {
		t.Fatalf("a resync keeping the source's data stops the destination: %s", got)
	}
	clock.advance(time.Minute)
	m = d.get(path).expectMirror("established", "normal", "idle")
	if m.str("sourceAppID") != destApp || m.str("destinationAppID") != d.app {
		t.Fatalf("a resync does not swap: %s", m.raw)
	}
	if n := d.sim.Count("PUT", "/k8s/v1/appMirrors/{appMirror_id}"); n != 5 {
		t.Fatalf("PUT counted %d, want 5", n)
	}
}

// TestAppMirrorReverseFromEstablished: a planned reverse (the swapped body from
// established) passes through establishing, as NetApp's captured answers show.
func TestAppMirrorReverseFromEstablished(t *testing.T) {
	clock := newClock()
	d := newDR(t, Options{Now: clock.Now, Delays: mirrorDelays, PutReturnsBody: true})
	id := d.establish("1.1")
	clock.advance(time.Minute)
	m := d.get("/k8s/v1/appMirrors/"+id).expectMirror("established", "normal", "idle")
	r := d.put("/k8s/v1/appMirrors/"+id, mirrorPut("1.1", "established", m, true)).expect(200)
	r.expectMirror("establishing", "normal", "idle")
	if r.str("sourceAppID") != m.str("destinationAppID") {
		t.Fatalf("reverse answer: %s", r.raw)
	}
	if got := d.get("/k8s/v2/apps/" + d.app).str("state"); got != "unavailable" {
		t.Fatalf("the former source stops on a reverse: %s", got)
	}
	clock.advance(time.Minute)
	d.get("/k8s/v1/appMirrors/"+id).expectMirror("established", "normal", "idle")
	if got := d.get("/k8s/v2/apps/" + m.str("destinationAppID")).str("state"); got != "ready" {
		t.Fatalf("the new source runs after the reverse: %s", got)
	}
}

// TestAppMirrorRefusedTransitions: stateDesired outside the spec's stateAllowed is 409/10
// naming stateDesired; IDs that are neither kept nor swapped are 409/10.
func TestAppMirrorRefusedTransitions(t *testing.T) {
	clock := newClock()
	d := newDR(t, Options{Now: clock.Now, Delays: mirrorDelays})
	id := d.establish("1.1")
	path := "/k8s/v1/appMirrors/" + id
	if f := d.put(path, mirrorPut("1.1", "failedOver", nil, false)).problem(10).field("invalidFields", "stateDesired"); !strings.Contains(f, "accepts stateDesired established or deleted") {
		t.Fatalf("failover while establishing: %s", f)
	}
	clock.advance(time.Minute)
	bad := mirrorPut("1.1", "established", nil, false)
	bad["sourceAppID"] = d.dst // a cluster's ID, not an app of the relationship
	d.put(path, bad).problem(10)
	d.put(path, map[string]any{"type": "application/astra-appMirror", "version": "1.1", "stateDesired": "bogus"}).problem(8)
	d.put(path, mirrorPut("1.1", "failedOver", nil, false)).expect(200)
	if f := d.put(path, mirrorPut("1.1", "established", nil, false)).problem(10).field("invalidFields", "stateDesired"); !strings.Contains(f, "failingOver") {
		t.Fatalf("resync while failing over: %s", f)
	}
	d.get(path).expectMirror("failingOver", "warning", "idle")
}

// TestAppMirrorDelete: DELETE answers 204, deleting until Delays.Delete, then 404; by
// default the destination app stays managed (the conservative reading), with
// MirrorDeleteRemovesDestination a destination never failed over is removed.
func TestAppMirrorDelete(t *testing.T) {
	for _, removes := range []bool{false, true} {
		clock := newClock()
		opts := Options{Now: clock.Now, Delays: Delays{Mirror: time.Minute, Delete: 5 * time.Second}, MirrorDeleteRemovesDestination: removes}
		d := newDR(t, opts)
		id := d.establish("1.1")
		clock.advance(time.Minute)
		dest := d.get("/k8s/v1/appMirrors/" + id).str("destinationAppID")
		d.del("/k8s/v2/apps/" + d.app).problem(119)
		d.del("/k8s/v2/apps/" + dest).problem(119)
		d.del("/k8s/v1/appMirrors/" + id).expect(204)
		clock.advance(4 * time.Second)
		d.del("/k8s/v1/appMirrors/" + id).expect(204) // a retried DELETE does not restart the clean-up
		m := d.get("/k8s/v1/appMirrors/"+id).expectMirror("deleting", "normal", "idle")
		if m.str("stateDesired") != "deleted" || !sameAny(m.body["stateAllowed"], "deleted") {
			t.Fatalf("deleting: %s", m.raw)
		}
		clock.advance(time.Second)
		d.get("/k8s/v1/appMirrors/" + id).problem(2)
		d.get("/k8s/v2/apps/" + d.app).expect(200)
		if removes {
			d.get("/k8s/v2/apps/" + dest).problem(2)
		} else if got := d.get("/k8s/v2/apps/" + dest).str("state"); got != "ready" {
			t.Fatalf("the destination app after delete: %s", got)
		}
		d.del("/k8s/v2/apps/" + d.app).expect(204)
	}
}

// TestAppMirrorAliasPath: the app-scoped path creates and lists the app's relationships
// (as source or destination) and refuses another app's.
func TestAppMirrorAliasPath(t *testing.T) {
	d := newDR(t, Options{Release: "23.05"})
	r := d.post("/k8s/v1/apps/"+d.app+"/appMirrors", d.mirrorBody("1.0", "wp-dr", nil)).expect(201)
	id, dest := r.str("id"), r.str("destinationAppID")
	if r.str("version") != "1.0" || strings.Contains(string(r.raw), `"role"`) {
		t.Fatalf("23.05 speaks appMirror 1.0: %s", r.raw)
	}
	for _, app := range []string{d.app, dest} {
		if items := d.get("/k8s/v1/apps/" + app + "/appMirrors").items(); len(items) != 1 || itemField(items, 0, "id") != id {
			t.Fatalf("the alias of %s lists %v", app, items)
		}
		d.get("/k8s/v1/apps/" + app + "/appMirrors/" + id).expect(200)
	}
	other := d.post("/k8s/v2/apps", appBody("other", d.src, "default")).expect(201).str("id")
	d.get("/k8s/v1/apps/" + other + "/appMirrors/" + id).problem(2)
	d.post("/k8s/v1/apps/"+other+"/appMirrors", d.mirrorBody("1.0", "x", nil)).problem(10)
	d.post("/k8s/v1/appMirrors", d.mirrorBody("1.1", "wp-dr", nil)).problem(8) // 23.05 has no 1.1
}

func sameAny(v any, want ...string) bool {
	list, ok := v.([]any)
	if !ok || len(list) != len(want) {
		return false
	}
	for i, w := range want {
		if list[i] != w {
			return false
		}
	}
	return true
}
