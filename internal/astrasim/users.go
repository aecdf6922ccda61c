package astrasim

import (
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// Identity and access (issue 47): users, groups, role bindings, API tokens, the LDAP
// setting and the directory behind it. Sources: the published documents (user_1.2,
// group_1.1, roleBinding_1.1, token_1.0, setting_1.1, ldapUser_1.0, ldapGroup_1.0 of 24.02,
// older releases where they differ) and research notes §4.14 and §4.15 (what NetApp's
// toolkit sends and the service answered).

// Resource names of the identity family, as in schema names and media types.
const (
	resUser        = "user"
	resGroup       = "group"
	resRoleBinding = "roleBinding"
	resToken       = "token"
	resSetting     = "setting"
	resLDAPUser    = "ldapUser"
	resLDAPGroup   = "ldapGroup"
)

var identityResources = []string{resUser, resGroup, resRoleBinding, resToken, resSetting, resLDAPUser, resLDAPGroup}

// Authentication providers of a user (user_1.2 authProvider).
const (
	authLocal        = "local"
	authLDAP         = "ldap"
	authCloudCentral = "cloud-central"
)

// identity is the account's users, groups, role bindings, API tokens and LDAP setting.
// It holds no secret: of a token only a digest of its bearer string.
type identity struct {
	Users    map[string]*user        `json:"users"`
	Groups   map[string]*group       `json:"groups"`
	Bindings map[string]*roleBinding `json:"roleBindings"`
	Tokens   map[string]*apiToken    `json:"tokens"`
	// OwnerID is the account owner: its binding can be neither removed nor demoted.
	OwnerID string       `json:"ownerID"`
	LDAP    *ldapSetting `json:"ldap,omitempty"`
	SMTP    *ldapSetting `json:"smtp,omitempty"` // smtp.go
	// Directory is the LDAP directory the simulator plays (directory.go).
	Directory *directory `json:"directory"`
	// NamespaceLabels are Kubernetes labels of namespaces by name (every cluster), which
	// kubernetesLabels role constraints select on (authorization.go).
	NamespaceLabels map[string]map[string]string `json:"namespaceLabels,omitempty"`
}

type user struct {
	Seq              int            `json:"seq"`
	ID               string         `json:"id"`
	Version          string         `json:"version"`
	AuthProvider     string         `json:"authProvider"`
	AuthID           string         `json:"authID"`
	FirstName        string         `json:"firstName"`
	LastName         string         `json:"lastName"`
	CompanyName      string         `json:"companyName,omitempty"`
	Email            string         `json:"email"`
	Phone            string         `json:"phone,omitempty"`
	PostalAddress    map[string]any `json:"postalAddress,omitempty"`
	SendWelcomeEmail string         `json:"sendWelcomeEmail"`
	State            string         `json:"state"`
	IsEnabled        string         `json:"isEnabled"`
	EnableTimestamp  time.Time      `json:"enableTimestamp"`
	Meta             meta           `json:"metadata"`
}

// identityVersions records the release's newest version of each identity resource.
func (s *Sim) identityVersions() error {
	for _, res := range identityResources {
		v, err := apispec.NewestVersion(s.opts.Release, res)
		if err != nil {
			return err
		}
		s.newest[res] = v
	}
	return nil
}

// service reports whether the release is Astra Control Service's: the published
// documents title 23.07 "Astra API (ACS)"; 23.10 and 24.02 are "(ACC)", and 22.11 and
// 23.05 are Astra Control Center releases (research notes §1).
func (s *Sim) service() bool {
	doc, err := apispec.Load(s.opts.Release)
	return err == nil && doc.Info != nil && strings.Contains(doc.Info.Title, "(ACS)")
}

// seedIdentity creates a user with a role binding for each configured API token. The
// first owner's (tokens in sorted order) is the account owner. On Astra Control Service
// they are Cloud Central users, on Center local users.
func (s *Sim) seedIdentity(st *state) {
	id := &identity{Users: map[string]*user{}, Groups: map[string]*group{}, Bindings: map[string]*roleBinding{},
		Tokens: map[string]*apiToken{}, Directory: s.seedDirectory()}
	provider := authLocal
	if s.service() {
		provider = authCloudCentral
	}
	sysMeta := meta{Labels: []label{}, Created: seedTime, Modified: seedTime, CreatedBy: nullUUID}
	for i, tok := range sortedTokens(s.opts.Tokens) {
		p := s.users[tok]
		role := s.opts.Tokens[tok]
		email := string(role) + itoa(i) + "@astra-sim.example"
		u := &user{Seq: i + 1, ID: p.userID, Version: s.newest[resUser], AuthProvider: provider, AuthID: email,
			FirstName: "Simulated", LastName: strings.ToUpper(string(role[:1])) + string(role[1:]), Email: email,
			SendWelcomeEmail: "false", State: "active", IsEnabled: "true", EnableTimestamp: seedTime, Meta: sysMeta}
		id.Users[u.ID] = u
		constraints := []string{"*"}
		if cs, ok := s.opts.TokenConstraints[tok]; ok && role != RoleOwner {
			constraints = append([]string{}, cs...)
		}
		b := &roleBinding{Seq: i + 1, ID: s.seedID("roleBinding/" + itoa(i)), Version: s.newest[resRoleBinding],
			UserID: u.ID, Role: string(role), Constraints: constraints, Meta: sysMeta}
		id.Bindings[b.ID] = b
		if id.OwnerID == "" && role == RoleOwner {
			id.OwnerID = u.ID
		}
	}
	for name, labels := range s.opts.NamespaceLabels {
		if id.NamespaceLabels == nil {
			id.NamespaceLabels = map[string]map[string]string{}
		}
		id.NamespaceLabels[name] = labels
	}
	if !s.service() {
		id.LDAP = s.defaultLDAP()
	}
	id.SMTP = s.defaultSMTP()
	st.Identity = id
}

// fill gives a loaded identity its empty collections.
func (id *identity) fill() {
	if id.Users == nil {
		id.Users = map[string]*user{}
	}
	if id.Groups == nil {
		id.Groups = map[string]*group{}
	}
	if id.Bindings == nil {
		id.Bindings = map[string]*roleBinding{}
	}
	if id.Tokens == nil {
		id.Tokens = map[string]*apiToken{}
	}
	if id.Directory == nil {
		id.Directory = &directory{}
	}
}

func (id *identity) sortedUsers() []*user {
	out := make([]*user, 0, len(id.Users))
	for _, u := range id.Users {
		out = append(out, u)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out
}

func (s *Sim) renderUser(u *user) map[string]any {
	m := map[string]any{
		"type": "application/astra-user", "version": u.Version, "id": u.ID, "state": u.State, "isEnabled": u.IsEnabled,
		"authProvider": u.AuthProvider, "authID": u.AuthID, "firstName": u.FirstName, "lastName": u.LastName,
		"email": u.Email, "sendWelcomeEmail": u.SendWelcomeEmail, "enableTimestamp": formatTime(u.EnableTimestamp),
		"metadata": renderMeta(u.Meta),
	}
	putIf(m, "companyName", u.CompanyName)
	putIf(m, "phone", u.Phone)
	if u.PostalAddress != nil {
		m["postalAddress"] = u.PostalAddress
	}
	return fitToSchema(s.responseSchema(resUser, u.Version), m)
}

func (s *Sim) listUsers(q *request) *reply {
	var items []map[string]any
	for _, u := range s.st.Identity.sortedUsers() {
		items = append(items, s.renderUser(u))
	}
	return s.list(q, resUser, items)
}

func (s *Sim) lookupUser(q *request) (*user, *apiProblem) {
	u := s.st.Identity.Users[q.params["user_id"]]
	if u == nil {
		return nil, notFound(q)
	}
	return u, nil
}

func (s *Sim) getUser(q *request) *reply {
	u, p := s.lookupUser(q)
	if p != nil {
		return fail(p)
	}
	return answer(http.StatusOK, resUser, apispec.GetResponse, u.Version, s.renderUser(u))
}

// postUser creates a user. Astra Control Center has local (the default) and LDAP users,
// Astra Control Service Cloud Central users only (research notes §4.14, "ACS vs ACC"): a
// local user answers state active and sendWelcomeEmail "false" (forced), a Cloud Central
// user pending (until the emailed invitation is accepted) and "true". Emails are unique.
func (s *Sim) postUser(q *request) *reply {
	b, p := s.readBody(q, resUser, apispec.PostRequest)
	if p != nil {
		return fail(p)
	}
	u := &user{Seq: s.st.nextSeq(), Version: b.version, State: "active", IsEnabled: "true", SendWelcomeEmail: "false",
		EnableTimestamp: q.now, Meta: meta{Created: q.now, Modified: q.now, CreatedBy: q.user.userID}}
	u.AuthProvider, _ = b.str("authProvider")
	if u.AuthProvider == "" {
		u.AuthProvider = authLocal
		if s.service() {
			u.AuthProvider = authCloudCentral
		}
	}
	if p := s.checkAuthProvider(u.AuthProvider); p != nil {
		return fail(p)
	}
	if p := s.applyUserFields(u, b); p != nil {
		return fail(p)
	}
	u.AuthID, _ = b.str("authID")
	switch u.AuthProvider {
	case authLocal, authCloudCentral:
		u.AuthID = u.Email // a local user's authID is its email (research notes §4.14)
	case authLDAP:
		u.AuthID = strings.ToLower(u.AuthID)
	}
	if u.AuthProvider == authCloudCentral {
		u.State, u.SendWelcomeEmail = "pending", "true"
		if v, ok := b.str("sendWelcomeEmail"); ok {
			u.SendWelcomeEmail = v
		}
	}
	if p := s.checkUserEmail(u); p != nil {
		return fail(p)
	}
	u.ID = s.newID()
	s.st.Identity.Users[u.ID] = u
	return created(q, s.accountPath()+"/core/v1/users/"+u.ID, resUser, u.Version, s.renderUser(u))
}

// checkAuthProvider refuses a user kind the product lacks (problem 9, naming the kinds).
func (s *Sim) checkAuthProvider(provider string) *apiProblem {
	if s.service() != (provider == authCloudCentral) {
		reason := "Astra Control Center (release " + s.opts.Release + ") has local and ldap users, not cloud-central"
		if s.service() {
			reason = "Astra Control Service (release " + s.opts.Release + ") has cloud-central users only"
		}
		return invalidFields(9, fieldReason{"authProvider", reason})
	}
	return nil
}

// applyUserFields takes the fields a POST or PUT may set.
func (s *Sim) applyUserFields(u *user, b *body) *apiProblem {
	for _, f := range []struct {
		key string
		dst *string
	}{{"firstName", &u.FirstName}, {"lastName", &u.LastName}, {"companyName", &u.CompanyName}, {"email", &u.Email}, {"phone", &u.Phone}} {
		if v, ok := b.str(f.key); ok {
			*f.dst = v
		}
	}
	if pa, ok := b.fields["postalAddress"].(map[string]any); ok {
		u.PostalAddress = pa
	}
	if labels, ok := labelsOf(b); ok {
		u.Meta.Labels = mergeLabels(u.Meta.Labels, labels)
	}
	if u.Meta.Labels == nil {
		u.Meta.Labels = []label{}
	}
	if !strings.Contains(u.Email, "@") {
		return invalidFields(9, fieldReason{"email", "the email must be an address, such as jdoe@example.com"})
	}
	return nil
}

// checkUserEmail refuses an email another user has (compared case-insensitively): 409
// problem 10. An LDAP user cannot reuse a local user's email either (ACC-DOCS
// use/manage-remote-users-groups.adoc).
func (s *Sim) checkUserEmail(u *user) *apiProblem {
	for _, other := range s.st.Identity.Users {
		if other.ID != u.ID && strings.EqualFold(other.Email, u.Email) {
			return invalidFields(10, fieldReason{"email", "user " + other.ID + " already has this email"})
		}
	}
	return nil
}

// putUser changes a user in place: names, company, phone, address, email (a local
// user's authID follows it), state and isEnabled. Its authProvider and authID cannot
// change (409 problem 10): the conservative reading of research notes §4.14.
func (s *Sim) putUser(q *request) *reply {
	u, p := s.lookupUser(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderUser(u)); p != nil {
		return fail(p)
	}
	if p := s.protectOwner(q, u.ID, "changed"); p != nil {
		return fail(p)
	}
	b, p := s.readBody(q, resUser, apispec.PutRequest)
	if p != nil {
		return fail(p)
	}
	if id, ok := b.str("id"); ok && id != u.ID {
		return fail(invalidFields(10, fieldReason{"id", "the id differs from the user's"}))
	}
	if v, ok := b.str("authProvider"); ok && v != u.AuthProvider {
		return fail(invalidFields(10, fieldReason{"authProvider", "a user's authProvider can't change; delete the user and create it again"}))
	}
	next := *u
	if p := s.applyUserFields(&next, b); p != nil {
		return fail(p)
	}
	if v, ok := b.str("authID"); ok && !strings.EqualFold(v, u.AuthID) && !(u.AuthProvider != authLDAP && strings.EqualFold(v, next.Email)) {
		if u.AuthProvider != authLDAP || u.AuthID != "" {
			return fail(invalidFields(10, fieldReason{"authID", "a user's authID can't change; delete the user and create it again"}))
		}
		next.AuthID = strings.ToLower(v) // an LDAP user created without its DN (as NetApp's toolkit does) gets it once
	}
	if p := s.checkUserEmail(&next); p != nil {
		return fail(p)
	}
	if next.AuthProvider != authLDAP {
		next.AuthID = next.Email
	}
	if v, ok := b.str("state"); ok {
		if v == "pending" && next.AuthProvider == authLocal {
			return fail(invalidFields(9, fieldReason{"state", "pending isn't a state of a local user"}))
		}
		next.State = v
	}
	if v, ok := b.str("isEnabled"); ok {
		if v == "true" && next.IsEnabled != "true" {
			next.EnableTimestamp = q.now
		}
		next.IsEnabled = v
	}
	next.Version = b.version
	touch(&next.Meta, q)
	*u = next
	return s.updated(q, resUser, u.Version, s.renderUser(u))
}

// deleteUser removes a user with its tokens, every role binding naming it and, for a
// local user, its passwordHash credential (research notes §4.14). The account owner
// cannot go; on Astra Control Service only the owner removes users (authorization.go).
func (s *Sim) deleteUser(q *request) *reply {
	u, p := s.lookupUser(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderUser(u)); p != nil {
		return fail(p)
	}
	if p := s.protectOwner(q, u.ID, "deleted"); p != nil {
		return fail(p)
	}
	if p := s.serviceRemoval(q); p != nil {
		return fail(p)
	}
	s.removeUser(u.ID)
	return noContent()
}

// removeUser drops a user and everything that hangs on it.
func (s *Sim) removeUser(id string) {
	ident := s.st.Identity
	delete(ident.Users, id)
	for bid, b := range ident.Bindings {
		if b.UserID == id {
			delete(ident.Bindings, bid)
		}
	}
	for tid, t := range ident.Tokens {
		if t.UserID == id {
			delete(ident.Tokens, tid)
		}
	}
	for cid, c := range s.st.Credentials {
		if c.KeyType == keyTypePasswordHash && c.Name == id {
			delete(s.st.Credentials, cid)
		}
	}
}

// serviceRemoval: on Astra Control Service only the owner removes users (research notes
// §4.14 "ACS vs ACC"; ACS-DOCS use/manage-users.adoc).
func (s *Sim) serviceRemoval(q *request) *apiProblem {
	if s.service() && q.user.role != RoleOwner {
		p := forbidden(RoleOwner, q.user.role)
		p.InvalidFields = []fieldReason{{"user", "on Astra Control Service only the owner removes users"}}
		return p
	}
	return nil
}

// protectOwner refuses to change or delete the account owner's user unless the caller is
// the owner (a change) — nobody deletes it: 403 problem 11.
func (s *Sim) protectOwner(q *request, userID, what string) *apiProblem {
	if userID != s.st.Identity.OwnerID {
		return nil
	}
	if what == "changed" && q.user.userID == userID {
		return nil
	}
	p := forbidden(RoleOwner, q.user.role)
	p.InvalidFields = []fieldReason{{"user", "the account owner's user can't be " + what}}
	if what == "changed" {
		p.InvalidFields[0].Reason += " by another user"
	}
	return p
}
