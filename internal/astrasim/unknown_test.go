package astrasim

import (
	"encoding/json"
	"testing"
)

// TestLenientKeepsUnknownMembers: a lenient simulator stores, answers and replaces the
// members no published release has, as a newer server would; a strict one drops them.
func TestLenientKeepsUnknownMembers(t *testing.T) {
	for _, lenient := range []bool{false, true} {
		e := newEnv(t, Options{Lenient: lenient, Release: "24.02"})
		future := json.RawMessage(`{"tier": "gold",  "replicas": 3}`) // stored compacted, in the order sent

		credBody := kubeconfigBody("cred", "https://cred.example.com:6443")
		credBody["futureField"] = future
		_, clusterID := e.addPrivateCluster("c1")
		clusterPath := "/topology/v1/clouds/" + e.sim.Seeds().PrivateCloudID + "/clusters/" + clusterID
		withFuture := clusterBody("1.7", map[string]any{"futureField": future, "otherFuture": "x"})
		if !lenient {
			// The published schemas refuse members they do not list.
			e.post("/core/v1/credentials", credBody).problem(8)
			e.put(clusterPath, withFuture).problem(8)
			delete(credBody, "futureField")
		}
		credID := e.post("/core/v1/credentials", credBody).expect(201).str("id")
		if lenient {
			e.put(clusterPath, withFuture).expect(204)
		}

		stored := func(id string) map[string]json.RawMessage {
			t.Helper()
			m, err := e.sim.UnknownMembers(id)
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
		if !lenient {
			if m := stored(credID); len(m) != 0 {
				t.Errorf("strict: credential stored %v", m)
			}
			if m := stored(clusterID); len(m) != 0 {
				t.Errorf("strict: cluster stored %v", m)
			}
			if e.get("/core/v1/credentials/" + credID).body["futureField"] != nil || e.get(clusterPath).body["futureField"] != nil {
				t.Error("strict: an unknown member was answered")
			}
			if err := e.sim.SetUnknownMember(clusterID, "futureField", json.RawMessage(`1`)); err == nil {
				t.Error("strict: SetUnknownMember succeeded")
			}
			continue
		}
		if got := string(stored(credID)["futureField"]); got != `{"tier":"gold","replicas":3}` {
			t.Errorf("credential stored futureField %s", got)
		}
		r := e.get("/core/v1/credentials/" + credID)
		if got, _ := r.body["futureField"].(map[string]any); got["tier"] != "gold" || got["replicas"] != 3.0 {
			t.Errorf("GET credential: futureField %v", r.body["futureField"])
		}
		if got := stored(clusterID); len(got) != 2 || string(got["otherFuture"]) != `"x"` {
			t.Errorf("cluster stored %v", got)
		}
		// Both facets of the cluster show what was stored.
		e.manage(clusterID).expect(201)
		for _, path := range []string{clusterPath, "/topology/v1/managedClusters/" + clusterID} {
			if got := e.get(path).body["otherFuture"]; got != "x" {
				t.Errorf("GET %s: otherFuture %v", path, got)
			}
		}
		// A PUT replaces them with those it carries, as a full-object PUT of a newer server does.
		e.put(clusterPath, clusterBody("1.7", map[string]any{"otherFuture": "y"})).expect(204)
		if got := stored(clusterID); len(got) != 1 || string(got["otherFuture"]) != `"y"` {
			t.Errorf("after a PUT with otherFuture only: %v", got)
		}
		e.put("/topology/v1/managedClusters/"+clusterID, map[string]any{"type": "application/astra-managedCluster", "version": "1.7"}).expect(204)
		if got := stored(clusterID); len(got) != 0 {
			t.Errorf("after a PUT without unknown members: %v", got)
		}
		// Written directly, as another client of a newer server would.
		if err := e.sim.SetUnknownMember(clusterID, "written", json.RawMessage(`[1, "a"]`)); err != nil {
			t.Fatal(err)
		}
		if got := e.get(clusterPath).body["written"]; len(got.([]any)) != 2 {
			t.Errorf("SetUnknownMember: GET answers %v", got)
		}
		if err := e.sim.SetUnknownMember(clusterID, "name", json.RawMessage(`"x"`)); err == nil {
			t.Error("SetUnknownMember accepted a published member")
		}
		if err := e.sim.SetUnknownMember("nope", "z", json.RawMessage(`1`)); err == nil {
			t.Error("SetUnknownMember accepted an unknown ID")
		}
	}
}
