package astrasim

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"sort"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

func (s *Sim) listCredentials(q *request) *reply {
	var items []map[string]any
	for _, c := range s.st.sortedCredentials() {
		items = append(items, s.renderCredential(c))
	}
	return s.list(q, apispec.Credential, items)
}

func (s *Sim) lookupCredential(q *request) (*credential, *apiProblem) {
	c := s.st.Credentials[q.params["credential_id"]]
	if c == nil {
		return nil, notFound(q)
	}
	return c, nil
}

func (s *Sim) getCredential(q *request) *reply {
	c, p := s.lookupCredential(q)
	if p != nil {
		return fail(p)
	}
	return answer(http.StatusOK, apispec.Credential, apispec.GetResponse, c.Version, s.renderCredential(c))
}

// keyStoreOf checks keyStore against keyType (the spec's extended validation, problem 9)
// and returns the parsed kubeconfig for kubeconfig credentials.
func (s *Sim) keyStoreOf(b *body, keyType string) (*kubeInfo, *apiProblem) {
	store, _ := b.fields["keyStore"].(map[string]any)
	keys := make([]string, 0, len(store))
	for k := range store {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	switch keyType {
	case "kubeconfig":
		if len(keys) != 1 || keys[0] != "base64" {
			return nil, invalidFields(9, fieldReason{"keyStore", "a kubeconfig credential's keyStore must hold exactly one key, base64"})
		}
		enc, _ := store["base64"].(string)
		info, err := parseKubeconfig(enc, s.opts.Lenient)
		if err != nil {
			return nil, invalidFields(9, fieldReason{"keyStore.base64", err.Error()})
		}
		return info, nil
	case "s3":
		// What NetApp's toolkit sends (research §4.6): exactly the key pair, each base64.
		if len(keys) != 2 || keys[0] != "accessKey" || keys[1] != "accessSecret" {
			return nil, invalidFields(9, fieldReason{"keyStore", "an s3 credential's keyStore must hold exactly accessKey and accessSecret"})
		}
		return nil, base64Values(store, keys)
	case "generic":
		// "one or more base64 strings" (the spec's extended validation); a service account's
		// JSON key file is sent as {base64: ...}.
		if len(keys) == 0 {
			return nil, invalidFields(9, fieldReason{"keyStore", "a generic credential's keyStore must hold at least one key"})
		}
		return nil, base64Values(store, keys)
	}
	if len(keys) == 0 {
		return nil, invalidFields(9, fieldReason{"keyStore", "keyStore must hold at least one key"})
	}
	return nil, nil
}

// KeyStoreDigest is a digest of a key store (its keys and base64 values): what the
// simulator keeps of it, so a test can tell which key store a credential holds without the
// simulator holding a secret.
func KeyStoreDigest(store map[string]string) string {
	keys := make([]string, 0, len(store))
	for k := range store {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%s=%s\n", k, store[k])
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// keyDigestOf is KeyStoreDigest of a request's keyStore.
func keyDigestOf(b *body) string {
	raw, _ := b.fields["keyStore"].(map[string]any)
	store := make(map[string]string, len(raw))
	for k, v := range raw {
		store[k], _ = v.(string)
	}
	return KeyStoreDigest(store)
}

// CredentialKeyDigest is the KeyStoreDigest of the key store credential id holds, "" if
// there is no such credential.
func (s *Sim) CredentialKeyDigest(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.st.Credentials[id]; c != nil {
		return c.KeyDigest
	}
	return ""
}

// base64Values refuses an empty key store value (the schema's base64 pattern, problem 8,
// refuses the rest), naming the key, never the value, which is secret.
func base64Values(store map[string]any, keys []string) *apiProblem {
	for _, k := range keys {
		if v, _ := store[k].(string); v == "" {
			return invalidFields(9, fieldReason{"keyStore." + k, "the value must be a non-empty base64 string"})
		}
	}
	return nil
}

// Credential kinds (credentialKind): a credential's keyType, or for a generic credential
// the credType label its client set.
const (
	credKindKubeconfig     = "kubeconfig"
	credKindS3             = "s3"
	credKindServiceAccount = "service-account"
	credKindAzureContainer = "AzureContainer"
)

// credentialKind says what the credential id is for: "kubeconfig", "s3",
// "service-account", "AzureContainer", another keyType as stored, or "" when there is no
// such credential. The bucket model asks it (bucketCredential).
func (st *state) credentialKind(id string) string {
	c := st.Credentials[id]
	if c == nil {
		return ""
	}
	if c.KeyType == credKindS3 || c.KeyType == credKindKubeconfig {
		return c.KeyType
	}
	for _, l := range c.Meta.Labels {
		if l.Name == labelCredType && (l.Value == credKindServiceAccount || l.Value == credKindAzureContainer) {
			return l.Value
		}
	}
	return c.KeyType
}

// bucketCredential applies the rule NetApp's toolkit uses to offer credentials for a bucket
// (research §4.6): keyType s3, or credType AzureContainer or service-account.
func (st *state) bucketCredential(id string) bool {
	switch st.credentialKind(id) {
	case credKindS3, credKindServiceAccount, credKindAzureContainer:
		return true
	}
	return false
}

func (s *Sim) postCredential(q *request) *reply {
	b, p := s.readBody(q, apispec.Credential, apispec.PostRequest)
	if p != nil {
		return fail(p)
	}
	keyType, _ := b.str("keyType")
	kube, p := s.keyStoreOf(b, keyType)
	if p != nil {
		return fail(p)
	}
	if kube != nil {
		// Problem 44: the cluster this kubeconfig reaches is already in Astra with another credential.
		for _, cl := range s.st.Clusters {
			if cl.APIServiceID == kube.apiServiceID() && s.st.Credentials[cl.CredentialID] != nil {
				return fail(problem(44))
			}
		}
	}
	name, _ := b.str("name")
	if p := s.checkPasswordCredential(q, b, keyType, name, ""); p != nil { // a local user's password (passwords.go)
		return fail(p)
	}
	labels, _ := labelsOf(b)
	if labels == nil {
		labels = []label{}
	}
	if keyType == keyTypePasswordHash {
		labels = setLabel(labels, labelCredType, keyTypePasswordHash)
	}
	c := &credential{
		Seq: s.st.nextSeq(), ID: s.newID(), Version: b.version, Name: name, KeyType: keyType, Valid: "true",
		Kube: kube, KeyDigest: keyDigestOf(b), Meta: meta{Labels: labels, Created: q.now, Modified: q.now, CreatedBy: q.user.userID},
	}
	if v, ok := b.str("valid"); ok {
		c.Valid = v
	}
	c.PasswordChange = passwordChange(b, keyType)
	c.ValidFrom, _ = b.str("validFromTimestamp")
	c.ValidUntil, _ = b.str("validUntilTimestamp")
	c.Unknown = b.unknown
	s.st.Credentials[c.ID] = c
	return created(q, s.accountPath()+"/core/v1/credentials/"+c.ID, apispec.Credential, c.Version, s.renderCredential(c))
}

// putCredential replaces a credential; for a kubeconfig it is the rotation: clusters
// using it are re-collected (back to running) or, if it no longer reaches them, removed.
func (s *Sim) putCredential(q *request) *reply {
	c, p := s.lookupCredential(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderCredential(c)); p != nil {
		return fail(p)
	}
	b, p := s.readBody(q, apispec.Credential, apispec.PutRequest)
	if p != nil {
		return fail(p)
	}
	if id, ok := b.str("id"); ok && id != c.ID {
		return fail(invalidFields(10, fieldReason{"id", "the id differs from the credential's"}))
	}
	keyType := c.KeyType
	if kt, ok := b.str("keyType"); ok {
		if c.KeyType != "" && kt != c.KeyType {
			return fail(invalidFields(10, fieldReason{"keyType", "the keyType of a credential can't change"}))
		}
		keyType = kt
	}
	kube, p := s.keyStoreOf(b, keyType)
	if p != nil {
		return fail(p)
	}
	if keyType == keyTypePasswordHash { // a password change (passwords.go): the name stays
		if name, _ := b.str("name"); name != c.Name {
			return fail(invalidFields(10, fieldReason{"name", "a passwordHash credential's name can't change"}))
		}
		if p := s.checkPasswordCredential(q, b, keyType, c.Name, c.ID); p != nil {
			return fail(p)
		}
		c.PasswordChange = passwordChange(b, keyType)
	}
	c.KeyType, c.Kube, c.KeyDigest = keyType, kube, keyDigestOf(b)
	c.Name, _ = b.str("name")
	if v, ok := b.str("valid"); ok {
		c.Valid = v
	}
	if v, ok := b.str("validFromTimestamp"); ok {
		c.ValidFrom = v
	}
	if v, ok := b.str("validUntilTimestamp"); ok {
		c.ValidUntil = v
	}
	if labels, ok := labelsOf(b); ok {
		c.Meta.Labels = mergeLabels(c.Meta.Labels, labels)
	}
	c.Version = b.version
	if s.opts.Lenient {
		c.Unknown = b.unknown
	}
	touch(&c.Meta, q)
	for _, cl := range s.st.sortedClusters(func(cl *cluster) bool { return cl.CredentialID == c.ID }) {
		s.recheckCredential(cl, q.now)
	}
	return s.updated(q, apispec.Credential, c.Version, s.renderCredential(c))
}

// deleteCredential succeeds even while a cluster uses the credential, as the service
// documents; such clusters can no longer be reached and go to state removed.
func (s *Sim) deleteCredential(q *request) *reply {
	c, p := s.lookupCredential(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderCredential(c)); p != nil {
		return fail(p)
	}
	if p := s.passwordInUse(c); p != nil {
		return fail(p)
	}
	delete(s.st.Credentials, c.ID)
	for _, cl := range s.st.sortedClusters(func(cl *cluster) bool { return cl.CredentialID == c.ID }) {
		s.recheckCredential(cl, q.now)
	}
	return noContent()
}

// credentialProblem says why a cluster can't be reached with its credential, or "".
func (s *Sim) credentialProblem(cl *cluster) string {
	if cl.CredentialID == "" {
		return ""
	}
	cred := s.st.Credentials[cl.CredentialID]
	switch {
	case cred == nil:
		return "The credential of the cluster was deleted"
	case cred.Valid == "false":
		return "The credential of the cluster is marked not valid"
	case cred.Kube == nil:
		return "The credential of the cluster holds no kubeconfig"
	case cred.Kube.unreachable():
		return "The cluster's API server can't be reached with the credential's kubeconfig"
	case cl.APIServiceID != "" && cred.Kube.apiServiceID() != cl.APIServiceID:
		return "The credential's kubeconfig belongs to a different cluster"
	}
	return ""
}
