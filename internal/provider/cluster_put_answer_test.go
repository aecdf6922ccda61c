package provider

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccUpdate_putEcho updates every resource that changes in place (each row of
// lostUpdateRows) on a service that answers a PUT with the request echoed back plus the
// id, as NetApp's toolkit docs show the service answering a schedule PUT: an answer that
// lacks what the service computes (state, metadata, ...). The update never takes it for
// the object: it reads the object back, so the apply records what the service holds and
// the next plan is empty. (A PUT answered 200 with the object is read back the same way:
// astra's TestClusterCalls.)
func TestAccUpdate_putEcho(t *testing.T) {
	for _, row := range lostUpdateRows() {
		t.Run(row.name, func(t *testing.T) {
			a := newAccTarget(t, withSim(func(o *astrasim.Options) { o.PutEcho = true }))
			a.requireSim("switches the simulator's PUT answer")
			var id string
			var puts int
			holds := func(v int) resource.TestCheckFunc {
				return func(*terraform.State) error {
					got, _, err := row.read(a, id)
					if err == nil && got != row.want(v) {
						err = fmt.Errorf("%s holds %q, want %q", row.name, got, row.want(v))
					}
					if n := a.sim.Count(http.MethodPut, row.route) - puts; err == nil && n != 1 {
						err = fmt.Errorf("%d PUTs of %s, want 1", n, row.route)
					}
					return err
				}
			}
			a.test(resource.TestCase{
				Steps: []resource.TestStep{
					{Config: a.config(row.hcl(a, 0)), Check: recordID(row.addr, &id)},
					{
						PreConfig:        func() { puts = a.sim.Count(http.MethodPut, row.route) },
						Config:           a.config(row.hcl(a, 1)),
						ConfigPlanChecks: planned(row.addr, plancheck.ResourceActionUpdate),
						Check:            holds(1),
					},
					{Config: a.config(row.hcl(a, 1)), ConfigPlanChecks: emptyPlan()},
				},
			})
		})
	}
}
