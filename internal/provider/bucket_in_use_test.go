package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// TestAccBucket_inUse: Astra Control keeps a bucket that a protection policy backs up into
// or that holds backups (409, problem 83). Destroying it is refused with an error that names
// the policy and the backup in the way and says what to do with each; the bucket stays in
// state.
func TestAccBucket_inUse(t *testing.T) {
	a := newAccTarget(t)
	cred := a.kubeconfigCredential("kube-bucket-in-use", "bucket-in-use")
	key := a.s3Credential("bucket-in-use-key")
	base := privateManagedHCL(a.cloudID(), cred, `local.storage_classes["ontap-gold"]`, true) + appHCL(a.name("web"), "default")
	bucket := fmt.Sprintf(`
resource "astra_bucket" "b" {
  name            = %[1]q
  bucket_provider = "generic-s3"
  credential_id   = %[2]q
  s3              = { server_url = "s3.example.com", bucket_name = %[1]q }
}
`, a.name("in-use"), key)
	policy := func(bucketExpr string) string {
		return policyHCL(`  granularity = "hourly"
  bucket_id   = ` + bucketExpr)
	}
	// The policy reads the bucket by name: Terraform then sees no dependency on its resource.
	byName := `data "astra_bucket" "b" {
  name = "` + a.name("in-use") + `"
}
`
	var appID, bucketID, backupID string
	a.test(resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: a.config(base, bucket, policy("astra_bucket.b.id")),
				Check: resource.ComposeAggregateTestCheckFunc(recordID(appAddr, &appID), recordID("astra_bucket.b", &bucketID),
					func(*terraform.State) error {
						b, err := a.client.CreateAppBackup(context.Background(), appID, astra.AppBackupCreate{Name: a.name("kept"), BucketID: bucketID})
						if err == nil {
							backupID = b.ID
							_, err = astra.Wait(testContext(), a.waitSchedule(), func(ctx context.Context) (*astra.AppBackup, error) {
								return a.client.GetAppBackup(ctx, appID, backupID)
							}, astra.AppBackupCompleted)
						}
						return err
					}),
			},
			{
				Config: a.config(base, byName, policy("data.astra_bucket.b.id")),
				// (The IDs are known only after the first step: the names identify them here.)
				ExpectError: errorPhrases("Cannot delete a bucket that is in use", "Protection policies back up into it: astra_protection_policy "+
					a.name("web")+"/policy (", "Set their bucket_id to another bucket, or destroy them, first",
					"It holds backups: backup "+a.name("kept")+" (", "delete them first", "(problem 83)"),
			},
			{
				// The refused bucket is still in state: declared again, it plans nothing. The
				// policy goes, and the backup is deleted outside Terraform.
				PreConfig: func() {
					if err := a.client.DeleteAppBackup(context.Background(), appID, backupID, false); err != nil {
						t.Fatal(err)
					}
				},
				Config: a.config(base, bucket),
				ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction("astra_bucket.b", plancheck.ResourceActionNoop),
					plancheck.ExpectResourceAction(policyAddr, plancheck.ResourceActionDestroy)),
			},
			{
				// Nothing uses it any more: it goes.
				Config: a.config(base),
				Check: func(*terraform.State) error {
					if _, err := a.client.GetBucket(testContext(), bucketID); !astra.IsNotFound(err) {
						return fmt.Errorf("the bucket must be gone (a 404), got %v", err)
					}
					return nil
				},
			},
		},
	})
}
