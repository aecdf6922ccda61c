package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccS3Credential: create, quiet plan, rotation as one PUT, rename, import, drift, destroy.
func TestAccS3Credential(t *testing.T) { testAccSecretCredential(t, s3Case()) }

// TestAccS3Credential_writeOnly: secret_access_key_wo, or the error an old CLI gets.
func TestAccS3Credential_writeOnly(t *testing.T) { testAccSecretCredentialWriteOnly(t, s3Case()) }

// TestAccS3Credential_accessKeyRotation: a new access key ID is sent with the secret in one
// PUT; without the secret (an imported credential), the plan says both are needed.
func TestAccS3Credential_accessKeyRotation(t *testing.T) {
	a := newAccTarget(t)
	name := a.name("s3-pair")
	var counts countDelta
	a.test(resource.TestCase{
		CheckDestroy: a.checkCredentialDestroyed,
		Steps: []resource.TestStep{
			{Config: a.config(s3CredentialHCL(name, "AKIA-ONE", "pair-secret"))},
			{
				PreConfig:        func() { a.markCounts(&counts) },
				Config:           a.config(s3CredentialHCL(name, "AKIA-TWO", "pair-secret")),
				ConfigPlanChecks: planned(s3CredentialAddr, plancheck.ResourceActionUpdate),
				Check: resource.ComposeAggregateTestCheckFunc(
					a.keyStoreIs(s3CredentialAddr, map[string]string{"accessKey": b64("AKIA-TWO"), "accessSecret": b64("pair-secret")}),
					a.simCheck("one PUT", func(sim *astrasim.Sim) error {
						return expectCounts(counts.since(sim, "PUT "+routeCredential), 1, counts.since(sim, "POST "+routeCredentials), 0)
					}),
				),
			},
			{
				// The secret left out: Astra Control keeps the pair it holds, nothing is sent.
				PreConfig:         func() { a.markCounts(&counts) },
				Config:            a.config(fmt.Sprintf("resource \"astra_s3_credential\" \"test\" {\n  name = %q\n  access_key_id = \"AKIA-TWO\"\n}\n", name)),
				ConfigPlanChecks:  planned(s3CredentialAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{expectNull(s3CredentialAddr, "secret_access_key")},
				Check: a.simCheck("no PUT", func(sim *astrasim.Sim) error {
					return expectCount(counts.since(sim, "PUT "+routeCredential), 0)
				}),
			},
			{
				Config:      a.config(fmt.Sprintf("resource \"astra_s3_credential\" \"test\" {\n  name = %q\n  access_key_id = \"AKIA-THREE\"\n}\n", name)),
				PlanOnly:    true,
				ExpectError: errorPhrases("Changing access_key_id needs the secret access key", "`access_key_id` is stored with the secret access key", "must send both. Set `access_key_id` with `secret_access_key`"),
			},
		},
	})
}

// TestAccS3Credential_invalid: plan-time errors, each naming the argument and the fix.
func TestAccS3Credential_invalid(t *testing.T) {
	testAccSecretCredentialInvalid(t, []invalidCredentialConfig{
		{"no access key ID", "resource \"astra_s3_credential\" \"test\" {\n  name = \"s3\"\n  secret_access_key = \"do-not-show-1\"\n}\n",
			errorPhrases("Missing access_key_id", "A new astra_s3_credential needs `access_key_id`. Only a credential imported from Astra Control may leave it out.")},
		{"no secret", "resource \"astra_s3_credential\" \"test\" {\n  name = \"s3\"\n  access_key_id = \"AKIA\"\n}\n",
			errorPhrases("Missing secret access key", "Set `access_key_id` with `secret_access_key`", "Only a credential imported from Astra Control may leave both out")},
		{"no name", "resource \"astra_s3_credential\" \"test\" {\n  access_key_id = \"AKIA\"\n  secret_access_key = \"do-not-show-2\"\n}\n",
			errorPhrases("Missing name", "A new astra_s3_credential needs `name`.")},
		{"both secrets", "resource \"astra_s3_credential\" \"test\" {\n  name = \"s3\"\n  access_key_id = \"AKIA\"\n  secret_access_key = \"do-not-show-3\"\n  secret_access_key_wo = \"do-not-show-4\"\n  secret_access_key_wo_version = \"1\"\n}\n",
			errorPhrases("Invalid Attribute Combination", `Attribute "secret_access_key_wo" cannot be specified when "secret_access_key" is specified`)},
	})
}
