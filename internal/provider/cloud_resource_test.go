package provider

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccCloud_public creates a GCP cloud (waiting until it is running), keeps the user's
// casing of cloud_type, updates its bucket and credential in place, imports it, replaces it
// on a new name, and plans it again once deleted outside Terraform.
func TestAccCloud_public(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) { o.Delays.Discover = 100 * time.Millisecond }))
	a.requireSim("the seeded service-account credentials")
	seeds := a.sim.Seeds()
	gcpCred, azureCred := arg("credential_id", seeds.GCP.CredentialID), arg("credential_id", seeds.Azure.CredentialID)
	bucketID := a.bucket("cloud-default")
	bucket := arg("default_bucket_id", bucketID)
	var counts countDelta
	// The cloud keeps its ID through every update (sameID) until the new name replaces it
	// (newID compares the last updated cloud with its replacement).
	sameID, newID := statecheck.CompareValue(compare.ValuesSame()), statecheck.CompareValue(compare.ValuesDiffer())
	idPath := tfjsonpath.New("id")
	var replacementID string
	a.test(resource.TestCase{
		CheckDestroy: a.checkCloudDestroyed,
		Steps: []resource.TestStep{
			{
				Config: a.config(cloudHCL("gcp-team", "GCP", gcpCred)),
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(cloudAddr, "cloud_type", "GCP"),
					expectString(cloudAddr, "state", "running"),
					expectString(cloudAddr, "credential_id", seeds.GCP.CredentialID),
					expectNull(cloudAddr, "default_bucket_id"),
					statecheck.ExpectKnownValue(cloudAddr, tfjsonpath.New("state_unready"), knownvalue.ListExact(nil)),
					sameID.AddStateValue(cloudAddr, idPath),
				},
			},
			{Config: a.config(cloudHCL("gcp-team", "GCP", gcpCred)), ConfigPlanChecks: emptyPlan()},
			{
				// Only the casing changes: an update without a request, never a replacement.
				PreConfig:         func() { a.markCounts(&counts) },
				Config:            a.config(cloudHCL("gcp-team", "gcp", gcpCred)),
				ConfigPlanChecks:  planned(cloudAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{expectString(cloudAddr, "cloud_type", "gcp"), sameID.AddStateValue(cloudAddr, idPath)},
				Check:             a.simCheck("no PUT", func(sim *astrasim.Sim) error { return expectCount(counts.since(sim, "PUT "+routeCloud), 0) }),
			},
			{Config: a.config(cloudHCL("gcp-team", "gcp", gcpCred)), ConfigPlanChecks: emptyPlan()},
			{
				PreConfig:         func() { a.markCounts(&counts) },
				Config:            a.config(cloudHCL("gcp-team", "gcp", gcpCred, bucket)),
				ConfigPlanChecks:  planned(cloudAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{expectString(cloudAddr, "default_bucket_id", bucketID), sameID.AddStateValue(cloudAddr, idPath)},
				Check: resource.ComposeAggregateTestCheckFunc(
					a.simCheck("one PUT", func(sim *astrasim.Sim) error { return expectCount(counts.since(sim, "PUT "+routeCloud), 1) }),
					resource.TestCheckResourceAttrWith(cloudAddr, "id", func(id string) error {
						c, err := a.client.GetCloud(testContext(), id)
						if err == nil && c.DefaultBucketID != bucketID {
							err = fmt.Errorf("Astra Control holds bucket %q", c.DefaultBucketID)
						}
						return err
					}),
				),
			},
			{ResourceName: cloudAddr, ImportState: true, ImportStateVerify: true},
			{
				Config:           a.config(cloudHCL("gcp-team", "gcp", azureCred, bucket)),
				ConfigPlanChecks: planned(cloudAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(cloudAddr, "credential_id", seeds.Azure.CredentialID), sameID.AddStateValue(cloudAddr, idPath), newID.AddStateValue(cloudAddr, idPath),
				},
			},
			{
				Config:            a.config(cloudHCL("gcp-renamed", "gcp", azureCred, bucket)),
				ConfigPlanChecks:  planned(cloudAddr, plancheck.ResourceActionDestroyBeforeCreate),
				ConfigStateChecks: []statecheck.StateCheck{expectString(cloudAddr, "name", "gcp-renamed"), newID.AddStateValue(cloudAddr, idPath)},
				Check:             recordID(cloudAddr, &replacementID),
			},
			{
				PreConfig: func() {
					if err := a.client.DeleteCloud(testContext(), replacementID); err != nil {
						t.Fatal(err)
					}
				},
				Config:           a.config(cloudHCL("gcp-renamed", "gcp", azureCred, bucket)),
				ConfigPlanChecks: planned(cloudAddr, plancheck.ResourceActionCreate),
			},
		},
	})
}

// TestAccCloud_private creates a private cloud (no credential) and imports it.
func TestAccCloud_private(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("creates a second private cloud")
	a.test(resource.TestCase{
		CheckDestroy: a.checkCloudDestroyed,
		Steps: []resource.TestStep{
			{
				Config: a.config(cloudHCL("lab", "Private")),
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(cloudAddr, "cloud_type", "Private"),
					expectNull(cloudAddr, "credential_id"),
				},
			},
			{Config: a.config(cloudHCL("lab", "Private")), ConfigPlanChecks: emptyPlan()},
			// An import knows only the service's answer: the schema's lowercase spelling.
			{ResourceName: cloudAddr, ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"cloud_type"}},
		},
	})
}

// TestAccCloud_planTimeRules refuses, before any request, a public cloud without a
// credential and an unknown cloud type.
func TestAccCloud_planTimeRules(t *testing.T) {
	a := newAccTarget(t)
	a.test(resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config:      a.config(cloudHCL("azure-team", "Azure")),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Missing credential_id.*Azure cloud needs credential_id`),
			},
			{
				Config:      a.config(cloudHCL("oracle", "oracle", arg("credential_id", testCredentialID))),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)value must be one of:.*"gcp"`),
			},
		},
	})
	if a.simulated() && a.sim.Count("POST", routeClouds) != 0 {
		t.Errorf("nothing may be sent for a configuration refused at plan time")
	}
}
