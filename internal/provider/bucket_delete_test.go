package provider

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccBucket_inUseByPolicyGoingInSameApply: a protection policy names the bucket through
// a data source, so Terraform sees no dependency between them, and one apply destroys both
// in parallel. The policy's DELETE is held up (3s of latency), so the bucket's reaches Astra
// Control first and is refused as in use (409/83, naming the policy): it is asked again
// until the policy is gone, and the apply succeeds. A refusal that lasts (here injected:
// something the listings do not show) fails once timeouts.delete ends, with what Astra
// Control says instead of a guess.
func TestAccBucket_inUseByPolicyGoingInSameApply(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("delays the policy's delete and injects a lasting refusal")
	cred := a.kubeconfigCredential("kube-bucket-race", "bucket-race")
	key := a.s3Credential("bucket-race-key")
	base := privateManagedHCL(a.cloudID(), cred, `local.storage_classes["ontap-gold"]`, true) + appHCL(a.name("web"), "default")
	bucketHCL := func(label, extra string) string {
		return fmt.Sprintf(`
resource "astra_bucket" %[1]q {
  name            = %[2]q
  bucket_provider = "generic-s3"
  credential_id   = %[3]q
  s3              = { server_url = "s3.example.com", bucket_name = %[2]q }
%[4]s
}
`, label, a.name("race-"+label), key, extra)
	}
	policy := func(bucketExpr string) string {
		return policyHCL(`  granularity = "hourly"
  bucket_id   = ` + bucketExpr)
	}
	byName := `data "astra_bucket" "b" {
  name = "` + a.name("race-b") + `"
}
`
	var bucketID, otherID string
	var counts countDelta
	a.test(resource.TestCase{
		Steps: []resource.TestStep{
			{Config: a.config(base, bucketHCL("b", ""), policy("astra_bucket.b.id")), Check: recordID("astra_bucket.b", &bucketID)},
			{
				Config:           a.config(base, bucketHCL("b", ""), byName, policy("data.astra_bucket.b.id")),
				ConfigPlanChecks: emptyPlan(),
			},
			{
				PreConfig: func() {
					a.sim.AddFault(astrasim.Fault{Method: http.MethodDelete, Route: routeSchedule, Kind: astrasim.FaultLatency, Latency: 3 * time.Second, Times: 1})
					a.markCounts(&counts)
				},
				Config: a.config(base),
				ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction("astra_bucket.b", plancheck.ResourceActionDestroy),
					plancheck.ExpectResourceAction(policyAddr, plancheck.ResourceActionDestroy)),
				Check: resource.ComposeAggregateTestCheckFunc(
					func(*terraform.State) error {
						if _, err := a.client.GetBucket(testContext(), bucketID); !astra.IsNotFound(err) {
							return errors.Join(errors.New("the bucket must be gone (a 404)"), err)
						}
						return nil
					},
					a.simCheck("refused while the policy went, then deleted", func(sim *astrasim.Sim) error {
						if n := counts.since(sim, "DELETE "+routeBucket); n < 2 {
							return fmt.Errorf("%d DELETEs of the bucket; want the refused one and the accepted one at least", n)
						}
						return expectCounts(sim.Fired(http.MethodDelete, routeSchedule, astrasim.FaultLatency), 1)
					})),
			},
			{Config: a.config(base, bucketHCL("c", `  timeouts = { delete = "1s" }`)), Check: recordID("astra_bucket.c", &otherID)},
			{
				PreConfig: func() {
					a.sim.AddFault(astrasim.Fault{Method: http.MethodDelete, Route: routeBucket, Kind: astrasim.FaultRetryLater, Problem: astra.ProblemBucketInUse})
					a.markCounts(&counts)
				},
				Config: a.config(base),
				ExpectError: regexp.MustCompile(`(?s)Cannot delete a bucket that is in use.*` + spaced("Astra Control refuses to forget bucket "+a.name("race-c")+" (") +
					uuidPattern + spaced(`). Astra Control says why: "The bucket is in use and can't be removed." No default setting, `+
					`protection policy or backup found now uses it: destroy again once what Astra Control names is gone.`) + `.*\(problem\s+83\)`),
			},
			{
				PreConfig: func() {
					if n := counts.since(a.sim, "DELETE "+routeBucket); n < 2 {
						t.Fatalf("%d DELETEs of the bucket while it was refused; want it asked again within timeouts.delete", n)
					}
					a.sim.ClearFaults()
				},
				Config: a.config(base),
				Check: func(*terraform.State) error {
					if _, err := a.client.GetBucket(testContext(), otherID); !astra.IsNotFound(err) {
						return errors.Join(errors.New("the bucket must be gone once nothing refuses it"), err)
					}
					return nil
				},
			},
		},
	})
}
