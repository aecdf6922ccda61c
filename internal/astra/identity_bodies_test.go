package astra

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

const (
	testUserID  = "7cc9170d-d227-49ac-bf9e-6b080ce59524"
	testGroup   = "1f6a3c2e-8b7d-4e5f-9a0b-1c2d3e4f5a6b"
	testBinding = "2e7b4d3f-9c8e-4f60-8b1c-2d3e4f5a6b7c"
	testSetting = "3f8c5e40-ad9f-4071-9c2d-3e4f5a6b7c8d"
	testNS      = "4a9d6f51-be0a-4182-8d3e-4f5a6b7c8d9e"

	// Shaped like the answers of SPEC 24.02 and the research notes §4.14.
	userJSON = `{"type":"application/astra-user","version":"1.2","id":"` + testUserID + `","authProvider":"local","authID":"jdoe@example.com",
"firstName":"John","lastName":"Doe","companyName":"","email":"jdoe@example.com","postalAddress":"","sendWelcomeEmail":"false",
"state":"active","isEnabled":"true","isInviteAccepted":"true","enableTimestamp":"2024-03-01T10:00:00Z","lastActTimestamp":"",
"metadata":{"labels":[],"creationTimestamp":"2024-03-01T10:00:00Z","modificationTimestamp":"2024-03-01T10:00:00Z","createdBy":"` + testUserID + `"}}`
	groupJSON = `{"type":"application/astra-group","version":"1.1","id":"` + testGroup + `","name":"ops","authProvider":"ldap",
"authID":"cn=ops,ou=groups,dc=example,dc=com","metadata":{"labels":[]}}`
	bindingJSON = `{"type":"application/astra-roleBinding","version":"1.1","id":"` + testBinding + `","principalType":"user",
"userID":"` + testUserID + `","groupID":"00000000-0000-0000-0000-000000000000","accountID":"` + testAccount + `","role":"member",
"roleConstraints":["namespaces:kubernetesLabels='team=payments'.*"],"metadata":{"labels":[]}}`
	settingJSON = `{"type":"application/astra-setting","version":"1.1","id":"` + testSetting + `","name":"astra.account.ldap",
"currentConfig":{"connectionHost":"","port":636,"secureMode":"LDAPS","credentialId":"","userBaseDN":"ou=users,dc=example,dc=com",
"userSearchFilter":"(objectClass=Person)","loginAttribute":"mail","groupBaseDN":"ou=groups,dc=example,dc=com",
"groupSearchCustomFilter":"","vendor":"Active Directory","isEnabled":"false"},"configSchema":{},"state":"valid","stateUnready":[],
"metadata":{"labels":[]}}`
	tokenJSON = `{"type":"application/astra-token","version":"1.0","id":"5b0e7062-cf1b-4293-ae4f-5a6b7c8d9e0f","name":"ci",
"userID":"` + testUserID + `","token":"QSBKV1QgVG9rZW4gd291bGQgZ28gaGVyZS4=","metadata":{"labels":[]}}`
)

// identityBodies sends every identity-and-access create and update and returns the bodies,
// keyed "METHOD resource" (the credential bodies by key type).
func identityBodies(t *testing.T) map[string][]byte {
	t.Helper()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		p := r.URL.Path
		switch {
		case strings.Contains(p, "/tokens"):
			reply(w, 201, "application/json", tokenJSON)
		case strings.Contains(p, "/roleBindings"):
			reply(w, 201, "application/json", bindingJSON)
		case strings.Contains(p, "/groups"):
			reply(w, 201, "application/json", groupJSON)
		case strings.Contains(p, "/settings"):
			reply(w, 200, "application/json", settingJSON)
		case strings.Contains(p, "/credentials") && r.Method == http.MethodGet:
			reply(w, 200, "application/json", `{"items":[],"metadata":{}}`)
		case strings.Contains(p, "/credentials"):
			reply(w, 201, "application/json", credentialJSON)
		default:
			reply(w, 201, "application/json", userJSON)
		}
	})
	c := f.client(t)
	ctx := context.Background()
	var u User
	var g Group
	var b RoleBinding
	var s Setting
	for raw, into := range map[string]any{userJSON: &u, groupJSON: &g, bindingJSON: &b, settingJSON: &s} {
		if err := json.Unmarshal([]byte(raw), into); err != nil {
			t.Fatal(err)
		}
	}
	u.FirstName, g.Name, b.Role = "Jane", "operations", RoleAdmin
	b.RoleConstraints = []string{NamespaceIDConstraint(testNS)}
	s.DesiredConfig = LDAPConfig{ConnectionHost: "ldap.example.com", Port: 636, SecureMode: "LDAPS", CredentialID: testCredential,
		UserBaseDN: "ou=users,dc=example,dc=com", UserSearchFilter: "(objectClass=Person)", LoginAttribute: "mail",
		GroupBaseDN: "ou=groups,dc=example,dc=com", Enabled: true}.Config()
	calls := []func() error{
		func() error {
			_, err := c.CreateUser(ctx, UserCreate{Email: "jdoe@example.com", FirstName: "John", LastName: "Doe", AuthProvider: AuthProviderLocal})
			return err
		},
		func() error { _, err := c.UpdateUser(ctx, &u); return err },
		func() error { _, err := c.CreateGroup(ctx, "", "CN=Ops,OU=Groups,DC=example,DC=com"); return err },
		func() error { _, err := c.UpdateGroup(ctx, &g); return err },
		func() error {
			_, err := c.CreateRoleBinding(ctx, RoleBindingCreate{UserID: testUserID, Role: RoleMember,
				Constraints: []string{NamespaceLabelConstraint("team=payments")}})
			return err
		},
		func() error { _, err := c.UpdateRoleBinding(ctx, &b); return err },
		func() error { _, err := c.CreateToken(ctx, testUserID, "ci"); return err },
		func() error { _, err := c.UpdateSetting(ctx, &s); return err },
		func() error { return c.SetUserPassword(ctx, testUserID, "s3cret-Passw0rd", true) },
		func() error {
			_, err := c.CreateCredential(ctx, LDAPBindCredential("ldap-bind", "svc@example.com", "bind-s3cret"))
			return err
		},
	}
	for _, call := range calls {
		if err := call(); err != nil {
			t.Fatal(err)
		}
	}
	out := map[string][]byte{}
	for _, r := range f.requests() {
		if len(r.Body) == 0 {
			continue
		}
		var m struct{ Type, KeyType string }
		_ = json.Unmarshal(r.Body, &m)
		key := r.Method + " " + strings.TrimPrefix(m.Type, "application/astra-")
		if m.KeyType != "" {
			key += " " + m.KeyType
		}
		out[key] = r.Body
	}
	return out
}

// Every identity-and-access body is valid against the 24.02 schema of the version it names.
func TestIdentityBodiesMatchThePublishedSchemas(t *testing.T) {
	bodies := identityBodies(t)
	want := map[string][2]string{
		"POST user":                    {"user", UserVersion},
		"PUT user":                     {"user", UserVersion},
		"POST group":                   {"group", GroupVersion},
		"PUT group":                    {"group", GroupVersion},
		"POST roleBinding":             {"roleBinding", RoleBindingVersion},
		"PUT roleBinding":              {"roleBinding", RoleBindingVersion},
		"POST token":                   {"token", TokenVersion},
		"PUT setting":                  {"setting", SettingVersion},
		"POST credential passwordHash": {apispec.Credential, CredentialVersion},
		"POST credential generic":      {apispec.Credential, CredentialVersion},
	}
	if len(bodies) != len(want) {
		t.Errorf("%d bodies, want %d: %v", len(bodies), len(want), slices.Sorted(maps.Keys(bodies)))
	}
	for key, w := range want {
		body, ok := bodies[key]
		if !ok {
			t.Errorf("no %s body", key)
			continue
		}
		kind := apispec.PostRequest
		if strings.HasPrefix(key, "PUT") {
			kind = apispec.PutRequest
		}
		if !strings.Contains(string(body), `"version":"`+w[1]+`"`) {
			t.Errorf("%s names another version than %s: %s", key, w[1], body)
		}
		schema, _, ok := apispec.Schema("24.02", w[0], w[1], kind)
		if !ok {
			t.Fatalf("no %s %s %s in 24.02", w[0], w[1], kind)
		}
		if err := apispec.Validate(schema, body); err != nil {
			t.Errorf("%s is invalid: %v\n%s", key, err, body)
		}
	}
}

// What the bodies hold: the binding's account and constraints, the nil UUID of the other
// principal left out of a PUT, the password base64 with its change flag, the LDAP port an
// integer and isEnabled a string.
func TestIdentityBodiesContent(t *testing.T) {
	bodies := identityBodies(t)
	for key, want := range map[string]string{
		"POST roleBinding": `{"type":"application/astra-roleBinding","version":"1.1","userID":"` + testUserID + `","accountID":"` + testAccount +
			`","role":"member","roleConstraints":["namespaces:kubernetesLabels='team=payments'.*"]}`,
		"POST group": `{"type":"application/astra-group","version":"1.1","authProvider":"ldap","authID":"CN=Ops,OU=Groups,DC=example,DC=com"}`,
		"POST user":  `{"type":"application/astra-user","version":"1.2","email":"jdoe@example.com","firstName":"John","lastName":"Doe","authProvider":"local"}`,
		"POST token": `{"type":"application/astra-token","version":"1.0","name":"ci"}`,
	} {
		if got := string(bodies[key]); got != want {
			t.Errorf("%s:\n got %s\nwant %s", key, got, want)
		}
	}
	put := string(bodies["PUT roleBinding"])
	if strings.Contains(put, NilID) || !strings.Contains(put, `"role":"admin"`) || !strings.Contains(put, `"roleConstraints":["namespaces:id='`+testNS+`'.*"]`) {
		t.Errorf("PUT roleBinding: %s", put)
	}
	pw := string(bodies["POST credential passwordHash"])
	if !strings.Contains(pw, `"name":"`+testUserID+`"`) || !strings.Contains(pw, `"change":"dHJ1ZQ=="`) || strings.Contains(pw, "s3cret") {
		t.Errorf("password credential: %s", pw)
	}
	setting := string(bodies["PUT setting"])
	if !strings.Contains(setting, `"port":636`) || !strings.Contains(setting, `"isEnabled":"true"`) || strings.Contains(setting, "currentConfig") {
		t.Errorf("PUT setting: %s", setting)
	}
	putUser := string(bodies["PUT user"])
	if !strings.Contains(putUser, `"firstName":"Jane"`) || strings.Contains(putUser, "lastActTimestamp") || strings.Contains(putUser, "isInviteAccepted") {
		t.Errorf("PUT user must carry the change, without what the PUT schema refuses: %s", putUser)
	}
}

// The token's user is read from its JWT claims, plain or base64-encoded; an opaque token
// names none.
func TestTokenUserID(t *testing.T) {
	claims := func(payload string) string {
		return "eyJhbGciOiJIUzI1NiJ9." + strings.TrimRight(b64url(payload), "=") + ".c2ln"
	}
	jwt := claims(`{"userID":"` + strings.ToUpper(testUserID) + `","accountID":"x"}`)
	for token, want := range map[string]string{
		jwt:                                    testUserID,
		b64std(jwt):                            testUserID,
		claims(`{"sub":"` + testUserID + `"}`): testUserID,
		claims(`{"sub":"not-a-uuid"}`):         "",
		"opaque-token-0123456789abcdefghijklm": "",
	} {
		got, ok := TokenUserID(token)
		if got != want || ok != (want != "") {
			t.Errorf("TokenUserID(%q) = %q, %v; want %q", token, got, ok, want)
		}
	}
}

func b64url(s string) string { return base64.URLEncoding.EncodeToString([]byte(s)) }
func b64std(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
