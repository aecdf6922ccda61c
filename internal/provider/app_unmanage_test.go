package provider

import (
	"fmt"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccApp_destroyWaitsOutRuns: Astra Control refuses to unmanage an app while a snapshot
// (409/148) or a backup (409/157) of it runs, here taken outside Terraform just before the
// destroy (as a policy's or another tool's would be). A run ends by itself, so the destroy
// asks again until it is accepted; when timeouts.delete ends first, the error names the run
// still in the way, by name and ID.
func TestAccApp_destroyWaitsOutRuns(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) {
		o.Delays = astrasim.Delays{App: 50 * time.Millisecond, Snapshot: 5 * time.Second, Backup: 8 * time.Second}
	}))
	a.requireSim("times the runs in the way")
	bucket := a.bucket("unmanage-runs")
	cred := a.kubeconfigCredential("kube-unmanage-runs", "unmanage-runs")
	base := a.config(privateManagedHCL(a.cloudID(), cred, `local.storage_classes["ontap-gold"]`, true))
	withApp := func(extra string) string { return base + appHCL(a.name("web"), "default", extra) }
	var appID, backupID string
	deletes := 0
	a.test(resource.TestCase{
		CheckDestroy: a.checkAppsDestroyed,
		Steps: []resource.TestStep{
			{Config: withApp(""), Check: recordID(appAddr, &appID)},
			{
				// A snapshot runs for 5s: the unmanage is refused (148), asked again, accepted.
				PreConfig: func() {
					if _, err := a.client.CreateAppSnapshot(testContext(), appID, astra.AppSnapshotCreate{Name: a.name("outside")}); err != nil {
						t.Fatal(err)
					}
					deletes = a.sim.Count(http.MethodDelete, routeApp)
				},
				Config: base,
				Check: a.simCheck("refused while the snapshot ran, then unmanaged", func(sim *astrasim.Sim) error {
					if n := sim.Count(http.MethodDelete, routeApp) - deletes; n < 2 {
						return fmt.Errorf("%d DELETEs of the app; want the refused one and the accepted one at least", n)
					}
					if _, err := a.client.GetApp(testContext(), appID); !astra.IsNotFound(err) {
						return fmt.Errorf("the app must be unmanaged (a 404): %v", err)
					}
					return nil
				}),
			},
			{Config: withApp(`  timeouts = { delete = "1s" }`), Check: recordID(appAddr, &appID)},
			{
				// A backup runs for 8s, longer than timeouts.delete: the error says what runs.
				PreConfig: func() {
					b, err := a.client.CreateAppBackup(testContext(), appID, astra.AppBackupCreate{Name: a.name("nightly"), BucketID: bucket})
					if err != nil {
						t.Fatal(err)
					}
					backupID = b.ID
				},
				Config: base,
				ExpectError: regexp.MustCompile(`(?s)Cannot unmanage the app.*` + spaced("Timed out after 1s waiting for app") + `\s+` + uuidPattern +
					`\s+` + spaced(`to be unmanaged (last seen: backup "`+a.name("nightly")+`"`) + `\s+\(` + uuidPattern + `\)\s+` +
					spaced("still running (problem 157)). Raise the timeout in the resource's timeouts attribute if it needs longer.") +
					`\s+` + spaced("The app stays in state; destroy again once Astra Control accepts unmanaging it.")),
			},
			{
				// The backup named is the one taken; with time enough, the destroy goes through.
				PreConfig: func() {
					if backupID == "" {
						t.Fatal("no backup was taken")
					}
				},
				Config: withApp(`  timeouts = { delete = "1m" }`),
			},
		},
	})
}
