package provider

import (
	"net/http"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccAppRun_deletingWindow: on 24.02 a deleted snapshot or backup is "deleting" for a
// while (astrasim Delays.Delete), its name still taken (176, 143) and its bucket still in
// use (83). Destroy waits for the 404, so a replacement reusing the name is created at the
// first POST, and a bucket destroyed right after its backup is forgotten at the first try.
func TestAccAppRun_deletingWindow(t *testing.T) {
	a := newAccTarget(t, withAPIVersion("1.7"), withSim(func(o *astrasim.Options) { o.Delays.Delete = time.Second }))
	a.requireSim("delays deletes")
	base := a.appRunBase("deleting")
	bucket := `
resource "astra_s3_credential" "k" {
  name              = "` + a.name("deleting-key") + `"
  access_key_id     = "AKIAEXAMPLE"
  secret_access_key = "secret-example"
}

resource "astra_bucket" "b" {
  name            = "` + a.name("deleting") + `"
  bucket_provider = "generic-s3"
  credential_id   = astra_s3_credential.k.id
  s3              = { server_url = "s3.example.com", bucket_name = "` + a.name("deleting") + `" }
}
`
	runs := bucket + appRunHCL("snapshot", "nightly") + appRunHCL("backup", "nightly", "  bucket_id = astra_bucket.b.id")
	a.test(resource.TestCase{
		CheckDestroy: a.checkAppRunsDestroyed,
		Steps: []resource.TestStep{
			{Config: base + runs},
			{
				// Replaced under the same names: each POST is accepted at once.
				Config: base + runs,
				Taint:  []string{snapshotAddr, backupAddr},
				Check: a.simCheck("two POSTs of each, none refused for a name still being deleted", func(sim *astrasim.Sim) error {
					return expectCounts(sim.Count(http.MethodPost, routeAppSnaps), 2, sim.Count(http.MethodPost, routeAppBackups), 2)
				}),
			},
			{
				// The backup and its bucket go together: the bucket's DELETE comes after the 404.
				Config: base,
				Check: a.simCheck("one bucket DELETE", func(sim *astrasim.Sim) error {
					return expectCounts(sim.Count(http.MethodDelete, "/topology/v1/buckets/{bucket_id}"), 1)
				}),
			},
		},
	})
}
