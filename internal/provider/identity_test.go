package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// identityHCL is one object of each resource type.
func identityHCL(a *accTarget) string {
	seeds := a.sim.Seeds()
	return a.config(fmt.Sprintf(`
resource "astra_kubeconfig_credential" "test" {
  name       = "identity"
  kubeconfig = %q
}

resource "astra_cluster" "test" {
  cloud_id      = %q
  credential_id = astra_kubeconfig_credential.test.id
}

resource "astra_managed_cluster" "test" {
  cluster_id = astra_cluster.test.id
}
`, string(a.kubeconfig("identity")), a.cloudID()), cloudHCL("gcp-identity", "gcp", arg("credential_id", seeds.GCP.CredentialID)))
}

// TestAccIdentity_importByIdentity: every resource records its identity ({ id }, the Astra
// ID) in state, and an import block that names only the identity imports it with an empty
// plan (the credential excepted: its kubeconfig cannot be read back). Identities need Terraform 1.12 or OpenTofu 1.12; older CLIs skip the test (the
// whole suite still runs them with identities present).
func TestAccIdentity_importByIdentity(t *testing.T) {
	a := newAccTarget(t, serial())
	openTofuImportBlocks(t)
	a.requireSim("a public cloud's seeded service-account credential")
	addrs := []string{"astra_kubeconfig_credential.test", "astra_cluster.test", "astra_managed_cluster.test", "astra_cloud.test"}
	cfg := identityHCL(a)
	steps := []resource.TestStep{{Config: cfg}}
	for _, addr := range addrs {
		steps[0].ConfigStateChecks = append(steps[0].ConfigStateChecks, statecheck.ExpectIdentityValueMatchesState(addr, tfjsonpath.New("id")))
		step := resource.TestStep{
			Config:          cfg,
			ResourceName:    addr,
			ImportState:     true,
			ImportStateKind: resource.ImportBlockWithResourceIdentity,
		}
		if addr == "astra_kubeconfig_credential.test" {
			// Astra Control never returns a key store: an imported credential plans to send
			// the configuration's kubeconfig once, as after an import by ID.
			step.ExpectNonEmptyPlan = true
			step.ImportPlanChecks.PreApply = []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)}
		}
		steps = append(steps, step)
	}
	a.test(resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		Steps:                  steps,
	})
}

// openTofuImportBlocks makes import-block steps work under OpenTofu: they copy the state,
// which names the provider under OpenTofu's registry host, into a new directory, and the
// in-process provider must be attached under that same host there (the test is serial,
// as t.Setenv requires).
func openTofuImportBlocks(t *testing.T) {
	if strings.Contains(filepath.Base(os.Getenv("TF_ACC_TERRAFORM_PATH")), "tofu") {
		t.Setenv("TF_ACC_PROVIDER_HOST", "registry.opentofu.org")
	}
}
