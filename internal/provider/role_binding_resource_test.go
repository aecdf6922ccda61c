package provider

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// jwtFor is a token shaped like Astra Control's (a JWT) whose claims name userID; the
// simulator takes any configured string as a token, and the provider reads the claim.
func jwtFor(userID string) string {
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + enc([]byte(`{"userID":"`+userID+`"}`)) + ".c2ln"
}

// tokenUserOf is the user the simulator gives the configured token at index (in the order of
// the tokens' names) of opts: a simulator started with the same options and seed gives the
// same user to a token at the same place, whatever the token's text.
func tokenUserOf(t *testing.T, opts astrasim.Options, role astrasim.Role) (userID, bindingID string) {
	t.Helper()
	sim, err := astrasim.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodGet, "/accounts/"+sim.AccountID()+"/core/v1/roleBindings", nil)
	req.Header.Set("Authorization", "Bearer "+astrasim.DefaultToken)
	rec := httptest.NewRecorder()
	sim.ServeHTTP(rec, req)
	var list struct{ Items []astra.RoleBinding }
	if err := json.Unmarshal(rec.Body.Bytes(), &list); err != nil || rec.Code != http.StatusOK {
		t.Fatalf("listing the seeded role bindings: %d %v %s", rec.Code, err, rec.Body.String())
	}
	for _, b := range list.Items {
		if b.Role == string(role) {
			return b.User(), b.ID
		}
	}
	t.Fatalf("no seeded %s binding in %s", role, rec.Body.String())
	return "", ""
}

// TestAccRoleBinding_ownLastBindingPlanTime: the provider's own user (an admin whose token
// names it) has one binding, imported into the configuration; a configuration that drops
// it is refused at plan, naming the lock-out, and nothing is deleted.
func TestAccRoleBinding_ownLastBindingPlanTime(t *testing.T) {
	requireTFAcc(t)
	placeholder := "eyJ-admin-placeholder" // sorts after astrasim.DefaultToken, as every JWT does
	probe := astrasim.Options{Release: "24.02", Tokens: map[string]astrasim.Role{astrasim.DefaultToken: astrasim.RoleOwner, placeholder: astrasim.RoleAdmin}}
	adminID, bindingID := tokenUserOf(t, probe, astrasim.RoleAdmin)
	jwt := jwtFor(adminID)
	a := newAccTarget(t, withSim(func(o *astrasim.Options) {
		o.Release, o.Tokens = "24.02", map[string]astrasim.Role{astrasim.DefaultToken: astrasim.RoleOwner, jwt: astrasim.RoleAdmin}
	}))
	a.requireSim("runs as a seeded admin whose token names its user")
	a.providerHCL = strings.Replace(a.providerHCL, astrasim.DefaultToken, jwt, 1)
	own := fmt.Sprintf(`
import {
  to = astra_role_binding.me
  id = %q
}
resource "astra_role_binding" "me" {
  user_id = %q
  role    = "admin"
}
`, bindingID, adminID)
	var counts countDelta
	a.test(resource.TestCase{
		Steps: []resource.TestStep{
			{Config: requiredProvidersHCL() + a.config(own)},
			{
				PreConfig: func() { a.markCounts(&counts) },
				Config:    requiredProvidersHCL() + a.config(`# the admin's own binding is no longer declared`),
				PlanOnly:  true,
				ExpectError: errorPhrases("Removing the provider's own last role binding", "role binding "+bindingID+", the last one of user "+adminID,
					"the user whose API token this provider uses", "locking the configuration out of the account"),
			},
			{
				// The refusal came from the plan: the binding is still there, and the
				// configuration that keeps it plans nothing. (The owner's token here, so that
				// the test's final destroy may remove the admin's binding.)
				Config:           requiredProvidersHCL() + strings.Replace(a.config(own), jwt, astrasim.DefaultToken, 1),
				ConfigPlanChecks: emptyPlan(),
				Check: resource.ComposeAggregateTestCheckFunc(func(*terraform.State) error {
					_, err := a.client.GetRoleBinding(testContext(), bindingID)
					return err
				}, a.simCheck("nothing deleted", func(sim *astrasim.Sim) error {
					return expectCount(counts.since(sim, "DELETE "+routeRoleBinding), 0)
				})),
			},
		},
	})
}

// TestAccRoleBinding_lastBindingTakesTheUser: a plan that destroys a local user's last
// binding while the user stays declared warns that Astra Control deletes the user too; the
// apply does, and the next plan shows the user gone (to be created again), not an error.
func TestAccRoleBinding_lastBindingTakesTheUser(t *testing.T) {
	requireTFAcc(t)
	a := newAccTarget(t, centerRelease())
	a.requireSim("drives the CLI against the simulator")
	email := "leaver-" + randomHex(4) + "@example.com"
	user := fmt.Sprintf(`
resource "astra_user" "dev" {
  email         = %q
  auth_provider = "local"
}
`, email)
	binding := `
resource "astra_role_binding" "dev" {
  user_id = astra_user.dev.id
  role    = "viewer"
}
`
	w := a.newCLIWork().rootModule(map[string]string{"main.tf": user + binding})
	w.cmd("apply", "-auto-approve", "-input=false", "-no-color")
	found, err := a.client.FindUser(testContext(), email)
	if err != nil || found == nil {
		t.Fatalf("the user was not created: %v", err)
	}
	if err := os.WriteFile(filepath.Join(w.dir, "main.tf"), []byte(user), 0o600); err != nil {
		t.Fatal(err)
	}
	out, code := w.run([]int{0, 2}, "plan", "-input=false", "-no-color", "-detailed-exitcode", "-out=drop.tfplan")
	for _, want := range []string{"Warning: The user goes with its last role binding", "Astra Control deletes a local user together with", "next plan", "shows it gone and proposes to create it again", "astra_role_binding.dev will be destroyed"} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) || code != 2 {
			t.Fatalf("the plan (exit %d) lacks %q:\n%s", code, want, out)
		}
	}
	w.cmd("apply", "-input=false", "-no-color", "drop.tfplan")
	if _, err := a.client.GetUser(testContext(), found.ID); !astra.IsNotFound(err) {
		t.Fatalf("Astra Control kept the user after its last binding went: %v", err)
	}
	out, code = w.run([]int{2}, "plan", "-input=false", "-no-color", "-detailed-exitcode")
	if !regexp.MustCompile(`astra_user\.dev will be created`).MatchString(out) || !strings.Contains(out, "Object deleted outside Terraform") {
		t.Fatalf("the next plan (exit %d) should show the user gone, to be created again:\n%s", code, out)
	}
}

// TestAccUser_replacementWarnsPlanTime: a new email replaces the user, and the plan warns
// that Astra Control deletes the user's bindings with it (the binding that refers to the
// user is replaced too).
func TestAccUser_replacementWarnsPlanTime(t *testing.T) {
	requireTFAcc(t)
	a := newAccTarget(t, centerRelease())
	a.requireSim("drives the CLI against the simulator")
	hcl := func(email string) string {
		return fmt.Sprintf("resource \"astra_user\" \"dev\" {\n  email         = %q\n  auth_provider = \"local\"\n}\n"+
			"resource \"astra_role_binding\" \"dev\" {\n  user_id = astra_user.dev.id\n  role    = \"viewer\"\n}\n", email)
	}
	first := "mover-" + randomHex(4) + "@example.com"
	w := a.newCLIWork().rootModule(map[string]string{"main.tf": hcl(first)})
	w.cmd("apply", "-auto-approve", "-input=false", "-no-color")
	if err := os.WriteFile(filepath.Join(w.dir, "main.tf"), []byte(hcl("moved-"+first)), 0o600); err != nil {
		t.Fatal(err)
	}
	out, code := w.run([]int{2}, "plan", "-input=false", "-no-color", "-detailed-exitcode")
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"Warning: Replacing the user removes its role bindings", "A change of [email] replaces the user " + first,
		"every role binding that names it", "astra_user.dev must be replaced", "astra_role_binding.dev must be replaced"} {
		if !strings.Contains(flat, want) {
			t.Fatalf("the plan (exit %d) lacks %q:\n%s", code, want, out)
		}
	}
	w.cmd("destroy", "-auto-approve", "-input=false", "-no-color")
}
