package provider

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// The fault matrix of identity and access (issue 47), beside the one of the day-one objects
// (provider_fault_matrix_test.go): each fault on each create and update route of users,
// groups and role bindings, applied by the CLI binary. After every apply Astra Control
// holds exactly the users, groups and bindings state holds (the seeded owner's aside); once
// the faults are spent the next apply converges and the plan after it is empty; destroy
// then leaves nothing behind.

var (
	accessPostRoutes = []string{routeUsers, routeGroups, routeRoleBindings}
	accessPutRoutes  = []string{routeUser, routeGroup, routeRoleBinding}
)

// accessMatrixHCL is a local user and an LDAP group, each with a binding; changed renames
// the user and the group and changes both roles (one PUT on each update route).
func accessMatrixHCL(prefix string, changed bool) string {
	first, group, role := "Fault", "Faulted", "member"
	if changed {
		first, group, role = "Fixed", "Fixed", "viewer"
	}
	return fmt.Sprintf(`
resource "astra_user" "u" {
  email         = "%[1]s@example.com"
  first_name    = %[2]q
  auth_provider = "local"
}
resource "astra_role_binding" "u" {
  user_id               = astra_user.u.id
  role                  = %[4]q
  namespace_constraints = [{ kubernetes_labels = "team=%[1]s" }]
}
resource "astra_group" "g" {
  auth_id = "cn=payments,ou=groups,dc=example,dc=com"
  name    = %[3]q
}
resource "astra_role_binding" "g" {
  group_id = astra_group.g.id
  role     = %[4]q
}
`, prefix, first, group, role)
}

// accessHeld is what Astra Control holds of the test's kinds, as "kind id", sorted (the
// seeded users and their bindings left out).
func accessHeld(h *cliHarness, seeded map[string]bool) []string {
	c := h.client()
	var out []string
	users, err1 := c.ListUsers(testContext(), astra.ListOptions{})
	groups, err2 := c.ListGroups(testContext(), astra.ListOptions{})
	bindings, err3 := c.ListRoleBindings(testContext(), astra.ListOptions{})
	if err := firstErr(err1, err2, err3); err != nil {
		h.t.Fatalf("listing identity objects: %v", err)
	}
	for _, u := range users {
		if !seeded[u.ID] {
			out = append(out, "astra_user "+u.ID)
		}
	}
	for _, g := range groups {
		out = append(out, "astra_group "+g.ID)
	}
	for _, b := range bindings {
		if !seeded[b.ID] {
			out = append(out, "astra_role_binding "+b.ID)
		}
	}
	slices.Sort(out)
	return out
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// accessInState is the state's objects as "type id", sorted.
func accessInState(h *cliHarness) []string {
	var out []string
	for _, o := range h.state() {
		out = append(out, o.Type+" "+o.ID)
	}
	slices.Sort(out)
	return out
}

// TestAccAccessFaultMatrix runs, for each fault kind, the fault on every POST route, then
// on every PUT route, of identity and access.
func TestAccAccessFaultMatrix(t *testing.T) {
	requireTFAcc(t)
	kinds := []astrasim.FaultKind{astrasim.FaultUnavailable, astrasim.FaultInternal, astrasim.FaultBadGateway, astrasim.FaultReset, astrasim.FaultLostAnswer}
	for _, kind := range kinds {
		for _, method := range []string{"POST", "PUT"} {
			t.Run(string(kind)+"-"+method, func(t *testing.T) {
				t.Parallel()
				h := newCLIHarness(t, astrasim.Options{Release: "24.02"}, "")
				prefix := "fault-" + strings.ToLower(randomHex(4))
				seeded := map[string]bool{}
				for _, s := range accessHeld(h, nil) {
					seeded[strings.Fields(s)[1]] = true
				}
				routes := accessPostRoutes
				if method == "PUT" {
					routes = accessPutRoutes
					h.write(accessMatrixHCL(prefix, false))
					if r := h.apply(); r.err != nil {
						t.Fatalf("the first apply: %v\n%s", r.err, r.out)
					}
				}
				for _, route := range routes {
					h.sim().AddFault(astrasim.Fault{Method: method, Route: route, Kind: kind, Times: 1})
				}
				h.write(accessMatrixHCL(prefix, method == "PUT"))
				for i := 0; i < len(routes)+1; i++ { // each fault may cost one failed apply
					r := h.apply()
					if held, state := accessHeld(h, seeded), accessInState(h); !slices.Equal(held, state) {
						t.Fatalf("after apply %d: Astra Control holds %v, state %v\n%s", i+1, held, state, r.out)
					}
					if r.err == nil {
						break
					}
				}
				for _, route := range routes {
					if n := h.sim().Fired(method, route, kind); n != 1 {
						t.Errorf("fault %s on %s %s fired %d times, want 1", kind, method, route, n)
					}
				}
				if err := h.planIsEmpty(); err != nil {
					t.Fatal(err)
				}
				if r := h.run(testContext(), "destroy", "-auto-approve", "-input=false", "-no-color"); r.err != nil {
					t.Fatalf("destroy: %v\n%s", r.err, r.out)
				}
				if held := accessHeld(h, seeded); len(held) != 0 {
					t.Fatalf("destroy left %v", held)
				}
			})
		}
	}
}

// client is an API client of the harness's simulator, for assertions outside the CLI.
func (h *cliHarness) client() *astra.Client {
	h.t.Helper()
	c, err := astra.New(astra.Config{Endpoint: h.url, AccountID: h.sim().AccountID(), Token: astrasim.DefaultToken, MaxRetries: 3})
	if err != nil {
		h.t.Fatal(err)
	}
	return c
}
