package provider

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

const ldapAddr = "astra_ldap.corp"

// accessSecretsHCL is LDAP bound with the password in bindFile and a local user whose
// password is in passwordFile, both write-only, with their versions.
func accessSecretsHCL(email, passwordFile, passwordVersion, bindFile, bindVersion string) string {
	return fmt.Sprintf(`
resource "astra_ldap" "corp" {
  url                      = "ldaps://%s"
  bind_dn                  = %q
  bind_password_wo         = file(%q)
  bind_password_wo_version = %q
  user_search_base         = %q
  group_search_base        = %q
}
resource "astra_user" "dev" {
  email               = %q
  auth_provider       = "local"
  password_wo         = file(%q)
  password_wo_version = %q
  temporary_password  = true
}
`, astrasim.DirectoryHost, astrasim.DirectoryBindDN, filepath.ToSlash(bindFile), bindVersion, astrasim.DirectoryUserBase,
		astrasim.DirectoryGroupBase, email, filepath.ToSlash(passwordFile), passwordVersion)
}

// TestAccAccess_writeOnlySecrets: a local user's password and LDAP's bind password are
// write-only. Under a CLI with write-only arguments they reach Astra Control (the password
// as the user's passwordHash credential, the bind password in the credential LDAP binds
// with, so LDAP turns valid) and never the plan, the state or the TRACE logs; a new version
// sends them again in place; a wrong bind password fails the apply with the service's
// reason; destroy disables LDAP. Terraform 1.5 gets the clear error instead.
func TestAccAccess_writeOnlySecrets(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_LOG_PATH_MASK", filepath.Join(dir, "%s.log"))
	a := newAccTarget(t, centerRelease(), serial())
	a.requireSim("binds to the simulator's directory")
	secret := func(name, value string) string {
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, []byte(value), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	password1, password2 := "Pw1-"+randomHex(10), "Pw2-"+randomHex(10)
	pw1, pw2 := secret("pw1", password1), secret("pw2", password2)
	wrong := "wrong-bind-" + randomHex(8)
	bind, bindWrong := secret("bind", astrasim.DirectoryBindPassword), secret("bind-wrong", wrong)
	email := "wo-" + randomHex(4) + "@example.com"
	if os.Getenv(resource.EnvTfAcc) == "" || !cliSupportsWriteOnly(t) {
		t.Log("this CLI has no write-only arguments: checking the error that says so")
		a.test(resource.TestCase{Steps: []resource.TestStep{{
			Config:      a.config(accessSecretsHCL(email, pw1, "1", bind, "1")),
			ExpectError: regexp.MustCompile(`(?s)Write-only arguments need a newer CLI.*password_wo is a write-only argument`),
		}}})
		return
	}
	var counts countDelta
	var userID string
	woNull := func(addr, attr string) plancheck.PlanCheck {
		return plancheck.ExpectKnownValue(addr, tfjsonpath.New(attr), knownvalue.Null())
	}
	a.test(resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			s, err := a.client.LDAPSetting(testContext())
			if err != nil {
				return err
			}
			if cfg := astra.LDAPConfigOf(s.CurrentConfig); cfg.Enabled || cfg.ConnectionHost != astrasim.DirectoryHost {
				return fmt.Errorf("destroy must disable LDAP and keep its configuration: enabled %v, host %q", cfg.Enabled, cfg.ConnectionHost)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config:           a.config(accessSecretsHCL(email, pw1, "1", bind, "1")),
				ConfigPlanChecks: prePlan(woNull(userAddr, "password_wo"), woNull(ldapAddr, "bind_password_wo")),
				ConfigStateChecks: []statecheck.StateCheck{
					expectNull(userAddr, "password_wo"), expectNull(ldapAddr, "bind_password_wo"),
					expectString(ldapAddr, "state", "valid"), expectString(userAddr, "password_wo_version", "1"),
					statecheck.ExpectKnownValue(ldapAddr, tfjsonpath.New("port"), knownvalue.Int64Exact(636)),
				},
				Check: resource.ComposeAggregateTestCheckFunc(recordID(userAddr, &userID), func(*terraform.State) error {
					c, err := a.client.FindCredential(testContext(), userID)
					if err != nil || c == nil || c.KeyType != astra.KeyTypePasswordHash {
						return fmt.Errorf("the user's password credential: %+v: %w", c, err)
					}
					return nil
				}),
			},
			{
				PreConfig: func() { a.markCounts(&counts) },
				Config:    a.config(accessSecretsHCL(email, pw2, "2", bind, "1")),
				ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction(userAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction(ldapAddr, plancheck.ResourceActionNoop), woNull(userAddr, "password_wo")),
				Check: a.simCheck("the password sent again in one credential PUT; the user itself unchanged", func(sim *astrasim.Sim) error {
					return expectCounts(counts.since(sim, "PUT "+routeCredential), 1, counts.since(sim, "PUT "+routeUser), 0,
						counts.since(sim, "POST "+routeCredentials), 0)
				}),
			},
			{
				Config: a.config(accessSecretsHCL(email, pw2, "2", bindWrong, "2")),
				ExpectError: errorPhrases("LDAP configuration not applied", "Astra Control reports the LDAP setting as error",
					`LDAP Result Code 49 "Invalid Credentials"`),
			},
			{
				Config:            a.config(accessSecretsHCL(email, pw2, "2", bind, "3")),
				ConfigStateChecks: []statecheck.StateCheck{expectString(ldapAddr, "state", "valid")},
			},
		},
	})
	logs := readLogs(t, dir)
	if !strings.Contains(logs, "/core/v1/settings") || !strings.Contains(logs, "astra_user") {
		t.Fatalf("the TRACE logs (%d bytes) lack the requests: logging was not captured", len(logs))
	}
	b64 := base64.StdEncoding.EncodeToString
	for what, s := range map[string]string{
		"the first password": password1, "the second password": password2, "the bind password": astrasim.DirectoryBindPassword,
		"the wrong bind password": wrong, "the password as base64": b64([]byte(password1)), "the bind password as base64": b64([]byte(astrasim.DirectoryBindPassword)),
	} {
		if i := strings.Index(logs, s); i >= 0 {
			t.Errorf("%s appears in the logs: ...%s...", what, excerpt(logs, i))
		}
	}

}
