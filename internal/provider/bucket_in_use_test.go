package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccBucket_inUse: Astra Control keeps a bucket that a protection policy backs up into
// or that holds backups (409, problem 83). Destroying it while they stay (the policy names it
// through a data source and is not changed; the backup was taken by hand) is refused at plan,
// with an error that names the policy and the backup in the way and says what to do with
// each (issue 44: not a warning at plan and then the same as an error at apply); the bucket
// stays in state, and no DELETE is sent.
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
	var counts countDelta
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
				Config:    a.config(base, byName, policy("data.astra_bucket.b.id")),
				PreConfig: func() { a.markCounts(&counts) },
				// (The IDs are known only after the first step: the names identify them here.)
				ExpectError: errorPhrases("Cannot destroy a bucket that stays in use", "This plan destroys bucket "+a.name("in-use")+" (",
					"), and neither destroys nor moves to another bucket what uses it.", "nothing has been changed.",
					"Protection policies back up into it: astra_protection_policy "+a.name("web")+"/policy (",
					"Set their bucket_id to another bucket, or destroy them, first",
					"It holds backups: backup "+a.name("kept")+" (", "delete them first",
					"Destroy them in this apply, or move them to another bucket first"),
			},
			{
				// The refused bucket is still in state: declared again, it plans nothing. The
				// policy goes, and the backup is deleted outside Terraform.
				PreConfig: func() {
					if a.simulated() {
						_, sent := counts.all(a.sim)
						for key, n := range sent {
							if strings.HasPrefix(key, "DELETE ") {
								t.Errorf("the destroy refused at plan sent %d %s", n, key)
							}
						}
					}
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

// TestAccBucket_inUseRefusedPlanTime: a bucket that a protection policy outside its
// references backs up into (the policy names it by ID, and stays) is refused at plan: the
// error names the policy and the fix, it is printed once across the plan and the apply (issue
// 44: a warning at plan, then the same as an error at apply), and nothing is sent but reads.
// Moving the policy to another bucket in the same apply (the bucket has create_before_destroy)
// then plans quietly and destroys the bucket. A policy whose bucket is gone (as if the service had lost it) says so on the next
// refresh, where the plan alone would show nothing (issue 33).
func TestAccBucket_inUseRefusedPlanTime(t *testing.T) {
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
	bucket := func(label string) string {
		return fmt.Sprintf(`
resource "astra_bucket" %[1]q {
  name            = "in-use-%[1]s"
  bucket_provider = "generic-s3"
  credential_id   = astra_s3_credential.k.id
  s3              = { server_url = "s3.example.com", bucket_name = "in-use-%[1]s" }
  # Terraform then updates what uses the bucket before it destroys the bucket.
  lifecycle {
    create_before_destroy = true
  }
}
`, label)
	}
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
	h.write(base + bucket("b") + policy("astra_bucket.b.id"))
	if r := h.apply(); r.err != nil {
		t.Fatalf("apply: %v\n%s", r.err, r.out)
	}
	bucketID, appID, policyID := h.stateIDOf("astra_bucket", "b"), h.stateIDOf("astra_app", "c"), h.stateIDOf("astra_protection_policy", "c")

	h.write(base + policy(fmt.Sprintf("%q", bucketID)))
	h.sim().ResetCounts()
	r := h.run(testContext(), "apply", "-auto-approve", "-input=false", "-no-color")
	if r.err == nil {
		t.Fatalf("the apply destroying a bucket in use went through:\n%s", r.out)
	}
	const refused = "Error: Cannot destroy a bucket that stays in use"
	expectOutput(t, "the apply destroying the bucket", r, refused,
		"This plan destroys bucket in-use-b ("+bucketID+"), and neither destroys nor moves to another bucket what uses it. "+
			"Astra Control refuses to forget a bucket in use, and the apply would first delete what it orders before the "+
			"bucket, then fail: nothing has been changed. Protection policies back up into it: astra_protection_policy "+
			"in-use/hourly ("+appID+"/"+policyID+"). Set their bucket_id to another bucket, or destroy them, first: one apply "+
			"that moves them and removes the bucket needs lifecycle { create_before_destroy = true } on the bucket, applied "+
			"before (Terraform otherwise destroys a removed bucket before it updates what used it).",
		"Destroy them in this apply, or move them to another bucket first (in this same apply only if the bucket already "+
			"has lifecycle { create_before_destroy = true }: otherwise Terraform destroys a removed bucket before it updates "+
			"what used it), then plan again; or keep the bucket in Astra Control and let Terraform forget it: removed { "+
			"from = astra_bucket.<name> lifecycle { destroy = false } }.")
	expectSaidOnce(t, r, refused, map[string]int{"The bucket to destroy is in use": 0, "Cannot delete a bucket that is in use": 0})
	for key, n := range h.sim().Counts() {
		if !strings.HasPrefix(key, "GET ") && n > 0 {
			t.Errorf("the destroy refused at plan sent %d %s", n, key)
		}
	}

	// The policy moves to another bucket in the same apply: nothing to say, and the bucket goes.
	h.write(base + bucket("b2") + policy("astra_bucket.b2.id"))
	r = h.apply()
	if r.err != nil {
		t.Fatalf("the apply moving the policy and destroying the bucket: %v\n%s", r.err, r.out)
	}
	expectSaidOnce(t, r, "", map[string]int{"Warning:": 0, "stays in use": 0, "is in use": 0})
	if _, err := h.apiClient().GetBucket(testContext(), bucketID); !astra.IsNotFound(err) {
		t.Errorf("bucket in-use-b must be gone (a 404): %v", err)
	}

	// The service loses the bucket: the policy still names it, and its refresh says so.
	otherID := h.stateIDOf("astra_bucket", "b2")
	forgetBucket(t, h.sim(), otherID)
	r = h.plan()
	if r.err != nil {
		t.Fatalf("plan: %v\n%s", r.err, r.out)
	}
	expectOutput(t, "the refresh of a policy whose bucket is gone", r, "Warning: The policy's bucket is gone",
		"Protection policy hourly backs up into bucket "+otherID+", which Astra Control no longer has: its backups fail "+
			"until bucket_id names a bucket that exists.")
}

// expectSaidOnce checks that the CLI's output (a plan and its apply) holds text exactly once
// (unless text is empty) and each of others as often as given.
func expectSaidOnce(t *testing.T, r cliResult, text string, others map[string]int) {
	t.Helper()
	want := map[string]int{}
	for k, n := range others {
		want[k] = n
	}
	if text != "" {
		want[text] = 1
	}
	for k, n := range want {
		if got := strings.Count(r.out, k); got != n {
			t.Errorf("the output holds %q %d times, want %d:\n%s", k, got, n, r.out)
		}
	}
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
