package astrasim

import (
	"encoding/base64"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// s3BucketBody is a POST bucket body for a generic-s3 bucket, as actoolkit sends it.
func s3BucketBody(name, credentialID, bucketName string) map[string]any {
	return map[string]any{
		"type": "application/astra-bucket", "version": "1.1", "name": name, "credentialID": credentialID,
		"provider": "generic-s3", "bucketParameters": map[string]any{"s3": map[string]any{"serverURL": "s3.example.com", "bucketName": bucketName}},
	}
}

// s3Credential creates an s3 key-pair credential as NetApp's clients do and returns its ID.
func (e *env) s3Credential(name string) string {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	return e.post("/core/v1/credentials", map[string]any{
		"type": "application/astra-credential", "version": "1.1", "name": name, "keyType": "s3",
		"keyStore": map[string]any{"accessKey": b64("AKIAEXAMPLE"), "accessSecret": b64("secret")},
		"metadata": map[string]any{"labels": []any{
			map[string]any{"name": labelCredType, "value": "s3"}, map[string]any{"name": labelCloudName, "value": "s3"},
		}},
	}).expect(201).str("id")
}

func TestBucketLifecycle(t *testing.T) {
	clock := newClock()
	e := newEnv(t, Options{Now: clock.Now, Delays: Delays{Bucket: time.Minute}})
	cred := e.s3Credential("backups-key")
	r := e.post("/topology/v1/buckets", s3BucketBody("backups", cred, "backups")).expect(201)
	id := r.str("id")
	if r.str("state") != "pending" || r.str("provider") != "generic-s3" || r.str("bucketParameters.s3.bucketName") != "backups" {
		t.Errorf("a new bucket is pending: %s", r.raw)
	}
	if r.header.Get("Location") != e.url("/topology/v1/buckets/"+id) {
		t.Errorf("Location %q", r.header.Get("Location"))
	}
	clock.advance(time.Minute)
	if got := e.get("/topology/v1/buckets/" + id).str("state"); got != "available" {
		t.Errorf("after the delay the bucket is %s, want available", got)
	}
	// The same provider, server and bucket name twice: 57; another bucket name is fine.
	e.post("/topology/v1/buckets", s3BucketBody("again", cred, "backups")).problem(57)
	other := e.post("/topology/v1/buckets", s3BucketBody("other", cred, "other")).expect(201).str("id")

	// Filters and paging, like every collection.
	list := e.get("/topology/v1/buckets?filter=name%20eq%20%27other%27").expect(200)
	if len(list.items()) != 1 || itemField(list.items(), 0, "id") != other {
		t.Errorf("filtered list: %s", list.raw)
	}
	page := e.get("/topology/v1/buckets?limit=1").expect(200)
	if len(page.items()) != 1 || lookup(page.body, "metadata.continue") == nil {
		t.Errorf("a page of 1 with a continuation: %s", page.raw)
	}

	// A new credential starts discovery again; a credential that is not a bucket credential fails it.
	kube, _ := e.addPrivateCluster("not-a-bucket-key")
	e.put("/topology/v1/buckets/"+id, map[string]any{"type": "application/astra-bucket", "version": "1.2", "credentialID": kube}).expect(204)
	clock.advance(time.Minute)
	failed := e.get("/topology/v1/buckets/" + id)
	if failed.str("state") != "failed" || lookup(failed.body, "stateDetails") == nil {
		t.Errorf("a kubeconfig credential fails the bucket: %s", failed.raw)
	}
	e.put("/topology/v1/buckets/"+id, map[string]any{"type": "application/astra-bucket", "version": "1.2", "provider": "gcp"}).problem(10)
	e.put("/topology/v1/buckets/"+id, map[string]any{"type": "application/astra-bucket", "version": "1.2", "credentialID": "0b146cda-7fc1-4f32-804c-8130a38a7e1c"}).problem(9)
	e.del("/topology/v1/buckets/" + other).expect(204)
	e.get("/topology/v1/buckets/" + other).problem(2)
}

func TestBucketRefusals(t *testing.T) {
	e := newEnv(t, Options{UnreachableBuckets: []string{"gone"}})
	cred := e.s3Credential("key")
	// Parameters that do not match the provider.
	gcp := s3BucketBody("mismatch", cred, "x")
	gcp["provider"] = "gcp"
	e.post("/topology/v1/buckets", gcp).problem(9)
	e.post("/topology/v1/buckets", s3BucketBody("nokey", "0b146cda-7fc1-4f32-804c-8130a38a7e1c", "x")).problem(9)
	// An unreachable bucket name fails at once (no delay), with the reason.
	r := e.post("/topology/v1/buckets", s3BucketBody("unreachable", cred, "gone")).expect(201)
	if r.str("state") != "failed" || lookup(r.body, "stateDetails") == nil {
		t.Errorf("an unreachable bucket fails: %s", r.raw)
	}
	if s := e.post("/topology/v1/buckets", s3BucketBody("ok", cred, "ok")).expect(201).str("state"); s != "available" {
		t.Errorf("without a delay a reachable bucket is available at once, got %s", s)
	}
}

// TestDefaultBucket: an unknown defaultBucketID is problem 108 on clouds and managed
// clusters; a default bucket cannot be deleted (84 for a cloud's, 175 for a managed
// cluster's) until its user points elsewhere.
func TestDefaultBucket(t *testing.T) {
	e := newEnv(t, Options{Release: "24.02"})
	seeds := e.sim.Seeds()
	cred := e.s3Credential("key")
	bucket := e.post("/topology/v1/buckets", s3BucketBody("b", cred, "b")).expect(201).str("id")
	const unknown = "0b146cda-7fc1-4f32-804c-8130a38a7e1c"
	cloudPath := "/topology/v1/clouds/" + seeds.GCP.CloudID
	e.put(cloudPath, map[string]any{"type": "application/astra-cloud", "version": "1.1", "defaultBucketID": unknown}).problem(108)
	e.post("/topology/v1/clouds", map[string]any{"type": "application/astra-cloud", "version": "1.1", "name": "lab", "cloudType": "private", "defaultBucketID": unknown}).problem(108)
	e.put(cloudPath, map[string]any{"type": "application/astra-cloud", "version": "1.1", "defaultBucketID": bucket}).expect(204)
	if p := e.del("/topology/v1/buckets/" + bucket).problem(84); !strings.Contains(p.str("detail"), seeds.GCP.CloudID) {
		t.Errorf("problem 84 names the cloud: %s", p.raw)
	}
	// The cloud's default moves to another bucket: the first one can go.
	second := e.post("/topology/v1/buckets", s3BucketBody("second", cred, "second")).expect(201).str("id")
	e.put(cloudPath, map[string]any{"type": "application/astra-cloud", "version": "1.1", "defaultBucketID": second}).expect(204)

	_, cluster := e.addPrivateCluster("with-bucket")
	e.sim.st.Clusters[cluster].ConnectorCapabilities = []string{"neptuneV1"}
	mc := map[string]any{"type": "application/astra-managedCluster", "version": "1.7", "id": cluster, "defaultBucketID": unknown}
	e.post("/topology/v1/managedClusters", mc).problem(108)
	mc["defaultBucketID"] = bucket
	e.post("/topology/v1/managedClusters", mc).expect(201)
	if p := e.del("/topology/v1/buckets/" + bucket).problem(175); !strings.Contains(p.str("detail"), cluster) {
		t.Errorf("problem 175 names the managed cluster: %s", p.raw)
	}
	e.put("/topology/v1/managedClusters/"+cluster, map[string]any{"type": "application/astra-managedCluster", "version": "1.7", "defaultBucketID": unknown}).problem(108)
	e.del("/topology/v1/managedClusters/" + cluster).expect(204)
	e.del("/topology/v1/buckets/" + bucket).expect(204)
}

// TestBucketsOnEveryRelease checks the bucket answers against each release's own schemas
// (newEnv fails on a response violation) and that buckets survive -state-file.
func TestBucketsOnEveryRelease(t *testing.T) {
	for _, release := range apispec.Releases {
		t.Run(release, func(t *testing.T) {
			e := newEnv(t, Options{Release: release, PutReturnsBody: true})
			cred := e.s3Credential("key")
			id := e.post("/topology/v1/buckets", s3BucketBody("b", cred, "b")).expect(201).str("id")
			e.put("/topology/v1/buckets/"+id, map[string]any{"type": "application/astra-bucket", "version": "1.0", "name": "renamed"}).expect(200)
			e.get("/topology/v1/buckets?include=id,name,state").expect(200)
			path := filepath.Join(t.TempDir(), "state.json")
			if err := e.sim.SaveState(path); err != nil {
				t.Fatal(err)
			}
			again, err := New(Options{Release: release})
			if err != nil {
				t.Fatal(err)
			}
			if err := again.LoadState(path); err != nil {
				t.Fatal(err)
			}
			if b := again.st.Buckets[id]; b == nil || b.Name != "renamed" || b.State != "available" {
				t.Errorf("bucket after a reload: %+v", b)
			}
		})
	}
}
