package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

const (
	cloudAddr   = "astra_cloud.test"
	routeClouds = "/topology/v1/clouds"
	routeCloud  = "/topology/v1/clouds/{cloud_id}"
)

// cloudHCL renders an astra_cloud "test"; extra holds further arguments.
func cloudHCL(name, cloudType string, extra ...string) string {
	return fmt.Sprintf("resource \"astra_cloud\" \"test\" {\n  name       = %q\n  cloud_type = %q\n  %s\n}\n",
		name, cloudType, strings.Join(extra, "\n  "))
}

func cloudString(attr, value string) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(cloudAddr, tfjsonpath.New(attr), knownvalue.StringExact(value))
}

func (a *accTarget) checkCloudDestroyed(s *terraform.State) error {
	for _, r := range s.RootModule().Resources {
		if r.Type != "astra_cloud" {
			continue
		}
		if err := goneAfterDestroy("cloud", r.Primary.ID, func() error { _, err := a.client.GetCloud(t0(), r.Primary.ID); return err }); err != nil {
			return err
		}
	}
	return nil
}

// TestAccCloud_public creates a GCP cloud (waiting until it is running), keeps the user's
// casing of cloud_type, updates its bucket and credential in place, imports it, replaces it
// on a new name, and plans it again once deleted outside Terraform.
func TestAccCloud_public(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) { o.Delays.Discover = 100 * time.Millisecond }))
	a.requireSim("the seeded service-account credentials")
	seeds := a.sim.Seeds()
	gcpCred, azureCred := arg("credential_id", seeds.GCP.CredentialID), arg("credential_id", seeds.Azure.CredentialID)
	bucket := arg("default_bucket_id", testBucketID)
	var counts countDelta
	var createdID string
	a.test(resource.TestCase{
		CheckDestroy: a.checkCloudDestroyed,
		Steps: []resource.TestStep{
			{
				Config: a.config(cloudHCL("gcp-team", "GCP", gcpCred)),
				ConfigStateChecks: []statecheck.StateCheck{
					cloudString("cloud_type", "GCP"),
					cloudString("state", "running"),
					cloudString("credential_id", seeds.GCP.CredentialID),
					statecheck.ExpectKnownValue(cloudAddr, tfjsonpath.New("default_bucket_id"), knownvalue.Null()),
					statecheck.ExpectKnownValue(cloudAddr, tfjsonpath.New("state_unready"), knownvalue.ListExact(nil)),
				},
				Check: func(s *terraform.State) error { createdID = s.RootModule().Resources[cloudAddr].Primary.ID; return nil },
			},
			{Config: a.config(cloudHCL("gcp-team", "GCP", gcpCred)), ConfigPlanChecks: emptyPlan()},
			{
				// Only the casing changes: an update without a request, never a replacement.
				PreConfig:         func() { a.markCounts(&counts) },
				Config:            a.config(cloudHCL("gcp-team", "gcp", gcpCred)),
				ConfigPlanChecks:  planAction(cloudAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{cloudString("cloud_type", "gcp")},
				Check: resource.ComposeAggregateTestCheckFunc(
					sameID(cloudAddr, &createdID),
					a.simCheck("no PUT", func(sim *astrasim.Sim) error { return expectCount(counts.since(sim, "PUT "+routeCloud), 0) }),
				),
			},
			{Config: a.config(cloudHCL("gcp-team", "gcp", gcpCred)), ConfigPlanChecks: emptyPlan()},
			{
				PreConfig:         func() { a.markCounts(&counts) },
				Config:            a.config(cloudHCL("gcp-team", "gcp", gcpCred, bucket)),
				ConfigPlanChecks:  planAction(cloudAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{cloudString("default_bucket_id", testBucketID)},
				Check: resource.ComposeAggregateTestCheckFunc(
					sameID(cloudAddr, &createdID),
					a.simCheck("one PUT", func(sim *astrasim.Sim) error { return expectCount(counts.since(sim, "PUT "+routeCloud), 1) }),
					func(*terraform.State) error {
						c, err := a.client.GetCloud(t0(), createdID)
						if err == nil && c.DefaultBucketID != testBucketID {
							err = fmt.Errorf("Astra Control holds bucket %q", c.DefaultBucketID)
						}
						return err
					},
				),
			},
			{ResourceName: cloudAddr, ImportState: true, ImportStateVerify: true},
			{
				Config:            a.config(cloudHCL("gcp-team", "gcp", azureCred, bucket)),
				ConfigPlanChecks:  planAction(cloudAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{cloudString("credential_id", seeds.Azure.CredentialID)},
				Check:             sameID(cloudAddr, &createdID),
			},
			{
				Config:            a.config(cloudHCL("gcp-renamed", "gcp", azureCred, bucket)),
				ConfigPlanChecks:  planAction(cloudAddr, plancheck.ResourceActionDestroyBeforeCreate),
				ConfigStateChecks: []statecheck.StateCheck{cloudString("name", "gcp-renamed")},
				Check: func(s *terraform.State) error {
					createdID = s.RootModule().Resources[cloudAddr].Primary.ID
					return nil
				},
			},
			{
				PreConfig: func() {
					if err := a.client.DeleteCloud(t0(), createdID); err != nil {
						t.Fatal(err)
					}
				},
				Config:           a.config(cloudHCL("gcp-renamed", "gcp", azureCred, bucket)),
				ConfigPlanChecks: planAction(cloudAddr, plancheck.ResourceActionCreate),
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
					cloudString("cloud_type", "Private"),
					statecheck.ExpectKnownValue(cloudAddr, tfjsonpath.New("credential_id"), knownvalue.Null()),
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
	if a.sim != nil && a.sim.Count("POST", routeClouds) != 0 {
		t.Errorf("nothing may be sent for a configuration refused at plan time")
	}
}
