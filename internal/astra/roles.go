package astra

import (
	"net/http"
	"strings"
)

// RoleNeeded is the least role that may send method to path (a path under the account, as
// APIError.Path holds it), as NetApp documents the roles (research notes §4.14): a viewer
// reads; a member also manages apps, clusters and their data protection; an admin also
// manages users, groups, role bindings, LDAP and clouds. Namespace constraints may narrow
// any role further, which a 403 cannot tell apart: the message says so.
func RoleNeeded(method, path string) string {
	if method == http.MethodGet || method == http.MethodHead {
		return RoleViewer
	}
	p := path
	if i := strings.Index(p, "/core/"); i >= 0 {
		p = p[i:]
	} else if i := strings.Index(p, "/topology/"); i >= 0 {
		p = p[i:]
	}
	for _, admin := range []string{"/core/v1/users", "/core/v1/groups", "/core/v1/roleBindings", "/core/v1/settings"} {
		if strings.HasPrefix(p, admin) {
			if strings.Contains(p, "/tokens") {
				return RoleViewer // every user manages its own tokens; another user's need admin
			}
			return RoleAdmin
		}
	}
	if strings.HasPrefix(p, "/topology/v1/clouds") && !strings.Contains(p, "/clusters") {
		return RoleAdmin
	}
	return RoleMember
}

// ProblemForbidden is problem 11: the caller's role may not do this.
const ProblemForbidden = 11
