package astrasim

import (
	"bytes"
	"net/http"
	"testing"
)

// The injected faults apply to the identity routes: a lost answer is applied (a token
// created that the client never saw), 429 and 503 answer before the handler.
func TestIdentityFaults(t *testing.T) {
	e := center(t, Options{})
	owner := e.sim.OwnerUserID()
	tokens := "/core/v1/users/{user_id}/tokens"
	e.sim.AddFault(Fault{Method: "POST", Route: tokens, Kind: FaultLostAnswer, Times: 1})
	req, _ := http.NewRequest(http.MethodPost, e.url("/core/v1/users/"+owner+"/tokens"), bytes.NewReader(mustJSON(tokenBody("lost"))))
	req.Header.Set("Authorization", "Bearer "+DefaultToken)
	req.Header.Set("Content-Type", "application/json")
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("a lost answer arrived: %d", resp.StatusCode)
	}
	if e.sim.Fired("POST", tokens, FaultLostAnswer) != 1 || len(e.get("/core/v1/users/"+owner+"/tokens").items()) != 1 {
		t.Errorf("the lost POST: fired %d, tokens %d", e.sim.Fired("POST", tokens, FaultLostAnswer), e.sim.APITokens())
	}
	e.sim.AddFault(Fault{Method: "GET", Route: "/core/v1/users", Kind: FaultTooManyRequests, Times: 1})
	if r := e.get("/core/v1/users"); r.status != 429 || r.header.Get("Retry-After") != "1" {
		t.Errorf("429: %d %v", r.status, r.header)
	}
	e.get("/core/v1/users").expect(200)
	e.sim.AddFault(Fault{Method: "PUT", Route: "/core/v1/settings/{setting_id}", Kind: FaultUnavailable, Problem: 41, Times: 1})
	e.put("/core/v1/settings/"+e.ldapID(), ldapBody("1.1", ldapConfig(uuid5("x"), nil))).problem(41)
	e.sim.AddFault(Fault{Method: "DELETE", Route: "/core/v1/roleBindings/{roleBinding_id}", Kind: FaultInternal, Times: 1})
	_, bid := e.newUser("f@example.com", "viewer")
	e.del("/core/v1/roleBindings/" + bid).problem(34)
	e.del("/core/v1/roleBindings/" + bid).expect(204)
	if e.sim.Fired("DELETE", "/core/v1/roleBindings/{roleBinding_id}", FaultInternal) != 1 {
		t.Error("the 500 did not fire")
	}
}

// On Astra Control Service only the owner removes users, also by their last binding.
func TestServiceOwnerRemovesUsers(t *testing.T) {
	e := newEnv(t, Options{Release: "23.07"})
	_, adminTok, _ := e.sim.NewUserToken("admin@example.com", RoleAdmin)
	a := e.as(adminTok)
	uid := a.post("/core/v1/users", userBody("invitee@example.com", nil)).expect(201).str("id")
	bid := a.post("/core/v1/roleBindings", e.bindingBody("userID", uid, "member")).expect(201).str("id")
	a.put("/core/v1/roleBindings/"+bid, map[string]any{"type": "application/astra-roleBinding", "version": "1.1", "role": "viewer"}).expect(204)
	if r := a.del("/core/v1/roleBindings/" + bid).problem(11); r.str("requiredRole") != "owner" {
		t.Errorf("refusal %s", r.raw)
	}
	a.del("/core/v1/users/" + uid).problem(11)
	e.del("/core/v1/roleBindings/" + bid).expect(204)
	e.get("/core/v1/users/" + uid).problem(2)
}

// Namespace labels given to the simulator show in the namespace's kubernetesLabels.
func TestNamespaceLabelsShown(t *testing.T) {
	e := newEnv(t, Options{Namespaces: []string{"payments"}})
	e.sim.SetNamespaceLabels("payments", map[string]string{"team": "payments"})
	cluster := e.managedCluster("prod")
	for _, item := range e.get("/topology/v1/managedClusters/" + cluster + "/namespaces").items() {
		ns := item.(map[string]any)
		if ns["name"] != "payments" {
			continue
		}
		if got := string(mustJSON(ns["kubernetesLabels"])); got != `[{"name":"kubernetes.io/metadata.name","value":"payments"},{"name":"team","value":"payments"}]` {
			t.Errorf("labels %s", got)
		}
		return
	}
	t.Error("no payments namespace")
}
