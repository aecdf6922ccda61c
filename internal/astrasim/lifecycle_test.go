package astrasim

import (
	"testing"
	"time"
)

func TestDelayedTransitions(t *testing.T) {
	clock := newClock()
	e := newEnv(t, Options{Now: clock.Now, Delays: Delays{
		Discover: 10 * time.Second, Manage: 20 * time.Second, Unmanage: 5 * time.Second, Remove: 3 * time.Second,
	}})
	cred := e.post("/core/v1/credentials", kubeconfigBody("slow", "https://slow.example.com")).expect(201).str("id")
	path := "/topology/v1/clusters/"
	r := e.post("/topology/v1/clouds/"+e.sim.Seeds().PrivateCloudID+"/clusters", clusterBody("1.5", map[string]any{"credentialID": cred})).expect(201)
	id := r.str("id")
	expectStates := func(step, state, managedState string) {
		t.Helper()
		got := e.get(path + id).expect(200)
		if got.str("state") != state || got.str("managedState") != managedState {
			t.Fatalf("%s: %s/%s, want %s/%s", step, got.str("state"), got.str("managedState"), state, managedState)
		}
	}
	if r.str("state") != "discovering" || r.str("managedState") != "pending" {
		t.Fatalf("just added: %s/%s", r.str("state"), r.str("managedState"))
	}
	e.manage(id).problem(164) // still being discovered
	clock.advance(9 * time.Second)
	expectStates("before the discover delay", "discovering", "pending")
	clock.advance(time.Second)
	expectStates("discovered", "running", "unmanaged")

	m := e.manage(id).expect(201)
	if m.str("managedState") != "managing" || m.str("state") != "pending" || m.str("managedTimestamp") == "" {
		t.Fatalf("managing: %s", m.raw)
	}
	clock.advance(19 * time.Second)
	expectStates("managing", "pending", "managing")
	if e.get(path+id).str("managedTimestamp") != "" {
		t.Error("the cluster facet shows managedTimestamp only once managed")
	}
	clock.advance(time.Second)
	expectStates("managed", "running", "managed")
	if ts := e.get(path + id).str("managedTimestamp"); ts != formatTime(clock.now) {
		t.Errorf("managedTimestamp %q, want the time management completed %q", ts, formatTime(clock.now))
	}

	e.del("/topology/v1/managedClusters/" + id).expect(204)
	// 23.07's enum has no "deleting": the cluster shows managed until the unmanage completes.
	expectStates("unmanaging (23.07)", "running", "managed")
	e.get("/topology/v1/managedClusters/" + id).expect(200)
	e.del("/topology/v1/managedClusters/" + id).expect(204) // repeating it is harmless
	e.manage(id).problem(164)
	e.del(path + id).problem(10)
	clock.advance(5 * time.Second)
	expectStates("unmanaged", "running", "unmanaged")
	e.get("/topology/v1/managedClusters/" + id).problem(2)

	e.del(path + id).expect(204)
	e.get(path + id).expect(200) // still there during the remove delay
	e.manage(id).problem(164)
	clock.advance(3 * time.Second)
	e.get(path + id).problem(2)
	e.del(path + id).problem(1)
}

func TestUnmanageShowsDeletingWhereTheEnumHasIt(t *testing.T) {
	clock := newClock()
	e := newEnv(t, Options{Release: "24.02", Now: clock.Now, Delays: Delays{Unmanage: time.Minute}})
	id := e.sim.Seeds().GCP.ClusterID
	e.manage(id).expect(201)
	e.del("/topology/v1/managedClusters/" + id).expect(204)
	if got := e.get("/topology/v1/managedClusters/" + id).expect(200).str("managedState"); got != "deleting" {
		t.Errorf("24.02 managedState while unmanaging = %q, want deleting", got)
	}
	if got := e.get("/topology/v1/clusters/" + id).str("managedState"); got != "deleting" {
		t.Errorf("cluster 1.7 managedState while unmanaging = %q, want deleting", got)
	}
	clock.advance(time.Minute)
	if got := e.get("/topology/v1/clusters/" + id).str("managedState"); got != "unmanaged" {
		t.Errorf("after the delay: %q", got)
	}
}

func TestRecollectAndCloudDelays(t *testing.T) {
	clock := newClock()
	e := newEnv(t, Options{Now: clock.Now, Delays: Delays{Recollect: 30 * time.Second, Discover: time.Second}})
	cl := e.post("/topology/v1/clouds", map[string]any{"type": "application/astra-cloud", "version": "1.1", "name": "lab", "cloudType": "private"}).expect(201)
	if cl.str("state") != "pending" {
		t.Errorf("a new cloud starts pending: %s", cl.str("state"))
	}
	clock.advance(time.Second)
	if e.get("/topology/v1/clouds/"+cl.str("id")).str("state") != "running" {
		t.Error("the cloud did not become running")
	}
	credID, id := e.addPrivateCluster("recollect")
	clock.advance(time.Second)
	bad := kubeconfigBody("recollect", "https://elsewhere.example.com")
	e.put("/core/v1/credentials/"+credID, bad).expect(204)
	if e.get("/topology/v1/clusters/"+id).str("state") != "removed" {
		t.Fatal("a credential for another cluster removes it at once")
	}
	good := kubeconfigBody("recollect", "https://recollect.example.com:6443")
	e.put("/core/v1/credentials/"+credID, good).expect(204)
	if e.get("/topology/v1/clusters/"+id).str("state") != "removed" {
		t.Error("re-collection takes the recollect delay")
	}
	clock.advance(30 * time.Second)
	if e.get("/topology/v1/clusters/"+id).str("state") != "running" {
		t.Error("re-collected cluster is not running")
	}
}

func TestSetDelay(t *testing.T) {
	var d Delays
	for name, want := range map[string]*time.Duration{"discover": &d.Discover, "MANAGE": &d.Manage, "unmanage": &d.Unmanage, "remove": &d.Remove, "recollect": &d.Recollect} {
		if err := d.SetDelay(name, 3*time.Second); err != nil || *want != 3*time.Second {
			t.Errorf("SetDelay(%s): %v", name, err)
		}
	}
	if d.SetDelay("teleport", time.Second) == nil || d.SetDelay("manage", -time.Second) == nil {
		t.Error("SetDelay accepted an unknown name or a negative delay")
	}
}
