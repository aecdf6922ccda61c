package astrasim

import (
	"encoding/base64"
	"strings"
	"testing"
)

// A token's secret is answered once; the token acts as its user; DELETE revokes it.
func TestTokenLifecycle(t *testing.T) {
	e := newEnv(t, Options{})
	uid, _ := e.newUser("ci@example.com", "viewer")
	r := e.post("/core/v1/users/"+uid+"/tokens", tokenBody("ci")).expect(201)
	secret, id := r.str("token"), r.str("id")
	jwt, err := base64.StdEncoding.DecodeString(secret)
	if err != nil || strings.Count(string(jwt), ".") != 2 || r.str("userID") != uid || r.str("name") != "ci" {
		t.Fatalf("POST answered %s", r.raw)
	}
	claims, _ := base64.RawURLEncoding.DecodeString(strings.Split(string(jwt), ".")[1])
	if !strings.Contains(string(claims), `"sub":"`+uid+`"`) {
		t.Errorf("the JWT's claims %s name no user", claims)
	}
	e.as(string(jwt)).get("/topology/v1/clouds").expect(200) // the JWT itself is a bearer too
	for _, raw := range [][]byte{e.get("/core/v1/users/" + uid + "/tokens/" + id).expect(200).raw, e.get("/core/v1/users/" + uid + "/tokens").expect(200).raw} {
		if strings.Contains(string(raw), secret) || strings.Contains(string(raw), `"token"`) {
			t.Errorf("the secret was answered again: %s", raw)
		}
	}
	ci := e.as(secret)
	ci.get("/topology/v1/clouds").expect(200)
	if p := ci.post("/topology/v1/clouds", map[string]any{"type": "application/astra-cloud", "version": "1.1", "name": "x", "cloudType": "private"}).problem(11); p.str("requiredRole") != "admin" || p.str("role") != "viewer" {
		t.Errorf("viewer refusal %s", p.raw)
	}
	// A viewer manages its own tokens, not another user's.
	ci.post("/core/v1/users/"+uid+"/tokens", tokenBody("second")).expect(201)
	ci.get("/core/v1/users/" + e.sim.OwnerUserID() + "/tokens").problem(11)
	ci.put("/core/v1/users/"+uid+"/tokens/"+id, tokenBody("renamed")).expect(204)
	if e.sim.APITokens() != 2 {
		t.Errorf("tokens held: %d", e.sim.APITokens())
	}
	e.del("/core/v1/users/" + uid + "/tokens/" + id).expect(204)
	ci.get("/topology/v1/clouds").problem(4)
	e.as(string(jwt)).get("/topology/v1/clouds").problem(4)
	e.get("/topology/v1/clouds").expect(200) // the configured owner token is unaffected
	e.get("/core/v1/users/" + uid + "/tokens/" + id).problem(2)
	e.del("/core/v1/users/" + uid + "/tokens/" + id).problem(1)
	e.post("/core/v1/users/"+uuid5("nobody")+"/tokens", tokenBody("x")).problem(2)
}

// A role change takes effect on the next request of the user's tokens.
func TestTokenFollowsTheBinding(t *testing.T) {
	e := newEnv(t, Options{})
	uid, tok, err := e.sim.NewUserToken("dev@example.com", RoleViewer)
	if err != nil {
		t.Fatal(err)
	}
	dev := e.as(tok)
	cloud := "/topology/v1/clouds/" + e.sim.Seeds().PrivateCloudID
	put := map[string]any{"type": "application/astra-cloud", "version": "1.1"}
	dev.put(cloud, put).problem(11)
	if got := e.sim.Role(tok); got != "viewer" {
		t.Errorf("Role %q", got)
	}
	bid := e.get("/core/v1/users/" + uid + "/roleBindings").items()[0].(map[string]any)["id"].(string)
	e.put("/core/v1/roleBindings/"+bid, map[string]any{"type": "application/astra-roleBinding", "version": "1.1", "role": "admin"}).expect(204)
	dev.put(cloud, put).expect(204)
	e.put("/core/v1/users/"+uid, map[string]any{"type": "application/astra-user", "version": "1.2", "isEnabled": "false"}).expect(204)
	dev.get(cloud).problem(4)
	if got := e.sim.Role(tok); got != "" {
		t.Errorf("a disabled user's token acts as %q", got)
	}
	if _, err := e.sim.MintToken(uuid5("nobody"), "x"); err == nil {
		t.Error("a token for no user was minted")
	}
}
