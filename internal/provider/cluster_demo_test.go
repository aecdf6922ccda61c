package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// TestAccExampleDemo applies examples/demo, the README's main job, as `make demo` does: the
// cluster is running, its computed fields are in the output, and a second plan is empty.
func TestAccExampleDemo(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("the demo's made-up kubeconfig")
	hcl := a.exampleHCL("demo")
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{
				Config: hcl,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownOutputValue("cluster", knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"name":                   knownvalue.StringExact("demo-cluster"),
						"cloud_id":               knownvalue.StringExact(a.cloudID()),
						"state":                  knownvalue.StringExact("running"),
						"managed_state":          knownvalue.StringExact("unmanaged"),
						"cluster_type":           knownvalue.StringExact("kubernetes"),
						"cluster_version_string": knownvalue.NotNull(),
						"default_storage_class":  knownvalue.StringRegexp(uuidRegexp),
						"api_service_id":         knownvalue.StringRegexp(uuidRegexp),
						"id":                     knownvalue.StringRegexp(uuidRegexp),
					})),
				},
			},
			{Config: hcl, ConfigPlanChecks: emptyPlan()},
		},
	})
}
