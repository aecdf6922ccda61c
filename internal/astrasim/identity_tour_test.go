package astrasim

import "testing"

// tourIdentity walks every identity operation once (TestTour). On Astra Control Service
// (the tour's default release) groups are refused, 400 problem 9, as there is no LDAP.
func (e *env) tourIdentity() {
	e.t.Helper()
	service := e.sim.service()
	owner := e.sim.st.Identity.OwnerID
	e.get("/core/v1/users").expect(200)
	e.get("/core/v1/users/" + owner).expect(200)
	uid := e.post("/core/v1/users", userBody("tour@example.com", nil)).expect(201).str("id")
	e.put("/core/v1/users/"+uid, map[string]any{"type": "application/astra-user", "version": "1.2", "lastName": "Toured"}).expect(200)
	bid := e.post("/core/v1/users/"+uid+"/roleBindings", e.bindingBody("userID", uid, "viewer")).expect(201).str("id")
	e.get("/core/v1/users/" + uid + "/roleBindings").expect(200)
	e.get("/core/v1/users/" + uid + "/roleBindings/" + bid).expect(200)
	e.put("/core/v1/users/"+uid+"/roleBindings/"+bid, map[string]any{"type": "application/astra-roleBinding", "version": "1.1", "role": "member"}).expect(200)
	e.get("/core/v1/roleBindings").expect(200)
	e.get("/core/v1/roleBindings/" + bid).expect(200)
	e.put("/core/v1/roleBindings/"+bid, map[string]any{"type": "application/astra-roleBinding", "version": "1.1", "role": "viewer"}).expect(200)
	tid := e.post("/core/v1/users/"+uid+"/tokens", tokenBody("tour")).expect(201).str("id")
	e.get("/core/v1/users/" + uid + "/tokens").expect(200)
	e.get("/core/v1/users/" + uid + "/tokens/" + tid).expect(200)
	e.put("/core/v1/users/"+uid+"/tokens/"+tid, tokenBody("tour-2")).expect(200)
	e.del("/core/v1/users/" + uid + "/tokens/" + tid).expect(204)
	settings := e.get("/core/v1/settings").expect(200).items()
	sid := itemField(settings, 0, "id")
	e.get("/core/v1/settings/" + sid).expect(200)
	e.put("/core/v1/settings/"+sid, map[string]any{"type": "application/astra-setting", "version": e.sim.newest[resSetting],
		"desiredConfig": map[string]any{"isEnabled": "false"}}).expect(200)
	e.get("/core/v1/ldapUsers").expect(200)
	e.get("/core/v1/ldapGroups").expect(200)
	missing := "/" + uuid5("missing")
	e.get("/core/v1/ldapUsers" + missing).problem(1)
	e.get("/core/v1/ldapGroups" + missing).problem(1)
	if service {
		e.get("/core/v1/groups").expect(200)
		e.post("/core/v1/groups", e.groupBody("cn=ops,"+DirectoryGroupBase)).problem(9)
		e.get("/core/v1/groups" + missing).problem(1)
		e.put("/core/v1/groups"+missing, e.groupBody("cn=ops,"+DirectoryGroupBase)).problem(1)
		e.del("/core/v1/groups" + missing).problem(1)
		e.get("/core/v1/groups" + missing + "/roleBindings").problem(2)
		e.post("/core/v1/groups"+missing+"/roleBindings", e.bindingBody("groupID", uuid5("missing"), "viewer")).problem(2)
		e.get("/core/v1/groups" + missing + "/roleBindings" + missing).problem(2)
		e.put("/core/v1/groups"+missing+"/roleBindings"+missing, map[string]any{"type": "application/astra-roleBinding", "version": "1.1", "role": "viewer"}).problem(2)
		e.del("/core/v1/groups" + missing + "/roleBindings" + missing).problem(2)
	} else {
		e.tourGroups()
	}
	e.del("/core/v1/users/" + uid + "/roleBindings/" + bid).expect(204)
	e.get("/core/v1/users/" + uid).problem(2) // its last binding took it
	uid = e.post("/core/v1/users", userBody("tour@example.com", nil)).expect(201).str("id")
	e.del("/core/v1/users/" + uid).expect(204)
	_, bid = e.newUser("tour-3@example.com", "viewer")
	e.del("/core/v1/roleBindings/" + bid).expect(204)
}

// tourGroups walks the group operations on Astra Control Center.
func (e *env) tourGroups() {
	e.t.Helper()
	gid := e.newGroup("CN=Ops," + DirectoryGroupBase)
	e.get("/core/v1/groups").expect(200)
	e.get("/core/v1/groups/" + gid).expect(200)
	e.put("/core/v1/groups/"+gid, map[string]any{"type": "application/astra-group", "version": "1.1", "name": "operations"}).expect(200)
	gb := e.post("/core/v1/groups/"+gid+"/roleBindings", e.bindingBody("groupID", gid, "admin")).expect(201).str("id")
	e.get("/core/v1/groups/" + gid + "/roleBindings").expect(200)
	e.get("/core/v1/groups/" + gid + "/roleBindings/" + gb).expect(200)
	e.put("/core/v1/groups/"+gid+"/roleBindings/"+gb, map[string]any{"type": "application/astra-roleBinding", "version": "1.1", "role": "member"}).expect(200)
	e.del("/core/v1/groups/" + gid + "/roleBindings/" + gb).expect(204)
	e.del("/core/v1/groups/" + gid).expect(204)
}

// TestIdentityTourCenter walks every identity operation successfully on Astra Control
// Center, where groups exist.
func TestIdentityTourCenter(t *testing.T) {
	e := newEnv(t, Options{Release: "24.02", PutReturnsBody: true})
	e.sim.ResetCounts()
	e.tourIdentity()
	counts := e.sim.Counts()
	for _, op := range e.sim.Routes() {
		if len(op) > 14 && (op[len(op)-6:] == "tokens" || containsAny(op, "/users", "/groups", "/roleBindings", "/settings", "/ldap")) && counts[op] == 0 {
			t.Errorf("the identity tour never reached %s", op)
		}
	}
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if len(s) >= len(sub) {
			for i := 0; i+len(sub) <= len(s); i++ {
				if s[i:i+len(sub)] == sub {
					return true
				}
			}
		}
	}
	return false
}
