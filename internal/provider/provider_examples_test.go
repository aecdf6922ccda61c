package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// exampleHCL is an example configuration of examples/ as the tests apply it: every .tf file
// but versions.tf, whose terraform and provider blocks the test replaces with its own
// provider block (pointing at the simulator).
func (a *accTarget) exampleHCL(dir string) string {
	a.t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", dir, "*.tf"))
	if err != nil || len(files) == 0 {
		a.t.Fatalf("examples/%s has no .tf files (%v)", dir, err)
	}
	var parts []string
	for _, f := range files {
		if filepath.Base(f) == "versions.tf" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			a.t.Fatal(err)
		}
		if strings.Contains(string(b), "provider \"astra\"") || strings.Contains(string(b), "terraform {") {
			a.t.Fatalf("%s: only versions.tf may hold the terraform and provider blocks", f)
		}
		parts = append(parts, string(b))
	}
	return a.config(parts...)
}

// TestAccExampleComplete applies examples/complete as it ships: a kubeconfig file through
// to a managed cluster with a storage class chosen by data source and an S3 bucket (with
// its astra_s3_credential) as its default bucket, at API version 1.7 as the example sets it,
// and one of its namespaces protected by an hourly and a daily policy backing up into that
// bucket: first without the baseline backup (the app "partial": fully protected only once a
// backup under a week old exists), then as it ships, with the backup (the app "protected").
// A second plan is empty, and destroy (unmanage, remove the cluster, delete the credential, in that order, with no
// manual step) leaves the simulator exactly as it was before apply.
func TestAccExampleComplete(t *testing.T) {
	a := newAccTarget(t, withAPIVersion("1.7"))
	a.requireSim("compares the simulator's snapshots")
	kubeconfig := writeKubeconfig(t, "complete", "https://complete.k8s.example:6443")
	vars := config.Variables{
		"kubeconfig_path":    config.StringVariable(kubeconfig),
		"storage_class_name": config.StringVariable("ontap-silver"),
	}
	noBackup := config.Variables{"baseline_backup": config.BoolVariable(false)}
	for k, v := range vars {
		noBackup[k] = v
	}
	hcl := a.exampleHCL("complete")
	before, err := a.sim.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	a.test(resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			after, err := a.sim.Snapshot()
			if err != nil {
				return err
			}
			if !bytes.Equal(before, after) {
				return fmt.Errorf("the simulator differs after destroy:\n%s", snapshotDiff(before, after))
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config:          hcl,
				ConfigVariables: noBackup,
				ConfigStateChecks: []statecheck.StateCheck{
					expectString("astra_managed_cluster.this", "managed_state", "managed"),
					expectString("astra_managed_cluster.this", "state", "running"),
					expectString("astra_cluster.this", "name", "complete-example"),
					expectString("astra_bucket.backups", "state", "available"),
					statecheck.CompareValuePairs("astra_managed_cluster.this", tfjsonpath.New("default_bucket_id"),
						"astra_bucket.backups", tfjsonpath.New("id"), compare.ValuesSame()),
					statecheck.ExpectKnownOutputValue("default_storage_class", knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"name": knownvalue.StringExact("ontap-silver"),
					})),
					statecheck.ExpectKnownOutputValue("storage_classes", knownvalue.ListExact([]knownvalue.Check{
						knownvalue.StringExact("local-path"), knownvalue.StringExact("ontap-gold"), knownvalue.StringExact("ontap-silver"),
					})),
					statecheck.ExpectKnownOutputValue("app", knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"state": knownvalue.StringExact("ready"), "protection_state": knownvalue.StringExact("partial"),
					})),
					expectString("astra_protection_policy.daily", "granularity", "daily"),
					expectNull("astra_protection_policy.hourly", "hour"),
					statecheck.CompareValuePairs("astra_protection_policy.daily", tfjsonpath.New("bucket_id"),
						"astra_bucket.backups", tfjsonpath.New("id"), compare.ValuesSame()),
				},
				Check: func(s *terraform.State) error {
					mc, err := a.client.GetManagedCluster(testContext(), s.RootModule().Resources["astra_managed_cluster.this"].Primary.ID)
					if err != nil {
						return err
					}
					if mc.ManagedState != "managed" || mc.CredentialID != s.RootModule().Resources["astra_kubeconfig_credential.this"].Primary.ID {
						return fmt.Errorf("Astra Control holds %s with credential %s", mc.ManagedState, mc.CredentialID)
					}
					return nil
				},
			},
			{
				// As it ships: the baseline backup completes and the app is protected.
				Config:          hcl,
				ConfigVariables: vars,
				ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction("astra_app_backup.baseline[0]", plancheck.ResourceActionCreate),
					plancheck.ExpectResourceAction("astra_protection_policy.daily", plancheck.ResourceActionNoop)),
				ConfigStateChecks: []statecheck.StateCheck{
					expectString("astra_app_backup.baseline[0]", "state", "completed"),
					statecheck.CompareValuePairs("astra_app_backup.baseline[0]", tfjsonpath.New("bucket_id"),
						"astra_bucket.backups", tfjsonpath.New("id"), compare.ValuesSame()),
					statecheck.ExpectKnownOutputValue("app", knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"protection_state": knownvalue.StringExact("protected"),
					})),
				},
				Check: a.simCheck("one backup POST", func(sim *astrasim.Sim) error {
					return expectCounts(sim.Count(http.MethodPost, routeAppBackups), 1)
				}),
			},
			{Config: hcl, ConfigVariables: vars, ConfigPlanChecks: emptyPlan()},
		},
	})
}

// TestAccExamplePublicCloud applies examples/public-cloud as it ships: a service-account
// credential and a GCP cloud, whose discovered gke-prod cluster it manages. A second plan is
// empty, and destroy (unmanage, then the cloud, then the credential) leaves the simulator
// exactly as it was before apply.
func TestAccExamplePublicCloud(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("a cloud added with the example's fake service account discovers a cluster only in the simulator; compares its snapshots")
	keyFile, err := filepath.Abs(filepath.Join("..", "..", "examples", "public-cloud", "tests", "fake-service-account.json"))
	if err != nil {
		t.Fatal(err)
	}
	vars := config.Variables{"service_account_file": config.StringVariable(keyFile)}
	hcl := a.exampleHCL("public-cloud")
	before, err := a.sim.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	a.test(resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			after, err := a.sim.Snapshot()
			if err != nil {
				return err
			}
			if !bytes.Equal(before, after) {
				return fmt.Errorf("the simulator differs after destroy:\n%s", snapshotDiff(before, after))
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config:          hcl,
				ConfigVariables: vars,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownOutputValue("cluster", knownvalue.ObjectExact(map[string]knownvalue.Check{
						"id": knownvalue.NotNull(), "name": knownvalue.StringExact("gke-prod"),
						"cluster_type": knownvalue.StringExact("gke"), "location": knownvalue.StringExact("us-east1"),
						"state": knownvalue.StringExact("running"), "managed_state": knownvalue.StringExact("managed"),
					})),
					expectString("astra_service_account_credential.this", "cloud_type", "gcp"),
					statecheck.CompareValuePairs("astra_cloud.this", tfjsonpath.New("credential_id"),
						"astra_service_account_credential.this", tfjsonpath.New("id"), compare.ValuesSame()),
				},
				Check: a.simCheck("the cluster managed is the new cloud's, not the seed's", func(sim *astrasim.Sim) error {
					if id := sim.Seeds().GCP.ClusterID; a.clusterUnmanaged(sim.Seeds().GCP.CloudID, id) != nil {
						return fmt.Errorf("the seeded gke-prod %s was managed", id)
					}
					return nil
				}),
			},
			{Config: hcl, ConfigVariables: vars, ConfigPlanChecks: emptyPlan()},
		},
	})
}

// snapshotDiff shows the lines of two snapshots that differ, for a readable failure.
func snapshotDiff(before, after []byte) string {
	b, a := strings.Split(string(before), "\n"), strings.Split(string(after), "\n")
	var out []string
	for i := 0; i < len(b) || i < len(a); i++ {
		var x, y string
		if i < len(b) {
			x = b[i]
		}
		if i < len(a) {
			y = a[i]
		}
		if x != y {
			out = append(out, fmt.Sprintf("line %d:\n  before: %s\n  after:  %s", i+1, x, y))
		}
		if len(out) == 20 {
			out = append(out, "...")
			break
		}
	}
	return strings.Join(out, "\n")
}

// TestAccExampleProtectFleet applies examples/protect-fleet as it ships, through the CLI
// (plugin-testing's state checks cannot address for_each instances), to a private cloud
// with two managed clusters: one app per cluster, each protected by its two policies; a
// second plan is empty; destroy removes the apps and policies, and the clusters stay managed.
func TestAccExampleProtectFleet(t *testing.T) {
	h := newCLIHarness(t, astrasim.Options{}, "")
	private := h.sim().Seeds().PrivateCloudID
	var infra strings.Builder
	for _, name := range []string{"fleet-a", "fleet-b"} {
		fmt.Fprintf(&infra, `
resource "astra_kubeconfig_credential" %[1]q {
  name       = %[1]q
  kubeconfig = file(%[2]q)
}

resource "astra_cluster" %[1]q {
  cloud_id      = %[3]q
  name          = %[1]q
  credential_id = astra_kubeconfig_credential.%[1]s.id
}

resource "astra_managed_cluster" %[1]q {
  cluster_id = astra_cluster.%[1]s.id
}
`, name, writeKubeconfig(t, name, "https://"+name+".k8s.example:6443"), private)
	}
	h.write(infra.String())
	if r := h.apply(); r.err != nil {
		t.Fatalf("applying the clusters: %v\n%s", r.err, r.out)
	}
	var example strings.Builder
	for _, f := range []string{"main.tf", "variables.tf", "outputs.tf"} {
		raw, err := os.ReadFile(filepath.Join("..", "..", "examples", "protect-fleet", f))
		if err != nil {
			t.Fatal(err)
		}
		example.Write(raw)
	}
	h.write(infra.String() + example.String())
	cloudVar := "-var=cloud_id=" + private
	if r := h.apply(cloudVar); r.err != nil {
		t.Fatalf("applying the example: %v\n%s", r.err, r.out)
	}
	out := h.run(testContext(), "output", "-no-color", "-json", "protection")
	var protection map[string]struct {
		Namespaces      []string `json:"namespaces"`
		ProtectionState string   `json:"protection_state"`
	}
	if err := json.Unmarshal([]byte(out.out), &protection); err != nil || len(protection) != 2 {
		t.Fatalf("protection output: %v\n%s", err, out.out)
	}
	for name, p := range protection {
		if p.ProtectionState != "partial" || strings.Join(p.Namespaces, ",") != "default" {
			t.Errorf("%s: %+v, want partial (active policies, no backup yet), namespaces [default]", name, p)
		}
	}
	if n := len(h.simObjects()["schedule"]); n != 4 {
		t.Errorf("the simulator holds %d schedules, want 4 (two per app)", n)
	}
	if r := h.run(testContext(), "plan", "-input=false", "-no-color", "-detailed-exitcode", cloudVar); r.err != nil {
		t.Fatalf("the second plan is not empty: %v\n%s", r.err, r.out)
	}
	h.write(infra.String())
	if r := h.apply(); r.err != nil {
		t.Fatalf("removing the example: %v\n%s", r.err, r.out)
	}
	if objs := h.simObjects(); len(objs["app"]) != 0 || len(objs["schedule"]) != 0 || len(objs["managed"]) != 2 {
		t.Errorf("after removing the example: %d apps, %d schedules, %d managed clusters; want 0, 0, 2",
			len(objs["app"]), len(objs["schedule"]), len(objs["managed"]))
	}
}
