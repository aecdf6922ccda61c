package astrasim

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"sort"
	"strings"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// apiToken is a user's API token (token_1.0; research notes §4.14 "Tokens"; AA-DOCS
// get_api_token.adoc, revoke_token.adoc). The bearer string is answered once, by the
// POST; only its digest is kept. Tokens never expire; DELETE revokes at once.
type apiToken struct {
	Seq     int    `json:"seq"`
	ID      string `json:"id"`
	Version string `json:"version"`
	Name    string `json:"name"`
	UserID  string `json:"userID"`
	Digest  string `json:"digest"` // tokenDigest of the bearer string
	Meta    meta   `json:"metadata"`
}

// tokenDigest is what the simulator keeps of a bearer string.
func tokenDigest(bearer string) string {
	sum := sha256.Sum256([]byte(bearer))
	return hex.EncodeToString(sum[:])
}

// newBearer is a new token as the POST answers it: type_base64_data holding a JWT, as the
// spec's example does (it decodes to "A JWT Token would go here."). The JWT's claims name
// the user (sub, userID) and a random jti; its signature is random bytes (nobody but the
// simulator checks it, by digest). The bearer string may be the member as answered or the
// JWT it holds: which one the service takes is unknown (research notes §4.14), both work.
func newBearer(userID string) string {
	b64url := base64.RawURLEncoding.EncodeToString
	random := func() string {
		b := make([]byte, 32)
		_, _ = rand.Read(b)
		return b64url(b)
	}
	header := b64url([]byte(`{"alg":"HS256","typ":"JWT"}`))
	payload := b64url([]byte(`{"sub":"` + userID + `","userID":"` + userID + `","iss":"astra-sim","jti":"` + random()[:22] + `"}`))
	return base64.StdEncoding.EncodeToString([]byte(header + "." + payload + "." + random()))
}

func (id *identity) sortedTokens(userID string) []*apiToken {
	var out []*apiToken
	for _, t := range id.Tokens {
		if t.UserID == userID {
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out
}

// renderToken never includes the bearer string: GET and lists don't carry it.
func (s *Sim) renderToken(t *apiToken) map[string]any {
	return map[string]any{
		"type": "application/astra-token", "version": t.Version, "id": t.ID, "name": t.Name, "userID": t.UserID,
		"metadata": renderMeta(t.Meta),
	}
}

// tokenOwner finds the user of the path and checks the caller may manage its tokens: its
// own always, another's as admin or owner (whether the service lets anyone create tokens
// for another user is unknown, research notes §4.14: the conservative reading).
func (s *Sim) tokenOwner(q *request) (*user, *apiProblem) {
	u := s.st.Identity.Users[q.params["user_id"]]
	if u == nil {
		return nil, problem(2)
	}
	if u.ID != q.user.userID && rank(q.user.role) < rank(RoleAdmin) {
		p := forbidden(RoleAdmin, q.user.role)
		p.InvalidFields = []fieldReason{{"user_id", "only an admin or the owner manages another user's tokens"}}
		return nil, p
	}
	return u, nil
}

func (s *Sim) listTokens(q *request) *reply {
	u, p := s.tokenOwner(q)
	if p != nil {
		return fail(p)
	}
	var items []map[string]any
	for _, t := range s.st.Identity.sortedTokens(u.ID) {
		items = append(items, s.renderToken(t))
	}
	return s.list(q, resToken, items)
}

func (s *Sim) lookupToken(q *request) (*apiToken, *apiProblem) {
	u, p := s.tokenOwner(q)
	if p != nil {
		if p.StatusCode() == http.StatusNotFound {
			return nil, notFound(q)
		}
		return nil, p
	}
	t := s.st.Identity.Tokens[q.params["token_id"]]
	if t == nil || t.UserID != u.ID {
		return nil, notFound(q)
	}
	return t, nil
}

func (s *Sim) getToken(q *request) *reply {
	t, p := s.lookupToken(q)
	if p != nil {
		return fail(p)
	}
	return answer(http.StatusOK, resToken, apispec.GetResponse, t.Version, s.renderToken(t))
}

// postToken creates a token: the one answer that carries its secret.
func (s *Sim) postToken(q *request) *reply {
	u, p := s.tokenOwner(q)
	if p != nil {
		return fail(p)
	}
	b, p := s.readBody(q, resToken, apispec.PostRequest)
	if p != nil {
		return fail(p)
	}
	name, _ := b.str("name")
	labels, _ := labelsOf(b)
	t, bearer := s.addToken(u.ID, name, b.version, labels, q.user.userID, q)
	body := s.renderToken(t)
	body["token"] = bearer
	return created(q, s.accountPath()+"/core/v1/users/"+u.ID+"/tokens/"+t.ID, resToken, t.Version, body)
}

// addToken stores a new token of userID and returns it with its bearer string.
func (s *Sim) addToken(userID, name, version string, labels []label, by string, q *request) (*apiToken, string) {
	if labels == nil {
		labels = []label{}
	}
	now := s.opts.Now()
	if q != nil {
		now = q.now
	}
	bearer := newBearer(userID)
	t := &apiToken{Seq: s.st.nextSeq(), ID: s.newID(), Version: version, Name: name, UserID: userID, Digest: tokenDigest(bearer),
		Meta: meta{Labels: labels, Created: now, Modified: now, CreatedBy: by}}
	s.st.Identity.Tokens[t.ID] = t
	return t, bearer
}

// putToken renames a token (name, labels): 204.
func (s *Sim) putToken(q *request) *reply {
	t, p := s.lookupToken(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderToken(t)); p != nil {
		return fail(p)
	}
	b, p := s.readBody(q, resToken, apispec.PutRequest)
	if p != nil {
		return fail(p)
	}
	for key, have := range map[string]string{"id": t.ID, "userID": t.UserID} {
		if v, ok := b.str(key); ok && v != have {
			return fail(invalidFields(10, fieldReason{key, "the " + key + " of a token can't change"}))
		}
	}
	if name, ok := b.str("name"); ok {
		t.Name = name
	}
	if labels, ok := labelsOf(b); ok {
		t.Meta.Labels = mergeLabels(t.Meta.Labels, labels)
	}
	touch(&t.Meta, q)
	return s.updated(q, resToken, t.Version, s.renderToken(t))
}

// deleteToken revokes a token: from now on it is refused 401 problem 4.
func (s *Sim) deleteToken(q *request) *reply {
	t, p := s.lookupToken(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderToken(t)); p != nil {
		return fail(p)
	}
	delete(s.st.Identity.Tokens, t.ID)
	return noContent()
}

// tokenUser is the user an API token belongs to, "" for none (unknown or revoked). The
// bearer string is the token as answered, or the JWT it holds (newBearer).
func (id *identity) tokenUser(bearer string) string {
	digests := []string{tokenDigest(bearer)}
	if strings.Count(bearer, ".") == 2 {
		digests = append(digests, tokenDigest(base64.StdEncoding.EncodeToString([]byte(bearer))))
	}
	for _, t := range id.Tokens {
		if containsString(digests, t.Digest) {
			return t.UserID
		}
	}
	return ""
}
