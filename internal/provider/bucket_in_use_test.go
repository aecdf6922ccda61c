package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
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
  # A refusal as in use is asked again for up to 30s, within timeouts.delete: the policy
  # and the backup stay, so a few seconds are enough to see it last.
  timeouts        = { delete = "5s" }
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
					_, err := a.client.GetBucket(testContext(), bucketID)
					if err == nil {
						return errors.New("the bucket must be gone (a 404), yet it is still there")
					}
					if !astra.IsNotFound(err) {
						return fmt.Errorf("the bucket must be gone (a 404): %w", err)
					}
					return nil
				},
			},
		},
	})
}

// TestAccBucket_inUseWarnsAtPlan: a bucket that a protection policy outside its references
// backs up into (the policy names it by ID) plans its destroy with a warning naming the
// policy, before the apply that Astra Control would refuse; and a policy whose bucket is
// gone (as if the service had lost it) says so on the next refresh, where the plan alone
// would show nothing (issue 33).
func TestAccBucket_inUseWarnsAtPlan(t *testing.T) {
	h := newCLIHarness(t, astrasim.Options{}, "")
	base := managedStackHCL(h, "in-use") + `
resource "astra_app" "c" {
  name                       = "in-use"
  cluster_id                 = astra_managed_cluster.c.id
  namespace_scoped_resources = [{ namespace = "default" }]
}

resource "astra_s3_credential" "k" {
  name              = "in-use-key"
  access_key_id     = "AKIAEXAMPLE"
  secret_access_key = "secret-example"
}
`
	bucket := `
resource "astra_bucket" "b" {
  name            = "in-use"
  bucket_provider = "generic-s3"
  credential_id   = astra_s3_credential.k.id
  s3              = { server_url = "s3.example.com", bucket_name = "in-use" }
}
`
	policy := func(bucketID string) string {
		return `
resource "astra_protection_policy" "c" {
  app_id             = astra_app.c.id
  name               = "hourly"
  granularity        = "hourly"
  snapshot_retention = 3
  backup_retention   = 1
  bucket_id          = ` + bucketID + `
}
`
	}
	h.write(base + bucket + policy("astra_bucket.b.id"))
	if r := h.apply(); r.err != nil {
		t.Fatalf("apply: %v\n%s", r.err, r.out)
	}
	bucketID, appID, policyID := h.stateIDOf("astra_bucket", "b"), h.stateIDOf("astra_app", "c"), h.stateIDOf("astra_protection_policy", "c")

	h.write(base + policy(fmt.Sprintf("%q", bucketID)))
	r := h.plan()
	if r.err != nil {
		t.Fatalf("plan: %v\n%s", r.err, r.out)
	}
	expectOutput(t, "the plan destroying the bucket", r, "Warning: The bucket to destroy is in use",
		"Bucket in-use ("+bucketID+") is in use, and Astra Control refuses to forget a bucket in use: unless this apply "+
			"also destroys or moves what uses it, the destroy of the bucket fails.",
		"Protection policies back up into it: astra_protection_policy in-use/hourly ("+appID+"/"+policyID+"). "+
			"Set their bucket_id to another bucket, or destroy them, first.")

	// The service loses the bucket: the policy still names it, and its refresh says so.
	forgetBucket(t, h.sim(), bucketID)
	r = h.plan()
	if r.err != nil {
		t.Fatalf("plan: %v\n%s", r.err, r.out)
	}
	expectOutput(t, "the refresh of a policy whose bucket is gone", r, "Warning: The policy's bucket is gone",
		"Protection policy hourly backs up into bucket "+bucketID+", which Astra Control no longer has: its backups fail "+
			"until bucket_id names a bucket that exists.")
}

// forgetBucket removes a bucket from the simulator's state, as a service that lost it would
// answer: something Astra Control's API itself refuses while a policy uses the bucket.
func forgetBucket(t *testing.T, sim *astrasim.Sim, id string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "sim.json")
	if err := sim.SaveState(file); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var saved map[string]any
	if err := json.Unmarshal(data, &saved); err != nil {
		t.Fatal(err)
	}
	buckets, _ := saved["state"].(map[string]any)["buckets"].(map[string]any)
	if _, ok := buckets[id]; !ok {
		t.Fatalf("the simulator's state holds no bucket %s", id)
	}
	delete(buckets, id)
	if data, err = json.Marshal(saved); err == nil {
		err = os.WriteFile(file, data, 0o600)
	}
	if err == nil {
		err = sim.LoadState(file)
	}
	if err != nil {
		t.Fatal(err)
	}
}
