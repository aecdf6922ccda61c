package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccAppRun_inFlightReady: under the simulator's -in-flight-ready (NetApp's toolkit
// docs show runs "ready" while in flight, outside the spec's enum), "ready" is never taken
// for done: a create wait that ends early keeps the run with state "ready", untainted, and
// the next apply waits for it (an update) until "completed", sending no DELETE and no POST.
func TestAccAppRun_inFlightReady(t *testing.T) {
	for _, c := range appRunKinds {
		t.Run(c.kind, func(t *testing.T) {
			a := newAccTarget(t, withSim(func(o *astrasim.Options) {
				o.InFlightReady = true
				o.Delays = astrasim.Delays{App: 50 * time.Millisecond, Snapshot: 15 * time.Second, Backup: 15 * time.Second}
			}))
			a.requireSim("runs answered ready in flight")
			var extra []string
			if c.kind == astrasim.FailBackup {
				extra = append(extra, fmt.Sprintf("  bucket_id = %q", a.bucket("ready")))
			}
			base := a.appRunBase("ready-" + c.kind)
			addr := "astra_app_" + c.kind + ".test"
			var counts countDelta
			long := base + appRunHCL(c.kind, "inflight", append(extra, `  timeouts = { create = "1m" }`)...)
			a.test(resource.TestCase{
				CheckDestroy: a.checkAppRunsDestroyed,
				Steps: []resource.TestStep{
					{
						Config:             base + appRunHCL(c.kind, "inflight", append(extra, `  timeouts = { create = "300ms" }`)...),
						ExpectNonEmptyPlan: true,
						ConfigStateChecks:  []statecheck.StateCheck{expectString(addr, "state", "ready")},
						Check: func(*terraform.State) error {
							a.markCounts(&counts)
							return nil
						},
					},
					{
						Config: long,
						ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
							plancheck.ExpectUnknownValue(addr, tfjsonpath.New("state"))),
						ConfigStateChecks: []statecheck.StateCheck{expectString(addr, "state", "completed"),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.NotNull())},
						Check: a.simCheck("waited through ready: no DELETE, no POST", func(sim *astrasim.Sim) error {
							return expectCounts(counts.since(sim, "DELETE "+c.routeOne), 0, counts.since(sim, "POST "+c.route), 0)
						}),
					},
					{Config: long, ConfigPlanChecks: emptyPlan()},
				},
			})
		})
	}
}

// TestReportRunWait_unlistedState: a wait that ends on a state the API does not list
// ("ready") says so, and that it was taken for not finished; a listed one adds nothing.
func TestReportRunWait_unlistedState(t *testing.T) {
	timedOut := &astra.WaitTimeoutError{What: "backup b", LastState: "state ready", Err: context.DeadlineExceeded}
	for _, tc := range []struct {
		seen    string
		resumed bool
		want    string
	}{
		{"ready", false, `Astra Control last reported the backup's state as "ready", which its API does not list for a backup; this provider takes it for "not finished yet"`},
		{"ready", true, `takes it for "not finished yet" (only "completed" is done)`},
	} {
		var diags diag.Diagnostics
		reportRunWait(&diags, "backup", tc.seen, timedOut, time.Minute, tc.resumed)
		if len(diags) != 1 || !strings.Contains(diags[0].Detail(), tc.want) || !strings.Contains(diags[0].Detail(), "last seen: state ready") {
			t.Errorf("seen %q resumed %v: %v", tc.seen, tc.resumed, diags)
		}
	}
	var diags diag.Diagnostics
	reportRunWait(&diags, "backup", "running", timedOut, time.Minute, false)
	if len(diags) != 1 || strings.Contains(diags[0].Detail(), "does not list") {
		t.Errorf("a listed state: %v", diags)
	}
}
