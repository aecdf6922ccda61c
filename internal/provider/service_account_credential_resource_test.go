package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/astra-control/terraform-provider-astra/internal/testutil"
)

// TestAccServiceAccountCredential: create, quiet plan, rotation as one PUT, rename, import,
// drift, destroy.
func TestAccServiceAccountCredential(t *testing.T) { testAccSecretCredential(t, serviceAccountCase()) }

// TestAccServiceAccountCredential_writeOnly: service_account_json_wo, or the error an old CLI gets.
func TestAccServiceAccountCredential_writeOnly(t *testing.T) {
	testAccSecretCredentialWriteOnly(t, serviceAccountCase())
}

// TestAccServiceAccountCredential_cloudType: the casing of cloud_type is kept and never a
// change; another cloud replaces the credential (its cloudName label cannot change).
func TestAccServiceAccountCredential_cloudType(t *testing.T) {
	a := newAccTarget(t)
	name := a.name("sa-cloud")
	var firstID string
	a.test(resource.TestCase{
		CheckDestroy: a.checkCredentialDestroyed,
		Steps: []resource.TestStep{
			{
				Config:            a.config(serviceAccountCredentialHCL(name, "GCP", testutil.GCPKeyFile(1))),
				ConfigStateChecks: []statecheck.StateCheck{expectString(serviceAccountCredentialAddr, "cloud_type", "GCP")},
				Check:             recordID(serviceAccountCredentialAddr, &firstID),
			},
			{Config: a.config(serviceAccountCredentialHCL(name, "GCP", testutil.GCPKeyFile(1))), ConfigPlanChecks: emptyPlan()},
			{
				Config:            a.config(serviceAccountCredentialHCL(name, "azure", `{"clientId":"c","clientSecret":"sa-fake-azure-secret"}`)),
				ConfigPlanChecks:  planned(serviceAccountCredentialAddr, plancheck.ResourceActionReplace),
				ConfigStateChecks: []statecheck.StateCheck{expectString(serviceAccountCredentialAddr, "cloud_type", "azure")},
				Check: func(s *terraform.State) error {
					if id := s.RootModule().Resources[serviceAccountCredentialAddr].Primary.ID; id == firstID {
						return fmt.Errorf("another cloud kept credential %s", id)
					}
					return nil
				},
			},
		},
	})
}

// TestAccServiceAccountCredential_invalid: plan-time errors, each naming the argument and
// the fix, none quoting the key file.
func TestAccServiceAccountCredential_invalid(t *testing.T) {
	hcl := func(cloud, keyFile string) string { return serviceAccountCredentialHCL("sa", cloud, keyFile) }
	testAccSecretCredentialInvalid(t, []invalidCredentialConfig{
		{"gcp key file without type", hcl("gcp", `{"client_email":"a@b","private_key":"do-not-show-1"}`),
			errorPhrases("Invalid service account key file", "The value of `service_account_json` is not a usable service account key file: a GCP key file needs \"type\": \"service_account\"", `for example file("service-account.json")`)},
		{"gcp key file without private key", hcl("gcp", `{"type":"service_account","client_email":"a@b"}`),
			errorPhrases("Invalid service account key file", `a GCP key file needs a non-empty "private_key"`)},
		{"not JSON", hcl("aws", `do-not-show-2`),
			errorPhrases("Invalid service account key file", "is not valid JSON (a syntax error at byte 1)")},
		{"not an object", hcl("azure", `["do-not-show-3"]`),
			errorPhrases("Invalid service account key file", "is JSON but not an object")},
		{"unknown cloud", hcl("oracle", testutil.GCPKeyFile(1)),
			errorPhrases("Invalid Attribute Value Match", "cloud_type", `value must be one of: ["gcp" "azure" "aws"]`)},
		{"no cloud", "resource \"astra_service_account_credential\" \"test\" {\n  name = \"sa\"\n  service_account_json = \"{}\"\n}\n",
			errorPhrases("Missing cloud_type", "A new astra_service_account_credential needs `cloud_type`.")},
		{"no key file", "resource \"astra_service_account_credential\" \"test\" {\n  name = \"sa\"\n  cloud_type = \"gcp\"\n}\n",
			errorPhrases("Missing service account key file", "Set `service_account_json`")},
	})
}
