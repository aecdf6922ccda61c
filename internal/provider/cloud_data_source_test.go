package provider

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// onlyReads checks that data sources sent nothing but GETs: they are side-effect free.
func (a *accTarget) onlyReads() resource.TestCheckFunc {
	return a.simCheck("data sources only read", func(sim *astrasim.Sim) error {
		for key, n := range sim.Counts() {
			if !strings.HasPrefix(key, "GET ") && n > 0 {
				return fmt.Errorf("%d × %s", n, key)
			}
		}
		return nil
	})
}

// listAttr reads attribute attr of every item of the list attribute list of a data source
// in state (flatmap form), in order.
func listAttr(s *terraform.State, addr, list, attr string) ([]string, error) {
	r, ok := s.RootModule().Resources[addr]
	if !ok {
		return nil, fmt.Errorf("%s is not in state", addr)
	}
	n, err := strconv.Atoi(r.Primary.Attributes[list+".#"])
	if err != nil {
		return nil, fmt.Errorf("%s.%s has no length: %w", addr, list, err)
	}
	out := make([]string, n)
	for i := range out {
		out[i] = r.Primary.Attributes[fmt.Sprintf("%s.%d.%s", list, i, attr)]
	}
	return out, nil
}

// expectIDs checks the IDs of a plural data source against what Astra Control holds.
func expectIDs(addr, list string, want func() ([]string, error)) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		got, err := listAttr(s, addr, list, "id")
		if err != nil {
			return err
		}
		expected, err := want()
		if err != nil {
			return err
		}
		if strings.Join(got, ",") != strings.Join(expected, ",") {
			return fmt.Errorf("%s.%s IDs = %v, Astra Control holds %v", addr, list, got, expected)
		}
		return nil
	}
}

// sortedIDs lists the IDs of the items keep accepts, sorted by name then ID, the order of
// the plural data sources.
func sortedIDs[T any](items []T, nameID func(T) (string, string), keep func(T) bool) []string {
	type entry struct{ name, id string }
	var kept []entry
	for _, it := range items {
		if keep(it) {
			name, id := nameID(it)
			kept = append(kept, entry{name, id})
		}
	}
	sort.SliceStable(kept, func(i, j int) bool {
		if kept[i].name != kept[j].name {
			return kept[i].name < kept[j].name
		}
		return kept[i].id < kept[j].id
	})
	out := make([]string, 0, len(kept))
	for _, e := range kept {
		out = append(out, e.id)
	}
	return out
}

// cloudIDs lists, as astra_clouds orders them, the clouds Astra Control holds that keep accepts.
func (a *accTarget) cloudIDs(keep func(astra.Cloud) bool) func() ([]string, error) {
	return func() ([]string, error) {
		clouds, err := a.client.ListClouds(t0(), astra.ListOptions{})
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
					statecheck.ExpectKnownValue("data.astra_cloud.private", tfjsonpath.New("id"), knownvalue.StringExact(seeds.PrivateCloudID)),
					statecheck.ExpectKnownValue("data.astra_cloud.private", tfjsonpath.New("cloud_type"), knownvalue.StringExact("private")),
					statecheck.ExpectKnownValue("data.astra_cloud.private", tfjsonpath.New("state"), knownvalue.StringExact("running")),
					statecheck.ExpectKnownValue("data.astra_cloud.gcp", tfjsonpath.New("name"), knownvalue.StringExact("GCP")),
					// The service answers "GCP"; data sources always report the lowercase type.
					statecheck.ExpectKnownValue("data.astra_cloud.gcp", tfjsonpath.New("cloud_type"), knownvalue.StringExact("gcp")),
					statecheck.ExpectKnownValue("data.astra_cloud.gcp", tfjsonpath.New("credential_id"), knownvalue.StringExact(seeds.GCP.CredentialID)),
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
