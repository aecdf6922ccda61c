package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccKubeconfigCredential_quietPlans: a rename leaves only the PUT's metadata unknown;
// a new kubeconfig also leaves `valid` unknown.
func TestAccKubeconfigCredential_quietPlans(t *testing.T) {
	a := newAccTarget(t)
	first := writeKubeconfig(t, "quiet-cred", "https://one.k8s.example:6443")
	second := writeKubeconfig(t, "quiet-cred", "https://two.k8s.example:6443")
	name := a.name("quiet-cred")
	a.test(resource.TestCase{
		CheckDestroy: a.checkCredentialDestroyed,
		Steps: []resource.TestStep{
			{Config: a.config(credentialHCL(name, first))},
			{
				Config: a.config(credentialHCL(name+"-renamed", first)),
				ConfigPlanChecks: prePlan(
					plancheck.ExpectResourceAction(credentialAddr, plancheck.ResourceActionUpdate),
					expectUnknownExactly(credentialAddr, putMetadata...),
					plancheck.ExpectKnownValue(credentialAddr, tfjsonpath.New("valid"), knownvalue.Bool(true)),
				),
			},
			{
				Config: a.config(credentialHCL(name+"-renamed", second)),
				ConfigPlanChecks: prePlan(
					plancheck.ExpectResourceAction(credentialAddr, plancheck.ResourceActionUpdate),
					expectUnknownExactly(credentialAddr, withPaths([]string{"valid"}, putMetadata...)...),
				),
			},
		},
	})
}
