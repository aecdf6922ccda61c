package provider

import (
	"encoding/json"
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

const (
	credentialAddr   = "astra_kubeconfig_credential.test"
	routeCredentials = "/core/v1/credentials"
	routeCredential  = "/core/v1/credentials/{credential_id}"
)

// writeKubeconfig writes a simulator kubeconfig for server to a file of the test and
// returns its path (HCL reads it with file(), as users do).
func writeKubeconfig(t *testing.T, name, server string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name+".yaml")
	if err := os.WriteFile(path, astrasim.TestKubeconfig(name, server), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func credentialHCL(name, kubeconfigPath string) string {
	return fmt.Sprintf("resource \"astra_kubeconfig_credential\" \"test\" {\n  name       = %q\n  kubeconfig = file(%q)\n}\n", name, kubeconfigPath)
}

func credentialWOHCL(name, kubeconfigPath, version string) string {
	return fmt.Sprintf("resource \"astra_kubeconfig_credential\" \"test\" {\n  name                  = %q\n  kubeconfig_wo         = file(%q)\n  kubeconfig_wo_version = %q\n}\n",
		name, kubeconfigPath, version)
}

// simCredentialServer is the API server the simulator holds for a credential (it keeps
// only the kubeconfig's cluster name and server, never the content).
func simCredentialServer(sim *astrasim.Sim, id string) (string, error) {
	raw, err := sim.Snapshot()
	if err != nil {
		return "", err
	}
	var view struct {
		Credentials map[string]struct {
			Kubeconfig struct{ Server string } `json:"kubeconfig"`
		} `json:"credentials"`
	}
	if err := json.Unmarshal(raw, &view); err != nil {
		return "", err
	}
	c, ok := view.Credentials[id]
	if !ok {
		return "", fmt.Errorf("the simulator holds no credential %s", id)
	}
	return c.Kubeconfig.Server, nil
}

// credentialServerIs checks the kubeconfig the simulator received for the credential in state.
func (a *accTarget) credentialServerIs(want string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		id := s.RootModule().Resources[credentialAddr].Primary.ID
		return a.simCheck("the simulator received the kubeconfig of "+want, func(sim *astrasim.Sim) error {
			got, err := simCredentialServer(sim, id)
			if err == nil && got != want {
				err = fmt.Errorf("server %q, want %q", got, want)
			}
			return err
		})(s)
	}
}

func (a *accTarget) checkCredentialDestroyed(s *terraform.State) error {
	for _, r := range s.RootModule().Resources {
		if r.Type != "astra_kubeconfig_credential" {
			continue
		}
		if err := goneAfterDestroy("credential", r.Primary.ID, func() error { _, err := a.client.GetCredential(t0(), r.Primary.ID); return err }); err != nil {
			return err
		}
	}
	return nil
}

func credentialString(attr, value string) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(credentialAddr, tfjsonpath.New(attr), knownvalue.StringExact(value))
}

// TestAccKubeconfigCredential covers create, empty re-plan, rotation and rename in place,
// import, drift (deleted outside Terraform) and destroy.
func TestAccKubeconfigCredential(t *testing.T) {
	a := newAccTarget(t)
	name, renamed := a.name("cred-one"), a.name("cred-renamed")
	first := writeKubeconfig(t, "cred-one", "https://one.k8s.example:6443")
	second := writeKubeconfig(t, "cred-one", "https://two.k8s.example:6443")
	var counts countDelta
	var createdID string
	a.test(resource.TestCase{
		CheckDestroy: a.checkCredentialDestroyed,
		Steps: []resource.TestStep{
			{
				PreConfig: func() { a.markCounts(&counts) },
				Config:    a.config(credentialHCL(name, first)),
				ConfigStateChecks: []statecheck.StateCheck{
					credentialString("name", name),
					statecheck.ExpectKnownValue(credentialAddr, tfjsonpath.New("valid"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(credentialAddr, tfjsonpath.New("kubeconfig_wo"), knownvalue.Null()),
					statecheck.ExpectKnownValue(credentialAddr, tfjsonpath.New("metadata").AtMapKey("creation_timestamp"), knownvalue.NotNull()),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					func(s *terraform.State) error {
						createdID = s.RootModule().Resources[credentialAddr].Primary.ID
						return nil
					},
					a.credentialServerIs("https://one.k8s.example:6443"),
					a.simCheck("one POST", func(sim *astrasim.Sim) error {
						return expectCount(counts.since(sim, "POST "+routeCredentials), 1)
					}),
				),
			},
			{Config: a.config(credentialHCL(name, first)), ConfigPlanChecks: emptyPlan()},
			{
				// Rotation: a new kubeconfig is a PUT of the same credential.
				PreConfig: func() { a.markCounts(&counts) },
				Config:    a.config(credentialHCL(name, second)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(credentialAddr, plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					a.credentialServerIs("https://two.k8s.example:6443"),
					sameID(credentialAddr, &createdID),
					a.simCheck("one PUT, no POST", func(sim *astrasim.Sim) error {
						return expectCounts(counts.since(sim, "PUT "+routeCredential), 1, counts.since(sim, "POST "+routeCredentials), 0)
					}),
				),
			},
			{
				Config: a.config(credentialHCL(renamed, second)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(credentialAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{credentialString("name", renamed)},
				Check:             sameID(credentialAddr, &createdID),
			},
			{
				ResourceName:            credentialAddr,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"kubeconfig"},
			},
			{
				// Drift: deleted outside Terraform, the credential is planned again.
				PreConfig: func() {
					if err := a.client.DeleteCredential(t0(), createdID); err != nil {
						t.Fatal(err)
					}
				},
				Config: a.config(credentialHCL(renamed, second)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(credentialAddr, plancheck.ResourceActionCreate),
				}},
				Check: a.credentialServerIs("https://two.k8s.example:6443"),
			},
		},
	})
}

// TestAccKubeconfigCredential_invalid refuses at plan time, without sending anything and
// without quoting the kubeconfig, a kubeconfig Astra would refuse.
func TestAccKubeconfigCredential_invalid(t *testing.T) {
	a := newAccTarget(t)
	path := filepath.Join(t.TempDir(), "two.yaml")
	two := strings.Replace(string(astrasim.TestKubeconfig("two", "https://two.k8s.example:6443")), "clusters:\n",
		"clusters:\n- name: other\n  cluster:\n    server: https://other.k8s.example\n", 1)
	if err := os.WriteFile(path, []byte(two), 0o600); err != nil {
		t.Fatal(err)
	}
	a.test(resource.TestCase{
		Steps: []resource.TestStep{{
			Config:      a.config(credentialHCL("two", path)),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)Invalid kubeconfig.*exactly one\s+cluster;\s+found 2`),
		}},
	})
	if a.sim != nil {
		if err := expectCount(a.sim.Count("POST", routeCredentials), 0); err != nil {
			t.Errorf("nothing may be sent for an invalid kubeconfig: %v", err)
		}
	}
}

// TestAccKubeconfigCredential_writeOnly runs under every CLI: one that supports write-only
// arguments creates and rotates the credential without the kubeconfig in state; an older
// one (Terraform 1.5) gets a clear error saying to use `kubeconfig`.
func TestAccKubeconfigCredential_writeOnly(t *testing.T) {
	a := newAccTarget(t)
	name := a.name("wo")
	first := writeKubeconfig(t, "wo", "https://wo-one.k8s.example:6443")
	second := writeKubeconfig(t, "wo", "https://wo-two.k8s.example:6443")
	// Without TF_ACC, resource.Test skips before any CLI runs; there is no CLI to ask.
	if os.Getenv(resource.EnvTfAcc) == "" || !cliSupportsWriteOnly(t) {
		a.test(resource.TestCase{Steps: []resource.TestStep{{
			Config:      a.config(credentialWOHCL(name, first, "1")),
			ExpectError: regexp.MustCompile("(?s)Write-only arguments need a newer CLI.*set\\s+`kubeconfig`\\s+instead"),
		}}})
		return
	}
	var counts countDelta
	var createdID string
	a.test(resource.TestCase{
		CheckDestroy: a.checkCredentialDestroyed,
		Steps: []resource.TestStep{
			{
				Config: a.config(credentialWOHCL(name, first, "1")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(credentialAddr, tfjsonpath.New("kubeconfig_wo"), knownvalue.Null()),
					statecheck.ExpectKnownValue(credentialAddr, tfjsonpath.New("kubeconfig"), knownvalue.Null()),
					credentialString("kubeconfig_wo_version", "1"),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					func(s *terraform.State) error {
						createdID = s.RootModule().Resources[credentialAddr].Primary.ID
						return nil
					},
					a.credentialServerIs("https://wo-one.k8s.example:6443"),
				),
			},
			{
				// A new file alone changes nothing: only the version triggers a rotation.
				Config:           a.config(credentialWOHCL(name, second, "1")),
				ConfigPlanChecks: emptyPlan(),
			},
			{
				PreConfig: func() { a.markCounts(&counts) },
				Config:    a.config(credentialWOHCL(name, second, "2")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(credentialAddr, plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					sameID(credentialAddr, &createdID),
					a.credentialServerIs("https://wo-two.k8s.example:6443"),
					a.simCheck("one PUT", func(sim *astrasim.Sim) error {
						return expectCount(counts.since(sim, "PUT "+routeCredential), 1)
					}),
				),
			},
		},
	})
}

// cliSupportsWriteOnly reports whether the acceptance tests' CLI accepts write-only
// arguments: Terraform 1.11 and later, OpenTofu 1.11 and later.
func cliSupportsWriteOnly(t *testing.T) bool {
	t.Helper()
	return cliAtLeast(t, 1, 11)
}

// goneAfterDestroy checks that get answers "not found" for an object destroy removed.
func goneAfterDestroy(what, id string, get func() error) error {
	switch err := get(); {
	case err == nil:
		return fmt.Errorf("%s %s still exists after destroy", what, id)
	case !astra.IsNotFound(err):
		return fmt.Errorf("reading %s %s after destroy: %w", what, id, err)
	}
	return nil
}

// sameID checks that addr kept the ID recorded in *id (an in-place update).
func sameID(addr string, id *string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		if got := s.RootModule().Resources[addr].Primary.ID; got != *id {
			return fmt.Errorf("%s has ID %s, want %s (updated in place)", addr, got, *id)
		}
		return nil
	}
}

func expectCount(got, want int) error {
	if got != want {
		return fmt.Errorf("%d requests, want %d", got, want)
	}
	return nil
}

// expectCounts checks got/want pairs.
func expectCounts(pairs ...int) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i] != pairs[i+1] {
			return fmt.Errorf("request count %d is %d, want %d", i/2+1, pairs[i], pairs[i+1])
		}
	}
	return nil
}
