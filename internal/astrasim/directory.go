package astrasim

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"sort"
	"strings"
)

// The LDAP directory the simulator plays (an Active Directory: Astra Control Center binds
// to Active Directory only, research notes §4.14 "LDAP configuration"). It backs
// ldapUsers and ldapGroups once the LDAP setting is valid, and decides whether a setting
// connects. DNs are kept lower-cased, as the service answers them.
const (
	// DirectoryHost and the ports are where the directory answers: 636 for LDAPS, 389 for LDAP.
	DirectoryHost = "ldap.example.com"
	// DirectoryBindDN and DirectoryBindEmail name the service account a bind credential's
	// bindDn may give (AA-DOCS sends its email; a DN works too).
	DirectoryBindDN    = "cn=astra-bind,ou=service,dc=example,dc=com"
	DirectoryBindEmail = "astra-bind@example.com"
	// DirectoryBindPassword is the service account's password.
	DirectoryBindPassword = "sim-bind-password"
	// DirectoryUserBase and DirectoryGroupBase are where the seeded entries live (the LDAP
	// setting's shipped defaults).
	DirectoryUserBase  = "ou=users,dc=example,dc=com"
	DirectoryGroupBase = "ou=groups,dc=example,dc=com"
)

// DirectoryEntry is a person or a group of the simulated directory. A person has an
// Email; MemberOf names the DNs of its groups. A group has neither.
type DirectoryEntry struct {
	DN        string   `json:"dn"`
	Email     string   `json:"email,omitempty"`
	FirstName string   `json:"firstName,omitempty"`
	LastName  string   `json:"lastName,omitempty"`
	MemberOf  []string `json:"memberOf,omitempty"`
}

// SeededDirectory is what every simulator's directory holds: three people under
// DirectoryUserBase, in the groups ops, payments and auditors under DirectoryGroupBase.
var SeededDirectory = []DirectoryEntry{
	{DN: "cn=ops," + DirectoryGroupBase},
	{DN: "cn=payments," + DirectoryGroupBase},
	{DN: "cn=auditors," + DirectoryGroupBase},
	{DN: "cn=alice admin," + DirectoryUserBase, Email: "alice@example.com", FirstName: "Alice", LastName: "Admin", MemberOf: []string{"cn=ops," + DirectoryGroupBase}},
	{DN: "cn=bob payments," + DirectoryUserBase, Email: "bob@example.com", FirstName: "Bob", LastName: "Payments", MemberOf: []string{"cn=payments," + DirectoryGroupBase}},
	{DN: "cn=carol audit," + DirectoryUserBase, Email: "carol@example.com", FirstName: "Carol", LastName: "Audit", MemberOf: []string{"cn=auditors," + DirectoryGroupBase}},
}

type directory struct {
	Entries []DirectoryEntry `json:"entries"`
	// BindDigests are the KeyStoreDigest of the bind credentials that bind (bindDn by DN or
	// by email, with the password): the state holds no password.
	BindDigests []string `json:"bindDigests"`
}

// validate checks an entry and lower-cases its DNs.
func (e DirectoryEntry) validate() (DirectoryEntry, error) {
	e.DN = strings.ToLower(strings.TrimSpace(e.DN))
	if !strings.HasPrefix(e.DN, "cn=") || !strings.Contains(e.DN, ",") {
		return e, fmt.Errorf("directory entry %q: the DN must be cn=NAME,... (such as cn=ops,%s)", e.DN, DirectoryGroupBase)
	}
	if e.Email == "" && (e.FirstName != "" || e.LastName != "" || len(e.MemberOf) > 0) {
		return e, fmt.Errorf("directory entry %q: a person needs an email; a group has no names or groups", e.DN)
	}
	groups := make([]string, 0, len(e.MemberOf))
	for _, g := range e.MemberOf {
		groups = append(groups, strings.ToLower(strings.TrimSpace(g)))
	}
	e.MemberOf = groups
	return e, nil
}

// seedDirectory is SeededDirectory plus Options.Directory.
func (s *Sim) seedDirectory() *directory {
	d := &directory{}
	for _, e := range append(append([]DirectoryEntry(nil), SeededDirectory...), s.opts.Directory...) {
		e, _ = e.validate() // Options.Directory was checked by withDefaults
		d.put(e)
	}
	b64 := func(v string) string { return base64.StdEncoding.EncodeToString([]byte(v)) }
	for _, who := range []string{DirectoryBindDN, DirectoryBindEmail} {
		d.BindDigests = append(d.BindDigests, KeyStoreDigest(map[string]string{"bindDn": b64(who), "password": b64(DirectoryBindPassword)}))
	}
	return d
}

// put adds or replaces an entry by DN.
func (d *directory) put(e DirectoryEntry) {
	for i := range d.Entries {
		if d.Entries[i].DN == e.DN {
			d.Entries[i] = e
			return
		}
	}
	d.Entries = append(d.Entries, e)
}

// AddDirectoryEntry adds a person or a group to the simulated directory (or replaces the
// entry with its DN).
func (s *Sim) AddDirectoryEntry(e DirectoryEntry) error {
	e, err := e.validate()
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.Identity.Directory.put(e)
	return nil
}

// groupsOf are the group DNs of an LDAP user, found by its DN, else its email.
func (d *directory) groupsOf(u *user) []string {
	for _, e := range d.Entries {
		if e.Email != "" && ((u.AuthID != "" && e.DN == strings.ToLower(u.AuthID)) || strings.EqualFold(e.Email, u.Email)) {
			return e.MemberOf
		}
	}
	return nil
}

// under reports whether dn is below base (case-insensitively).
func under(dn, base string) bool {
	return base != "" && strings.HasSuffix(strings.ToLower(dn), ","+strings.ToLower(strings.TrimSpace(base)))
}

// connectedConfig is the LDAP configuration in force when LDAP is valid and enabled.
func (s *Sim) connectedConfig() map[string]any {
	l := s.st.Identity.LDAP
	if l == nil || l.State != "valid" || l.Current["isEnabled"] != "true" {
		return nil
	}
	return l.Current
}

func (s *Sim) renderDirectoryEntry(e DirectoryEntry) map[string]any {
	m := map[string]any{"id": uuid5("ldap/" + e.DN), "cn": strings.TrimPrefix(strings.SplitN(e.DN, ",", 2)[0], "cn="), "dn": e.DN,
		"metadata": renderMeta(meta{Labels: []label{}, Created: seedTime, Modified: seedTime, CreatedBy: nullUUID})}
	if e.Email == "" {
		m["type"], m["version"] = "application/astra-ldapGroup", s.newest[resLDAPGroup]
		return m
	}
	m["type"], m["version"] = "application/astra-ldapUser", s.newest[resLDAPUser]
	m["email"] = e.Email
	putIf(m, "firstName", e.FirstName)
	putIf(m, "lastName", e.LastName)
	return m
}

// searchDirectory lists the people (or groups) under the configured base DN. While LDAP
// is not valid and enabled there is no directory to search: an empty list (the
// conservative answer; what the service answers then is undocumented).
func (s *Sim) searchDirectory(q *request, people bool) []DirectoryEntry {
	s.settleLDAP(q.now)
	cfg := s.connectedConfig() // nil on Astra Control Service
	if cfg == nil {
		return nil
	}
	base, _ := cfg["groupBaseDN"].(string)
	if people {
		base, _ = cfg["userBaseDN"].(string)
	}
	var out []DirectoryEntry
	for _, e := range s.st.Identity.Directory.Entries {
		if (e.Email != "") == people && under(e.DN, base) {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].DN < out[j].DN })
	return out
}

func (s *Sim) listLDAPUsers(q *request) *reply  { return s.listDirectory(q, true) }
func (s *Sim) listLDAPGroups(q *request) *reply { return s.listDirectory(q, false) }
func (s *Sim) getLDAPUser(q *request) *reply    { return s.getDirectory(q, true, "ldapUser_id") }
func (s *Sim) getLDAPGroup(q *request) *reply   { return s.getDirectory(q, false, "ldapGroup_id") }

// listDirectory searches the directory; Astra Control Service, without LDAP, finds nothing.
func (s *Sim) listDirectory(q *request, people bool) *reply {
	res := resLDAPGroup
	if people {
		res = resLDAPUser
	}
	var items []map[string]any
	for _, e := range s.searchDirectory(q, people) {
		items = append(items, s.renderDirectoryEntry(e))
	}
	return s.list(q, res, items)
}

func (s *Sim) getDirectory(q *request, people bool, param string) *reply {
	res := resLDAPGroup
	if people {
		res = resLDAPUser
	}
	for _, e := range s.searchDirectory(q, people) {
		if m := s.renderDirectoryEntry(e); m["id"] == q.params[param] {
			return answer(http.StatusOK, res, "get_response_body", s.newest[res], m)
		}
	}
	return fail(problem(1))
}
