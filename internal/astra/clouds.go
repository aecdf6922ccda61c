package astra

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
)

// Cloud is a cloud (application/astra-cloud): "private" for kubeconfig and connector
// clusters, or a public provider whose clusters are discovered.
type Cloud struct {
	Type            string                     `json:"type"`
	Version         string                     `json:"version"`
	ID              string                     `json:"id,omitempty"`
	Name            string                     `json:"name,omitempty"`
	State           string                     `json:"state,omitempty"`
	StateUnready    []string                   `json:"stateUnready,omitempty"`
	CloudType       string                     `json:"cloudType,omitempty"` // the service answers GCP/Azure/AWS as well as gcp/azure/aws
	CredentialID    string                     `json:"credentialID,omitempty"`
	DefaultBucketID string                     `json:"defaultBucketID,omitempty"`
	Metadata        Metadata                   `json:"metadata,omitzero"`
	Extra           map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps unknown members in Extra.
func (c *Cloud) UnmarshalJSON(b []byte) error {
	type plain Cloud
	return decodeKeepingExtra(b, (*plain)(c), &c.Extra)
}

// MarshalJSON sends Extra back beside the known members.
func (c Cloud) MarshalJSON() ([]byte, error) {
	type plain Cloud
	return encodeWithExtra(plain(c), c.Extra)
}

// CloudCreate is the POST body of a cloud, minus type and version.
type CloudCreate struct {
	Name, CloudType, CredentialID, DefaultBucketID string
}

type cloudPostBody struct {
	Type            string `json:"type"`
	Version         string `json:"version"`
	Name            string `json:"name"`
	CloudType       string `json:"cloudType"`
	CredentialID    string `json:"credentialID,omitempty"`
	DefaultBucketID string `json:"defaultBucketID,omitempty"`
}

// Cloud types as the published schema spells them.
const (
	CloudTypePrivate = "private"
	CloudTypeGCP     = "gcp"
	CloudTypeAzure   = "azure"
	CloudTypeAWS     = "aws"
)

// NormalizeCloudType maps the service's mixed-case spellings ("GCP", "Azure") to the
// schema's lowercase ones; other values pass through unchanged.
func NormalizeCloudType(t string) string {
	switch lower := strings.ToLower(strings.TrimSpace(t)); lower {
	case CloudTypePrivate, CloudTypeGCP, CloudTypeAzure, CloudTypeAWS:
		return lower
	}
	return t
}

const cloudsPath = "/topology/v1/clouds"

func cloudPath(id string) (string, error) {
	seg, err := segment("cloud", id)
	return cloudsPath + "/" + seg, err
}

// ListClouds lists the account's clouds.
func (c *Client) ListClouds(ctx context.Context, opts ListOptions) ([]Cloud, error) {
	return list[Cloud](ctx, c, cloudsPath, "cloud", opts)
}

// GetCloud reads one cloud, shared with other reads of clouds (share.go): every cluster of
// a fleet checks its cloud_id at plan time.
func (c *Client) GetCloud(ctx context.Context, id string) (*Cloud, error) {
	path, err := cloudPath(id)
	if err != nil {
		return nil, err
	}
	return getShared[Cloud](ctx, c, cloudsPath, path, "cloud", id)
}

// CreateCloud adds a cloud. The cloud type is sent in the schema's lowercase spelling.
func (c *Client) CreateCloud(ctx context.Context, in CloudCreate) (*Cloud, error) {
	if in.Name == "" || in.CloudType == "" {
		return nil, errors.New("astra: a cloud needs a name and a cloud type")
	}
	body := cloudPostBody{
		Type: mediaType("cloud"), Version: CloudVersion, Name: in.Name,
		CloudType: NormalizeCloudType(in.CloudType), CredentialID: in.CredentialID, DefaultBucketID: in.DefaultBucketID,
	}
	created, err := create(ctx, c, cloudsPath, "cloud", body, c.GetCloud)
	if created != nil {
		c.share.wrote(created.ID)
	}
	return created, err
}

// UpdateCloud PUTs the whole cloud back (unknown members included) with type and version set.
func (c *Client) UpdateCloud(ctx context.Context, cloud *Cloud) (*Cloud, error) {
	if cloud == nil {
		return nil, errors.New("astra: no cloud to update")
	}
	path, err := cloudPath(cloud.ID)
	if err != nil {
		return nil, err
	}
	body := *cloud
	body.Type, body.Version = mediaType("cloud"), CloudVersion
	body.CloudType = NormalizeCloudType(body.CloudType)
	defer c.share.wrote(cloud.ID)()
	return update(ctx, c, path, "cloud", body, func(ctx context.Context) (*Cloud, error) { return c.GetCloud(ctx, cloud.ID) })
}

// DeleteCloud removes a cloud (and, server side, its unmanaged clusters).
func (c *Client) DeleteCloud(ctx context.Context, id string) error {
	path, err := cloudPath(id)
	if err != nil {
		return err
	}
	defer c.share.wrote(id)()
	return c.remove(ctx, path, "cloud", nil)
}
