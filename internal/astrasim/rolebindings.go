package astrasim

import (
	"net/http"
	"regexp"
	"sort"
	"strings"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// roleBinding gives a user or a group a role, limited by role constraints
// (roleBinding_1.1; research notes §4.14 "Role bindings").
type roleBinding struct {
	Seq         int      `json:"seq"`
	ID          string   `json:"id"`
	Version     string   `json:"version"`
	UserID      string   `json:"userID,omitempty"`
	GroupID     string   `json:"groupID,omitempty"`
	Role        string   `json:"role"`
	Constraints []string `json:"roleConstraints"`
	Meta        meta     `json:"metadata"`
}

// The role-constraint grammar (research notes §4.14, from the roleBinding 1.1 examples and
// NetApp's toolkit, tkSrc/helpers.py createConstraintList): "*"; namespaces:id='<uuid>'
// (the namespace object) or with ".*" (and its contents);
// namespaces:kubernetesLabels='<key>=<value>'.* (namespaces with that label, and their
// contents); namespaces:* and namespaces:*.*.
var (
	constraintID     = regexp.MustCompile(`^namespaces:id='([0-9a-f-]{36})'(\.\*)?$`)
	constraintLabels = regexp.MustCompile(`^namespaces:kubernetesLabels='([A-Za-z0-9][A-Za-z0-9._/-]{0,252})=([A-Za-z0-9._-]{0,63})'\.\*$`)
	constraintAll    = regexp.MustCompile(`^namespaces:\*(\.\*)?$`)
)

// checkConstraint says what is wrong with one constraint, or "".
func checkConstraint(c string) string {
	switch {
	case c == "*", constraintAll.MatchString(c):
		return ""
	case constraintID.MatchString(c):
		if !isIdentifier(constraintID.FindStringSubmatch(c)[1]) {
			return "the namespace ID in " + c + " isn't an Astra identifier"
		}
		return ""
	case constraintLabels.MatchString(c):
		return ""
	case strings.HasPrefix(c, "namespaces:kubernetesLabels="):
		return "a label constraint has the form namespaces:kubernetesLabels='<key>=<value>'.* (one label, single quotes, ending in .*)"
	case strings.HasPrefix(c, "namespaces:id="):
		return "a namespace constraint has the form namespaces:id='<namespace ID>' or namespaces:id='<namespace ID>'.* (single quotes)"
	}
	return "a role constraint is *, namespaces:*, namespaces:*.*, namespaces:id='<namespace ID>'[.*] or namespaces:kubernetesLabels='<key>=<value>'.*"
}

func (id *identity) sortedBindings(keep func(*roleBinding) bool) []*roleBinding {
	var out []*roleBinding
	for _, b := range id.Bindings {
		if keep(b) {
			out = append(out, b)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out
}

func (s *Sim) renderBinding(b *roleBinding) map[string]any {
	principal, userID, groupID := "user", orNull(b.UserID), orNull(b.GroupID)
	if b.GroupID != "" {
		principal = "group"
	}
	return fitToSchema(s.responseSchema(resRoleBinding, b.Version), map[string]any{
		"type": "application/astra-roleBinding", "version": b.Version, "id": b.ID, "principalType": principal,
		"userID": userID, "groupID": groupID, "accountID": s.opts.AccountID, "role": b.Role,
		"roleConstraints": strs(b.Constraints), "metadata": renderMeta(b.Meta),
	})
}

// bindingScope is the principal the route names (/users/{id}/roleBindings or
// /groups/{id}/roleBindings), so the aliases see only that principal's bindings.
func (s *Sim) bindingScope(q *request) (keep func(*roleBinding) bool, p *apiProblem) {
	ident := s.st.Identity
	if uid, ok := q.params["user_id"]; ok {
		if ident.Users[uid] == nil {
			return nil, problem(2)
		}
		return func(b *roleBinding) bool { return b.UserID == uid }, nil
	}
	if gid, ok := q.params["group_id"]; ok {
		if ident.Groups[gid] == nil {
			return nil, problem(2)
		}
		return func(b *roleBinding) bool { return b.GroupID == gid }, nil
	}
	return func(*roleBinding) bool { return true }, nil
}

func (s *Sim) listBindings(q *request) *reply {
	keep, p := s.bindingScope(q)
	if p != nil {
		return fail(p)
	}
	var items []map[string]any
	for _, b := range s.st.Identity.sortedBindings(keep) {
		items = append(items, s.renderBinding(b))
	}
	return s.list(q, resRoleBinding, items)
}

func (s *Sim) lookupBinding(q *request) (*roleBinding, *apiProblem) {
	keep, p := s.bindingScope(q)
	if p != nil {
		return nil, p
	}
	b := s.st.Identity.Bindings[q.params["roleBinding_id"]]
	if b == nil || !keep(b) {
		return nil, notFound(q)
	}
	return b, nil
}

func (s *Sim) getBinding(q *request) *reply {
	b, p := s.lookupBinding(q)
	if p != nil {
		return fail(p)
	}
	return answer(http.StatusOK, resRoleBinding, apispec.GetResponse, b.Version, s.renderBinding(b))
}

// principalOf reads userID/groupID: exactly one, the other absent or the nil UUID (what
// NetApp's toolkit sends, research notes §4.15); under a principal's alias path it may be
// left out and must otherwise match.
func (s *Sim) principalOf(q *request, b *body) (userID, groupID string, p *apiProblem) {
	userID, _ = b.str("userID")
	groupID, _ = b.str("groupID")
	if userID == nullUUID {
		userID = ""
	}
	if groupID == nullUUID {
		groupID = ""
	}
	for key, path := range map[string]*string{"user_id": &userID, "group_id": &groupID} {
		if id, ok := q.params[key]; ok {
			if *path != "" && *path != id {
				return "", "", invalidFields(10, fieldReason{strings.Replace(key, "_id", "ID", 1), "differs from the " + strings.TrimSuffix(key, "_id") + " in the request URI"})
			}
			*path = id
		}
	}
	if (userID == "") == (groupID == "") {
		return "", "", invalidFields(9, fieldReason{"userID", "a role binding names exactly one of userID and groupID (the other absent or " + nullUUID + ")"})
	}
	ident := s.st.Identity
	if userID != "" && ident.Users[userID] == nil {
		return "", "", invalidFields(9, fieldReason{"userID", "no user " + userID})
	}
	if groupID != "" && ident.Groups[groupID] == nil {
		return "", "", invalidFields(9, fieldReason{"groupID", "no group " + groupID})
	}
	return userID, groupID, nil
}

// constraintsOf reads and checks roleConstraints; absent is ["*"] on create.
func (s *Sim) constraintsOf(b *body) ([]string, bool, *apiProblem) {
	cs, sent := b.strings("roleConstraints")
	if !sent {
		return []string{"*"}, false, nil
	}
	var bad []fieldReason
	for i, c := range cs {
		if reason := checkConstraint(c); reason != "" {
			bad = append(bad, fieldReason{"roleConstraints[" + itoa(i) + "]", reason})
		}
	}
	if len(bad) > 0 {
		return nil, true, invalidFields(9, bad...)
	}
	// AA-DOCS (2022) allowed LDAP principals only ["*"], yet 22.11's own example constrains
	// a group's binding: the document wins, constraints are taken for every principal.
	return cs, true, nil
}

// postBinding creates a role binding. accountID must be the path's; a principal has one
// binding (a second is 409 problem 10: AA-DOCS and NetApp's toolkit assume "a single
// role", what the service answers is unknown); only the owner grants owner.
func (s *Sim) postBinding(q *request) *reply {
	if _, p := s.bindingScope(q); p != nil {
		return fail(p)
	}
	b, p := s.readBody(q, resRoleBinding, apispec.PostRequest)
	if p != nil {
		return fail(p)
	}
	if acc, _ := b.str("accountID"); acc != s.opts.AccountID {
		return fail(invalidFields(9, fieldReason{"accountID", "must be the account in the request URI, " + s.opts.AccountID}))
	}
	userID, groupID, p := s.principalOf(q, b)
	if p != nil {
		return fail(p)
	}
	role, _ := b.str("role")
	if p := s.checkGrant(q, role); p != nil {
		return fail(p)
	}
	cs, _, p := s.constraintsOf(b)
	if p != nil {
		return fail(p)
	}
	ident := s.st.Identity
	for _, other := range ident.Bindings {
		if (userID != "" && other.UserID == userID) || (groupID != "" && other.GroupID == groupID) {
			return fail(invalidFields(10, fieldReason{"userID", "the principal already has role binding " + other.ID + "; change it with PUT"}))
		}
	}
	labels, _ := labelsOf(b)
	if labels == nil {
		labels = []label{}
	}
	rb := &roleBinding{Seq: s.st.nextSeq(), ID: s.newID(), Version: b.version, UserID: userID, GroupID: groupID,
		Role: role, Constraints: cs, Meta: meta{Labels: labels, Created: q.now, Modified: q.now, CreatedBy: q.user.userID}}
	ident.Bindings[rb.ID] = rb
	return created(q, s.accountPath()+"/core/v1/roleBindings/"+rb.ID, resRoleBinding, rb.Version, s.renderBinding(rb))
}

// checkGrant refuses a grant above the caller's own role: an admin manages every user but
// the owner (research notes §4.14 "Roles"), so only an owner gives owner.
func (s *Sim) checkGrant(q *request, role string) *apiProblem {
	if rank(Role(role)) > rank(q.user.role) {
		return forbidden(Role(role), q.user.role)
	}
	return nil
}

// putBinding changes role and constraints in place; left-out constraints are kept, the
// principal cannot change (409 problem 10). The owner's binding keeps its role.
func (s *Sim) putBinding(q *request) *reply {
	rb, p := s.lookupBinding(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderBinding(rb)); p != nil {
		return fail(p)
	}
	b, p := s.readBody(q, resRoleBinding, apispec.PutRequest)
	if p != nil {
		return fail(p)
	}
	if id, ok := b.str("id"); ok && id != rb.ID {
		return fail(invalidFields(10, fieldReason{"id", "the id differs from the role binding's"}))
	}
	for key, have := range map[string]string{"userID": rb.UserID, "groupID": rb.GroupID, "accountID": s.opts.AccountID} {
		if v, ok := b.str(key); ok && v != orNull(have) && !(v == nullUUID && have == "") {
			return fail(invalidFields(10, fieldReason{key, "the " + key + " of a role binding is set on create only"}))
		}
	}
	role, _ := b.str("role")
	if p := s.checkGrant(q, role); p != nil {
		return fail(p)
	}
	if rank(Role(rb.Role)) > rank(q.user.role) {
		return fail(forbidden(Role(rb.Role), q.user.role))
	}
	if rb.UserID != "" && rb.UserID == s.st.Identity.OwnerID && role != rb.Role {
		p := forbidden(RoleOwner, q.user.role)
		p.InvalidFields = []fieldReason{{"role", "the account owner's role binding keeps the owner role"}}
		return fail(p)
	}
	cs, sent, p := s.constraintsOf(b)
	if p != nil {
		return fail(p)
	}
	if sent {
		rb.Constraints = cs
	}
	if labels, ok := labelsOf(b); ok {
		rb.Meta.Labels = mergeLabels(rb.Meta.Labels, labels)
	}
	rb.Role, rb.Version = role, b.version
	touch(&rb.Meta, q)
	return s.updated(q, resRoleBinding, rb.Version, s.renderBinding(rb))
}

// deleteBinding removes a binding. The account owner's cannot go (403 problem 11); the
// last binding of a local or Cloud Central user takes the user with it, not an LDAP
// user's (research notes §4.14 and §4.15: NetApp's toolkit deletes local users so).
func (s *Sim) deleteBinding(q *request) *reply {
	rb, p := s.lookupBinding(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderBinding(rb)); p != nil {
		return fail(p)
	}
	ident := s.st.Identity
	if rb.UserID != "" && rb.UserID == ident.OwnerID {
		p := forbidden(RoleOwner, q.user.role)
		p.InvalidFields = []fieldReason{{"roleBinding", "the account owner's role binding can't be removed"}}
		return fail(p)
	}
	if rank(Role(rb.Role)) > rank(q.user.role) {
		return fail(forbidden(Role(rb.Role), q.user.role))
	}
	u := ident.Users[rb.UserID]
	last := u != nil && u.AuthProvider != authLDAP &&
		len(ident.sortedBindings(func(b *roleBinding) bool { return b.UserID == u.ID && b.ID != rb.ID })) == 0
	if last {
		if p := s.serviceRemoval(q); p != nil {
			return fail(p)
		}
	}
	delete(ident.Bindings, rb.ID)
	if last {
		s.removeUser(u.ID)
	}
	return noContent()
}
