package astra

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"unicode/utf8"

	"github.com/astra-control/terraform-provider-astra/internal/kubeconfig"
)

// Credential is a stored secret (application/astra-credential). Its keyStore is write-only:
// the service never returns it.
type Credential struct {
	Type                string                     `json:"type"`
	Version             string                     `json:"version"`
	ID                  string                     `json:"id,omitempty"`
	Name                string                     `json:"name,omitempty"`
	KeyType             string                     `json:"keyType,omitempty"`
	Valid               *Bool                      `json:"valid,omitempty"`
	ValidFromTimestamp  string                     `json:"validFromTimestamp,omitempty"`
	ValidUntilTimestamp string                     `json:"validUntilTimestamp,omitempty"`
	Metadata            Metadata                   `json:"metadata,omitzero"`
	Extra               map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps unknown members in Extra.
func (c *Credential) UnmarshalJSON(b []byte) error {
	type plain Credential
	return decodeKeepingExtra(b, (*plain)(c), &c.Extra)
}

// MarshalJSON sends Extra back beside the known members.
func (c Credential) MarshalJSON() ([]byte, error) {
	type plain Credential
	return encodeWithExtra(plain(c), c.Extra)
}

// CredentialCreate is the POST body of a credential, and the PUT body that rotates one.
// KeyStore values are base64 strings and secret: String and GoString never print them.
type CredentialCreate struct {
	Name     string
	KeyType  string
	KeyStore map[string]string
	Valid    *Bool
	Labels   []Label
	// Extra are members of the stored credential this client does not model (a newer
	// service's): an update sends them back as read, so rotating the key loses nothing.
	Extra map[string]json.RawMessage
}

// String describes the credential without its secrets.
func (c CredentialCreate) String() string {
	keys := make([]string, 0, len(c.KeyStore))
	for k := range c.KeyStore {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return fmt.Sprintf("CredentialCreate{Name:%q KeyType:%q KeyStore:%v (values redacted) Labels:%v}", c.Name, c.KeyType, keys, c.Labels)
}

// GoString keeps %#v from printing the key store.
func (c CredentialCreate) GoString() string { return c.String() }

type credentialBody struct {
	Type     string            `json:"type"`
	Version  string            `json:"version"`
	Name     string            `json:"name"`
	KeyType  string            `json:"keyType,omitempty"`
	KeyStore map[string]string `json:"keyStore"`
	Valid    *Bool             `json:"valid,omitempty"`
	Metadata *Metadata         `json:"metadata,omitempty"`
}

// Kubeconfig credential constants (research notes §5.5).
const (
	KeyTypeKubeconfig   = "kubeconfig"
	LabelCredType       = ReadOnlyLabelPrefix + "credType"
	LabelCloudName      = ReadOnlyLabelPrefix + "cloudName"
	maxCredentialName   = 127
	credentialsPath     = "/core/v1/credentials"
	credentialResource  = "credential"
	kubeconfigKeyBase64 = "base64"
)

// KubeconfigCredential builds the body of a kubeconfig credential: keyType "kubeconfig",
// keyStore {"base64": base64 of the kubeconfig as JSON}, and the read-only labels
// credType=kubeconfig and cloudName=private that real clients send. kubeconfig may be YAML
// or JSON; it must hold exactly one cluster and one context. An empty name defaults to the
// kubeconfig's cluster name, as the service itself would.
func KubeconfigCredential(name string, kubeconfigText []byte) (CredentialCreate, error) {
	doc, info, err := kubeconfig.Parse(kubeconfigText)
	if err != nil {
		return CredentialCreate{}, err
	}
	if name == "" {
		name = info.ClusterName
	}
	return CredentialCreate{
		Name:     name,
		KeyType:  KeyTypeKubeconfig,
		KeyStore: map[string]string{kubeconfigKeyBase64: base64.StdEncoding.EncodeToString(doc)},
		Labels: []Label{
			{Name: LabelCredType, Value: KeyTypeKubeconfig},
			{Name: LabelCloudName, Value: CloudTypePrivate},
		},
	}, nil
}

// Key types and labels of the credentials buckets and public clouds use (research notes §4.6).
const (
	KeyTypeS3               = "s3"
	KeyTypeGeneric          = "generic"
	CredTypeServiceAccount  = "service-account"
	s3KeyAccessKey          = "accessKey"
	s3KeyAccessSecret       = "accessSecret"
	serviceAccountKeyBase64 = "base64"
)

// S3Credential builds the body of an object-store key pair as NetApp's toolkit sends it:
// keyType "s3", keyStore {accessKey, accessSecret} each base64-encoded, and the read-only
// labels credType=s3 and cloudName=s3.
func S3Credential(name, accessKeyID, secretAccessKey string) CredentialCreate {
	return CredentialCreate{
		Name:    name,
		KeyType: KeyTypeS3,
		KeyStore: map[string]string{
			s3KeyAccessKey:    base64.StdEncoding.EncodeToString([]byte(accessKeyID)),
			s3KeyAccessSecret: base64.StdEncoding.EncodeToString([]byte(secretAccessKey)),
		},
		Labels: []Label{{Name: LabelCredType, Value: KeyTypeS3}, {Name: LabelCloudName, Value: KeyTypeS3}},
	}
}

// ServiceAccountCloudName is the cloudName label of a service-account credential for a
// cloud type (any casing): "GCP", "Azure" or "AWS", as the service spells clouds; "" for
// another type.
func ServiceAccountCloudName(cloudType string) string {
	switch NormalizeCloudType(cloudType) {
	case CloudTypeGCP:
		return "GCP"
	case CloudTypeAzure:
		return "Azure"
	case CloudTypeAWS:
		return "AWS"
	}
	return ""
}

// ServiceAccountCredential builds the body of a public cloud's service-account credential
// as NetApp's toolkit sends it: keyType "generic", keyStore {base64: the JSON key file
// base64-encoded}, and the read-only labels credType=service-account and cloudName=GCP,
// Azure or AWS.
func ServiceAccountCredential(name, cloudType string, keyFile []byte) CredentialCreate {
	return CredentialCreate{
		Name:     name,
		KeyType:  KeyTypeGeneric,
		KeyStore: map[string]string{serviceAccountKeyBase64: base64.StdEncoding.EncodeToString(keyFile)},
		Labels: []Label{
			{Name: LabelCredType, Value: CredTypeServiceAccount},
			{Name: LabelCloudName, Value: ServiceAccountCloudName(cloudType)},
		},
	}
}

// LabelValue is the value of the label named name, "" when there is none.
func LabelValue(labels []Label, name string) string {
	for _, l := range labels {
		if l.Name == name {
			return l.Value
		}
	}
	return ""
}

// validate refuses what the schema would: no name, a name too long, no key store, or a
// value that is not base64. Errors name keys, never values.
func (c CredentialCreate) validate() error {
	if c.Name == "" {
		return errors.New("astra: a credential needs a name")
	}
	if n := utf8.RuneCountInString(c.Name); n > maxCredentialName {
		return fmt.Errorf("astra: a credential name has at most %d characters, not %d", maxCredentialName, n)
	}
	if len(c.KeyStore) == 0 {
		return errors.New("astra: a credential needs a key store")
	}
	for key, value := range c.KeyStore {
		if _, err := base64.StdEncoding.Strict().DecodeString(value); err != nil {
			return fmt.Errorf("astra: key store entry %q is not standard base64", key)
		}
	}
	return nil
}

func (c CredentialCreate) body(labels []Label) credentialBody {
	return credentialBody{
		Type: mediaType(credentialResource), Version: CredentialVersion, Name: c.Name, KeyType: c.KeyType,
		KeyStore: c.KeyStore, Valid: c.Valid, Metadata: metadataWithLabels(labels),
	}
}

func credentialPath(id string) (string, error) {
	seg, err := segment("credential", id)
	return credentialsPath + "/" + seg, err
}

// ListCredentials lists the account's credentials (without their key stores).
func (c *Client) ListCredentials(ctx context.Context, opts ListOptions) ([]Credential, error) {
	return list[Credential](ctx, c, credentialsPath, credentialResource, opts)
}

// GetCredentialJSON is GetCredential's answer as the service sent it.
func (c *Client) GetCredentialJSON(ctx context.Context, id string) (json.RawMessage, error) {
	path, err := credentialPath(id)
	if err != nil {
		return nil, err
	}
	return getSharedJSON(ctx, c, credentialsPath, path, credentialResource, id)
}

// GetCredential reads one credential (without its key store), shared with other reads of
// credentials as clusters' are (share.go): a fleet has a credential per cluster.
func (c *Client) GetCredential(ctx context.Context, id string) (*Credential, error) {
	path, err := credentialPath(id)
	if err != nil {
		return nil, err
	}
	return getShared[Credential](ctx, c, credentialsPath, path, credentialResource, id)
}

// CreateCredential stores a credential.
func (c *Client) CreateCredential(ctx context.Context, in CredentialCreate) (*Credential, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	created, err := create(ctx, c, credentialsPath, credentialResource, in.body(in.Labels), c.GetCredential)
	if created != nil {
		c.share.wrote(created.ID)
	}
	return created, err
}

// UpdateCredential replaces a credential's key store (kubeconfig rotation). Read-only labels
// are not sent: the service maintains them (it adds clusterID and clusterName after a
// cluster is added), and metadata is sent only when user labels remain, so the server keeps
// what it has.
func (c *Client) UpdateCredential(ctx context.Context, id string, in CredentialCreate) (*Credential, error) {
	path, err := credentialPath(id)
	if err != nil {
		return nil, err
	}
	if err := in.validate(); err != nil {
		return nil, err
	}
	var body any = in.body(userLabels(in.Labels))
	if len(in.Extra) > 0 {
		raw, err := encodeWithExtra(body, in.Extra)
		if err != nil {
			return nil, err
		}
		body = json.RawMessage(raw)
	}
	defer c.share.wrote(id)()
	return update(ctx, c, path, credentialResource, body, func(ctx context.Context) (*Credential, error) {
		return c.GetCredential(ctx, id)
	})
}

// DeleteCredential removes a credential. Remove the clusters that use it first.
func (c *Client) DeleteCredential(ctx context.Context, id string) error {
	path, err := credentialPath(id)
	if err != nil {
		return err
	}
	defer c.share.wrote(id)()
	return c.remove(ctx, path, credentialResource, nil)
}
