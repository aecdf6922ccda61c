package astrasim

import (
	"encoding/base64"
)

// A local user's password is a credential (research notes §4.14 "Local password"; the
// spec's keyType passwordHash rules; AA-DOCS wf_create_user.adoc and NetApp's toolkit, which
// POST it after the user and its binding): keyType passwordHash, name = the local user's
// ID (unique, immutable), keyStore cleartext (base64 password, meeting the account's
// policy) and change (base64 "true" or "false"). Only a digest of the key store is kept
// (KeyStoreDigest); the credential never answers its keyStore; it goes with its user and
// cannot be deleted while the user exists.

const keyTypePasswordHash = "passwordHash"

// minPasswordLength is the account's password policy as the simulator applies it: the
// policy itself is undocumented; eight characters is the conservative floor.
const minPasswordLength = 8

// checkPasswordCredential applies the passwordHash rules to a POST or PUT (self is the
// credential's own ID on PUT) and answers the credType label the credential gets.
func (s *Sim) checkPasswordCredential(q *request, b *body, keyType, name, self string) *apiProblem {
	if keyType != keyTypePasswordHash {
		return nil
	}
	u := s.st.Identity.Users[name]
	if u == nil || u.AuthProvider != authLocal {
		return invalidFields(9, fieldReason{"name", "a passwordHash credential's name must be the ID of a local user"})
	}
	if u.ID != q.user.userID && rank(q.user.role) < rank(RoleAdmin) {
		p := forbidden(RoleAdmin, q.user.role)
		p.InvalidFields = []fieldReason{{"name", "only an admin or the owner sets another user's password"}}
		return p
	}
	for _, c := range s.st.Credentials {
		if c.ID != self && c.KeyType == keyTypePasswordHash && c.Name == name {
			return problem(39)
		}
	}
	store, _ := b.fields["keyStore"].(map[string]any)
	if len(store) != 2 || store["cleartext"] == nil || store["change"] == nil {
		return invalidFields(9, fieldReason{"keyStore", "a passwordHash credential's keyStore holds exactly cleartext and change"})
	}
	password, err := base64.StdEncoding.DecodeString(toString(store["cleartext"]))
	if err != nil || len(password) < minPasswordLength {
		return invalidFields(9, fieldReason{"keyStore.cleartext", "the password must be base64 and at least 8 characters (the account's password policy)"})
	}
	change, err := base64.StdEncoding.DecodeString(toString(store["change"]))
	if err != nil || (string(change) != "true" && string(change) != "false") {
		return invalidFields(9, fieldReason{"keyStore.change", `must be the base64 of "true" or "false"`})
	}
	return nil
}

// passwordInUse refuses to delete a passwordHash credential while its user exists.
func (s *Sim) passwordInUse(c *credential) *apiProblem {
	if c.KeyType == keyTypePasswordHash && s.st.Identity.Users[c.Name] != nil {
		return invalidFields(9, fieldReason{"name", "a passwordHash credential can be deleted only once user " + c.Name + " is gone"})
	}
	return nil
}

func toString(v any) string {
	s, _ := v.(string)
	return s
}

// UserPassword reports whether a local user has a password credential, and whether it
// must be changed at the next login (its change flag), for tests: the password itself is
// never kept.
func (s *Sim) UserPassword(userID string) (set bool, mustChange bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.st.Credentials {
		if c.KeyType == keyTypePasswordHash && c.Name == userID {
			return true, c.PasswordChange
		}
	}
	return false, false
}

// passwordChange reads a passwordHash key store's change flag.
func passwordChange(b *body, keyType string) bool {
	if keyType != keyTypePasswordHash {
		return false
	}
	store, _ := b.fields["keyStore"].(map[string]any)
	v, _ := base64.StdEncoding.DecodeString(toString(store["change"]))
	return string(v) == "true"
}
