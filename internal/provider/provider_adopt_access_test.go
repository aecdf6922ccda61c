package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// TestAccAdoptAccess brings an account's users and role bindings under code as the
// adoption guide's "Access" section does with Terraform 1.5 (literal import blocks by ID;
// the guide's for_each form needs 1.7): users made outside Terraform, local and LDAP, and
// their bindings, one limited to labelled namespaces, and an LDAP group with its binding.
// The plan only imports them, the apply sends no write, and the next plan is empty.
func TestAccAdoptAccess(t *testing.T) {
	requireTFAcc(t)
	a := newAccTarget(t, centerRelease())
	a.requireSim("seeds users and counts the simulator's requests")
	ctx := testContext()
	var hcl strings.Builder
	want := map[string]int{}
	adopt := func(typ, name, id, body string) {
		fmt.Fprintf(&hcl, "import {\n  to = %s.%s\n  id = %q\n}\nresource %q %q {\n%s}\n", typ, name, id, typ, name, body)
		want[typ]++
	}
	dev := a.seedUser("adopt-dev")
	adopt("astra_user", "dev", dev.ID, fmt.Sprintf("  email         = %q\n  first_name    = \"Seeded\"\n  auth_provider = \"local\"\n", dev.Email))
	ldapUser, err := a.client.CreateUser(ctx, astra.UserCreate{Email: "bob@example.com", FirstName: "Bob", LastName: "Payments",
		AuthProvider: astra.AuthProviderLDAP, AuthID: "CN=Bob Payments,OU=users,DC=example,DC=com"})
	if err != nil {
		t.Fatal(err)
	}
	adopt("astra_user", "bob", ldapUser.ID, "  email         = \"bob@example.com\"\n  first_name    = \"Bob\"\n  last_name     = \"Payments\"\n"+
		"  auth_provider = \"ldap\"\n  auth_id       = \"CN=Bob Payments,OU=users,DC=example,DC=com\"\n")
	devBinding, err := a.client.CreateRoleBinding(ctx, astra.RoleBindingCreate{UserID: dev.ID, Role: astra.RoleMember,
		Constraints: []string{astra.NamespaceLabelConstraint("team=payments"), astra.NamespaceLabelConstraint("team=orders")}})
	if err != nil {
		t.Fatal(err)
	}
	adopt("astra_role_binding", "dev", devBinding.ID, "  user_id = astra_user.dev.id\n  role    = \"member\"\n"+
		"  namespace_constraints = [\n    { kubernetes_labels = \"team=orders\" },\n    { kubernetes_labels = \"team=payments\" },\n  ]\n")
	bobBinding, err := a.client.CreateRoleBinding(ctx, astra.RoleBindingCreate{UserID: ldapUser.ID, Role: astra.RoleViewer})
	if err != nil {
		t.Fatal(err)
	}
	adopt("astra_role_binding", "bob", bobBinding.ID, "  user_id = astra_user.bob.id\n  role    = \"viewer\"\n")
	group, err := a.client.CreateGroup(ctx, "", "cn=auditors,ou=groups,dc=example,dc=com")
	if err != nil {
		t.Fatal(err)
	}
	adopt("astra_group", "auditors", group.ID, "  auth_id = \"CN=Auditors,OU=Groups,DC=example,DC=com\"\n")
	groupBinding, err := a.client.CreateRoleBinding(ctx, astra.RoleBindingCreate{GroupID: group.ID, Role: astra.RoleViewer})
	if err != nil {
		t.Fatal(err)
	}
	adopt("astra_role_binding", "auditors", groupBinding.ID, "  group_id = astra_group.auditors.id\n  role     = \"viewer\"\n")
	w := a.newCLIWork().rootModule(map[string]string{"main.tf": hcl.String()})
	if summary := w.planOnlyImports(want); summary != "Plan: 6 to import, 0 to add, 0 to change, 0 to destroy." {
		t.Errorf("plan summary %q", summary)
	}
	w.applyAndReplan()
}
