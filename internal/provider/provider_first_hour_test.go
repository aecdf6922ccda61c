package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// What a new user meets first: references that name nothing, a default bucket the cluster
// cannot take, an app on a cluster that is not managed yet. Each is refused with an error
// on the argument that says what to do, before anything is created.

const missingID = "5c1b4ae1-0000-4000-8000-0000000000aa"

// TestAccPlanTimeReferences: a policy's bucket_id and a managed cluster's default_bucket_id
// that name no bucket are refused at plan, naming the argument; so is an app whose
// cluster_id names a cluster Astra Control does not manage (an astra_cluster's id, racing
// the management), with the reference to use instead. No object is created.
func TestAccPlanTimeReferences(t *testing.T) {
	a := newAccTarget(t, withAPIVersion("1.7"))
	a.requireAPIVersion("1.7")
	cred := a.kubeconfigCredential("kube-references", "references")
	cluster := clusterHCL(a.cloudID(), arg("credential_id", cred))
	app := fmt.Sprintf(`
resource "astra_app" "test" {
  name                       = "web"
  cluster_id                 = %q
  namespace_scoped_resources = [{ namespace = "default" }]
}
`, missingID)
	policy := func(bucket string) string {
		return fmt.Sprintf(`
resource "astra_protection_policy" "test" {
  app_id             = %q
  name               = "daily"
  granularity        = "daily"
  hour               = 2
  snapshot_retention = 7
  backup_retention   = 7
  bucket_id          = %q
}
`, missingID, bucket)
	}
	a.test(resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: a.config(policy(missingID)), PlanOnly: true,
				ExpectError: errorPhrases("Unknown bucket", `bucket_id = "`+missingID+`"`, `Astra Control has no bucket with ID "`+missingID+`"`,
					"Set bucket_id to an astra_bucket's id"),
			},
			{
				Config: a.config(cluster, `
resource "astra_managed_cluster" "test" {
  cluster_id        = astra_cluster.test.id
  default_bucket_id = "`+missingID+`"
}
`), PlanOnly: true,
				ExpectError: errorPhrases("No such bucket", `default_bucket_id "`+missingID+`" names no bucket of this Astra Control account`),
			},
			{
				// The cluster exists but is not managed: an app naming it is refused at plan.
				Config: a.config(cluster),
			},
			{
				Config: a.config(cluster, `
resource "astra_app" "test" {
  name                       = "web"
  cluster_id                 = astra_cluster.test.id
  namespace_scoped_resources = [{ namespace = "default" }]
}
`),
				ExpectError: errorPhrases("Not a managed cluster", "names no cluster that Astra Control manages now",
					"set cluster_id to an astra_managed_cluster's id (astra_managed_cluster.<name>.id)"),
			},
			{Config: a.config(app), PlanOnly: true, ExpectError: errorPhrases("Not a managed cluster", `cluster_id "`+missingID+`"`)},
		},
		CheckDestroy: func(*terraform.State) error {
			if !a.simulated() {
				return nil // the requests are counted by the simulator only
			}
			if n := a.sim.Count("POST", routeApps) + a.sim.Count("POST", routeSchedules) + a.sim.Count("POST", routeManagedClusters); n != 0 {
				return fmt.Errorf("%d apps, policies or managed clusters were posted; the plan should have stopped each", n)
			}
			return nil
		},
	})
}

// TestAccManagedCluster_defaultBucketNeedsNeptune: Astra Control takes a default bucket only
// for a cluster with the neptuneV1 capability (problem 171). The refusal names
// default_bucket_id and the fix, connector_capabilities = ["neptuneV1"] on the cluster;
// with it, the same configuration applies.
func TestAccManagedCluster_defaultBucketNeedsNeptune(t *testing.T) {
	a := newAccTarget(t, withAPIVersion("1.7"))
	a.requireAPIVersion("1.7")
	a.requireSim("the simulator's default-bucket rule")
	cred := a.kubeconfigCredential("kube-neptune", "neptune")
	bucket := a.bucket("neptune")
	managed := fmt.Sprintf(`
resource "astra_managed_cluster" "test" {
  cluster_id        = astra_cluster.test.id
  default_bucket_id = %q
}
`, bucket)
	a.test(resource.TestCase{
		CheckDestroy: a.checkClusterDestroyed,
		Steps: []resource.TestStep{
			{Config: a.config(clusterHCL(a.cloudID(), arg("credential_id", cred)))},
			{
				Config: a.config(clusterHCL(a.cloudID(), arg("credential_id", cred)), managed),
				ExpectError: errorPhrases("Cannot manage cluster", `default_bucket_id = "`+bucket+`"`,
					`add connector_capabilities = ["neptuneV1"] to the cluster's astra_cluster`, "(problem 171)"),
			},
			{Config: a.config(clusterHCL(a.cloudID(), arg("credential_id", cred), `connector_capabilities = ["neptuneV1"]`), managed)},
		},
	})
}

// TestAccExistsNamesItAndItsImport: creating a bucket, a kubeconfig credential or an app
// that Astra Control already holds (problems 57, 44 and 121) is refused with the existing
// object's name and ID and the import that adopts it, as for a cluster.
func TestAccExistsNamesItAndItsImport(t *testing.T) {
	for _, c := range []struct {
		name string
		// seed makes the object outside Terraform; it returns the configuration that
		// creates it again, and the phrases the error must hold, in order.
		seed func(a *accTarget) (hcl string, phrases []string)
	}{
		{"bucket", func(a *accTarget) (string, []string) {
			id := a.bucket("dup")
			return fmt.Sprintf(`
resource "astra_bucket" "test" {
  name            = %q
  bucket_provider = "generic-s3"
  credential_id   = %q
  s3              = { server_url = "s3.example.com", bucket_name = %q }
}
`, a.name("dup-again"), a.s3Credential("dup-again-key"), a.name("dup")), []string{"Bucket already exists",
					`Astra Control already holds the bucket "` + a.name("dup") + `" (generic-s3, state available) at the same location, ID ` + id,
					"terraform import astra_bucket.<name> " + id, fmt.Sprintf("id = %q", id), "(problem 57)"}
		}},
		{"kubeconfig credential", func(a *accTarget) (string, []string) {
			cred := a.kubeconfigCredential("dup-kube", "dup-kube")
			if _, err := a.client.CreateCluster(testContext(), a.cloudID(), astra.ClusterCreate{Name: "dup-kube", CredentialID: cred}); err != nil {
				a.t.Fatal(err)
			}
			return credentialHCL("dup-kube-again", writeKubeconfig(a.t, "dup-kube", "https://dup-kube.k8s.example:6443")), []string{
				"A credential already reaches this cluster", `Astra Control already holds the credential "` + a.name("dup-kube") +
					`", which already reaches the cluster "dup-kube", ID ` + cred, "terraform import astra_kubeconfig_credential.<name> " + cred,
				"(problem 44)"}
		}},
		{"app", func(a *accTarget) (string, []string) {
			clusterID, appID := seedApp(a, "dup-app")
			return fmt.Sprintf(`
resource "astra_app" "test" {
  name                       = "dup-app"
  cluster_id                 = %q
  namespace_scoped_resources = [{ namespace = "kube-public" }]
}
`, clusterID), []string{"App already exists", `Astra Control already holds the app "dup-app" (state ready) on cluster ` + clusterID + ", ID " + appID,
					"terraform import astra_app.<name> " + appID, "(problem 121)"}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := newAccTarget(t)
			a.requireSim("objects made outside Terraform under known names")
			hcl, phrases := c.seed(a)
			a.test(resource.TestCase{Steps: []resource.TestStep{{Config: a.config(hcl), ExpectError: errorPhrases(phrases...)}}})
		})
	}
}

// TestAccCreatesCheckReferencesOnce: the plan-time checks of cloud_id and credential_id read
// each object once per provider process, though Terraform plans each create twice (the plan,
// then again at apply) and every cluster names the same cloud: one `apply` of three clusters
// reads their cloud once, not six times (two per cluster).
func TestAccCreatesCheckReferencesOnce(t *testing.T) {
	h := newCLIHarness(t, astrasim.Options{}, "")
	var hcl strings.Builder
	for i := range 3 {
		fmt.Fprintf(&hcl, `
resource "astra_kubeconfig_credential" "c%[1]d" {
  name       = "refs-%[1]d"
  kubeconfig = file(%[2]q)
}

resource "astra_cluster" "c%[1]d" {
  cloud_id      = %[3]q
  credential_id = astra_kubeconfig_credential.c%[1]d.id
}
`, i, writeKubeconfig(t, fmt.Sprintf("refs-%d", i), fmt.Sprintf("https://refs-%d.k8s.example:6443", i)), h.sim().Seeds().PrivateCloudID)
	}
	h.write(hcl.String())
	before := h.sim().Count("GET", routeCloud) + h.sim().Count("GET", routeClouds)
	if r := h.apply(); r.err != nil {
		t.Fatalf("apply: %v\n%s", r.err, r.out)
	}
	if n := h.sim().Count("GET", routeCloud) + h.sim().Count("GET", routeClouds) - before; n != 1 {
		t.Fatalf("the apply read the cloud %d times, want once", n)
	}
}
