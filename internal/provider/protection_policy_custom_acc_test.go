package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// TestAccProtectionPolicy_customPlanTime: the rules of a custom policy at plan time, each
// naming its attribute: custom needs interval_minutes, only custom takes it, and replicate
// is refused on an app that has no relationship; then a custom policy every 5 minutes is
// created, read back (interval_minutes 5, replicate false) and plans nothing.
func TestAccProtectionPolicy_customPlanTime(t *testing.T) {
	a := newAccTarget(t)
	base := a.appRunBase("custom")
	a.test(resource.TestCase{Steps: []resource.TestStep{
		{Config: base + policyHCL(`  granularity = "custom"`), PlanOnly: true,
			ExpectError: errorPhrases("Missing interval_minutes", "interval_minutes")},
		{Config: base + policyHCL("  granularity = \"hourly\"\n  interval_minutes = 5"), PlanOnly: true,
			ExpectError: errorPhrases("interval_minutes is used only by a custom policy")},
		{Config: base + policyHCL("  granularity = \"custom\"\n  interval_minutes = 5\n  hour = 3"), PlanOnly: true,
			ExpectError: errorPhrases("hour is not used by a custom policy")},
		{Config: base},
		{Config: base + policyHCL("  granularity = \"custom\"\n  interval_minutes = 5\n  replicate = true"),
			ExpectError: errorPhrases("No mirror to replicate to", "has no astra_app_mirror", "replicate = false")},
		{
			Config: base + policyHCL("  granularity = \"custom\"\n  interval_minutes = 5"),
			ConfigStateChecks: []statecheck.StateCheck{expectString("astra_protection_policy.test", "granularity", "custom"),
				expectBool("astra_protection_policy.test", "replicate", false)},
			Check: resource.TestCheckResourceAttr("astra_protection_policy.test", "interval_minutes", "5"),
		},
		{Config: base + policyHCL("  granularity = \"custom\"\n  interval_minutes = 5"), ConfigPlanChecks: emptyPlan()},
		{
			// In place: another interval is one PUT of the rule.
			Config: base + policyHCL("  granularity = \"custom\"\n  interval_minutes = 10"),
			Check:  resource.TestCheckResourceAttr("astra_protection_policy.test", "interval_minutes", "10"),
		},
	}})
}
