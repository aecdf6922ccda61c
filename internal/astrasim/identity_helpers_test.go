package astrasim

import (
	"encoding/base64"
	"strings"
)

// Helpers of the identity and access tests (issue 47).

func userBody(email string, fields map[string]any) map[string]any {
	b := map[string]any{"type": "application/astra-user", "version": "1.2", "email": email, "firstName": "Test", "lastName": "User"}
	for k, v := range fields {
		b[k] = v
	}
	return b
}

func (e *env) bindingBody(principal, id, role string, constraints ...string) map[string]any {
	b := map[string]any{"type": "application/astra-roleBinding", "version": "1.1", "accountID": e.sim.AccountID(), principal: id, "role": role}
	if constraints != nil {
		b["roleConstraints"] = strs(constraints)
	}
	return b
}

func (e *env) groupBody(dn string) map[string]any {
	return map[string]any{"type": "application/astra-group", "version": e.sim.newest[resGroup], "authProvider": "ldap", "authID": dn}
}

func tokenBody(name string) map[string]any {
	return map[string]any{"type": "application/astra-token", "version": "1.0", "name": name}
}

// newUser creates a user with a binding of role and returns the user's and binding's IDs.
func (e *env) newUser(email, role string) (string, string) {
	e.t.Helper()
	uid := e.post("/core/v1/users", userBody(email, nil)).expect(201).str("id")
	bid := e.post("/core/v1/roleBindings", e.bindingBody("userID", uid, role)).expect(201).str("id")
	return uid, bid
}

// newGroup creates a group by DN and returns its ID.
func (e *env) newGroup(dn string) string {
	e.t.Helper()
	return e.post("/core/v1/groups", e.groupBody(dn)).expect(201).str("id")
}

// tokenFor creates an API token for a user and returns its bearer string.
func (e *env) tokenFor(userID string) string {
	e.t.Helper()
	return e.post("/core/v1/users/"+userID+"/tokens", tokenBody("test")).expect(201).str("token")
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// bindIdentity points an identity example at objects that exist (examples_test.go bind).
func (e *env) bindIdentity(ex specExample) (string, map[string]any, bool) {
	body, path := ex.body, ex.template
	set := func(param, id string) { path = strings.ReplaceAll(path, "{"+param+"}", id) }
	switch {
	case strings.HasPrefix(path, "/core/v1/settings/"):
		set("setting_id", e.sim.st.Identity.SMTP.ID)
	case strings.HasPrefix(path, "/core/v1/users/{user_id}/tokens"):
		owner := e.sim.st.Identity.OwnerID
		set("user_id", owner)
		if strings.HasSuffix(path, "{token_id}") {
			set("token_id", e.post("/core/v1/users/"+owner+"/tokens", tokenBody("to-rename")).expect(201).str("id"))
		}
	case path == "/core/v1/users/{user_id}":
		set("user_id", e.post("/core/v1/users", userBody("example@example.com", nil)).expect(201).str("id"))
	case strings.Contains(path, "roleBindings") && !strings.HasPrefix(path, "/core/v1/groups"):
		uid := e.post("/core/v1/users", userBody("example@example.com", nil)).expect(201).str("id")
		set("user_id", uid)
		if strings.HasSuffix(path, "{roleBinding_id}") {
			set("roleBinding_id", e.post("/core/v1/roleBindings", e.bindingBody("userID", uid, "viewer")).expect(201).str("id"))
		} else {
			body["userID"], body["accountID"] = uid, e.sim.AccountID()
		}
	case strings.HasPrefix(path, "/core/v1/groups/{group_id}"):
		if e.sim.service() { // no groups: the example is refused (identityRefused)
			set("group_id", uuid5("missing"))
			set("roleBinding_id", uuid5("missing"))
			return path, body, true
		}
		gid := e.newGroup("cn=example," + DirectoryGroupBase)
		set("group_id", gid)
		if strings.HasSuffix(path, "{roleBinding_id}") {
			set("roleBinding_id", e.post("/core/v1/roleBindings", e.bindingBody("groupID", gid, "viewer")).expect(201).str("id"))
		} else if strings.HasSuffix(path, "/roleBindings") {
			body["groupID"], body["accountID"] = gid, e.sim.AccountID()
		}
	case path == "/core/v1/users" || path == "/core/v1/groups":
	default:
		return "", nil, false
	}
	return path, body, true
}

// identityRefused is the problem an example gets on purpose, 0 for none: Astra Control
// Service has no LDAP groups (groups.go), so a group is refused (9) and none is found
// (1, or 2 for the bindings under one).
func (e *env) identityRefused(ex specExample) int {
	if !e.sim.service() || !strings.HasPrefix(ex.template, "/core/v1/groups") {
		return 0
	}
	switch {
	case ex.template == "/core/v1/groups":
		return 9
	case strings.Contains(ex.template, "roleBindings"):
		return 2
	}
	return 1
}
