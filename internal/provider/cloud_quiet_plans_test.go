package provider

import (
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccCloud_quietPlans: a new bucket leaves only the PUT's metadata unknown; a new
// credential also the state the service discovers again; timeouts alone nothing, and no PUT.
func TestAccCloud_quietPlans(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) { o.Delays.Discover = 50 * time.Millisecond }))
	a.requireSim("the seeded service-account credentials")
	seeds := a.sim.Seeds()
	gcpCred, azureCred := arg("credential_id", seeds.GCP.CredentialID), arg("credential_id", seeds.Azure.CredentialID)
	bucket := arg("default_bucket_id", a.bucket("quiet-default"))
	var counts countDelta
	a.test(resource.TestCase{
		CheckDestroy: a.checkCloudDestroyed,
		Steps: []resource.TestStep{
			{Config: a.config(cloudHCL("gcp-quiet", "gcp", gcpCred))},
			{
				Config: a.config(cloudHCL("gcp-quiet", "gcp", gcpCred, bucket)),
				ConfigPlanChecks: prePlan(
					plancheck.ExpectResourceAction(cloudAddr, plancheck.ResourceActionUpdate),
					expectUnknownExactly(cloudAddr, putMetadata...),
					plancheck.ExpectKnownValue(cloudAddr, tfjsonpath.New("state"), knownvalue.StringExact("running")),
				),
			},
			{
				Config: a.config(cloudHCL("gcp-quiet", "gcp", azureCred, bucket)),
				ConfigPlanChecks: prePlan(
					plancheck.ExpectResourceAction(cloudAddr, plancheck.ResourceActionUpdate),
					expectUnknownExactly(cloudAddr, withPaths([]string{"state", "state_unready"}, putMetadata...)...),
				),
				ConfigStateChecks: []statecheck.StateCheck{expectString(cloudAddr, "state", "running")},
			},
			{
				PreConfig: func() { counts.mark(a.sim) },
				Config:    a.config(cloudHCL("gcp-quiet", "gcp", azureCred, bucket, `timeouts = { update = "2m" }`)),
				ConfigPlanChecks: prePlan(
					plancheck.ExpectResourceAction(cloudAddr, plancheck.ResourceActionUpdate),
					expectUnknownExactly(cloudAddr),
				),
				Check: a.simCheck("no PUT", func(sim *astrasim.Sim) error { return expectCount(counts.since(sim, "PUT "+routeCloud), 0) }),
			},
		},
	})
}
