package astra

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
)

// Bucket is an object-store bucket Astra Control writes backups to (application/astra-bucket,
// /topology/v1/buckets). Astra only records it: deleting the record leaves the bucket and
// its data alone.
type Bucket struct {
	Type             string                     `json:"type"`
	Version          string                     `json:"version"`
	ID               string                     `json:"id,omitempty"`
	Name             string                     `json:"name,omitempty"`
	CredentialID     string                     `json:"credentialID,omitempty"`
	State            string                     `json:"state,omitempty"`
	StateDetails     []StateDetail              `json:"stateDetails,omitempty"`
	RetentionTime    *float64                   `json:"retentionTime,omitempty"` // seconds; -1 unsupported, 0 none known
	Provider         string                     `json:"provider,omitempty"`
	BucketParameters BucketParameters           `json:"bucketParameters,omitzero"`
	Metadata         Metadata                   `json:"metadata,omitzero"`
	Extra            map[string]json.RawMessage `json:"-"`
}

// BucketParameters say where the bucket is; exactly one member is set, the provider's.
type BucketParameters struct {
	S3    *S3BucketParameters    `json:"s3,omitempty"`
	GCP   *GCPBucketParameters   `json:"gcp,omitempty"`
	Azure *AzureBucketParameters `json:"azure,omitempty"`
}

// S3BucketParameters locate a bucket of an S3 provider (ontap-s3, storagegrid-s3, generic-s3, aws).
type S3BucketParameters struct {
	ServerURL  string `json:"serverURL"`
	BucketName string `json:"bucketName"`
}

// GCPBucketParameters locate a Google Cloud Storage bucket.
type GCPBucketParameters struct {
	BucketName string `json:"bucketName"`
}

// AzureBucketParameters locate an Azure blob container.
type AzureBucketParameters struct {
	StorageAccount string `json:"storageAccount"`
	BucketName     string `json:"bucketName"`
}

// UnmarshalJSON keeps unknown members in Extra.
func (b *Bucket) UnmarshalJSON(data []byte) error {
	type plain Bucket
	return decodeKeepingExtra(data, (*plain)(b), &b.Extra)
}

// MarshalJSON sends Extra back beside the known members.
func (b Bucket) MarshalJSON() ([]byte, error) {
	type plain Bucket
	return encodeWithExtra(plain(b), b.Extra)
}

// Bucket providers as the published schema spells them.
const (
	BucketProviderONTAPS3       = "ontap-s3"
	BucketProviderStorageGRIDS3 = "storagegrid-s3"
	BucketProviderGenericS3     = "generic-s3"
	BucketProviderGCP           = "gcp"
	BucketProviderAzure         = "azure"
	BucketProviderAWS           = "aws"
)

// BucketParametersKey is the bucketParameters member a provider takes: "s3", "gcp" or
// "azure" ("" for a provider the client does not know).
func BucketParametersKey(provider string) string {
	switch provider {
	case BucketProviderONTAPS3, BucketProviderStorageGRIDS3, BucketProviderGenericS3, BucketProviderAWS:
		return "s3"
	case BucketProviderGCP, BucketProviderAzure:
		return provider
	}
	return ""
}

// BucketCreate is the POST body of a bucket, minus type and version.
type BucketCreate struct {
	Name, CredentialID, Provider string
	Parameters                   BucketParameters
}

type bucketPostBody struct {
	Type             string           `json:"type"`
	Version          string           `json:"version"`
	Name             string           `json:"name,omitempty"`
	CredentialID     string           `json:"credentialID"`
	Provider         string           `json:"provider"`
	BucketParameters BucketParameters `json:"bucketParameters"`
}

const (
	bucketsPath    = "/topology/v1/buckets"
	bucketResource = "bucket"
)

func bucketPath(id string) (string, error) {
	seg, err := segment("bucket", id)
	return bucketsPath + "/" + seg, err
}

// ListBuckets lists the account's buckets.
func (c *Client) ListBuckets(ctx context.Context, opts ListOptions) ([]Bucket, error) {
	return list[Bucket](ctx, c, bucketsPath, bucketResource, opts)
}

// GetBucket reads one bucket, through the shared reads (share.go).
func (c *Client) GetBucket(ctx context.Context, id string) (*Bucket, error) {
	path, err := bucketPath(id)
	if err != nil {
		return nil, err
	}
	return getShared[Bucket](ctx, c, bucketsPath, path, bucketResource, id)
}

// CreateBucket records a bucket, as actoolkit's `manage bucket` does.
func (c *Client) CreateBucket(ctx context.Context, in BucketCreate) (*Bucket, error) {
	if in.CredentialID == "" || in.Provider == "" {
		return nil, errors.New("astra: a bucket needs a credential ID and a provider")
	}
	body := bucketPostBody{
		Type: mediaType(bucketResource), Version: BucketVersion, Name: in.Name, CredentialID: in.CredentialID,
		Provider: in.Provider, BucketParameters: in.Parameters,
	}
	created, err := create(ctx, c, bucketsPath, bucketResource, body, c.GetBucket)
	if created != nil {
		c.share.wrote(created.ID)
	}
	return created, err
}

// FindBucket finds the bucket named name (a lost POST's answer).
func (c *Client) FindBucket(ctx context.Context, name string) (*Bucket, error) {
	if name == "" {
		return nil, errors.New("astra: a bucket search needs a name")
	}
	listFn := func(opts ListOptions) ([]Bucket, error) { return c.ListBuckets(ctx, opts) }
	return findOne(listFn, nameFilter(name), func(b *Bucket) bool { return b.Name == name }, "bucket")
}

// UpdateBucket PUTs the bucket back as read, with type and version set. retentionTime is
// left out: the service computes it and the PUT schema has no such member. A 204 (the
// documented answer) is followed by a read.
func (c *Client) UpdateBucket(ctx context.Context, bucket *Bucket) (*Bucket, error) {
	if bucket == nil {
		return nil, errors.New("astra: no bucket to update")
	}
	path, err := bucketPath(bucket.ID)
	if err != nil {
		return nil, err
	}
	body := *bucket
	body.Type, body.Version, body.RetentionTime = mediaType(bucketResource), BucketVersion, nil
	defer c.share.wrote(bucket.ID)()
	return update(ctx, c, path, bucketResource, body, func(ctx context.Context) (*Bucket, error) { return c.GetBucket(ctx, bucket.ID) })
}

// DeleteBucket makes Astra forget a bucket; the object store is untouched.
func (c *Client) DeleteBucket(ctx context.Context, id string) error {
	path, err := bucketPath(id)
	if err != nil {
		return err
	}
	defer c.share.wrote(id)()
	return c.remove(ctx, path, bucketResource, nil)
}

// BucketAvailable is done when state is available; failed and removed are terminal, with
// the service's stateDetails as reasons.
func BucketAvailable(b *Bucket) (bool, error) {
	switch {
	case is(b.State, "available"):
		return true, nil
	case is(b.State, "failed"), is(b.State, "removed"):
		reasons := make([]string, 0, len(b.StateDetails))
		for _, d := range b.StateDetails {
			reasons = append(reasons, detailText(d))
		}
		return false, &TerminalStateError{What: "bucket " + b.ID, State: strings.ToLower(b.State), Reasons: reasons}
	}
	return false, nil
}

// Describe names the bucket and its state for wait errors.
func (b *Bucket) Describe() (what, state string) {
	if b == nil {
		return "bucket", ""
	}
	return "bucket " + b.ID, states("state", b.State)
}
