package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// bucketIDs lists, as astra_buckets orders them, the buckets Astra Control holds that keep accepts.
func (a *accTarget) bucketIDs(keep func(astra.Bucket) bool) func() ([]string, error) {
	return func() ([]string, error) {
		buckets, err := a.client.ListBuckets(testContext(), astra.ListOptions{})
		return sortedIDs(buckets, func(b astra.Bucket) (string, string) { return b.Name, b.ID }, keep), err
	}
}

// TestAccBucketDataSources reads buckets by ID, by name and as filtered lists, checked
// against what Astra Control holds; an empty list is no error, a missing bucket is.
func TestAccBucketDataSources(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) { o.UnreachableBuckets = []string{dsUnreachable} }))
	s3 := a.bucket("ds-s3")
	name := a.name("ds-s3")
	var failed string
	if a.simulated() { // a failed bucket, for the state filter
		b, err := a.client.CreateBucket(testContext(), astra.BucketCreate{Name: "ds-failed", CredentialID: a.s3Credential("ds-failed-key"),
			Provider: astra.BucketProviderAWS, Parameters: astra.BucketParameters{S3: &astra.S3BucketParameters{ServerURL: "s3.amazonaws.com", BucketName: dsUnreachable}}})
		if err != nil {
			t.Fatal(err)
		}
		failed = b.ID
		t.Cleanup(func() { _ = a.client.DeleteBucket(testContext(), failed) })
	}
	cfg := a.config(fmt.Sprintf(`
data "astra_bucket" "by_id" {
  id = %q
}

data "astra_bucket" "by_name" {
  name = %q
}

data "astra_buckets" "all" {}

data "astra_buckets" "generic" {
  bucket_provider = "generic-s3"
  state           = "available"
}

data "astra_buckets" "failed" {
  state = "failed"
}

data "astra_buckets" "none" {
  name = "no-such-bucket"
}
`, s3, name))
	a.test(resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config:      a.config(`data "astra_bucket" "x" { name = "no-such-bucket" }`),
				ExpectError: errorPhrases("Bucket not found", `Astra Control has no bucket named "no-such-bucket". Buckets:`, name),
			},
			{
				Config:      a.config(`data "astra_bucket" "x" { id = "` + testBucketID + `" }`),
				ExpectError: errorPhrases("Bucket not found", "Astra Control has no bucket with ID "+testBucketID+"."),
			},
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					expectString("data.astra_bucket.by_id", "name", name),
					expectString("data.astra_bucket.by_id", "bucket_provider", "generic-s3"),
					expectString("data.astra_bucket.by_id", "state", "available"),
					statecheck.ExpectKnownValue("data.astra_bucket.by_id", tfjsonpath.New("s3").AtMapKey("bucket_name"), knownvalue.StringExact(name)),
					expectNull("data.astra_bucket.by_id", "gcp"),
					expectString("data.astra_bucket.by_name", "id", s3),
					statecheck.ExpectKnownValue("data.astra_buckets.none", tfjsonpath.New("buckets"), knownvalue.ListExact(nil)),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					expectIDs("data.astra_buckets.all", "buckets", a.bucketIDs(func(astra.Bucket) bool { return true })),
					expectIDs("data.astra_buckets.generic", "buckets", a.bucketIDs(func(b astra.Bucket) bool {
						return b.Provider == "generic-s3" && b.State == "available"
					})),
					expectIDs("data.astra_buckets.failed", "buckets", a.bucketIDs(func(b astra.Bucket) bool { return b.State == "failed" })),
					func(s *terraform.State) error {
						// Against the simulator there is exactly one failed bucket: the one it cannot reach.
						if got, err := listAttr(s, "data.astra_buckets.failed", "buckets", "id"); a.simulated() && (err != nil || len(got) != 1 || got[0] != failed) {
							return fmt.Errorf("failed buckets %v (%w), want [%s]", got, err, failed)
						}
						return nil
					},
				),
			},
		},
	})
}

// dsUnreachable is a bucket name the test's simulator cannot reach.
const dsUnreachable = "ds-unreachable"
