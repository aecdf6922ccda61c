package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

const groupAddr = "astra_group.ops"

// bindLDAP configures the simulator's LDAP through the API (valid at once), as an admin
// would have done in the web UI.
func (a *accTarget) bindLDAP() {
	a.t.Helper()
	ctx := testContext()
	cred, err := a.client.CreateCredential(ctx, astra.LDAPBindCredential("bind-"+randomHex(4), astrasim.DirectoryBindDN, astrasim.DirectoryBindPassword))
	if err != nil {
		a.t.Fatal(err)
	}
	s, err := a.client.LDAPSetting(ctx)
	if err != nil {
		a.t.Fatal(err)
	}
	s.DesiredConfig = astra.LDAPConfig{ConnectionHost: astrasim.DirectoryHost, Port: 636, SecureMode: "LDAPS", CredentialID: cred.ID,
		UserBaseDN: astrasim.DirectoryUserBase, UserSearchFilter: "(objectClass=Person)", GroupBaseDN: astrasim.DirectoryGroupBase, Enabled: true}.Config()
	if _, err := a.client.UpdateSetting(ctx, s); err != nil {
		a.t.Fatal(err)
	}
	if _, err := astra.Wait(ctx, a.waitSchedule(), func(ctx context.Context) (*astra.Setting, error) { return a.client.GetSetting(ctx, s.ID) }, astra.LDAPApplied); err != nil {
		a.t.Fatal(err)
	}
}

// groupDN is the test group's DN, spelled unlike the service answers it (capitals, a space).
const groupDN = "CN=Ops, OU=Groups,DC=example,DC=com"

func groupHCL(name string) string {
	dn, n := groupDN, ""
	if name != "" {
		n = fmt.Sprintf("  name    = %q\n", name)
	}
	return fmt.Sprintf("resource \"astra_group\" \"ops\" {\n  auth_id = %q\n%s}\n", dn, n)
}

// TestAccGroup_lifecycleImportAndPlanTime: an LDAP group by DN, spelled in upper case (the
// service lower-cases it: no change planned); a new name is one PUT; an import plans
// nothing; a DN the directory lacks is refused at plan while LDAP is valid.
func TestAccGroup_lifecycleImportAndPlanTime(t *testing.T) {
	a := newAccTarget(t, centerRelease())
	a.requireSim("binds to the simulator's directory")
	a.bindLDAP()
	dn := groupDN
	sameID := statecheck.CompareValue(compare.ValuesSame())
	var counts countDelta
	var id string
	a.test(resource.TestCase{
		CheckDestroy: func(s *terraform.State) error {
			return allGone(s, "astra_group", "group", func(id string) error { _, err := a.client.GetGroup(testContext(), id); return err })
		},
		Steps: []resource.TestStep{
			{
				Config: a.config(groupHCL("")),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(groupAddr, tfjsonpath.New("id")),
					expectString(groupAddr, "auth_id", dn), expectString(groupAddr, "name", "Ops")},
				Check: recordID(groupAddr, &id),
			},
			{Config: a.config(groupHCL("")), ConfigPlanChecks: emptyPlan()},
			{
				PreConfig:         func() { a.markCounts(&counts) },
				Config:            a.config(groupHCL("Operations")),
				ConfigPlanChecks:  planned(groupAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(groupAddr, tfjsonpath.New("id")), expectString(groupAddr, "name", "Operations")},
				Check: a.simCheck("one PUT", func(sim *astrasim.Sim) error {
					return expectCounts(counts.since(sim, "PUT "+routeGroup), 1, counts.since(sim, "POST "+routeGroups), 0)
				}),
			},
			{
				Config: requiredProvidersHCL() + a.config(groupHCL("Operations")), ResourceName: groupAddr, ImportState: true,
				ImportStateKind: resource.ImportBlockWithID, ImportStateIdFunc: func(*terraform.State) (string, error) { return id, nil },
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config:   a.config(groupHCL("Operations") + "resource \"astra_group\" \"nobody\" {\n  auth_id = \"cn=nobody,ou=groups,dc=example,dc=com\"\n}\n"),
				PlanOnly: true,
				ExpectError: errorPhrases("No such group in the directory", `has no group with the DN "cn=nobody,ou=groups,dc=example,dc=com"`,
					"astra_ldap_groups data source"),
			},
			{
				// The data sources read the same: the group Astra Control holds, the directory's groups.
				Config: a.config(groupHCL("Operations") + "data \"astra_groups\" \"all\" {}\ndata \"astra_ldap_groups\" \"ops\" {\n  cn = \"OPS\"\n}\n"),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("data.astra_groups.all", "groups.#", "1"),
					resource.TestCheckResourceAttr("data.astra_groups.all", "groups.0.name", "Operations"),
					resource.TestCheckResourceAttr("data.astra_ldap_groups.ops", "groups.#", "1"),
					resource.TestCheckResourceAttr("data.astra_ldap_groups.ops", "groups.0.dn", "cn=ops,"+astrasim.DirectoryGroupBase)),
			},
		},
	})
}
