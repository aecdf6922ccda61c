package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// cloudIDs lists, as astra_clouds orders them, the clouds Astra Control holds that keep accepts.
func (a *accTarget) cloudIDs(keep func(astra.Cloud) bool) func() ([]string, error) {
	return func() ([]string, error) {
		clouds, err := a.client.ListClouds(testContext(), astra.ListOptions{})
		return sortedIDs(clouds, func(c astra.Cloud) (string, string) { return c.Name, c.ID }, keep), err
	}
}

// TestAccCloudDataSources reads clouds by ID, by name and as filtered lists, checked against
// what Astra Control holds; an empty list is no error, a missing cloud is.
func TestAccCloudDataSources(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("the seeded clouds")
	seeds := a.sim.Seeds()
	cfg := a.config(fmt.Sprintf(`
data "astra_cloud" "private" {
  name = "private"
}

data "astra_cloud" "gcp" {
  id = %q
}

data "astra_clouds" "all" {}

data "astra_clouds" "gcp" {
  cloud_type = "GCP"
}

data "astra_clouds" "none" {
  name = "no-such-cloud"
}
`, seeds.GCP.CloudID))
	a.test(resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config:      a.config(`data "astra_cloud" "x" { name = "no-such-cloud" }`),
				ExpectError: regexp.MustCompile(`(?s)Cloud not found.*no cloud named "no-such-cloud".*Clouds:\s+AWS`),
			},
			{
				Config:      a.config(`data "astra_cloud" "x" { id = "` + testCloudID + `" }`),
				ExpectError: regexp.MustCompile(`Cloud not found`),
			},
			{
				Config:      a.config(`data "astra_cloud" "x" {}`),
				ExpectError: regexp.MustCompile(`(?s)Missing Attribute Configuration.*Exactly one of these attributes must be configured:\s+\[id,name\]`),
			},
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					expectString("data.astra_cloud.private", "id", seeds.PrivateCloudID),
					expectString("data.astra_cloud.private", "cloud_type", "private"),
					expectString("data.astra_cloud.private", "state", "running"),
					expectString("data.astra_cloud.gcp", "name", "GCP"),
					// The service answers "GCP"; data sources always report the lowercase type.
					expectString("data.astra_cloud.gcp", "cloud_type", "gcp"),
					expectString("data.astra_cloud.gcp", "credential_id", seeds.GCP.CredentialID),
					statecheck.ExpectKnownValue("data.astra_clouds.none", tfjsonpath.New("clouds"), knownvalue.ListExact([]knownvalue.Check{})),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					expectIDs("data.astra_clouds.all", "clouds", a.cloudIDs(func(astra.Cloud) bool { return true })),
					expectIDs("data.astra_clouds.gcp", "clouds", a.cloudIDs(func(c astra.Cloud) bool { return strings.EqualFold(c.CloudType, "gcp") })),
					resource.TestCheckResourceAttr("data.astra_clouds.all", "clouds.#", "4"),
					a.onlyReads(),
				),
			},
		},
	})
}
