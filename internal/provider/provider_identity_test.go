package provider

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
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
	a := newAccTarget(t)
	a.requireSim("a public cloud's seeded service-account credential")
	addrs := []string{"astra_kubeconfig_credential.test", "astra_cluster.test", "astra_managed_cluster.test", "astra_cloud.test"}
	cfg := requiredProvidersHCL() + identityHCL(a) // import steps copy the state into a new directory
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

// TestIdentity_stateFromBeforeIdentities: state written before resources had identities
// (no identity stored) reads with one over the plugin protocol, as Terraform 1.12+ calls it;
// also when the object is gone and the read forgets it, where the framework would otherwise
// fail with "Missing Resource Identity After Read".
func TestIdentity_stateFromBeforeIdentities(t *testing.T) {
	f := newListFixture(t)
	ctx := testContext()
	lister, _ := f.server.(tfprotov6.ListResourceServer)
	stream, err := lister.ListResource(ctx, &tfprotov6.ListResourceRequest{
		TypeName: "astra_cluster", Config: protoObject(t, f.schemas.ListResourceSchemas["astra_cluster"], map[string]string{"cloud_id": f.private}),
		IncludeResource: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]*tfprotov6.DynamicValue{}
	for r := range stream.Results {
		states[r.DisplayName] = r.Resource
	}
	if err := f.client.DeleteCluster(ctx, f.private, f.other); err != nil { // gone: the read forgets it
		t.Fatal(err)
	}
	idType := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String}}
	for name, want := range map[string]string{"listed-managed": f.managed, "listed-other": f.other} {
		resp, err := f.server.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: "astra_cluster", CurrentState: states[name]})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range resp.Diagnostics {
			if d.Severity == tfprotov6.DiagnosticSeverityError {
				t.Fatalf("%s: ReadResource: %s: %s", name, d.Summary, d.Detail)
			}
		}
		if gone := name == "listed-other"; gone != (len(resp.Diagnostics) == 1) {
			t.Fatalf("%s: %d diagnostics (only the forgotten cluster warns): %v", name, len(resp.Diagnostics), resp.Diagnostics)
		}
		if resp.NewIdentity == nil || resp.NewIdentity.IdentityData == nil {
			t.Fatalf("%s: no identity after the read", name)
		}
		v, err := resp.NewIdentity.IdentityData.Unmarshal(idType)
		if err != nil {
			t.Fatal(err)
		}
		var members map[string]tftypes.Value
		var got string
		must(t, v.As(&members))
		must(t, members["id"].As(&got))
		if got != want {
			t.Fatalf("%s: identity id %q, want %q", name, got, want)
		}
	}
}

// identityImportCase is one resource imported by identity: seed creates an object outside
// Terraform and returns its ID.
type identityImportCase struct {
	typ  string
	seed func(a *accTarget) string
}

// identityImportCases has one row per resource type.
var identityImportCases = []identityImportCase{
	{typ: "astra_kubeconfig_credential", seed: func(a *accTarget) string {
		return a.kubeconfigCredential("by-identity", "by-identity")
	}},
	{typ: "astra_cluster", seed: func(a *accTarget) string {
		return onlyID(a.t, seedClusters(a, "by-identity-cluster", 1, false))
	}},
	{typ: "astra_managed_cluster", seed: func(a *accTarget) string {
		return onlyID(a.t, seedClusters(a, "by-identity-managed", 1, true))
	}},
	{typ: "astra_cloud", seed: func(a *accTarget) string { return a.sim.Seeds().GCP.CloudID }},
}

func onlyID(t *testing.T, byName map[string]string) string {
	t.Helper()
	if len(byName) != 1 {
		t.Fatalf("want one object, have %v", byName)
	}
	for _, id := range byName {
		return id
	}
	return ""
}

// TestAccIdentity_generatedConfig imports one object of every resource, created outside
// Terraform, with import blocks that name only its identity and `plan -generate-config-out`:
// one resource block per object is generated, the plan only imports, the apply sends no
// write request and the re-plan is empty. Identities need Terraform or OpenTofu 1.12; older
// CLIs skip, saying so.
func TestAccIdentity_generatedConfig(t *testing.T) {
	requireTFAcc(t)
	testAccPreCheck(t)
	if !cliAtLeast(t, 1, 12) {
		desc, _ := describeCLI(os.Getenv("TF_ACC_TERRAFORM_PATH"))
		t.Skipf("%s cannot import by identity (Terraform and OpenTofu 1.12 or later)", desc)
	}
	a := newAccTarget(t)
	a.requireSim("seeds objects and counts the simulator's requests")
	imports := ""
	want := map[string]int{}
	for _, tc := range identityImportCases {
		imports += fmt.Sprintf("import {\n  to = %s.by_identity\n  identity = {\n    id = %q\n  }\n}\n", tc.typ, tc.seed(a))
		want[tc.typ]++
	}
	summary, generated := adoptGenerated(a.newCLIWork(), imports, want)
	if wantSummary := fmt.Sprintf("Plan: %d to import, 0 to add, 0 to change, 0 to destroy.", len(identityImportCases)); summary != wantSummary {
		t.Errorf("plan summary %q, want %q", summary, wantSummary)
	}
	for _, tc := range identityImportCases {
		if !strings.Contains(generated, fmt.Sprintf("resource %q \"by_identity\" {", tc.typ)) {
			t.Errorf("no resource block generated for %s.by_identity:\n%s", tc.typ, generated)
		}
	}
	t.Logf("generated configuration:\n%s", generated)
}
