package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// s3HCL is a generic-s3 bucket at serverURL, for plan-time checks of its location.
func s3HCL(serverURL, bucketName string) string {
	return fmt.Sprintf(`resource "astra_bucket" "test" {
  name            = "located"
  bucket_provider = "generic-s3"
  credential_id   = %q
  s3              = { server_url = %q, bucket_name = %q }
}
`, testCredentialID, serverURL, bucketName)
}

// bucketHCL renders an astra_bucket "test" of a generic-s3 bucket; extra holds further arguments.
func bucketHCL(name, credentialID, bucketName string, extra ...string) string {
	return fmt.Sprintf(`resource "astra_bucket" "test" {
  name            = %q
  bucket_provider = "generic-s3"
  credential_id   = %q
  s3              = { server_url = "https://s3.example.com", bucket_name = %q }
  %s
}
`, name, credentialID, bucketName, strings.Join(extra, "\n  "))
}

// s3Credential creates, outside Terraform, an s3 key-pair credential as NetApp's clients
// send it (keyType s3, key store base64-encoded, credType/cloudName s3) and returns its ID.
// It stands in for astra_s3_credential in these tests.
func (a *accTarget) s3Credential(name string) string {
	return a.credential(astra.S3Credential(a.name(name), "AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"))
}

// credential creates a credential outside Terraform; it is deleted when the test ends.
func (a *accTarget) credential(body astra.CredentialCreate) string {
	a.t.Helper()
	cred, err := a.client.CreateCredential(context.Background(), body)
	if err != nil {
		a.t.Fatalf("creating credential %s: %v", body.Name, err)
	}
	a.t.Cleanup(func() {
		if err := a.client.DeleteCredential(context.Background(), cred.ID); err != nil && !astra.IsNotFound(err) {
			a.t.Errorf("deleting test credential %s: %v", cred.ID, err)
		}
	})
	return cred.ID
}

// bucket creates, outside Terraform, a generic-s3 bucket with a credential of its own and
// returns its ID; it is deleted when the test ends (after Terraform's destroy).
func (a *accTarget) bucket(name string) string {
	a.t.Helper()
	b, err := a.client.CreateBucket(context.Background(), astra.BucketCreate{
		Name: a.name(name), CredentialID: a.s3Credential(name + "-key"), Provider: astra.BucketProviderGenericS3,
		Parameters: astra.BucketParameters{S3: &astra.S3BucketParameters{ServerURL: "s3.example.com", BucketName: a.name(name)}},
	})
	if err != nil {
		a.t.Fatalf("creating bucket %s: %v", name, err)
	}
	a.t.Cleanup(func() {
		a.deleteBackupsIn(b.ID)
		if err := a.client.DeleteBucket(context.Background(), b.ID); err != nil && !astra.IsNotFound(err) {
			a.t.Errorf("deleting test bucket %s: %v", b.ID, err)
		}
	})
	return b.ID
}

// deleteBackupsIn deletes the backups left in a test's bucket: Astra Control's REST API keeps
// the backups of an app Terraform unmanaged (a policy's, an action's), and the bucket cannot
// be deleted while it holds them.
func (a *accTarget) deleteBackupsIn(bucketID string) {
	all, err := a.client.ListAllAppBackups(context.Background(), astra.ListOptions{})
	if err != nil {
		a.t.Errorf("listing the backups left in test bucket %s: %v", bucketID, err)
		return
	}
	for _, bk := range all {
		if bk.BucketID != bucketID {
			continue
		}
		if err := a.client.DeleteAppBackupByID(context.Background(), bk.ID, bk.State == "failed"); err != nil && !astra.IsNotFound(err) {
			a.t.Errorf("deleting backup %s left in test bucket %s: %v", bk.ID, bucketID, err)
		}
	}
}

// checkBucketDestroyed is a CheckDestroy: every astra_bucket of the test is gone (a 404).
func (a *accTarget) checkBucketDestroyed(s *terraform.State) error {
	return allGone(s, "astra_bucket", "bucket", func(id string) error {
		_, err := a.client.GetBucket(testContext(), id)
		return err
	})
}

// TestAccBucket_lifecycle creates a bucket (waiting until it is available), updates its
// credential and its name in place with one PUT each, imports it, and replaces it when
// its location changes.
func TestAccBucket_lifecycle(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) { o.Delays.Bucket = 100 * time.Millisecond }))
	key, rotated := a.s3Credential("bucket-key"), a.s3Credential("bucket-key-2")
	name := a.name("backups")
	var counts countDelta
	sameID, newID := statecheck.CompareValue(compare.ValuesSame()), statecheck.CompareValue(compare.ValuesDiffer())
	idPath := tfjsonpath.New("id")
	// A new credential makes the service check the bucket again: its state is unknown until then.
	credentialChange := withPaths(putMetadata, "state", "state_details", "retention_time")
	a.test(resource.TestCase{
		CheckDestroy: a.checkBucketDestroyed,
		Steps: []resource.TestStep{
			{
				Config: a.config(bucketHCL(name, key, "backups")),
				ConfigPlanChecks: prePlan(expectUnknownExactly(bucketAddr, "id", "state", "state_details", "retention_time",
					"metadata")),
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(bucketAddr, "state", "available"),
					expectString(bucketAddr, "bucket_provider", "generic-s3"),
					expectString(bucketAddr, "credential_id", key),
					statecheck.ExpectKnownValue(bucketAddr, tfjsonpath.New("s3").AtMapKey("server_url"), knownvalue.StringExact("https://s3.example.com")),
					expectNull(bucketAddr, "gcp"),
					expectBool(bucketAddr, "wait_for_available", true),
					statecheck.ExpectKnownValue(bucketAddr, tfjsonpath.New("state_details"), knownvalue.ListExact(nil)),
					sameID.AddStateValue(bucketAddr, idPath),
				},
			},
			{Config: a.config(bucketHCL(name, key, "backups")), ConfigPlanChecks: emptyPlan()},
			{
				PreConfig:         func() { a.markCounts(&counts) },
				Config:            a.config(bucketHCL(name, rotated, "backups")),
				ConfigPlanChecks:  prePlan(plancheck.ExpectResourceAction(bucketAddr, plancheck.ResourceActionUpdate), expectUnknownExactly(bucketAddr, credentialChange...)),
				ConfigStateChecks: []statecheck.StateCheck{expectString(bucketAddr, "credential_id", rotated), expectString(bucketAddr, "state", "available"), sameID.AddStateValue(bucketAddr, idPath)},
				Check: resource.ComposeAggregateTestCheckFunc(
					a.simCheck("one PUT, no POST", func(sim *astrasim.Sim) error {
						return expectCounts(counts.since(sim, "PUT "+routeBucket), 1, counts.since(sim, "POST "+routeBuckets), 0)
					}),
					resource.TestCheckResourceAttrWith(bucketAddr, "id", func(id string) error {
						b, err := a.client.GetBucket(testContext(), id)
						if err == nil && b.CredentialID != rotated {
							err = fmt.Errorf("Astra Control holds credential %q", b.CredentialID)
						}
						return err
					}),
				),
			},
			{
				// A new name alone: one PUT, and the state and its details keep their values in the plan.
				PreConfig:         func() { a.markCounts(&counts) },
				Config:            a.config(bucketHCL(name+"-renamed", rotated, "backups")),
				ConfigPlanChecks:  prePlan(plancheck.ExpectResourceAction(bucketAddr, plancheck.ResourceActionUpdate), expectUnknownExactly(bucketAddr, putMetadata...)),
				ConfigStateChecks: []statecheck.StateCheck{expectString(bucketAddr, "name", name+"-renamed"), sameID.AddStateValue(bucketAddr, idPath)},
				Check: a.simCheck("one PUT", func(sim *astrasim.Sim) error {
					return expectCount(counts.since(sim, "PUT "+routeBucket), 1)
				}),
			},
			{
				// Only wait_for_available and timeouts: an update without a request.
				PreConfig:        func() { a.markCounts(&counts) },
				Config:           a.config(bucketHCL(name+"-renamed", rotated, "backups", arg("wait_for_available", false), `timeouts = { create = "1m" }`)),
				ConfigPlanChecks: planned(bucketAddr, plancheck.ResourceActionUpdate),
				Check: a.simCheck("no PUT", func(sim *astrasim.Sim) error {
					return expectCount(counts.since(sim, "PUT "+routeBucket), 0)
				}),
			},
			{ResourceName: bucketAddr, ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"wait_for_available", "timeouts"}},
			{
				Config:            a.config(bucketHCL(name+"-renamed", rotated, "elsewhere")),
				ConfigPlanChecks:  planned(bucketAddr, plancheck.ResourceActionDestroyBeforeCreate),
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(bucketAddr, tfjsonpath.New("s3").AtMapKey("bucket_name"), knownvalue.StringExact("elsewhere")), newID.AddStateValue(bucketAddr, idPath)},
			},
		},
	})
}

// TestAccBucket_failed: a bucket opened with a credential that is not a bucket credential
// (a kubeconfig) fails. The error gives the service's stateDetails; the bucket is in state,
// tainted, and the next apply, with an s3 credential, replaces it.
func TestAccBucket_failed(t *testing.T) {
	a := newAccTarget(t)
	kube := a.kubeconfigCredential("not-a-bucket-key", "not-a-bucket")
	key := a.s3Credential("bucket-key")
	name := a.name("failing")
	var failed string
	a.test(resource.TestCase{
		CheckDestroy: a.checkBucketDestroyed,
		Steps: []resource.TestStep{
			{
				Config: a.config(bucketHCL(name, kube, "failing")),
				ExpectError: errorPhrases("Bucket did not become available", "as failed: Bucket unavailable: Credential "+kube,
					"is not a bucket credential", "recorded in state as tainted"),
			},
			{
				PreConfig: func() {
					buckets, err := a.client.ListBuckets(testContext(), astra.ListOptions{})
					for _, b := range buckets {
						if b.Name == name {
							failed = b.ID
						}
					}
					if err != nil || failed == "" {
						t.Fatalf("the failed bucket must stay in Astra Control (and in state): %v", err)
					}
				},
				Config:            a.config(bucketHCL(name, key, "failing")),
				ConfigPlanChecks:  planned(bucketAddr, plancheck.ResourceActionDestroyBeforeCreate),
				ConfigStateChecks: []statecheck.StateCheck{expectString(bucketAddr, "state", "available")},
				Check: resource.TestCheckResourceAttrWith(bucketAddr, "id", func(id string) error {
					if id == failed {
						return fmt.Errorf("the tainted bucket %s was not replaced", id)
					}
					if _, err := a.client.GetBucket(testContext(), failed); !astra.IsNotFound(err) {
						return fmt.Errorf("the replaced bucket %s is still there (%w)", failed, err)
					}
					return nil
				}),
			},
		},
	})
}

// TestAccBucket_unreachable: a bucket the object store does not answer for fails with the
// reason, and the apply says so at once, without waiting for the timeout.
func TestAccBucket_unreachable(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) {
		o.UnreachableBuckets = []string{"gone"}
		o.Delays.Bucket = 50 * time.Millisecond
	}))
	a.requireSim("a bucket the simulator is told it cannot reach")
	a.test(resource.TestCase{
		CheckDestroy: a.checkBucketDestroyed,
		Steps: []resource.TestStep{{
			Config:      a.config(bucketHCL("unreachable", a.s3Credential("key"), "gone", `timeouts = { create = "2m" }`)),
			ExpectError: errorPhrases("Bucket did not become available", "as failed", "can't be reached", "recorded in state as tainted"),
		}},
	})
}

// TestAccBucket_planTimeErrors refuses, before any request, a location that does not
// match bucket_provider, a missing one, a bad S3 endpoint and an over-long bucket name.
func TestAccBucket_planTimeErrors(t *testing.T) {
	a := newAccTarget(t)
	gcpWithS3 := `resource "astra_bucket" "test" {
  name            = "wrong"
  bucket_provider = "gcp"
  credential_id   = "` + testCredentialID + `"
  s3              = { server_url = "s3.example.com", bucket_name = "b" }
}
`
	gcpWithout := strings.Replace(gcpWithS3, `  s3              = { server_url = "s3.example.com", bucket_name = "b" }`+"\n", "", 1)
	a.test(resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config:   a.config(gcpWithS3),
				PlanOnly: true,
				ExpectError: errorPhrases("Bucket location does not match bucket_provider", `bucket_provider is "gcp", which is located with gcp;`,
					"s3 is for ontap-s3, storagegrid-s3, generic-s3 and aws.", `Replace s3 with gcp = { bucket_name = "b" }`, /* the user's bucket name, kept */
					"or set bucket_provider to one of ontap-s3, storagegrid-s3, generic-s3 and aws."),
			},
			{
				Config:      a.config(gcpWithout),
				PlanOnly:    true,
				ExpectError: errorPhrases("Missing gcp", `bucket_provider "gcp" needs gcp to say where the bucket is, for example gcp = { bucket_name = "backups" }.`),
			},
			{
				Config:   a.config(s3HCL("ftp://s3.example.com", "b")),
				PlanOnly: true,
				ExpectError: errorPhrases("Invalid S3 endpoint", `"ftp://s3.example.com" is not an S3 endpoint: give a host such as s3.example.com or`,
					"10.0.0.5:443, or a URL such as https://s3.example.com (no credentials, query or fragment; the key pair is the credential's)"),
			},
			{
				Config:      a.config(s3HCL("s3.example.com", strings.Repeat("b", 64))),
				PlanOnly:    true,
				ExpectError: errorPhrases("Attribute s3.bucket_name string length must be between 1 and 63, got: 64"),
			},
		},
	})
	if a.simulated() && (a.sim.Count("POST", routeBuckets) != 0 || a.sim.Count("POST", routeCredentials) != 0) {
		t.Errorf("nothing may be sent for a configuration refused at plan time")
	}
}
