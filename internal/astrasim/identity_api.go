package astrasim

import (
	"fmt"
	"sort"
	"strings"
)

// The Go API tests use to act as another user (issue 47): a viewer, a member constrained
// to namespaces by label, and so on. What they create is what the REST API would create.

// NewUserToken creates a user (local on Astra Control Center, Cloud Central on Service,
// state active) with one role binding of role and constraints (none: ["*"]) and an API
// token, and returns the user's ID and the token's bearer string. Constraints use the
// service's grammar, e.g. namespaces:kubernetesLabels='team=payments'.*.
func (s *Sim) NewUserToken(email string, role Role, constraints ...string) (userID, token string, err error) {
	if rank(role) == 0 {
		return "", "", fmt.Errorf("unknown role %q; known roles: viewer, member, admin, owner", role)
	}
	if constraints == nil {
		constraints = []string{"*"}
	}
	for _, c := range constraints {
		if reason := checkConstraint(c); reason != "" {
			return "", "", fmt.Errorf("role constraint %q: %s", c, reason)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ident := s.st.Identity
	now := s.opts.Now()
	provider := authLocal
	if s.service() {
		provider = authCloudCentral
	}
	u := &user{Seq: s.st.nextSeq(), ID: s.newID(), Version: s.newest[resUser], AuthProvider: provider, AuthID: email,
		FirstName: "Test", LastName: strings.ToUpper(string(role[:1])) + string(role[1:]), Email: email, SendWelcomeEmail: "false",
		State: "active", IsEnabled: "true", EnableTimestamp: now, Meta: meta{Labels: []label{}, Created: now, Modified: now, CreatedBy: ident.OwnerID}}
	if p := s.checkUserEmail(u); p != nil {
		return "", "", fmt.Errorf("a user with email %s exists", email)
	}
	ident.Users[u.ID] = u
	b := &roleBinding{Seq: s.st.nextSeq(), ID: s.newID(), Version: s.newest[resRoleBinding], UserID: u.ID, Role: string(role),
		Constraints: append([]string(nil), constraints...), Meta: meta{Labels: []label{}, Created: now, Modified: now, CreatedBy: ident.OwnerID}}
	ident.Bindings[b.ID] = b
	_, token = s.addToken(u.ID, "test-token", s.newest[resToken], nil, ident.OwnerID, nil)
	return u.ID, token, nil
}

// MintToken creates an API token for an existing user and returns its bearer string.
func (s *Sim) MintToken(userID, name string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st.Identity.Users[userID] == nil {
		return "", fmt.Errorf("no user %s", userID)
	}
	_, token := s.addToken(userID, name, s.newest[resToken], nil, s.st.Identity.OwnerID, nil)
	return token, nil
}

// OwnerUserID is the account owner's user: the user of the first owner token (in sorted
// order) of Options.Tokens, DefaultToken's by default.
func (s *Sim) OwnerUserID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.Identity.OwnerID
}

// SetNamespaceLabels gives the namespaces named name (on every cluster) Kubernetes labels
// besides kubernetes.io/metadata.name, for kubernetesLabels role constraints.
func (s *Sim) SetNamespaceLabels(name string, labels map[string]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ident := s.st.Identity
	if ident.NamespaceLabels == nil {
		ident.NamespaceLabels = map[string]map[string]string{}
	}
	cp := map[string]string{}
	for k, v := range labels {
		cp[k] = v
	}
	ident.NamespaceLabels[name] = cp
}

// APITokens counts the API tokens users hold (revoked ones are gone), for tests of a
// client that must clean up.
func (s *Sim) APITokens() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.st.Identity.Tokens)
}

// namespaceLabelList renders labels as kubernetesLabels, sorted by name.
func namespaceLabelList(labels map[string]string) []any {
	names := make([]string, 0, len(labels))
	for k := range labels {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make([]any, 0, len(names))
	for _, k := range names {
		out = append(out, map[string]any{"name": k, "value": labels[k]})
	}
	return out
}

// stripIdentityBookkeeping leaves out of a Snapshot what changes without a lasting
// change: modification timestamps and modifiers of the identity objects, as Snapshot does
// for the others.
func stripIdentityBookkeeping(view map[string]any) {
	ident, _ := view["identity"].(map[string]any)
	var objs []any
	for _, family := range []string{"users", "groups", "roleBindings", "tokens"} {
		m, _ := ident[family].(map[string]any)
		for _, o := range m {
			objs = append(objs, o)
		}
	}
	objs = append(objs, ident["ldap"], ident["smtp"])
	for _, o := range objs {
		obj, _ := o.(map[string]any)
		if m, ok := obj["metadata"].(map[string]any); ok {
			delete(m, "modificationTimestamp")
			delete(m, "modifiedBy")
		}
	}
}

// Role is the role and role constraints a token (configured or created) acts with, as
// "role constraint..." ("" for a token refused): what a test or the command line can check.
func (s *Sim) Role(token string) string {
	p, configured := s.users[token]
	who, prob := s.effective(p.userID, configured, token)
	if prob != nil {
		return ""
	}
	return strings.TrimSpace(string(who.role) + " " + strings.Join(who.constraints, " "))
}
