package provider

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

const (
	userAddr        = "astra_user.dev"
	roleBindingAddr = "astra_role_binding.dev"

	routeUsers        = "/core/v1/users"
	routeUser         = "/core/v1/users/{user_id}"
	routeRoleBindings = "/core/v1/roleBindings"
	routeRoleBinding  = "/core/v1/roleBindings/{roleBinding_id}"
	routeGroups       = "/core/v1/groups"
	routeGroup        = "/core/v1/groups/{group_id}"
	routeUserTokens   = "/core/v1/users/{user_id}/tokens"
	routeUserToken    = "/core/v1/users/{user_id}/tokens/{token_id}"
	routeSettings     = "/core/v1/settings"
	routeSetting      = "/core/v1/settings/{setting_id}"
)

// centerRelease: local users, groups and LDAP are Astra Control Center's (24.02).
func centerRelease() accOption { return withSim(func(o *astrasim.Options) { o.Release = "24.02" }) }

// userHCL is a local user and its binding; constraints are HCL objects of namespace_constraints.
func userHCL(email, firstName, role string, constraints ...string) string {
	cs := ""
	if len(constraints) > 0 {
		cs = "  namespace_constraints = [\n    " + strings.Join(constraints, ",\n    ") + ",\n  ]\n"
	}
	return fmt.Sprintf(`
resource "astra_user" "dev" {
  email         = %q
  first_name    = %q
  last_name     = "Dev"
  auth_provider = "local"
}
resource "astra_role_binding" "dev" {
  user_id = astra_user.dev.id
  role    = %q
%s}
`, email, firstName, role, cs)
}

// checkAccessDestroyed: every user and binding of the test is gone.
func (a *accTarget) checkAccessDestroyed(s *terraform.State) error {
	if err := allGone(s, "astra_role_binding", "role binding", func(id string) error {
		_, err := a.client.GetRoleBinding(testContext(), id)
		return err
	}); err != nil {
		return err
	}
	return allGone(s, "astra_user", "user", func(id string) error {
		_, err := a.client.GetUser(testContext(), id)
		return err
	})
}

// TestAccUser_lifecycleAndImport: a local user and its member binding limited to two
// labelled namespaces; a reorder of the constraints plans nothing; a new first name and a
// new role are one PUT each, never a delete and re-create; import by ID plans nothing;
// destroy removes both.
func TestAccUser_lifecycleAndImport(t *testing.T) {
	a := newAccTarget(t, centerRelease())
	email := "dana-" + randomHex(4) + "@example.com"
	payments, orders := `{ kubernetes_labels = "team=payments" }`, `{ kubernetes_labels = "team=orders" }`
	sameUser := statecheck.CompareValue(compare.ValuesSame())
	sameBinding := statecheck.CompareValue(compare.ValuesSame())
	var counts countDelta
	var bindingID string
	a.test(resource.TestCase{
		CheckDestroy: a.checkAccessDestroyed,
		Steps: []resource.TestStep{
			{
				Config: a.config(userHCL(email, "Dana", "member", payments, orders)),
				ConfigStateChecks: []statecheck.StateCheck{
					sameUser.AddStateValue(userAddr, tfjsonpath.New("id")),
					sameBinding.AddStateValue(roleBindingAddr, tfjsonpath.New("id")),
					expectString(userAddr, "state", "active"),
					expectString(roleBindingAddr, "role", "member"),
					statecheck.ExpectKnownValue(roleBindingAddr, tfjsonpath.New("namespace_constraints"), setOfLabels("team=payments", "team=orders")),
				},
				Check: resource.ComposeAggregateTestCheckFunc(recordID(roleBindingAddr, &bindingID),
					func(*terraform.State) error {
						return a.bindingConstraintsAre(bindingID, "namespaces:kubernetesLabels='team=orders'.*", "namespaces:kubernetesLabels='team=payments'.*")
					},
					a.simCheck("one POST each", func(sim *astrasim.Sim) error {
						return expectCounts(sim.Count("POST", routeUsers), 1, sim.Count("POST", routeRoleBindings), 1)
					})),
			},
			{Config: a.config(userHCL(email, "Dana", "member", orders, payments)), ConfigPlanChecks: emptyPlan()},
			{
				PreConfig: func() { a.markCounts(&counts) },
				Config:    a.config(userHCL(email, "Danielle", "admin", orders)),
				ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction(userAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction(roleBindingAddr, plancheck.ResourceActionUpdate)),
				ConfigStateChecks: []statecheck.StateCheck{
					sameUser.AddStateValue(userAddr, tfjsonpath.New("id")),
					sameBinding.AddStateValue(roleBindingAddr, tfjsonpath.New("id")),
					expectString(userAddr, "first_name", "Danielle"),
					expectString(roleBindingAddr, "role", "admin"),
				},
				Check: a.simCheck("one PUT each, conditional; no POST, no DELETE", func(sim *astrasim.Sim) error {
					return expectCounts(counts.since(sim, "PUT "+routeUser), 1, counts.since(sim, "PUT "+routeRoleBinding), 1,
						sim.CountConditional("PUT", routeRoleBinding), 1,
						counts.since(sim, "POST "+routeRoleBindings), 0, counts.since(sim, "DELETE "+routeRoleBinding), 0,
						counts.since(sim, "POST "+routeUsers), 0)
				}),
			},
			{Config: requiredProvidersHCL() + a.config(userHCL(email, "Danielle", "admin", orders)), ResourceName: userAddr, ImportState: true, ImportStateVerify: true},
			{Config: requiredProvidersHCL() + a.config(userHCL(email, "Danielle", "admin", orders)), ResourceName: roleBindingAddr, ImportState: true, ImportStateVerify: true},
			{
				Config: requiredProvidersHCL() + a.config(userHCL(email, "Danielle", "admin", orders)), ResourceName: roleBindingAddr, ImportState: true,
				ImportStateKind: resource.ImportBlockWithID, ImportStateIdFunc: func(*terraform.State) (string, error) { return bindingID, nil },
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{Config: a.config(userHCL(email, "Danielle", "admin", orders)), ConfigPlanChecks: emptyPlan()},
		},
	})
}

// setOfLabels is a namespace_constraints value of label entries.
func setOfLabels(labels ...string) knownvalue.Check {
	var elems []knownvalue.Check
	for _, l := range labels {
		elems = append(elems, knownvalue.ObjectExact(map[string]knownvalue.Check{
			"namespace_id": knownvalue.Null(), "kubernetes_labels": knownvalue.StringExact(l)}))
	}
	return knownvalue.SetExact(elems)
}

// bindingConstraintsAre checks the constraints Astra Control holds for binding id (in any order).
func (a *accTarget) bindingConstraintsAre(id string, want ...string) error {
	b, err := a.client.GetRoleBinding(testContext(), id)
	if err != nil {
		return err
	}
	got := slices.Sorted(slices.Values(b.RoleConstraints))
	if !slices.Equal(got, slices.Sorted(slices.Values(want))) {
		return fmt.Errorf("role binding %s holds constraints %q, want %q", id, got, want)
	}
	return nil
}
