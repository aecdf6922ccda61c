package provider

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/testutil"
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

resource "astra_bucket" "test" {
  name            = "identity"
  bucket_provider = "gcp"
  credential_id   = %q
  gcp             = { bucket_name = "identity-backups" }
}
`, string(a.kubeconfig("identity")), a.cloudID(), seeds.GCP.CredentialID), s3CredentialHCL("identity-s3", "AKIA-IDENTITY", "identity-secret"),
		serviceAccountCredentialHCL("identity-sa", "gcp", testutil.GCPKeyFile(1)), cloudHCL("gcp-identity", "gcp", arg("credential_id", seeds.GCP.CredentialID)))
}

// TestAccIdentity_importByIdentity: every resource records its identity ({ id }, the Astra
// ID) in state, and an import block that names only the identity imports it with an empty
// plan (the credentials excepted: their secrets cannot be read back). Identities need Terraform 1.12 or OpenTofu 1.12; older CLIs skip the test (the
// whole suite still runs them with identities present).
func TestAccIdentity_importByIdentity(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("a public cloud's seeded service-account credential")
	addrs := []string{"astra_kubeconfig_credential.test", "astra_cluster.test", "astra_managed_cluster.test", "astra_cloud.test",
		"astra_bucket.test", s3CredentialAddr, serviceAccountCredentialAddr}
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
		if strings.HasSuffix(addr, "_credential.test") {
			// Astra Control never returns a key store: an imported credential plans to send
			// the configuration's secret once, as after an import by ID.
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
// Terraform and returns its identity's attributes (id, and app_id for a policy).
type identityImportCase struct {
	typ  string
	seed func(a *accTarget) map[string]string
}

// byID is the identity { id } of the object seed creates.
func byID(seed func(a *accTarget) string) func(a *accTarget) map[string]string {
	return func(a *accTarget) map[string]string { return map[string]string{"id": seed(a)} }
}

// identityHCLBody renders an identity's attributes, sorted, as an import block's identity.
func identityHCLBody(identity map[string]string) string {
	names := make([]string, 0, len(identity))
	for name := range identity {
		names = append(names, name)
	}
	sort.Strings(names)
	body := ""
	for _, name := range names {
		body += fmt.Sprintf("    %s = %q\n", name, identity[name])
	}
	return body
}

// seedApp manages, outside Terraform, the default namespace of a new managed cluster as an
// app named name, and returns the cluster's and the app's IDs.
func seedApp(a *accTarget, name string) (clusterID, appID string) {
	a.t.Helper()
	clusterID = onlyID(a.t, seedClusters(a, name+"-cluster", 1, true))
	return clusterID, seedAppOn(a, clusterID, name)
}

// seedAppOn manages, outside Terraform, the default namespace of clusterID as app name.
func seedAppOn(a *accTarget, clusterID, name string) string {
	a.t.Helper()
	app, err := a.client.CreateApp(testContext(), astra.AppCreate{Name: name, ClusterID: clusterID,
		NamespaceScopedResources: []astra.NamespaceScope{{Namespace: "default"}}})
	if err != nil {
		a.t.Fatalf("seeding app %s: %v", name, err)
	}
	return app.ID
}

// identityImportCases has one row per resource type.
var identityImportCases = []identityImportCase{
	// Replication (issue 46): a relationship to a second managed cluster.
	{typ: "astra_app_mirror", seed: byID(func(a *accTarget) string {
		_, app := seedApp(a, "by-identity-mirror")
		dest := onlyID(a.t, seedClusters(a, "by-identity-dr", 1, true))
		m, err := a.client.CreateAppMirror(testContext(), astra.AppMirrorCreate{SourceAppID: app, DestinationClusterID: dest})
		if err != nil {
			a.t.Fatalf("seeding an app mirror: %v", err)
		}
		return m.ID
	})},
	{typ: "astra_kubeconfig_credential", seed: byID(func(a *accTarget) string {
		return a.kubeconfigCredential("by-identity", "by-identity")
	})},
	{typ: "astra_cluster", seed: byID(func(a *accTarget) string {
		return onlyID(a.t, seedClusters(a, "by-identity-cluster", 1, false))
	})},
	{typ: "astra_managed_cluster", seed: byID(func(a *accTarget) string {
		return onlyID(a.t, seedClusters(a, "by-identity-managed", 1, true))
	})},
	{typ: "astra_cloud", seed: byID(func(a *accTarget) string { return a.sim.Seeds().GCP.CloudID })},
	{typ: "astra_s3_credential", seed: byID(func(a *accTarget) string { return a.s3Credential("by-identity-s3") })},
	{typ: "astra_service_account_credential", seed: byID(func(a *accTarget) string { return a.sim.Seeds().Azure.CredentialID })},
	{typ: "astra_bucket", seed: byID(func(a *accTarget) string { return a.bucket("by-identity-bucket") })},
	{typ: "astra_app", seed: byID(func(a *accTarget) string {
		_, app := seedApp(a, "by-identity-app")
		return app
	})},
	{typ: "astra_protection_policy", seed: func(a *accTarget) map[string]string {
		_, app := seedApp(a, "by-identity-policy")
		s, err := a.client.CreateAppSchedule(testContext(), app, astra.AppScheduleFields{
			Name: "hourly", Granularity: "hourly", Minute: "5", SnapshotRetention: "3", BackupRetention: "0"})
		if err != nil {
			a.t.Fatalf("seeding a protection policy: %v", err)
		}
		return map[string]string{"app_id": app, "id": s.ID}
	}},
	{typ: "astra_app_snapshot", seed: func(a *accTarget) map[string]string {
		_, app := seedApp(a, "by-identity-snapshot")
		s, err := a.client.CreateAppSnapshot(testContext(), app, astra.AppSnapshotCreate{Name: "kept"})
		if err != nil {
			a.t.Fatalf("seeding a snapshot: %v", err)
		}
		return map[string]string{"app_id": app, "id": s.ID}
	}},
	{typ: "astra_app_backup", seed: func(a *accTarget) map[string]string {
		_, app := seedApp(a, "by-identity-backup")
		b, err := a.client.CreateAppBackup(testContext(), app, astra.AppBackupCreate{Name: "kept", BucketID: a.bucket("by-identity-backups")})
		if err != nil {
			a.t.Fatalf("seeding a backup: %v", err)
		}
		// Deleted before its bucket (cleanups run last first): a bucket holding backups is not forgotten.
		a.t.Cleanup(func() {
			if err := a.client.DeleteAppBackup(testContext(), app, b.ID, false); err != nil && !astra.IsNotFound(err) {
				a.t.Errorf("deleting the seeded backup: %v", err)
			}
		})
		return map[string]string{"app_id": app, "id": b.ID}
	}},
	{typ: "astra_hook_source", seed: byID(func(a *accTarget) string { return a.hookSourceOf("by-identity-script") })},
	{typ: "astra_execution_hook", seed: byID(func(a *accTarget) string {
		_, app := seedApp(a, "by-identity-hook")
		h, err := a.client.CreateExecutionHook(testContext(), astra.ExecutionHookCreate{Name: "by-identity-hook", AppID: app,
			HookSourceID: a.hookSourceOf("by-identity-hook-script"), Action: astra.HookActionSnapshot, Stage: astra.HookStagePre,
			MatchingCriteria: []astra.MatchingCriterion{{Type: "containerName", Value: "postgres"}}})
		if err != nil {
			a.t.Fatalf("seeding an execution hook: %v", err)
		}
		return h.ID
	})},
	// Identity and access (issue 47): Astra Control Center's (TestAccIdentity_generatedConfig runs 24.02).
	{typ: "astra_user", seed: byID(func(a *accTarget) string { return a.seedUser("by-identity-user").ID })},
	{typ: "astra_role_binding", seed: byID(func(a *accTarget) string {
		b, err := a.client.CreateRoleBinding(testContext(), astra.RoleBindingCreate{UserID: a.seedUser("by-identity-bound").ID, Role: astra.RoleViewer,
			Constraints: []string{astra.NamespaceLabelConstraint("team=payments")}})
		if err != nil {
			a.t.Fatalf("seeding a role binding: %v", err)
		}
		return b.ID
	})},
	{typ: "astra_group", seed: byID(func(a *accTarget) string {
		g, err := a.client.CreateGroup(testContext(), "", "cn=auditors,ou=groups,dc=example,dc=com")
		if err != nil {
			a.t.Fatalf("seeding a group: %v", err)
		}
		return g.ID
	})},
	{typ: "astra_ldap", seed: byID(func(a *accTarget) string {
		s, err := a.client.LDAPSetting(testContext())
		if err != nil {
			a.t.Fatalf("reading the LDAP setting: %v", err)
		}
		return s.ID
	})},
}

// seedUser creates, outside Terraform, a local user named after base.
func (a *accTarget) seedUser(base string) *astra.User {
	a.t.Helper()
	u, err := a.client.CreateUser(testContext(), astra.UserCreate{Email: base + "-" + randomHex(4) + "@example.com", FirstName: "Seeded",
		AuthProvider: astra.AuthProviderLocal})
	if err != nil {
		a.t.Fatalf("seeding a user: %v", err)
	}
	return u
}

// hookSourceOf creates, outside Terraform, a hook source named name with a small script.
func (a *accTarget) hookSourceOf(name string) string {
	a.t.Helper()
	s, err := a.client.CreateHookSource(testContext(), astra.HookSourceCreate{Name: a.name(name), Script: "#!/bin/sh\nexit 0\n"})
	if err != nil {
		a.t.Fatalf("seeding hook source %s: %v", name, err)
	}
	return s.ID
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
	a := newAccTarget(t, centerRelease()) // Astra Control Center: local users, groups and LDAP
	a.requireSim("seeds objects and counts the simulator's requests")
	imports := ""
	want := map[string]int{}
	for _, tc := range identityImportCases {
		imports += fmt.Sprintf("import {\n  to = %s.by_identity\n  identity = {\n%s  }\n}\n", tc.typ, identityHCLBody(tc.seed(a)))
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
