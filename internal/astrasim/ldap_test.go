package astrasim

import (
	"strings"
	"testing"
	"time"
)

// ldapCredential creates the bind credential as AA-DOCS does (keyType generic, bindDn the
// service account's email) and returns its ID.
func (e *env) ldapCredential(password string) string {
	e.t.Helper()
	return e.post("/core/v1/credentials", map[string]any{"type": "application/astra-credential", "version": "1.1", "name": "ldapBindCredential-astra",
		"keyType": "generic", "keyStore": map[string]any{"bindDn": b64(DirectoryBindEmail), "password": b64(password)}}).expect(201).str("id")
}

func ldapBody(version string, cfg map[string]any) map[string]any {
	return map[string]any{"type": "application/astra-setting", "version": version, "desiredConfig": cfg}
}

func ldapConfig(credID string, fields map[string]any) map[string]any {
	cfg := map[string]any{"connectionHost": DirectoryHost, "port": 636, "secureMode": "LDAPS", "credentialId": credID,
		"userBaseDN": DirectoryUserBase, "userSearchFilter": "(objectClass=Person)", "loginAttribute": "mail",
		"groupBaseDN": DirectoryGroupBase, "groupSearchCustomFilter": "", "vendor": "Active Directory", "isEnabled": "true"}
	for k, v := range fields {
		cfg[k] = v
	}
	return cfg
}

// ldapID finds the LDAP setting as NetApp's toolkit does.
func (e *env) ldapID() string {
	e.t.Helper()
	items := e.get("/core/v1/settings?filter=name%20eq%20'astra.account.ldap'&include=name,id").expect(200).items()
	if len(items) != 1 {
		e.t.Fatalf("LDAP settings: %v", items)
	}
	return items[0].([]any)[1].(string)
}

// connectLDAP configures LDAP against the simulated directory (no delay).
func (e *env) connectLDAP() {
	e.t.Helper()
	id := e.ldapID()
	e.put("/core/v1/settings/"+id, ldapBody(e.sim.newest[resSetting], ldapConfig(e.ldapCredential(DirectoryBindPassword), nil))).expect(204)
	if got := e.get("/core/v1/settings/" + id).str("state"); got != "valid" {
		e.t.Fatalf("LDAP state %s", got)
	}
}

func TestLDAPSettingLifecycle(t *testing.T) {
	clock := newClock()
	e := center(t, Options{Now: clock.Now, Delays: Delays{LDAP: 10 * time.Second}})
	id := e.ldapID()
	s := e.get("/core/v1/settings/" + id).expect(200)
	if s.str("state") != "valid" || lookup(s.body, "currentConfig.isEnabled") != "false" || s.body["desiredConfig"] != nil {
		t.Fatalf("the shipped setting %s", s.raw)
	}
	if n := len(e.get("/core/v1/ldapUsers").items()); n != 0 {
		t.Errorf("ldapUsers before LDAP is configured: %d", n)
	}
	cred := e.ldapCredential(DirectoryBindPassword)
	// NetApp's toolkit sends version "1.1." (research notes §4.15).
	e.put("/core/v1/settings/"+id, ldapBody("1.1.", ldapConfig(cred, nil))).expect(204)
	s = e.get("/core/v1/settings/" + id)
	if s.str("state") != "pending" || lookup(s.body, "currentConfig.isEnabled") != "false" || lookup(s.body, "desiredConfig.connectionHost") != DirectoryHost {
		t.Fatalf("right after the PUT %s", s.raw)
	}
	clock.advance(10 * time.Second)
	s = e.get("/core/v1/settings/" + id)
	if s.str("state") != "valid" || lookup(s.body, "currentConfig.connectionHost") != DirectoryHost || len(s.strs("stateUnready")) != 0 {
		t.Fatalf("once applied %s", s.raw)
	}
	users := e.get("/core/v1/ldapUsers?filter=email%20eq%20'bob@example.com'").expect(200).items()
	if len(users) != 1 || itemField(users, 0, "dn") != "cn=bob payments,"+DirectoryUserBase || itemField(users, 0, "firstName") != "Bob" {
		t.Errorf("ldapUsers %v", users)
	}
	groups := e.get("/core/v1/ldapGroups?filter=dn%20eq%20'cn=ops," + DirectoryGroupBase + "'").expect(200).items()
	if len(groups) != 1 || itemField(groups, 0, "cn") != "ops" {
		t.Errorf("ldapGroups %v", groups)
	}
	e.get("/core/v1/ldapGroups/" + itemField(groups, 0, "id")).expect(200)
	if err := e.sim.AddDirectoryEntry(DirectoryEntry{DN: "CN=Dave," + DirectoryUserBase, Email: "dave@example.com"}); err != nil {
		t.Fatal(err)
	}
	if n := len(e.get("/core/v1/ldapUsers").items()); n != 4 {
		t.Errorf("ldapUsers after adding one: %d", n)
	}
	// A new address needs a reset first.
	e.put("/core/v1/settings/"+id, ldapBody("1.1", ldapConfig(cred, map[string]any{"connectionHost": "10.0.0.5"}))).problem(10).field("invalidFields", "desiredConfig.connectionHost")
	// Reset: LDAP users and groups go with their bindings; local users stay.
	uid := e.post("/core/v1/users", userBody("carol@example.com", map[string]any{"authProvider": "ldap", "authID": "cn=carol audit," + DirectoryUserBase})).expect(201).str("id")
	gid := e.newGroup("cn=auditors," + DirectoryGroupBase)
	local, _ := e.newUser("local@example.com", "viewer")
	e.put("/core/v1/settings/"+id, ldapBody("1.1", ldapConfig(cred, map[string]any{"isEnabled": "false", "connectionHost": ""}))).expect(204)
	clock.advance(10 * time.Second)
	if s := e.get("/core/v1/settings/" + id); s.str("state") != "valid" {
		t.Fatalf("after reset %s", s.raw)
	}
	e.get("/core/v1/users/" + uid).problem(2)
	e.get("/core/v1/groups/" + gid).problem(1)
	e.get("/core/v1/users/" + local).expect(200)
}

func TestLDAPErrors(t *testing.T) {
	e := center(t, Options{})
	id := e.ldapID()
	wrong := e.ldapCredential("wrong-password")
	e.put("/core/v1/settings/"+id, ldapBody("1.1", ldapConfig(wrong, nil))).expect(204)
	s := e.get("/core/v1/settings/" + id)
	reasons := s.strs("stateUnready")
	if s.str("state") != "error" || len(reasons) != 1 || !strings.Contains(reasons[0], `LDAP Result Code 49 "Invalid Credentials"`) ||
		lookup(s.body, "currentConfig.connectionHost") != "" {
		t.Errorf("a wrong bind password: %s", s.raw)
	}
	if n := len(e.get("/core/v1/ldapUsers").items()); n != 0 {
		t.Errorf("ldapUsers while in error: %d", n)
	}
	right := e.ldapCredential(DirectoryBindPassword)
	for _, c := range []struct {
		fields map[string]any
		reason string
	}{
		{map[string]any{"connectionHost": "ldap.nowhere.example"}, "no such host"},
		{map[string]any{"port": 389}, "connection refused"},
		{map[string]any{"credentialId": uuid5("gone")}, "doesn't exist"},
		{map[string]any{"userBaseDN": "ou=people,dc=other,dc=com"}, "userBaseDN"},
	} {
		e.put("/core/v1/settings/"+id, ldapBody("1.1", ldapConfig(right, c.fields))).expect(204)
		s := e.get("/core/v1/settings/" + id)
		if s.str("state") != "error" || !strings.Contains(strings.Join(s.strs("stateUnready"), "; "), c.reason) {
			t.Errorf("%v: %s", c.fields, s.raw)
		}
	}
	e.put("/core/v1/settings/"+id, ldapBody("1.1", ldapConfig(right, map[string]any{"vendor": "OpenLDAP"}))).problem(9).field("invalidFields", "desiredConfig.vendor")
	e.put("/core/v1/settings/"+id, ldapBody("1.1", ldapConfig(right, map[string]any{"port": "636"}))).problem(9).field("invalidFields", "desiredConfig.port")
	e.put("/core/v1/settings/"+id, ldapBody("1.1", ldapConfig(right, map[string]any{"bogus": "x"}))).problem(9).field("invalidFields", "desiredConfig.bogus")
	// Service: no LDAP setting at all.
	svc := newEnv(t, Options{Release: "23.07"})
	for _, item := range svc.get("/core/v1/settings").items() {
		if item.(map[string]any)["name"] == ldapSettingName {
			t.Error("Astra Control Service lists an LDAP setting")
		}
	}
}

// Every Center release answers the LDAP flow within its own schemas (setting 1.0 in 22.11,
// group 1.0 before 23.07), and the state file keeps identity: a token survives a restart.
func TestIdentityOnEveryCenterRelease(t *testing.T) {
	for _, release := range []string{"22.11", "23.05", "23.10", "24.02"} {
		t.Run(release, func(t *testing.T) {
			e := newEnv(t, Options{Release: release})
			e.connectLDAP()
			if n := len(e.get("/core/v1/ldapGroups").items()); n != 3 {
				t.Errorf("ldapGroups %d", n)
			}
			gid := e.newGroup("cn=payments," + DirectoryGroupBase)
			e.post("/core/v1/groups/"+gid+"/roleBindings", e.bindingBody("groupID", gid, "member", "namespaces:kubernetesLabels='team=payments'.*")).expect(201)
			uid, _ := e.newUser("u@example.com", "viewer")
			tok := e.tokenFor(uid)
			path := t.TempDir() + "/state.json"
			if err := e.sim.SaveState(path); err != nil {
				t.Fatal(err)
			}
			again := newEnv(t, Options{Release: release})
			if err := again.sim.LoadState(path); err != nil {
				t.Fatal(err)
			}
			again.as(tok).get("/core/v1/users/" + uid).expect(200)
			if again.get("/core/v1/settings/"+again.ldapID()).str("state") != "valid" || len(again.get("/core/v1/groups").items()) != 1 {
				t.Error("the restarted simulator lost LDAP or the group")
			}
		})
	}
}
