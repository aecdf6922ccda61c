package astrasim

import (
	"net/http"
	"sort"
	"strings"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// group is an LDAP group of Astra Control Center (group_1.0/1.1; research notes §4.14
// "Groups"). Its authID, the DN, is stored lower-cased, as a 24.02-era answer showed
// (NetApp's toolkit: CN=michael,OU=Users,… came back cn=michael,ou=users,…), so DNs
// compare case-insensitively.
type group struct {
	Seq     int    `json:"seq"`
	ID      string `json:"id"`
	Version string `json:"version"`
	Name    string `json:"name"`
	AuthID  string `json:"authID"`
	Meta    meta   `json:"metadata"`
}

func (id *identity) sortedGroups() []*group {
	out := make([]*group, 0, len(id.Groups))
	for _, g := range id.Groups {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out
}

func (s *Sim) renderGroup(g *group) map[string]any {
	return fitToSchema(s.responseSchema(resGroup, g.Version), map[string]any{
		"type": "application/astra-group", "version": g.Version, "id": g.ID, "name": g.Name,
		"authProvider": authLDAP, "authID": g.AuthID, "metadata": renderMeta(g.Meta),
	})
}

// ldapOnly refuses the LDAP family on Astra Control Service, which has none (research
// notes §4.14 "ACS vs ACC"; AA-DOCS ldap_prepare.adoc): 400 problem 9.
func (s *Sim) ldapOnly(field string) *apiProblem {
	if !s.service() {
		return nil
	}
	return invalidFields(9, fieldReason{field, "Astra Control Service (release " + s.opts.Release + ") has no LDAP: users are cloud-central"})
}

func (s *Sim) listGroups(q *request) *reply {
	var items []map[string]any
	for _, g := range s.st.Identity.sortedGroups() {
		items = append(items, s.renderGroup(g))
	}
	return s.list(q, resGroup, items)
}

func (s *Sim) lookupGroup(q *request) (*group, *apiProblem) {
	g := s.st.Identity.Groups[q.params["group_id"]]
	if g == nil {
		return nil, problem(1) // the group operations list 404 problem 1 throughout
	}
	return g, nil
}

func (s *Sim) getGroup(q *request) *reply {
	g, p := s.lookupGroup(q)
	if p != nil {
		return fail(p)
	}
	return answer(http.StatusOK, resGroup, apispec.GetResponse, g.Version, s.renderGroup(g))
}

// firstCN is the value of a DN's first CN, the default group name (research notes
// §4.14), or the whole DN.
func firstCN(dn string) string {
	for _, rdn := range strings.Split(dn, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(rdn), "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "cn") && v != "" {
			return strings.TrimSpace(v)
		}
	}
	return dn
}

// checkDN refuses a DN that is not a list of attribute=value pairs (problem 9) and one
// another group has (409 problem 10, compared case-insensitively).
func (s *Sim) checkDN(dn, self string) *apiProblem {
	for _, rdn := range strings.Split(dn, ",") {
		k, v, ok := strings.Cut(rdn, "=")
		if !ok || strings.TrimSpace(k) == "" || strings.TrimSpace(v) == "" {
			return invalidFields(9, fieldReason{"authID", "the authID must be an LDAP DN such as cn=ops,ou=groups,dc=example,dc=com"})
		}
	}
	for _, g := range s.st.Identity.Groups {
		if g.ID != self && strings.EqualFold(g.AuthID, dn) {
			return invalidFields(10, fieldReason{"authID", "group " + g.ID + " already has this DN"})
		}
	}
	return nil
}

// postGroup adds an LDAP group by DN. Groups may exist before LDAP is configured
// (AA-DOCS); whether the directory has the DN is the client's to check (ldapGroups).
func (s *Sim) postGroup(q *request) *reply {
	b, p := s.readBody(q, resGroup, apispec.PostRequest)
	if p != nil {
		return fail(p)
	}
	if p := s.ldapOnly("authProvider"); p != nil {
		return fail(p)
	}
	dn, _ := b.str("authID")
	if p := s.checkDN(dn, ""); p != nil {
		return fail(p)
	}
	name, ok := b.str("name")
	if !ok {
		name = firstCN(dn)
	}
	labels, _ := labelsOf(b)
	if labels == nil {
		labels = []label{}
	}
	g := &group{Seq: s.st.nextSeq(), ID: s.newID(), Version: b.version, Name: name, AuthID: strings.ToLower(dn),
		Meta: meta{Labels: labels, Created: q.now, Modified: q.now, CreatedBy: q.user.userID}}
	s.st.Identity.Groups[g.ID] = g
	return created(q, s.accountPath()+"/core/v1/groups/"+g.ID, resGroup, g.Version, s.renderGroup(g))
}

// putGroup renames a group or changes its DN (the spec's example changes both).
func (s *Sim) putGroup(q *request) *reply {
	g, p := s.lookupGroup(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderGroup(g)); p != nil {
		return fail(p)
	}
	b, p := s.readBody(q, resGroup, apispec.PutRequest)
	if p != nil {
		return fail(p)
	}
	if id, ok := b.str("id"); ok && id != g.ID {
		return fail(invalidFields(9, fieldReason{"id", "the id differs from the group's"}))
	}
	if dn, ok := b.str("authID"); ok {
		if p := s.checkDN(dn, g.ID); p != nil {
			return fail(p)
		}
		g.AuthID = strings.ToLower(dn)
	}
	if name, ok := b.str("name"); ok {
		g.Name = name
	}
	if labels, ok := labelsOf(b); ok {
		g.Meta.Labels = mergeLabels(g.Meta.Labels, labels)
	}
	g.Version = b.version
	touch(&g.Meta, q)
	return s.updated(q, resGroup, g.Version, s.renderGroup(g))
}

// deleteGroup removes a group and its role bindings (research notes §4.14).
func (s *Sim) deleteGroup(q *request) *reply {
	g, p := s.lookupGroup(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderGroup(g)); p != nil {
		return fail(p)
	}
	s.removeGroup(g.ID)
	return noContent()
}

func (s *Sim) removeGroup(id string) {
	ident := s.st.Identity
	delete(ident.Groups, id)
	for bid, b := range ident.Bindings {
		if b.GroupID == id {
			delete(ident.Bindings, bid)
		}
	}
}
