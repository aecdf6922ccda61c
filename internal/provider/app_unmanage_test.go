package provider

import (
	"context"
	"errors"
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
		o.Delays = astrasim.Delays{App: 50 * time.Millisecond, Snapshot: 8 * time.Second, Backup: 10 * time.Second}
	}))
	a.requireSim("times the runs in the way")
	bucket := a.bucket("unmanage-runs")
	cred := a.kubeconfigCredential("kube-unmanage-runs", "unmanage-runs")
	base := a.config(privateManagedHCL(a.cloudID(), cred, `local.storage_classes["ontap-gold"]`, true))
	withApp := func(deleteTimeout string) string {
		return base + appHCL(a.name("web"), "default", `  timeouts = { delete = "`+deleteTimeout+`" }`)
	}
	var appID string
	snapshot := func(name string) func() {
		return func() {
			if _, err := a.client.CreateAppSnapshot(testContext(), appID, astra.AppSnapshotCreate{Name: a.name(name)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	// timedOut is the error of a destroy that gave up while the run of kind and name ran.
	timedOut := func(kind, name string, problem int) *regexp.Regexp {
		return regexp.MustCompile(`(?s)Cannot unmanage the app.*` + spaced("Timed out after 3s waiting for app") + `\s+` + uuidPattern +
			`\s+` + spaced(`to be unmanaged (last seen: `+kind+` "`+a.name(name)+`"`) + `\s+\(` + uuidPattern + `\)\s+` +
			spaced(fmt.Sprintf("still running (problem %d)). Raise the timeout in the resource's timeouts attribute if it needs longer.", problem)) +
			`\s+` + spaced("The app stays in state; destroy again once Astra Control accepts unmanaging it."))
	}
	deletes := 0
	a.test(resource.TestCase{
		CheckDestroy: a.checkAppsDestroyed,
		Steps: []resource.TestStep{
			{Config: withApp("3s"), Check: recordID(appAddr, &appID)},
			{
				// A snapshot runs for 8s, longer than timeouts.delete: the error names it.
				PreConfig:   snapshot("outside"),
				Config:      base,
				ExpectError: timedOut("snapshot", "outside", astra.ProblemSnapshotInProgress),
			},
			{
				// With time enough, the destroy waits out the next snapshot and goes through.
				PreConfig: func() {
					if _, err := astra.Wait(testContext(), a.waitSchedule(), func(ctx context.Context) (*astra.AppSnapshot, error) {
						snaps, err := a.client.ListAppSnapshots(ctx, appID, astra.ListOptions{})
						if err != nil || len(snaps) != 1 {
							return nil, fmt.Errorf("the app's snapshots (%d of them, want the one taken): %w", len(snaps), err)
						}
						return &snaps[0], nil
					}, astra.AppSnapshotCompleted); err != nil {
						t.Fatal(err)
					}
				},
				Config: withApp("1m"),
			},
			{
				PreConfig: func() {
					snapshot("outside-again")()
					deletes = a.sim.Count(http.MethodDelete, routeApp)
				},
				Config: base,
				Check: a.simCheck("refused while the snapshot ran, then unmanaged", func(sim *astrasim.Sim) error {
					if n := sim.Count(http.MethodDelete, routeApp) - deletes; n < 2 {
						return fmt.Errorf("%d DELETEs of the app; want the refused one and the accepted one at least", n)
					}
					if _, err := a.client.GetApp(testContext(), appID); !astra.IsNotFound(err) {
						return errors.Join(errors.New("the app must be unmanaged (a 404)"), err)
					}
					return nil
				}),
			},
			{Config: withApp("3s"), Check: recordID(appAddr, &appID)},
			{
				// A backup runs for 10s: the error names it.
				PreConfig: func() {
					if _, err := a.client.CreateAppBackup(testContext(), appID, astra.AppBackupCreate{Name: a.name("nightly"), BucketID: bucket}); err != nil {
						t.Fatal(err)
					}
				},
				Config:      base,
				ExpectError: timedOut("backup", "nightly", astra.ProblemAppBackupRunning),
			},
			// With time enough, the last destroy waits the backup out.
			{Config: withApp("1m")},
		},
	})
}
