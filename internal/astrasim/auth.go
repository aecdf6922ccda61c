package astrasim

import (
	"net/http"
	"strings"
)

// authenticate reads the bearer token: none is 401 problem 3, an unknown one problem 4.
func (s *Sim) authenticate(r *http.Request) (principal, *apiProblem) {
	h := r.Header.Get("Authorization")
	scheme, token, found := strings.Cut(h, " ")
	if h == "" || !found || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return principal{}, problem(3)
	}
	user, ok := s.users[strings.TrimSpace(token)]
	// A configured token, or an API token a user created (tokens.go); either way the role
	// is the user's role bindings' (authorization.go). A revoked token is unknown: 4.
	return s.effective(user.userID, ok, strings.TrimSpace(token))
}

// checkAccount refuses an account other than the simulator's. The real gateway answers
// with a body naming its x-pcloud-accountid header (actoolkit keys on that text).
func (s *Sim) checkAccount(account string) *apiProblem {
	if !isIdentifier(account) {
		return problem(33)
	}
	if account != s.opts.AccountID {
		p := problem(14)
		p.Detail = wrongAccountDetail
		return p
	}
	return nil
}

// authorize applies the roles: viewers read; members also write clusters, managed
// clusters and credentials; clouds need admin or owner.
func authorize(user principal, method, template string) *apiProblem {
	if method == http.MethodGet || method == http.MethodHead {
		return nil
	}
	need := RoleMember
	if strings.HasPrefix(template, "/topology/v1/clouds") && !strings.Contains(template, "/clusters") {
		need = RoleAdmin
	}
	need = identityRole(template, need) // users, groups, bindings, tokens, settings (authorization.go)
	if rank(user.role) < rank(need) {
		return forbidden(need, user.role)
	}
	return nil
}

// wrongAccountDetail is problem 14 as the real gateway words it for another account
// (the documents' detail, "The user isn't enabled.", is for a disabled user).
const wrongAccountDetail = "The account in the request URI (x-pcloud-accountid) isn't accessible with this bearer token."
