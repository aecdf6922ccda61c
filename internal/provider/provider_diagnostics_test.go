package provider

// Each failure says what happened and what to do (issue 25): one test per case, asserting
// the exact text the user sees (summary, detail, and the attribute it points at).

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccCluster_credentialForAnotherCluster: a credential change to a kubeconfig of another
// cluster ends the wait at once (the cluster goes removed, which waiting never leaves), with
// Astra Control's reason, although the update timeout is long.
func TestAccCluster_credentialForAnotherCluster(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("a kubeconfig of another cluster (the simulator's clusters)")
	own := a.kubeconfigCredential("own", "diag-own")
	other := a.kubeconfigCredential("other", "diag-other")
	body := func(cred string) string {
		return a.config(clusterHCL(a.cloudID(), arg("name", "diag-own"), arg("credential_id", cred), `timeouts = { update = "10m" }`))
	}
	var id string
	var started time.Time
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{Config: body(own), Check: recordID(clusterAddr, &id)},
			{
				PreConfig: func() { started = time.Now() },
				Config:    body(other),
				ExpectError: errorPhrases("Error: Cluster did not reach running after its credential changed",
					"Astra Control reports cluster", "as removed: The credential's kubeconfig belongs to a different cluster.",
					"The new settings are applied and recorded in state. Check that the credential's kubeconfig reaches this",
					"cluster (its API server, `kubectl --kubeconfig FILE get --raw /version`), fix the credential or set",
					"credential_id back, and apply again."),
			},
			{
				// The wait ended on the removed state, not on the 10-minute timeout; the
				// repaired credential brings the cluster back.
				PreConfig: func() {
					if waited := time.Since(started); waited > time.Minute {
						t.Errorf("the wait took %s: it should end as soon as the cluster is removed", waited)
					}
				},
				Config:            body(own),
				ConfigStateChecks: []statecheck.StateCheck{expectString(clusterAddr, "state", "running")},
			},
		},
	})
}

// TestAccCluster_existsNamesItAndItsImport: adding a cluster Astra Control already holds
// names it and gives the import command and block.
func TestAccCluster_existsNamesItAndItsImport(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("a cluster added outside Terraform under a known name")
	cred := a.kubeconfigCredential("exists", "diag-exists")
	existing, err := a.client.CreateCluster(testContext(), a.cloudID(), astra.ClusterCreate{Name: "diag-exists", CredentialID: cred})
	if err != nil {
		t.Fatal(err)
	}
	again := a.kubeconfigCredential("exists-again", "diag-exists-again")
	a.test(resource.TestCase{
		Steps: []resource.TestStep{{
			Config: a.config(clusterHCL(a.cloudID(), arg("name", "diag-exists"), arg("credential_id", again))),
			ExpectError: errorPhrases("Error: Cluster already exists",
				fmt.Sprintf(`Astra Control already holds the cluster "diag-exists" (state running, managedState unmanaged) in cloud %s, ID %s.`, a.cloudID(), existing.ID),
				"To manage it with Terraform, import it instead of creating it again:",
				"terraform import astra_cluster.<name> "+existing.ID,
				"or, in the configuration (Terraform 1.5 or later, OpenTofu 1.6 or later):",
				"import {", "to = astra_cluster.<name>", fmt.Sprintf("id = %q", existing.ID), "}",
				"where <name> is this resource's name.", "409 Cluster exists (problem 45)"),
		}},
	})
}

// TestAccCluster_unknownCloudRefusedAtPlan: a well-formed cloud_id of no cloud is refused by
// the plan, on cloud_id, before the apply creates the credential beside it.
func TestAccCluster_unknownCloudRefusedAtPlan(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("request counts")
	const missing = "5c1b4ae1-0000-4000-8000-000000000001"
	kube := writeKubeconfig(t, "diag-nocloud", "https://diag-nocloud.k8s.example:6443")
	var counts countDelta
	a.test(resource.TestCase{
		Steps: []resource.TestStep{{
			PreConfig: func() { a.markCounts(&counts) },
			Config: a.config(credentialHCL("diag-nocloud", kube),
				clusterHCL(missing, arg("credential_id", "${astra_kubeconfig_credential.test.id}"))),
			ExpectError: errorPhrases("Error: No such cloud", `with astra_cluster.test`, `cloud_id = "`+missing+`"`,
				`cloud_id "`+missing+`" names no cloud of this Astra Control account (404 Collection not found, problem 2).`,
				"Use the ID of an existing cloud: the astra_clouds data source and `GET /topology/v1/clouds` list them."),
		}, {
			// Nothing was created: the plan failed before the apply.
			PreConfig: func() {
				if n := counts.since(a.sim, "POST "+routeCredentials); n != 0 {
					t.Errorf("%d credentials created; the plan should have stopped the apply", n)
				}
			},
			Config:   a.config(),
			PlanOnly: true,
		}},
	})
}

// TestAccCluster_unknownCredentialRefusedAtPlan: the same for credential_id.
func TestAccCluster_unknownCredentialRefusedAtPlan(t *testing.T) {
	a := newAccTarget(t)
	const missing = "5c1b4ae1-0000-4000-8000-000000000002"
	a.test(resource.TestCase{
		Steps: []resource.TestStep{{
			Config: a.config(clusterHCL(a.cloudID(), arg("name", "diag-nocred"), arg("credential_id", missing))),
			ExpectError: errorPhrases("Error: No such credential", `credential_id = "`+missing+`"`,
				`credential_id "`+missing+`" names no credential of this Astra Control account (404 Collection not found, problem 2).`),
		}},
	})
}

// TestAccCluster_apiVersionTheServiceDoesNotSpeak: api_version 1.7 against a 23.07 service
// is named with the versions the service speaks.
func TestAccCluster_apiVersionTheServiceDoesNotSpeak(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) { o.Release = "23.07" }), withAPIVersion("1.7"))
	a.requireSim("a release older than the provider's api_version")
	cred := a.kubeconfigCredential("newer", "diag-newer")
	a.test(resource.TestCase{
		Steps: []resource.TestStep{{
			Config: a.config(clusterHCL(a.cloudID(), arg("name", "diag-newer"), arg("credential_id", cred))),
			ExpectError: errorPhrases("Error: Cannot add the cluster",
				"Astra Control does not speak cluster API version 1.7, which the provider's api_version (or ASTRA_API_VERSION) sets:",
				"it speaks 1.0 to 1.5 (its clusters collection is version 1.5). Set api_version = \"1.5\" in the provider block,",
				"or ASTRA_API_VERSION=1.5, or lower if you need to.",
				// The features that need 1.7, and where 1.7 is spoken: no circle between two errors.
				"With 1.5, leave out what needs a later version: astra_managed_cluster.default_bucket_id (1.7), astra_cluster.cluster_type (1.7)",
				"To keep them, use an Astra Control that speaks 1.7 instead.", "Cluster API version 1.7 is Astra Control 24.02 (Astra Control Center)",
				"`astra-sim -release 24.02` (`make sim` serves 24.02).", "400 Invalid JSON resource (problem 8)"),
		}},
	})
}

// TestAccProvider_accessRefusalsNameTheArguments: a wrong token (401) and an account the
// token cannot reach (403) name api_token/ASTRA_API_TOKEN and account_id/ASTRA_ACCOUNT_ID,
// and never print the token; an endpoint with the account's path is refused on endpoint.
func TestAccProvider_accessRefusalsNameTheArguments(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("tokens and accounts of the simulator")
	const wrongToken = "diag-wrong-token-0123456789"
	provider := func(endpoint, account, token string) string {
		return fmt.Sprintf("provider \"astra\" {\n  endpoint   = %q\n  account_id = %q\n  api_token  = %q\n}\n"+
			"data \"astra_clouds\" \"all\" {}\n", endpoint, account, token)
	}
	a.test(resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: provider(a.url, a.sim.AccountID(), wrongToken),
				ExpectError: errorPhrases("Error: Cannot list clouds",
					"Astra Control did not accept the API token (401): it is missing, mistyped, expired or revoked. Check",
					"api_token in the provider block (or ASTRA_API_TOKEN): create a new token in Astra Control (Account >",
					"API access) if needed, and check that account_id (or ASTRA_ACCOUNT_ID) is the account the token",
					"belongs to."),
			},
			{
				Config: provider(a.url, "5c1b4ae1-0000-4000-8000-00000000000a", astrasim.DefaultToken),
				ExpectError: errorPhrases("Error: Cannot list clouds",
					"Astra Control accepted the API token but refused this request (403): the token's user may not do it in this",
					"account, or the token belongs to another account. Check that account_id (or ASTRA_ACCOUNT_ID) is the account",
					"the token of api_token (or ASTRA_API_TOKEN) was created in"),
			},
			{
				Config: provider(a.url+"/accounts/"+a.sim.AccountID(), a.sim.AccountID(), astrasim.DefaultToken),
				ExpectError: errorPhrases("Error: Endpoint includes the account path", "with provider[",
					fmt.Sprintf(`endpoint %q includes /accounts/...: the provider adds /accounts/<account_id> to every request itself.`, a.url+"/accounts/"+a.sim.AccountID()),
					fmt.Sprintf(`Set endpoint to %q and account_id (or ASTRA_ACCOUNT_ID) to %q.`, a.url, a.sim.AccountID())),
			},
		},
	})
}

// TestAccKubeconfigCredential_twoContextsNamed: a kubeconfig with two contexts is refused
// naming them and the usual fix, without quoting the kubeconfig's secrets.
func TestAccKubeconfigCredential_twoContextsNamed(t *testing.T) {
	a := newAccTarget(t)
	kube := string(astrasim.TestKubeconfig("diag-two", "https://diag-two.k8s.example:6443"))
	kube = regexp.MustCompile(`(?m)^current-context:`).ReplaceAllString(kube,
		"- name: diag-two-admin-ctx\n  context:\n    cluster: diag-two\n    user: diag-two-admin\ncurrent-context:")
	path := filepath.Join(t.TempDir(), "two.yaml")
	if err := os.WriteFile(path, []byte(kube), 0o600); err != nil {
		t.Fatal(err)
	}
	a.test(resource.TestCase{
		Steps: []resource.TestStep{{
			Config: a.config(credentialHCL("diag-two", path)),
			ExpectError: errorPhrases("Error: Invalid kubeconfig", "with astra_kubeconfig_credential.test",
				`kubeconfig must define exactly one context; found 2 ("diag-two", "diag-two-admin-ctx").`,
				"Write one with only the context of this cluster:",
				"`kubectl config view --minify --flatten --context=NAME > cluster.kubeconfig`"),
		}},
	})
}

// TestAccManagedCluster_unknownClusterRefusedAtPlan: the same for a managed cluster's cluster_id.
func TestAccManagedCluster_unknownClusterRefusedAtPlan(t *testing.T) {
	a := newAccTarget(t)
	const missing = "5c1b4ae1-0000-4000-8000-000000000003"
	a.test(resource.TestCase{
		Steps: []resource.TestStep{{
			Config: a.config(fmt.Sprintf("resource \"astra_managed_cluster\" \"test\" {\n  cluster_id = %q\n}\n", missing)),
			ExpectError: errorPhrases("Error: No such cluster", `cluster_id = "`+missing+`"`,
				`cluster_id "`+missing+`" names no cluster of this Astra Control account (404`,
				"Use the ID of an existing cluster: astra_cluster resources, the astra_clusters data source and",
				"`GET /topology/v1/clusters` list them."),
		}},
	})
}
