package provider

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// ownerUserID is the user the simulator's default (owner) token belongs to.
func (a *accTarget) ownerUserID() string {
	a.t.Helper()
	bindings, err := a.client.ListRoleBindings(testContext(), astra.ListOptions{})
	if err != nil {
		a.t.Fatal(err)
	}
	for _, b := range bindings {
		if b.Role == astra.RoleOwner && b.User() != "" {
			return b.User()
		}
	}
	a.t.Fatal("no owner binding")
	return ""
}

// TestAccAPIToken_ephemeral: an astra_api_token opened for the run authenticates a second
// provider configuration (whose data source reads with it), and is deleted when the run
// ends: every POST of a token has its DELETE, the user has no token afterwards, and
// nothing of it is in the state. Ephemeral resources need Terraform 1.10 or OpenTofu 1.11:
// older CLIs skip, saying so.
func TestAccAPIToken_ephemeral(t *testing.T) {
	requireTFAcc(t)
	desc, _ := describeCLI(os.Getenv("TF_ACC_TERRAFORM_PATH"))
	tofu := strings.HasPrefix(desc, "OpenTofu")
	if (tofu && !cliAtLeast(t, 1, 11)) || (!tofu && !cliAtLeast(t, 1, 10)) {
		t.Skipf("%s has no ephemeral resources (Terraform 1.10 or later, OpenTofu 1.11 or later): astra_api_token needs them", desc)
	}
	a := newAccTarget(t, centerRelease())
	a.requireSim("counts the simulator's token requests")
	owner := a.ownerUserID()
	name := "ci-" + randomHex(6)
	hcl := a.config(fmt.Sprintf(`
ephemeral "astra_api_token" "ci" {
  name    = %q
  user_id = %q
}
provider "astra" {
  alias      = "ci"
  endpoint   = %q
  account_id = %q
  api_token  = ephemeral.astra_api_token.ci.token
}
data "astra_clouds" "via_ci" {
  provider = astra.ci
}
`, name, owner, a.url, a.sim.AccountID()))
	var counts countDelta
	a.markCounts(&counts)
	a.test(resource.TestCase{
		Steps: []resource.TestStep{{
			Config: requiredProvidersHCL() + hcl,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttrSet("data.astra_clouds.via_ci", "clouds.0.id"),
				func(s *terraform.State) error {
					for addr := range s.RootModule().Resources {
						if strings.Contains(addr, "api_token") {
							return fmt.Errorf("%s is in the state", addr)
						}
					}
					return nil
				},
				a.simCheck("each token opened is deleted; none is left", func(sim *astrasim.Sim) error {
					posts, deletes := counts.since(sim, "POST "+routeUserTokens), counts.since(sim, "DELETE "+routeUserToken)
					if posts == 0 || posts != deletes {
						return fmt.Errorf("%d tokens opened, %d deleted", posts, deletes)
					}
					left, err := a.client.ListTokens(testContext(), owner, astra.ListOptions{})
					if err != nil || len(left) != 0 {
						return fmt.Errorf("tokens left: %v: %w", left, err)
					}
					return nil
				}),
			),
		}},
	})
}

// TestAccAPIToken_ephemeralOwnUser: with user_id left out, the token is opened for the
// user of the provider's own token (an API token, a JWT that names its user) and deleted
// at the end of the run.
func TestAccAPIToken_ephemeralOwnUser(t *testing.T) {
	requireTFAcc(t)
	desc, _ := describeCLI(os.Getenv("TF_ACC_TERRAFORM_PATH"))
	tofu := strings.HasPrefix(desc, "OpenTofu")
	if (tofu && !cliAtLeast(t, 1, 11)) || (!tofu && !cliAtLeast(t, 1, 10)) {
		t.Skipf("%s has no ephemeral resources (Terraform 1.10 or later, OpenTofu 1.11 or later): astra_api_token needs them", desc)
	}
	a := newAccTarget(t, centerRelease())
	a.requireSim("counts the simulator's token requests")
	owner := a.ownerUserID()
	own, err := a.client.CreateToken(testContext(), owner, "acc-provider")
	if err != nil {
		t.Fatal(err)
	}
	if id, ok := astra.TokenUserID(own.Secret); !ok || id != owner {
		t.Fatalf("the simulator's API token names user %q (%v), want %s", id, ok, owner)
	}
	a.providerHCL = strings.Replace(a.providerHCL, astrasim.DefaultToken, own.Secret, 1)
	hcl := a.config(`
ephemeral "astra_api_token" "mine" {
  name = "own-user"
}
provider "astra" {
  alias      = "mine"
  endpoint   = "` + a.url + `"
  account_id = "` + a.sim.AccountID() + `"
  api_token  = ephemeral.astra_api_token.mine.token
}
data "astra_users" "mine" {
  provider = astra.mine
}
`)
	var counts countDelta
	a.markCounts(&counts)
	a.test(resource.TestCase{
		Steps: []resource.TestStep{{
			Config: requiredProvidersHCL() + hcl,
			Check: a.simCheck("tokens opened for the own user, and deleted", func(sim *astrasim.Sim) error {
				posts, deletes := counts.since(sim, "POST "+routeUserTokens), counts.since(sim, "DELETE "+routeUserToken)
				if posts == 0 || posts != deletes {
					return fmt.Errorf("%d tokens opened, %d deleted", posts, deletes)
				}
				left, err := a.client.ListTokens(testContext(), owner, astra.ListOptions{})
				if err != nil || len(left) != 1 || left[0].Name != "acc-provider" {
					return fmt.Errorf("the owner's tokens afterwards: %v: %w", left, err)
				}
				return nil
			}),
		}},
	})
}
