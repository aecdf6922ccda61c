package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// defaultBucketHCL is a cluster managed with bucket "a" or "b" as its default; each bucket
// is declared when its key is in buckets, and the default may come from a data source
// (lookup: the bucket read by name, no reference to its resource).
func (a *accTarget) defaultBucketHCL(cred, key string, buckets []string, defaultExpr string) string {
	hcl := clusterHCL(a.cloudID(), arg("credential_id", cred), `connector_capabilities = ["neptuneV1"]`)
	for _, b := range buckets {
		hcl += fmt.Sprintf(`
resource "astra_bucket" %[1]q {
  name            = %[2]q
  bucket_provider = "generic-s3"
  credential_id   = %[3]q
  s3              = { server_url = "s3.example.com", bucket_name = %[2]q }
  # Terraform then updates the users of a bucket before destroying it.
  lifecycle {
    create_before_destroy = true
  }
}
`, b, a.name("default-"+b), key)
	}
	return a.config(hcl + fmt.Sprintf(`
resource "astra_managed_cluster" "test" {
  cluster_id        = astra_cluster.test.id
  default_bucket_id = %s
}
`, defaultExpr))
}

// TestAccBucket_defaultBucket: a managed cluster backs up into bucket a. Replacing a by b
// in one configuration works in one apply when the buckets have create_before_destroy:
// Terraform creates b, points the managed cluster at it, then destroys a (by default it
// would destroy a first, and Astra Control refuses to forget a default bucket). Destroying b while the managed cluster still uses it (read by name, so
// Terraform sees no dependency) is refused with an error that names the managed cluster and
// what to change, at plan (issue 44: before anything is deleted); the bucket stays in state.
func TestAccBucket_defaultBucket(t *testing.T) {
	a := newAccTarget(t, withAPIVersion("1.7"))
	a.requireAPIVersion("1.7")
	cred := a.kubeconfigCredential("kube-default-bucket", "default-bucket")
	key := a.s3Credential("default-bucket-key")
	var first, managed string
	byName := `data "astra_bucket" "b" {
  name = "` + a.name("default-b") + `"
}
`
	a.test(resource.TestCase{
		CheckDestroy: a.checkBucketDestroyed,
		Steps: []resource.TestStep{
			{
				Config: a.defaultBucketHCL(cred, key, []string{"a"}, "astra_bucket.a.id"),
				Check: resource.ComposeAggregateTestCheckFunc(recordID("astra_bucket.a", &first), recordID(managedAddr, &managed),
					resource.TestCheckResourceAttrPair(managedAddr, "default_bucket_id", "astra_bucket.a", "id")),
			},
			{
				// Clear the default (point it at b), then delete a: one apply, in Terraform's order.
				Config: a.defaultBucketHCL(cred, key, []string{"b"}, "astra_bucket.b.id"),
				ConfigPlanChecks: prePlan(
					plancheck.ExpectResourceAction("astra_bucket.a", plancheck.ResourceActionDestroy),
					plancheck.ExpectResourceAction("astra_bucket.b", plancheck.ResourceActionCreate),
					plancheck.ExpectResourceAction(managedAddr, plancheck.ResourceActionUpdate),
				),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrPair(managedAddr, "default_bucket_id", "astra_bucket.b", "id"),
					func(*terraform.State) error {
						if _, err := a.client.GetBucket(testContext(), first); !astra.IsNotFound(err) {
							return fmt.Errorf("bucket a (%s) must be gone (a 404), got %w", first, err)
						}
						return nil
					},
				),
			},
			{
				Config: a.defaultBucketHCL(cred, key, nil, "data.astra_bucket.b.id") + byName,
				ExpectError: errorPhrases("Cannot destroy a bucket that stays in use", "This plan destroys bucket "+a.name("default-b"),
					"It is the default bucket of astra_managed_cluster", "set their default_bucket_id to another bucket first",
					"lifecycle { create_before_destroy = true }"),
			},
			{
				// The refused bucket is still in state: declaring it again plans nothing for it.
				Config:           a.defaultBucketHCL(cred, key, []string{"b"}, "astra_bucket.b.id"),
				ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction("astra_bucket.b", plancheck.ResourceActionNoop)),
			},
		},
	})
}
