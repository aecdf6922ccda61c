package astrasim

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sort"
	"strings"
)

// Authorization (research notes §4.14 "Roles"; AA-DOCS additional/rbac.adoc, ACC-DOCS
// concepts/user-roles-namespaces.adoc): a viewer reads; a member also manages apps and
// clusters; an admin also manages users (not the owner); the owner everything. A denial is
// 403 problem 11 with the detail the documents pin; requiredRole and role name the role the
// operation needs and the caller's. Role constraints limit a binding to namespaces: the
// simulator applies them to apps and what hangs on them (checkScope) and to namespace
// objects; constrained users may still add and unmanage clusters (ACC-DOCS known
// limitations).

// forbidden is problem 11 naming the role needed and the caller's.
func forbidden(need, have Role) *apiProblem {
	p := problem(11)
	p.RequiredRole, p.Role = string(need), string(have)
	if have == "" {
		p.Role = "none"
	}
	return p
}

// identityRole is the role a write to an identity route needs: admin for users, groups,
// role bindings and settings; any role for a user's own tokens (tokenOwner checks whose);
// other routes keep need.
func identityRole(template string, need Role) Role {
	switch {
	case strings.HasPrefix(template, "/core/v1/users/{user_id}/tokens"):
		return RoleViewer
	case strings.HasPrefix(template, "/core/v1/users"), strings.HasPrefix(template, "/core/v1/groups"),
		strings.HasPrefix(template, "/core/v1/roleBindings"), strings.HasPrefix(template, "/core/v1/settings"):
		return RoleAdmin
	}
	return need
}

// effective resolves a token to its user and the user's role: the most privileged of its
// own binding and its LDAP groups' (AA-DOCS ldap_prepare.adoc: the most privileged role
// wins), with the constraints of the bindings of that role combined. A configured token
// names its user; an API token is looked up by digest. An unknown or revoked token, a
// deleted or disabled user, is 401 problem 4; a user without a binding may do nothing.
func (s *Sim) effective(userID string, configured bool, bearer string) (principal, *apiProblem) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ident := s.st.Identity
	if !configured {
		userID = ident.tokenUser(bearer)
	}
	u := ident.Users[userID]
	if u == nil || u.IsEnabled != "true" {
		return principal{}, problem(4)
	}
	role, cs := ident.roleOf(u)
	if role == "" {
		p := forbidden(RoleViewer, "")
		p.InvalidFields = []fieldReason{{"user", "the user " + u.ID + " has no role binding"}}
		return principal{}, p
	}
	return principal{role: role, userID: u.ID, constraints: cs}, nil
}

// roleOf is a user's effective role and constraints (nil: every namespace).
func (id *identity) roleOf(u *user) (Role, []string) {
	groups := map[string]bool{}
	if u.AuthProvider == authLDAP {
		for _, dn := range id.Directory.groupsOf(u) {
			groups[dn] = true
		}
	}
	var best []*roleBinding
	for _, b := range id.sortedBindings(func(b *roleBinding) bool {
		if b.UserID != "" {
			return b.UserID == u.ID
		}
		g := id.Groups[b.GroupID]
		return g != nil && groups[g.AuthID]
	}) {
		switch {
		case len(best) == 0 || rank(Role(b.Role)) > rank(Role(best[0].Role)):
			best = []*roleBinding{b}
		case b.Role == best[0].Role:
			best = append(best, b)
		}
	}
	if len(best) == 0 {
		return "", nil
	}
	seen := map[string]bool{}
	var cs []string
	for _, b := range best {
		for _, c := range b.Constraints {
			if c == "*" || c == "namespaces:*.*" {
				return Role(b.Role), nil
			}
			if !seen[c] {
				seen[c] = true
				cs = append(cs, c)
			}
		}
	}
	sort.Strings(cs)
	if cs == nil {
		cs = []string{} // [] grants nothing
	}
	return Role(best[0].Role), cs
}

// namespaceLabels are a namespace's Kubernetes labels: its name label, as every cluster
// answers it (namespaces.go), and those given with SetNamespaceLabels.
func (id *identity) namespaceLabels(name string) map[string]string {
	out := map[string]string{"kubernetes.io/metadata.name": name}
	for k, v := range id.NamespaceLabels[name] {
		out[k] = v
	}
	return out
}

// grants reports whether constraints cs let the caller at namespace name of cluster c:
// the namespace object only, or (contents) what is in it, such as an app.
func (s *Sim) grants(cs []string, c *cluster, name string, contents bool) bool {
	if cs == nil {
		return true
	}
	for _, con := range cs {
		switch {
		case con == "namespaces:*":
			if !contents {
				return true
			}
		case constraintID.MatchString(con):
			m := constraintID.FindStringSubmatch(con)
			if c != nil && m[1] == namespaceID(c, name) && (m[2] != "" || !contents) {
				return true
			}
		case constraintLabels.MatchString(con):
			m := constraintLabels.FindStringSubmatch(con)
			if v, ok := s.st.Identity.namespaceLabels(name)[m[1]]; ok && v == m[2] {
				return true
			}
		}
	}
	return false
}

// appNamespaces are the namespaces an app spans.
func appNamespaces(a *app) []string {
	var out []string
	for _, r := range a.NamespaceScope {
		if !containsString(out, r.Namespace) {
			out = append(out, r.Namespace)
		}
	}
	return out
}

// appGranted reports whether the caller's constraints cover every namespace of the app.
func (s *Sim) appGranted(cs []string, a *app) bool {
	c := s.st.Clusters[a.ClusterID]
	for _, ns := range appNamespaces(a) {
		if !s.grants(cs, c, ns, true) {
			return false
		}
	}
	return true
}

// outOfScope is the 403 for a namespace the caller's constraints leave out.
func outOfScope(q *request, what string) *apiProblem {
	p := forbidden(q.user.role, q.user.role)
	p.InvalidFields = []fieldReason{{"roleConstraints", what + " is outside the namespaces the user's role binding allows (" + strings.Join(q.user.constraints, ", ") + ")"}}
	return p
}

// checkScope applies role constraints to a request before its handler: an app (and its
// schedules, snapshots, backups, hooks) outside them is refused, as is managing an app in
// such a namespace and reading such a namespace object. Lists are filtered (scopeItems).
func (s *Sim) checkScope(q *request) *apiProblem {
	cs := q.user.constraints
	if cs == nil {
		return nil
	}
	if id, ok := q.params["app_id"]; ok {
		if a := s.st.Apps[id]; a != nil && !s.appGranted(cs, a) {
			return outOfScope(q, "app "+a.Name+" (namespaces "+strings.Join(appNamespaces(a), ", ")+")")
		}
		return nil
	}
	if id, ok := q.params["namespace_id"]; ok {
		if c := s.st.Clusters[q.params["managedCluster_id"]]; c != nil {
			for _, name := range c.Namespaces {
				if namespaceID(c, name) == id && !s.grants(cs, c, name, false) {
					return outOfScope(q, "namespace "+name)
				}
			}
		}
		return nil
	}
	if q.r.Method == http.MethodPost && q.route.template == "/k8s/v2/apps" {
		return s.checkNewApp(q)
	}
	return nil
}

// checkNewApp reads a POST app's cluster and namespaces (and gives the body back to the
// handler) and refuses a namespace outside the constraints.
func (s *Sim) checkNewApp(q *request) *apiProblem {
	raw, err := io.ReadAll(io.LimitReader(q.r.Body, maxBody+1))
	q.r.Body = io.NopCloser(bytes.NewReader(raw))
	if err != nil {
		return nil // the handler answers it
	}
	var in struct {
		ClusterID string `json:"clusterID"`
		Scope     []struct {
			Namespace string `json:"namespace"`
		} `json:"namespaceScopedResources"`
	}
	if json.Unmarshal(raw, &in) != nil {
		return nil
	}
	c := s.st.Clusters[in.ClusterID]
	for _, r := range in.Scope {
		if !s.grants(q.user.constraints, c, r.Namespace, true) {
			return outOfScope(q, "namespace "+r.Namespace)
		}
	}
	return nil
}

// scopeItems drops from a list what the caller's constraints leave out: apps, objects of
// an app (their appID) and namespace objects.
func (s *Sim) scopeItems(q *request, items []map[string]any) []map[string]any {
	cs := q.user.constraints
	if cs == nil {
		return items
	}
	var out []map[string]any
	for _, item := range items {
		id, _ := item["appID"].(string)
		if typ, _ := item["type"].(string); typ == "application/astra-app" {
			id, _ = item["id"].(string)
		}
		if a := s.st.Apps[id]; a != nil && !s.appGranted(cs, a) {
			continue
		}
		if typ, _ := item["type"].(string); typ == "application/astra-namespace" {
			clusterID, _ := item["clusterID"].(string)
			name, _ := item["name"].(string)
			if !s.grants(cs, s.st.Clusters[clusterID], name, false) {
				continue
			}
		}
		out = append(out, item)
	}
	return out
}
