package provider

import (
	"fmt"
	"sort"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

const policiesAddr = "data.astra_protection_policies.test"

// protectionPoliciesHCL is an app with two policies: "nightly", daily and backing up into
// bucketID, made first, then "hourly", disabled, so that Astra Control lists them in the
// opposite of name order; and the data source, read after both.
func protectionPoliciesHCL(bucketID string) string {
	return fmt.Sprintf(`
resource "astra_protection_policy" "nightly" {
  app_id             = astra_app.test.id
  name               = "nightly"
  granularity        = "daily"
  hour               = 2
  minute             = 30
  snapshot_retention = 7
  backup_retention   = 3
  bucket_id          = %q
}

resource "astra_protection_policy" "hourly" {
  app_id             = astra_app.test.id
  name               = "hourly"
  granularity        = "hourly"
  minute             = 15
  snapshot_retention = 24
  backup_retention   = 0
  enabled            = false

  depends_on = [astra_protection_policy.nightly]
}

data "astra_protection_policies" "test" {
  app_id = astra_app.test.id

  depends_on = [astra_protection_policy.nightly, astra_protection_policy.hourly]
}
`, bucketID)
}

// samePolicyAttributes compares every attribute astra_protection_policy has (its schema's,
// so a new one is compared too) between item i of the data source's list and the resource
// addr: the list holds each policy as the resource holds it.
func samePolicyAttributes(i int, addr string) []statecheck.StateCheck {
	names := make([]string, 0, len(protectionPolicyAttributes()))
	for name := range protectionPolicyAttributes() {
		names = append(names, name)
	}
	sort.Strings(names)
	checks := make([]statecheck.StateCheck, 0, len(names))
	for _, name := range names {
		checks = append(checks, statecheck.CompareValuePairs(policiesAddr, tfjsonpath.New("policies").AtSliceIndex(i).AtMapKey(name),
			addr, tfjsonpath.New(name), compare.ValuesSame()))
	}
	return checks
}

// TestAccProtectionPoliciesDataSource lists an app's two policies, of different
// granularities, sorted by name, each attribute as astra_protection_policy holds it; an
// unknown app is an error on app_id.
func TestAccProtectionPoliciesDataSource(t *testing.T) {
	a := newAccTarget(t)
	cred := a.kubeconfigCredential("kube-policies", "policies")
	bucket := a.bucket("policies-backups")
	cfg := a.config(privateManagedHCL(a.cloudID(), cred, `local.storage_classes["ontap-gold"]`, true),
		appHCL(a.name("policies"), "default"), protectionPoliciesHCL(bucket))
	checks := []statecheck.StateCheck{
		statecheck.ExpectKnownValue(policiesAddr, tfjsonpath.New("policies"), knownvalue.ListExact([]knownvalue.Check{
			knownvalue.ObjectExact(map[string]knownvalue.Check{
				"id": knownvalue.StringRegexp(uuidRegexp), "app_id": knownvalue.StringRegexp(uuidRegexp),
				"name": knownvalue.StringExact("hourly"), "granularity": knownvalue.StringExact("hourly"),
				"minute": knownvalue.Int64Exact(15), "hour": knownvalue.Null(), "day_of_week": knownvalue.Null(),
				"day_of_month": knownvalue.Null(), "snapshot_retention": knownvalue.Int64Exact(24),
				"backup_retention": knownvalue.Int64Exact(0), "bucket_id": knownvalue.Null(), "enabled": knownvalue.Bool(false),
				"metadata": knownvalue.NotNull(), "interval_minutes": knownvalue.Null(), "replicate": knownvalue.Bool(false),
			}),
			knownvalue.ObjectExact(map[string]knownvalue.Check{
				"id": knownvalue.StringRegexp(uuidRegexp), "app_id": knownvalue.StringRegexp(uuidRegexp),
				"name": knownvalue.StringExact("nightly"), "granularity": knownvalue.StringExact("daily"),
				"minute": knownvalue.Int64Exact(30), "hour": knownvalue.Int64Exact(2), "day_of_week": knownvalue.Null(),
				"day_of_month": knownvalue.Null(), "snapshot_retention": knownvalue.Int64Exact(7),
				"backup_retention": knownvalue.Int64Exact(3), "bucket_id": knownvalue.StringExact(bucket), "enabled": knownvalue.Bool(true),
				"metadata": knownvalue.NotNull(), "interval_minutes": knownvalue.Null(), "replicate": knownvalue.Bool(false),
			}),
		})),
		statecheck.CompareValuePairs(policiesAddr, tfjsonpath.New("app_id"), appAddr, tfjsonpath.New("id"), compare.ValuesSame()),
	}
	checks = append(checks, samePolicyAttributes(0, "astra_protection_policy.hourly")...)
	checks = append(checks, samePolicyAttributes(1, "astra_protection_policy.nightly")...)
	unknown := testClusterID // a UUID no app has
	a.test(resource.TestCase{
		CheckDestroy: a.checkAppsDestroyed,
		Steps: []resource.TestStep{
			{
				Config: a.config(fmt.Sprintf("data \"astra_protection_policies\" \"test\" {\n  app_id = %q\n}\n", unknown)),
				ExpectError: errorPhrases("Unknown app", fmt.Sprintf("app_id = %q", unknown),
					fmt.Sprintf("Astra Control has no app with ID %q. Set app_id to an astra_app's id", unknown)),
			},
			{Config: cfg, ConfigStateChecks: checks},
			{Config: cfg, ConfigPlanChecks: emptyPlan()},
		},
	})
}
