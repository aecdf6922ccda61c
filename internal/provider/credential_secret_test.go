package provider

import (
	"encoding/base64"
	"fmt"
	"os"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
	"github.com/astra-control/terraform-provider-astra/internal/testutil"
)

// The S3 and service-account credentials share one acceptance flow (secretCredentialCase):
// create, a quiet re-plan, rotation in place as one PUT, rename, import, drift, destroy;
// and the write-only variant.

const (
	s3CredentialAddr             = "astra_s3_credential.test"
	serviceAccountCredentialAddr = "astra_service_account_credential.test"
)

// secretCredentialCase is one credential resource for the shared flows. Secrets are
// numbered: generation n of the secret is what a rotation to n sends.
type secretCredentialCase struct {
	addr string
	// hcl renders the resource "test" named name with secret generation n in the plain
	// argument; woHCL with it in the write-only one, at version.
	hcl      func(name string, n int) string
	woHCL    func(name string, n int, version string) string
	keyStore func(n int) map[string]string // what the API receives for generation n
	// notImported are the arguments an import cannot read back (the secret's).
	notImported []string
	plainAttr   string // the sensitive argument, null when the write-only one is used
	woAttr      string
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// s3Case is astra_s3_credential with access key ID AKIATEST and secret s3-secret-<n>.
func s3Case() secretCredentialCase {
	return secretCredentialCase{
		addr: s3CredentialAddr,
		hcl: func(name string, n int) string {
			return s3CredentialHCL(name, "AKIATEST", fmt.Sprintf("s3-secret-%d", n))
		},
		woHCL: func(name string, n int, version string) string {
			return fmt.Sprintf("resource \"astra_s3_credential\" \"test\" {\n  name = %q\n  access_key_id = \"AKIATEST\"\n"+
				"  secret_access_key_wo = \"s3-secret-%d\"\n  secret_access_key_wo_version = %q\n}\n", name, n, version)
		},
		keyStore: func(n int) map[string]string {
			return map[string]string{"accessKey": b64("AKIATEST"), "accessSecret": b64(fmt.Sprintf("s3-secret-%d", n))}
		},
		notImported: []string{"access_key_id", "secret_access_key"},
		plainAttr:   "secret_access_key", woAttr: "secret_access_key_wo",
	}
}

// s3CredentialHCL renders an astra_s3_credential "test".
func s3CredentialHCL(name, accessKeyID, secret string) string {
	return fmt.Sprintf("resource \"astra_s3_credential\" \"test\" {\n  name              = %q\n  access_key_id     = %q\n  secret_access_key = %q\n}\n",
		name, accessKeyID, secret)
}

// serviceAccountCase is astra_service_account_credential for gcp with testutil.GCPKeyFile(n).
func serviceAccountCase() secretCredentialCase {
	return secretCredentialCase{
		addr: serviceAccountCredentialAddr,
		hcl: func(name string, n int) string {
			return serviceAccountCredentialHCL(name, "gcp", testutil.GCPKeyFile(n))
		},
		woHCL: func(name string, n int, version string) string {
			return fmt.Sprintf("resource \"astra_service_account_credential\" \"test\" {\n  name = %q\n  cloud_type = \"gcp\"\n"+
				"  service_account_json_wo = %q\n  service_account_json_wo_version = %q\n}\n", name, testutil.GCPKeyFile(n), version)
		},
		keyStore:    func(n int) map[string]string { return map[string]string{"base64": b64(testutil.GCPKeyFile(n))} },
		notImported: []string{"service_account_json"},
		plainAttr:   "service_account_json", woAttr: "service_account_json_wo",
	}
}

// serviceAccountCredentialHCL renders an astra_service_account_credential "test".
func serviceAccountCredentialHCL(name, cloudType, keyFile string) string {
	return fmt.Sprintf("resource \"astra_service_account_credential\" \"test\" {\n  name                 = %q\n  cloud_type           = %q\n  service_account_json = %q\n}\n",
		name, cloudType, keyFile)
}

// keyStoreIs checks the key store the simulator received for the credential at addr (by
// its digest: the simulator keeps no key store).
func (a *accTarget) keyStoreIs(addr string, want map[string]string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		id := s.RootModule().Resources[addr].Primary.ID
		return a.simCheck("the simulator received the expected key store", func(sim *astrasim.Sim) error {
			if got := sim.CredentialKeyDigest(id); got != astrasim.KeyStoreDigest(want) {
				return fmt.Errorf("credential %s holds key store digest %q, want %q", id, got, astrasim.KeyStoreDigest(want))
			}
			return nil
		})(s)
	}
}

// testAccSecretCredential: create (one POST), a quiet re-plan, rotation in place (one PUT,
// no POST, same ID), rename in place, import by ID, drift (deleted outside Terraform:
// planned again), and destroy (a 404 after).
func testAccSecretCredential(t *testing.T, c secretCredentialCase) {
	a := newAccTarget(t)
	name, renamed := a.name("secret-cred"), a.name("secret-cred-renamed")
	var counts countDelta
	sameID := statecheck.CompareValue(compare.ValuesSame())
	var createdID string
	oneWrite := func(route string) resource.TestCheckFunc {
		return a.simCheck("one "+route+", nothing else written", func(sim *astrasim.Sim) error {
			return expectCounts(counts.since(sim, "POST "+routeCredentials), boolCount(route == "POST"),
				counts.since(sim, "PUT "+routeCredential), boolCount(route == "PUT"))
		})
	}
	a.test(resource.TestCase{
		CheckDestroy: a.checkCredentialDestroyed,
		Steps: []resource.TestStep{
			{
				PreConfig: func() { a.markCounts(&counts) },
				Config:    a.config(c.hcl(name, 1)),
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(c.addr, "name", name),
					expectNull(c.addr, c.woAttr),
					statecheck.ExpectKnownValue(c.addr, tfjsonpath.New("metadata").AtMapKey("creation_timestamp"), knownvalue.NotNull()),
					sameID.AddStateValue(c.addr, tfjsonpath.New("id")),
				},
				Check: resource.ComposeAggregateTestCheckFunc(recordID(c.addr, &createdID), a.keyStoreIs(c.addr, c.keyStore(1)), oneWrite("POST")),
			},
			{Config: a.config(c.hcl(name, 1)), ConfigPlanChecks: emptyPlan()},
			{
				// Rotation: a new secret is one PUT of the same credential.
				PreConfig: func() { a.markCounts(&counts) },
				Config:    a.config(c.hcl(name, 2)),
				ConfigPlanChecks: prePlan(
					plancheck.ExpectResourceAction(c.addr, plancheck.ResourceActionUpdate),
					expectUnknownExactly(c.addr, putMetadata...),
				),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(c.addr, tfjsonpath.New("id"))},
				Check:             resource.ComposeAggregateTestCheckFunc(a.keyStoreIs(c.addr, c.keyStore(2)), oneWrite("PUT")),
			},
			{
				PreConfig:         func() { a.markCounts(&counts) },
				Config:            a.config(c.hcl(renamed, 2)),
				ConfigPlanChecks:  planned(c.addr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{expectString(c.addr, "name", renamed), sameID.AddStateValue(c.addr, tfjsonpath.New("id"))},
				Check:             resource.ComposeAggregateTestCheckFunc(a.keyStoreIs(c.addr, c.keyStore(2)), oneWrite("PUT")),
			},
			{Config: a.config(c.hcl(renamed, 2)), ConfigPlanChecks: emptyPlan()},
			{
				ResourceName:            c.addr,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: c.notImported,
			},
			{
				// Drift: deleted outside Terraform, the credential is planned again.
				PreConfig: func() {
					if err := a.client.DeleteCredential(testContext(), createdID); err != nil {
						t.Fatal(err)
					}
				},
				Config:           a.config(c.hcl(renamed, 2)),
				ConfigPlanChecks: planned(c.addr, plancheck.ResourceActionCreate),
				Check:            a.keyStoreIs(c.addr, c.keyStore(2)),
			},
		},
	})
}

// boolCount is 1 for true, 0 for false.
func boolCount(b bool) int {
	if b {
		return 1
	}
	return 0
}

// testAccSecretCredentialWriteOnly: a CLI with write-only arguments creates and rotates the
// credential without the secret in state (only a version bump rotates: one PUT); an older
// one (Terraform 1.5) gets a clear error saying to use the plain argument.
func testAccSecretCredentialWriteOnly(t *testing.T, c secretCredentialCase) {
	a := newAccTarget(t)
	name := a.name("wo-cred")
	// Without TF_ACC, resource.Test skips before any CLI runs; there is no CLI to ask.
	if os.Getenv(resource.EnvTfAcc) == "" || !cliSupportsWriteOnly(t) {
		t.Log("this CLI has no write-only arguments: checking the error that says to use " + c.plainAttr)
		ours := "Write-only arguments need a newer CLI.*set\\s+`" + c.plainAttr + "`\\s+instead"
		a.test(resource.TestCase{Steps: []resource.TestStep{{
			Config: a.config(c.woHCL(name, 1, "1")),
			// Two errors, documented: the framework's own, then ours naming the argument to use.
			ExpectError: regexp.MustCompile("(?s)(WriteOnly Attribute Not Allowed.*" + ours + "|" + ours + ".*WriteOnly Attribute Not Allowed)"),
		}}})
		return
	}
	var counts countDelta
	sameID := statecheck.CompareValue(compare.ValuesSame())
	a.test(resource.TestCase{
		CheckDestroy: a.checkCredentialDestroyed,
		Steps: []resource.TestStep{
			{
				Config: a.config(c.woHCL(name, 1, "1")),
				ConfigStateChecks: []statecheck.StateCheck{
					expectNull(c.addr, c.woAttr), expectNull(c.addr, c.plainAttr),
					expectString(c.addr, c.woAttr+"_version", "1"),
					sameID.AddStateValue(c.addr, tfjsonpath.New("id")),
				},
				Check: a.keyStoreIs(c.addr, c.keyStore(1)),
			},
			{
				// A new value alone changes nothing: only the version triggers a rotation.
				Config:           a.config(c.woHCL(name, 2, "1")),
				ConfigPlanChecks: emptyPlan(),
			},
			{
				PreConfig:         func() { a.markCounts(&counts) },
				Config:            a.config(c.woHCL(name, 2, "2")),
				ConfigPlanChecks:  planned(c.addr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(c.addr, tfjsonpath.New("id"))},
				Check: resource.ComposeAggregateTestCheckFunc(
					a.keyStoreIs(c.addr, c.keyStore(2)),
					a.simCheck("one PUT", func(sim *astrasim.Sim) error {
						return expectCounts(counts.since(sim, "PUT "+routeCredential), 1, counts.since(sim, "POST "+routeCredentials), 0)
					}),
				),
			},
		},
	})
}

// testAccSecretCredentialInvalid: each configuration is refused at plan time with exactly
// the error given, nothing is sent, and no error quotes a secret.
func testAccSecretCredentialInvalid(t *testing.T, cases []invalidCredentialConfig) {
	a := newAccTarget(t)
	var counts countDelta
	a.markCounts(&counts)
	for _, c := range cases {
		t.Logf("refused at plan time: %s", c.name)
		a.test(resource.TestCase{Steps: []resource.TestStep{{
			Config: a.config(c.hcl), PlanOnly: true, ExpectError: c.want,
		}}})
	}
	if a.simulated() {
		if err := expectCount(counts.since(a.sim, "POST "+routeCredentials), 0); err != nil {
			t.Errorf("nothing may be sent for an invalid credential: %v", err)
		}
	}
}

// invalidCredentialConfig is a configuration refused at plan time, and the error it gets.
type invalidCredentialConfig struct {
	name string
	hcl  string
	want *regexp.Regexp
}
