package astrasim

import (
	"strings"
	"testing"
)

// center is a simulator of an Astra Control Center release (local and LDAP users).
func center(t *testing.T, opts Options) *env {
	opts.Release = "24.02"
	return newEnv(t, opts)
}

func TestUsersOnCenterAndService(t *testing.T) {
	e := center(t, Options{})
	r := e.post("/core/v1/users", userBody("Jdoe@example.com", nil)).expect(201)
	if r.str("authProvider") != "local" || r.str("authID") != "Jdoe@example.com" || r.str("state") != "active" ||
		r.str("isEnabled") != "true" || r.str("sendWelcomeEmail") != "false" || r.header.Get("Location") == "" {
		t.Errorf("a local user answers %s", r.raw)
	}
	e.post("/core/v1/users", userBody("jdoe@EXAMPLE.com", nil)).problem(10).field("invalidFields", "email")
	reason := e.post("/core/v1/users", userBody("cc@example.com", map[string]any{"authProvider": "cloud-central"})).problem(9).field("invalidFields", "authProvider")
	if !strings.Contains(reason, "local and ldap") {
		t.Errorf("reason %q", reason)
	}
	uid := r.str("id")
	e.put("/core/v1/users/"+uid, map[string]any{"type": "application/astra-user", "version": "1.2", "authProvider": "ldap"}).problem(10)
	e.put("/core/v1/users/"+uid, map[string]any{"type": "application/astra-user", "version": "1.2", "state": "pending"}).problem(9)
	e.put("/core/v1/users/"+uid, map[string]any{"type": "application/astra-user", "version": "1.2", "email": "jd@example.com"}).expect(204)
	if got := e.get("/core/v1/users/" + uid).str("authID"); got != "jd@example.com" {
		t.Errorf("a local user's authID follows its email: %q", got)
	}

	s := newEnv(t, Options{Release: "23.07"})
	r = s.post("/core/v1/users", userBody("cc@example.com", nil)).expect(201)
	if r.str("authProvider") != "cloud-central" || r.str("state") != "pending" || r.str("sendWelcomeEmail") != "true" {
		t.Errorf("a Cloud Central user answers %s", r.raw)
	}
	reason = s.post("/core/v1/users", userBody("local@example.com", map[string]any{"authProvider": "local"})).problem(9).field("invalidFields", "authProvider")
	if !strings.Contains(reason, "Astra Control Service") {
		t.Errorf("reason %q", reason)
	}
}

func TestOwnerIsProtected(t *testing.T) {
	e := center(t, Options{})
	owner := e.sim.OwnerUserID()
	binding := e.get("/core/v1/users/" + owner + "/roleBindings").items()[0].(map[string]any)
	if binding["role"] != "owner" || binding["principalType"] != "user" || binding["groupID"] != nullUUID {
		t.Fatalf("the owner's binding: %v", binding)
	}
	id := binding["id"].(string)
	r := e.del("/core/v1/roleBindings/" + id).problem(11)
	if r.str("requiredRole") != "owner" || r.str("detail") != "The requested operation isn't permitted." {
		t.Errorf("refusal %s", r.raw)
	}
	e.put("/core/v1/roleBindings/"+id, map[string]any{"type": "application/astra-roleBinding", "version": "1.1", "role": "admin"}).problem(11)
	e.del("/core/v1/users/" + owner).problem(11)
	e.get("/core/v1/users/" + owner).expect(200)
	// An admin cannot touch the owner either, nor grant owner.
	_, tok, _ := e.sim.NewUserToken("admin@example.com", RoleAdmin)
	a := e.as(tok)
	a.put("/core/v1/users/"+owner, map[string]any{"type": "application/astra-user", "version": "1.2", "lastName": "X"}).problem(11)
	uid := a.post("/core/v1/users", userBody("new@example.com", nil)).expect(201).str("id")
	if r := a.post("/core/v1/roleBindings", e.bindingBody("userID", uid, "owner")).problem(11); r.str("requiredRole") != "owner" || r.str("role") != "admin" {
		t.Errorf("granting owner as admin: %s", r.raw)
	}
	a.post("/core/v1/roleBindings", e.bindingBody("userID", uid, "admin")).expect(201)
}

func TestRoleBindingRules(t *testing.T) {
	e := center(t, Options{})
	uid := e.post("/core/v1/users", userBody("a@example.com", nil)).expect(201).str("id")
	gid := e.newGroup("cn=ops," + DirectoryGroupBase)
	both := e.bindingBody("userID", uid, "viewer")
	both["groupID"] = gid
	e.post("/core/v1/roleBindings", both).problem(9).field("invalidFields", "userID")
	e.post("/core/v1/roleBindings", e.bindingBody("userID", nullUUID, "viewer")).problem(9)
	wrong := e.bindingBody("userID", uid, "viewer")
	wrong["accountID"] = uuid5("other")
	e.post("/core/v1/roleBindings", wrong).problem(9).field("invalidFields", "accountID")
	for _, bad := range []string{"namespaces:id=abc", "namespaces:kubernetesLabels='team=payments'", "team=payments", `namespaces:id="` + uuid5("x") + `"`} {
		e.post("/core/v1/roleBindings", e.bindingBody("userID", uid, "member", bad)).problem(9).field("invalidFields", "roleConstraints[0]")
	}
	// What NetApp's toolkit sends: both IDs, the unused one nil.
	tk := e.bindingBody("userID", uid, "member", "namespaces:kubernetesLabels='team=payments'.*", "namespaces:id='"+uuid5("ns")+"'.*")
	tk["groupID"] = nullUUID
	r := e.post("/core/v1/roleBindings", tk).expect(201)
	bid := r.str("id")
	if r.str("principalType") != "user" || r.str("groupID") != nullUUID || len(r.strs("roleConstraints")) != 2 {
		t.Errorf("answer %s", r.raw)
	}
	e.post("/core/v1/users/"+uid+"/roleBindings", e.bindingBody("userID", uid, "viewer")).problem(10)
	// PUT keeps left-out constraints; the principal is set on create only.
	e.put("/core/v1/roleBindings/"+bid, map[string]any{"type": "application/astra-roleBinding", "version": "1.1", "role": "admin"}).expect(204)
	got := e.get("/core/v1/roleBindings/" + bid)
	if got.str("role") != "admin" || len(got.strs("roleConstraints")) != 2 {
		t.Errorf("after PUT: %s", got.raw)
	}
	e.put("/core/v1/roleBindings/"+bid, map[string]any{"type": "application/astra-roleBinding", "version": "1.1", "role": "admin", "userID": e.sim.OwnerUserID()}).problem(10)
	// The alias paths see only their principal's bindings.
	e.get("/core/v1/groups/" + gid + "/roleBindings/" + bid).problem(2)
	if n := len(e.get("/core/v1/users/" + uid + "/roleBindings").items()); n != 1 {
		t.Errorf("the user's bindings: %d", n)
	}
	// A group's binding; a DN compared case-insensitively, stored lower-cased.
	if e.get("/core/v1/groups/"+gid).str("authID") != "cn=ops,"+DirectoryGroupBase || e.get("/core/v1/groups/"+gid).str("name") != "ops" {
		t.Errorf("group %s", e.get("/core/v1/groups/"+gid).raw)
	}
	e.post("/core/v1/groups", e.groupBody("CN=Ops,OU=Groups,DC=Example,DC=Com")).problem(10)
	e.post("/core/v1/groups", e.groupBody("not a dn")).problem(9)
	gb := e.post("/core/v1/groups/"+gid+"/roleBindings", map[string]any{"type": "application/astra-roleBinding", "version": "1.1", "accountID": e.sim.AccountID(), "role": "viewer"}).expect(201)
	if gb.str("principalType") != "group" || gb.str("groupID") != gid || gb.str("userID") != nullUUID {
		t.Errorf("group binding %s", gb.raw)
	}
	e.del("/core/v1/groups/" + gid).expect(204)
	e.get("/core/v1/roleBindings/" + gb.str("id")).problem(2)
}

// The last binding of a local user takes the user, its tokens and its password with it
// (research notes §4.14); an LDAP user stays.
func TestLastBindingTakesTheUser(t *testing.T) {
	e := center(t, Options{})
	uid, bid := e.newUser("local@example.com", "viewer")
	tok := e.tokenFor(uid)
	e.post("/core/v1/credentials", passwordBody(uid, "s3cret-password", "true")).expect(201)
	if set, change := e.sim.UserPassword(uid); !set || !change {
		t.Fatalf("password set %v change %v", set, change)
	}
	e.as(tok).get("/core/v1/users").expect(200)
	e.del("/core/v1/users/" + uid + "/roleBindings/" + bid).expect(204)
	e.get("/core/v1/users/" + uid).problem(2)
	e.as(tok).get("/core/v1/users").problem(4)
	if set, _ := e.sim.UserPassword(uid); set {
		t.Error("the user's password credential outlived it")
	}

	ldap := e.post("/core/v1/users", userBody("bob@example.com", map[string]any{"authProvider": "ldap", "authID": "CN=Bob Payments," + DirectoryUserBase})).expect(201)
	if ldap.str("authID") != "cn=bob payments,"+DirectoryUserBase {
		t.Errorf("LDAP user %s", ldap.raw)
	}
	lb := e.post("/core/v1/roleBindings", e.bindingBody("userID", ldap.str("id"), "viewer")).expect(201).str("id")
	e.del("/core/v1/roleBindings/" + lb).expect(204)
	e.get("/core/v1/users/" + ldap.str("id")).expect(200)
}

func passwordBody(userID, password, change string) map[string]any {
	return map[string]any{"type": "application/astra-credential", "version": "1.1", "name": userID, "keyType": "passwordHash",
		"keyStore": map[string]any{"cleartext": b64(password), "change": b64(change)}}
}

// A local user's password is a passwordHash credential, as NetApp's client sets it.
func TestLocalPassword(t *testing.T) {
	e := center(t, Options{})
	uid, _ := e.newUser("pw@example.com", "member")
	e.post("/core/v1/credentials", passwordBody(uid, "short", "false")).problem(9).field("invalidFields", "keyStore.cleartext")
	e.post("/core/v1/credentials", passwordBody(uuid5("nobody"), "long-enough", "false")).problem(9).field("invalidFields", "name")
	r := e.post("/core/v1/credentials", passwordBody(uid, "long-enough", "false")).expect(201)
	if strings.Contains(string(r.raw), b64("long-enough")) || strings.Contains(string(r.raw), "keyStore") {
		t.Errorf("the password came back: %s", r.raw)
	}
	if !strings.Contains(string(r.raw), `{"name":"`+labelCredType+`","value":"passwordHash"}`) {
		t.Errorf("no credType label: %s", r.raw)
	}
	e.post("/core/v1/credentials", passwordBody(uid, "another-one", "false")).problem(39)
	e.del("/core/v1/credentials/" + r.str("id")).problem(9)
	// A member sets its own password, not another user's.
	other, _ := e.newUser("other@example.com", "viewer")
	_, memberTok, _ := e.sim.NewUserToken("m@example.com", RoleMember)
	e.as(memberTok).post("/core/v1/credentials", passwordBody(other, "long-enough", "false")).problem(11)
}

// An LDAP user created as NetApp's toolkit does (no authID; answered "") may get its DN
// once; a DN never changes after.
func TestLDAPUserDN(t *testing.T) {
	e := center(t, Options{})
	r := e.post("/core/v1/users", userBody("bob@example.com", map[string]any{"authProvider": "ldap"})).expect(201)
	if r.str("authID") != "" || r.str("state") != "active" {
		t.Fatalf("answer %s", r.raw)
	}
	put := map[string]any{"type": "application/astra-user", "version": "1.2", "authID": "CN=Bob Payments," + DirectoryUserBase}
	e.put("/core/v1/users/"+r.str("id"), put).expect(204)
	if got := e.get("/core/v1/users/" + r.str("id")).str("authID"); got != "cn=bob payments,"+DirectoryUserBase {
		t.Errorf("authID %q", got)
	}
	put["authID"] = "cn=other," + DirectoryUserBase
	e.put("/core/v1/users/"+r.str("id"), put).problem(10).field("invalidFields", "authID")
}
