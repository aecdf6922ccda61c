package provider

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccApp_cloneFromRunningBackup: a clone of a backup still being taken (one whose create
// wait ended early, named through the astra_app_backups data source so that the clone does
// not wait for the backup's update) is refused while the backup runs (409/148 as the 24.02
// spec lists; 164 under the catalogue's reading) and asked again within the clone's
// timeout until the backup has completed: the clone is created, from that backup (issue
// 43, item 6).
func TestAccApp_cloneFromRunningBackup(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) {
		// Long enough to outlast the first step and its plans on a busy machine.
		o.Delays = astrasim.Delays{App: 50 * time.Millisecond, Backup: 15 * time.Second, Restore: 100 * time.Millisecond}
	}))
	a.requireSim("a backup that runs for seconds")
	base := a.appRunBase("clone-running")
	bucket := fmt.Sprintf("  bucket_id = %q", a.bucket("clone-running"))
	staging := a.name("from-running")
	clone := fmt.Sprintf(`
data "astra_app_backups" "source" {
  app_id = astra_app.test.id
}

resource "astra_app" "clone" {
  name       = %q
  cluster_id = astra_managed_cluster.test.id
  namespace_scoped_resources = [{ namespace = %q }]
  source = {
    app_id            = astra_app.test.id
    backup_id         = one(data.astra_app_backups.source.backups).id
    namespace_mapping = [{ source = "default", destination = %q }]
  }
  timeouts = { create = "1m" }
}
`, a.name("running-copy"), staging, staging)
	var backupID string
	var counts countDelta
	a.test(resource.TestCase{
		CheckDestroy: a.checkAppsDestroyed,
		Steps: []resource.TestStep{
			{
				Config:             base + appRunHCL(astrasim.FailBackup, "source", bucket, `  timeouts = { create = "300ms" }`),
				ExpectNonEmptyPlan: true,
				ConfigStateChecks:  []statecheck.StateCheck{expectInProgress("astra_app_backup.test")},
				Check:              recordID("astra_app_backup.test", &backupID),
			},
			{
				PreConfig:         func() { a.markCounts(&counts) },
				Config:            base + appRunHCL(astrasim.FailBackup, "source", bucket, `  timeouts = { create = "1m" }`) + clone,
				ConfigStateChecks: []statecheck.StateCheck{expectString(cloneAddr, "state", "ready")},
				Check: resource.ComposeTestCheckFunc(resource.TestCheckResourceAttrPtr(cloneAddr, "source.backup_id", &backupID),
					a.simCheck("the clone POST refused while the backup ran, then accepted", func(sim *astrasim.Sim) error {
						if n := counts.since(sim, "POST "+routeApps); n < 2 {
							return fmt.Errorf("%d POSTs of apps, want a refused clone and the accepted one", n)
						}
						return expectCounts(counts.since(sim, "POST "+routeAppBackups), 0)
					})),
			},
		},
	})
}
