package astra

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// bucketJSON is a bucket as the service answers it, with a member no release has.
const bucketJSON = `{"type":"application/astra-bucket","version":"1.1","id":"` + testBucket + `","name":"backups",
"credentialID":"` + testCredential + `","state":"available","stateDetails":[],"retentionTime":0,"provider":"generic-s3",
"bucketParameters":{"s3":{"serverURL":"s3.example.com","bucketName":"backups"}},
"metadata":{"labels":[],"creationTimestamp":"2024-01-01T00:00:00Z","modificationTimestamp":"2024-01-01T00:00:00Z","createdBy":"` + testCredential + `"},
"futureMember":{"x":1}}`

// TestBucketBodiesMatchThePublishedSchemas checks every body the client sends for buckets
// against bucket 1.2 of every release (the only bucket schema, whose version enum takes 1.0-1.2).
func TestBucketBodiesMatchThePublishedSchemas(t *testing.T) {
	var read Bucket
	if err := json.Unmarshal([]byte(bucketJSON), &read); err != nil {
		t.Fatal(err)
	}
	delete(read.Extra, "futureMember") // a strict service would refuse it; the lenient one takes it back
	creates := []BucketCreate{
		{Name: "s3", CredentialID: testCredential, Provider: BucketProviderONTAPS3, Parameters: BucketParameters{S3: &S3BucketParameters{ServerURL: "https://s3.example.com", BucketName: "b"}}},
		{Name: "gcp", CredentialID: testCredential, Provider: BucketProviderGCP, Parameters: BucketParameters{GCP: &GCPBucketParameters{BucketName: "b"}}},
		{Name: "azure", CredentialID: testCredential, Provider: BucketProviderAzure, Parameters: BucketParameters{Azure: &AzureBucketParameters{StorageAccount: "acct", BucketName: "b"}}},
	}
	var bodies []struct {
		kind string
		body []byte
	}
	for _, in := range creates {
		for _, b := range capturedBucket(t, func(ctx context.Context, c *Client) error { _, err := c.CreateBucket(ctx, in); return err })[:1] {
			bodies = append(bodies, struct {
				kind string
				body []byte
			}{apispec.PostRequest, b})
		}
	}
	for _, b := range capturedBucket(t, func(ctx context.Context, c *Client) error { _, err := c.UpdateBucket(ctx, &read); return err })[:1] {
		bodies = append(bodies, struct {
			kind string
			body []byte
		}{apispec.PutRequest, b})
	}
	for _, release := range apispec.Releases {
		for _, b := range bodies {
			schema, _, ok := apispec.Schema(release, apispec.Bucket, "1.2", b.kind)
			if !ok {
				t.Fatalf("%s publishes no bucket 1.2 %s schema", release, b.kind)
			}
			if err := apispec.Validate(schema, b.body); err != nil {
				t.Errorf("%s bucket %s body is invalid: %v\n%s", release, b.kind, err, b.body)
			}
		}
	}
}

// capturedBucket runs call against a fake that answers every request with bucketJSON and
// returns the bodies sent.
func capturedBucket(t *testing.T, call func(context.Context, *Client) error) [][]byte {
	t.Helper()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		if r.Method == http.MethodPut {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		reply(w, 201, "application/json", bucketJSON)
	})
	if err := call(context.Background(), f.client(t)); err != nil {
		t.Fatalf("call: %v", err)
	}
	var bodies [][]byte
	for _, r := range f.requests() {
		if len(r.Body) > 0 {
			bodies = append(bodies, r.Body)
		}
	}
	if len(bodies) == 0 {
		t.Fatal("nothing was sent")
	}
	return bodies
}

// TestBucketDecodingIsTolerant keeps unknown members and reads the state machine.
func TestBucketDecodingIsTolerant(t *testing.T) {
	var b Bucket
	if err := json.Unmarshal([]byte(bucketJSON), &b); err != nil {
		t.Fatal(err)
	}
	if b.BucketParameters.S3 == nil || b.BucketParameters.S3.BucketName != "backups" || b.RetentionTime == nil || *b.RetentionTime != 0 {
		t.Errorf("decoded %+v", b)
	}
	if _, ok := b.Extra["futureMember"]; !ok {
		t.Error("an unknown member is kept for the PUT")
	}
	cases := []struct {
		state, want string
		done        bool
	}{
		{"pending", "", false}, {"available", "", true}, {"Available", "", true}, {"unknown", "", false},
		{"failed", "bucket b1 is failed: Bucket unavailable: no such bucket", false},
		{"removed", "bucket b1 is removed: Bucket unavailable: no such bucket", false},
	}
	for _, c := range cases {
		b := Bucket{ID: "b1", State: c.state, StateDetails: []StateDetail{{Title: "Bucket unavailable", Detail: "no such bucket"}}}
		done, err := BucketAvailable(&b)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if done != c.done || got != c.want {
			t.Errorf("%s: done %v, err %q; want %v, %q", c.state, done, got, c.done, c.want)
		}
	}
	for provider, key := range map[string]string{"ontap-s3": "s3", "storagegrid-s3": "s3", "generic-s3": "s3", "aws": "s3", "gcp": "gcp", "azure": "azure", "other": ""} {
		if got := BucketParametersKey(provider); got != key {
			t.Errorf("BucketParametersKey(%s) = %q, want %q", provider, got, key)
		}
	}
}
