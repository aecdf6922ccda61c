package provider

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccExampleAccess applies examples/access as it ships, through the CLI (its for_each
// resources are beyond the test framework's state checks), against Astra Control Center
// 24.02 and its directory: LDAP turns valid, the ops group is bound as admin and the
// payments team's group as member of the namespaces labelled team=payments, and the CI
// token opened for each run is deleted when the run ends. The next plan is empty; destroy
// disables LDAP and removes the groups and bindings. The example needs Terraform 1.11 or
// OpenTofu 1.11 (write-only arguments, ephemeral resources): older CLIs skip, saying so.
//
// One change to the example: the test serves every provider configuration from one
// in-process server (reattached), where the aliased CI configuration, with its own token,
// would take over the default configuration's requests. So its data source reads through
// the default configuration here; the token is opened and deleted just the same.
func TestAccExampleAccess(t *testing.T) {
	requireTFAcc(t)
	testAccPreCheck(t)
	if !cliAtLeast(t, 1, 11) {
		desc, _ := describeCLI(os.Getenv("TF_ACC_TERRAFORM_PATH"))
		t.Skipf("%s cannot run examples/access: its write-only bind password and ephemeral CI token need Terraform or OpenTofu 1.11", desc)
	}
	a := newAccTarget(t, centerRelease())
	a.requireSim("binds to the simulator's directory and counts its token requests")
	ci := a.seedUser("ci")
	if _, err := a.client.CreateRoleBinding(testContext(), astra.RoleBindingCreate{UserID: ci.ID, Role: astra.RoleViewer}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	aliasBlock := regexp.MustCompile(`(?s)\n# The CI pipeline's own configuration.*?\nprovider "astra" \{\n  alias.*?\n\}\n`)
	for _, name := range []string{"main.tf", "variables.tf", "outputs.tf", "versions.tf"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "examples", "access", name))
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		switch name {
		case "main.tf":
			text = strings.Replace(text, "  provider = astra.ci\n", "", 1)
		case "versions.tf":
			text = aliasBlock.ReplaceAllString(text, "\n")
		}
		if strings.Contains(text, "astra.ci\n") || strings.Contains(text, "alias") {
			t.Fatalf("examples/access/%s: the CI provider wiring changed; update this test", name)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	w := a.newCLIWork().in(dir)
	w.cmd("init", "-input=false", "-no-color")
	vars := []string{"-var", "ldap_url=ldaps://" + astrasim.DirectoryHost, "-var", "ldap_bind_dn=" + astrasim.DirectoryBindDN,
		"-var", "ldap_bind_password=" + astrasim.DirectoryBindPassword, "-var", "user_search_base=" + astrasim.DirectoryUserBase,
		"-var", "group_search_base=" + astrasim.DirectoryGroupBase, "-var", "ci_user_id=" + ci.ID, "-var", "pipeline_id=acc"}
	before := a.sim.Counts()
	w.cmd(append([]string{"apply", "-auto-approve", "-input=false", "-no-color"}, vars...)...)
	if out, code := w.run([]int{0, 2}, append([]string{"plan", "-input=false", "-no-color", "-detailed-exitcode"}, vars...)...); code != 0 {
		t.Fatalf("the plan after the apply is not empty:\n%s", out)
	}
	after := a.sim.Counts()
	posts, deletes := after["POST "+routeUserTokens]-before["POST "+routeUserTokens], after["DELETE "+routeUserToken]-before["DELETE "+routeUserToken]
	if posts == 0 || posts != deletes {
		t.Errorf("%d CI tokens opened, %d deleted", posts, deletes)
	}
	if left, err := a.client.ListTokens(testContext(), ci.ID, astra.ListOptions{}); err != nil || len(left) != 0 {
		t.Errorf("CI tokens left: %v (%v)", left, err)
	}
	var st struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address string
					Values  map[string]any
				}
			} `json:"root_module"`
		}
	}
	if err := json.Unmarshal([]byte(w.cmd("show", "-json", "-no-color")), &st); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range st.Values.RootModule.Resources {
		if strings.Contains(r.Address, "api_token") {
			t.Errorf("%s is in the state", r.Address)
		}
		for _, attr := range []string{"state", "role", "auth_id", "namespace_constraints"} {
			if v, ok := r.Values[attr]; ok && v != nil {
				b, _ := json.Marshal(v)
				got[r.Address+"."+attr] = string(b)
			}
		}
	}
	for key, want := range map[string]string{
		"astra_ldap.corp.state":                                     `"valid"`,
		"astra_role_binding.ops.role":                               `"admin"`,
		"astra_group.ops.auth_id":                                   `"CN=ops,OU=groups,DC=example,DC=com"`,
		`astra_role_binding.team["payments"].role`:                  `"member"`,
		`astra_role_binding.team["payments"].namespace_constraints`: `[{"kubernetes_labels":"team=payments","namespace_id":null}]`,
	} {
		if got[key] != want {
			t.Errorf("%s = %s, want %s", key, got[key], want)
		}
	}
	w.cmd(append([]string{"destroy", "-auto-approve", "-input=false", "-no-color"}, vars...)...)
	s, err := a.client.LDAPSetting(testContext())
	if err != nil {
		t.Fatal(err)
	}
	groups, err := a.client.ListGroups(testContext(), astra.ListOptions{})
	if err != nil || len(groups) != 0 || astra.LDAPConfigOf(s.CurrentConfig).Enabled {
		t.Errorf("after destroy: groups %v (%v), LDAP enabled %v", groups, err, astra.LDAPConfigOf(s.CurrentConfig).Enabled)
	}
}
