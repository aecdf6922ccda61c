package provider

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
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

// TestAccKubeconfigCredential covers create, empty re-plan, rotation and rename in place,
// import, drift (deleted outside Terraform) and destroy.
func TestAccKubeconfigCredential(t *testing.T) {
	a := newAccTarget(t)
	name, renamed := a.name("cred-one"), a.name("cred-renamed")
	first := writeKubeconfig(t, "cred-one", "https://one.k8s.example:6443")
	second := writeKubeconfig(t, "cred-one", "https://two.k8s.example:6443")
	var counts countDelta
	// Rotation and rename keep the credential's ID; createdID is for deleting it outside Terraform.
	sameID := statecheck.CompareValue(compare.ValuesSame())
	var createdID string
	a.test(resource.TestCase{
		CheckDestroy: a.checkCredentialDestroyed,
		Steps: []resource.TestStep{
			{
				PreConfig: func() { a.markCounts(&counts) },
				Config:    a.config(credentialHCL(name, first)),
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(credentialAddr, "name", name),
					expectBool(credentialAddr, "valid", true),
					expectNull(credentialAddr, "kubeconfig_wo"),
					statecheck.ExpectKnownValue(credentialAddr, tfjsonpath.New("metadata").AtMapKey("creation_timestamp"), knownvalue.NotNull()),
					sameID.AddStateValue(credentialAddr, tfjsonpath.New("id")),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					recordID(credentialAddr, &createdID),
					a.credentialServerIs("https://one.k8s.example:6443"),
					a.simCheck("one POST", func(sim *astrasim.Sim) error {
						return expectCount(counts.since(sim, "POST "+routeCredentials), 1)
					}),
				),
			},
			{Config: a.config(credentialHCL(name, first)), ConfigPlanChecks: emptyPlan()},
			{
				// Rotation: a new kubeconfig is a PUT of the same credential.
				PreConfig:         func() { a.markCounts(&counts) },
				Config:            a.config(credentialHCL(name, second)),
				ConfigPlanChecks:  planned(credentialAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(credentialAddr, tfjsonpath.New("id"))},
				Check: resource.ComposeAggregateTestCheckFunc(
					a.credentialServerIs("https://two.k8s.example:6443"),
					a.simCheck("one PUT, no POST", func(sim *astrasim.Sim) error {
						return expectCounts(counts.since(sim, "PUT "+routeCredential), 1, counts.since(sim, "POST "+routeCredentials), 0)
					}),
				),
			},
			{
				Config:           a.config(credentialHCL(renamed, second)),
				ConfigPlanChecks: planned(credentialAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(credentialAddr, "name", renamed), sameID.AddStateValue(credentialAddr, tfjsonpath.New("id")),
				},
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
					if err := a.client.DeleteCredential(testContext(), createdID); err != nil {
						t.Fatal(err)
					}
				},
				Config:           a.config(credentialHCL(renamed, second)),
				ConfigPlanChecks: planned(credentialAddr, plancheck.ResourceActionCreate),
				Check:            a.credentialServerIs("https://two.k8s.example:6443"),
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
	if a.simulated() {
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
	sameID := statecheck.CompareValue(compare.ValuesSame()) // a rotation is an update in place
	a.test(resource.TestCase{
		CheckDestroy: a.checkCredentialDestroyed,
		Steps: []resource.TestStep{
			{
				Config: a.config(credentialWOHCL(name, first, "1")),
				ConfigStateChecks: []statecheck.StateCheck{
					expectNull(credentialAddr, "kubeconfig_wo"),
					expectNull(credentialAddr, "kubeconfig"),
					expectString(credentialAddr, "kubeconfig_wo_version", "1"),
					sameID.AddStateValue(credentialAddr, tfjsonpath.New("id")),
				},
				Check: a.credentialServerIs("https://wo-one.k8s.example:6443"),
			},
			{
				// A new file alone changes nothing: only the version triggers a rotation.
				Config:           a.config(credentialWOHCL(name, second, "1")),
				ConfigPlanChecks: emptyPlan(),
			},
			{
				PreConfig:         func() { a.markCounts(&counts) },
				Config:            a.config(credentialWOHCL(name, second, "2")),
				ConfigPlanChecks:  planned(credentialAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(credentialAddr, tfjsonpath.New("id"))},
				Check: resource.ComposeAggregateTestCheckFunc(
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
