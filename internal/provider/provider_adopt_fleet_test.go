package provider

// Adoption of objects created outside Terraform: examples/adopt-fleet against a simulator
// seeded through its API, and `plan -generate-config-out` for one object of each resource.
// plugin-testing cannot run a configuration directory as it ships nor keep a generated
// file, so these tests drive the CLI of TF_ACC_TERRAFORM_PATH directly (os/exec) in a temp
// directory, with the provider served in-process and attached by TF_REATTACH_PROVIDERS, as
// plugin-testing does.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// requireTFAcc skips, as resource.Test does, an acceptance test run without TF_ACC (the
// unit-test pass of `make test`), before it seeds anything.
func requireTFAcc(t *testing.T) {
	t.Helper()
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Skipf("acceptance test: set %s=1 to run it", resource.EnvTfAcc)
	}
}

// cliWork is a working directory of the acceptance tests' CLI, run directly.
type cliWork struct {
	t   *testing.T
	a   *accTarget
	cli string
	dir string
	env []string
}

// newCLIWork serves the provider in-process for the rest of the test and returns a working
// directory whose commands attach to it. The CLI reads no user configuration.
func (a *accTarget) newCLIWork() *cliWork {
	t := a.t
	t.Helper()
	testAccPreCheck(t)
	ctx, cancel := context.WithCancel(context.Background())
	reattach := make(chan *plugin.ReattachConfig, 1)
	closed := make(chan struct{})
	factory := a.providerFactories()[typeName]
	go func() {
		err := tf6server.Serve("registry.terraform.io/astra-control/astra", func() tfprotov6.ProviderServer {
			s, err := factory()
			if err != nil {
				panic(err)
			}
			return s
		}, tf6server.WithDebug(ctx, reattach, closed), tf6server.WithLoggingSink(t),
			tf6server.WithGoPluginLogger(hclog.NewNullLogger()))
		if err != nil {
			t.Errorf("serving the provider: %v", err)
		}
	}()
	var rc *plugin.ReattachConfig
	select {
	case rc = <-reattach:
	case <-time.After(30 * time.Second):
		cancel()
		t.Fatal("the provider server did not start")
	}
	t.Cleanup(func() {
		cancel()
		<-closed
	})
	conf := map[string]any{
		"Protocol": string(rc.Protocol), "ProtocolVersion": rc.ProtocolVersion, "Pid": rc.Pid, "Test": true,
		"Addr": map[string]string{"Network": rc.Addr.Network(), "String": rc.Addr.String()},
	}
	// Terraform resolves "astra-control/astra" on its registry, OpenTofu on its own.
	reattachJSON, err := json.Marshal(map[string]any{
		"registry.terraform.io/astra-control/astra": conf,
		"registry.opentofu.org/astra-control/astra": conf,
	})
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	cliConfig := filepath.Join(home, "cli.tfrc")
	if err := os.WriteFile(cliConfig, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TF_") && !strings.HasPrefix(kv, "ASTRA_") {
			env = append(env, kv)
		}
	}
	env = append(env, "TF_REATTACH_PROVIDERS="+string(reattachJSON), "TF_CLI_CONFIG_FILE="+cliConfig,
		"TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")
	return &cliWork{t: t, a: a, cli: os.Getenv("TF_ACC_TERRAFORM_PATH"), env: env}
}

// in makes dir the working directory of the next commands and points its provider block
// at the simulator (an override file, so the example's own provider block is kept).
func (w *cliWork) in(dir string) *cliWork {
	w.t.Helper()
	out := *w
	out.dir = dir
	override := fmt.Sprintf("provider \"astra\" {\n  endpoint   = %q\n  account_id = %q\n  api_token  = %q\n}\n",
		w.a.url, w.a.sim.AccountID(), astrasim.DefaultToken)
	if err := os.WriteFile(filepath.Join(dir, "sim_override.tf"), []byte(override), 0o600); err != nil {
		w.t.Fatal(err)
	}
	return &out
}

// run runs the CLI and returns its stdout and exit code; any exit code but those allowed
// (0 when none is given) fails the test with the CLI's output.
func (w *cliWork) run(allowed []int, args ...string) (string, int) {
	w.t.Helper()
	if allowed == nil {
		allowed = []int{0}
	}
	cmd := exec.Command(w.cli, args...)
	cmd.Dir, cmd.Env = w.dir, w.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			w.t.Fatalf("running %s %s: %v", filepath.Base(w.cli), strings.Join(args, " "), err)
		}
		code = exit.ExitCode()
	}
	for _, ok := range allowed {
		if code == ok {
			return stdout.String(), code
		}
	}
	w.t.Fatalf("%s %s exited %d:\n%s\n%s", filepath.Base(w.cli), strings.Join(args, " "), code, stdout.String(), stderr.String())
	return "", code
}

func (w *cliWork) cmd(args ...string) string {
	w.t.Helper()
	out, _ := w.run(nil, args...)
	return out
}

// planOnlyImports plans to a file, checks with plancheck that the plan only imports (each
// change a no-op import) exactly the objects want counts per resource type, and returns the
// plan's summary line ("Plan: 50 to import, 0 to add, ..."). extra goes to `plan`.
func (w *cliWork) planOnlyImports(want map[string]int, extra ...string) string {
	w.t.Helper()
	// -detailed-exitcode: an import is a change, so the guide's advice holds (2 until applied).
	out, code := w.run([]int{0, 2}, append([]string{"plan", "-input=false", "-no-color", "-detailed-exitcode", "-out=adopt.tfplan"}, extra...)...)
	if code != 2 {
		w.t.Fatalf("plan -detailed-exitcode of imports exited %d, want 2:\n%s", code, out)
	}
	summary := regexp.MustCompile(`(?m)^Plan: .*$`).FindString(out)
	var plan tfjson.Plan
	if err := json.Unmarshal([]byte(w.cmd("show", "-json", "adopt.tfplan")), &plan); err != nil {
		w.t.Fatalf("reading the JSON plan: %v", err)
	}
	var resp plancheck.CheckPlanResponse
	onlyImports{want: want}.CheckPlan(context.Background(), plancheck.CheckPlanRequest{Plan: &plan}, &resp)
	if resp.Error != nil {
		w.t.Fatalf("%v\nplan output:\n%s", resp.Error, out)
	}
	return summary
}

// applyAndReplan applies the saved plan, asserts it sent no write to the simulator, and
// that the next plan is empty (-detailed-exitcode 0).
func (w *cliWork) applyAndReplan() {
	w.t.Helper()
	before := w.a.sim.Counts()
	w.cmd("apply", "-input=false", "-no-color", "adopt.tfplan")
	if writes := writesSince(before, w.a.sim.Counts()); len(writes) > 0 {
		w.t.Fatalf("the apply of an adoption sent writes to Astra Control: %v", writes)
	}
	if out, code := w.run([]int{0, 2}, "plan", "-input=false", "-no-color", "-detailed-exitcode"); code != 0 {
		w.t.Fatalf("the plan after the adoption is not empty:\n%s", out)
	}
}

// writesSince lists the POST, PUT and DELETE requests counted after before.
func writesSince(before, after map[string]int) []string {
	var out []string
	for key, n := range after {
		method, _, _ := strings.Cut(key, " ")
		if d := n - before[key]; d > 0 && (method == "POST" || method == "PUT" || method == "DELETE" || method == "PATCH") {
			out = append(out, fmt.Sprintf("%d× %s", d, key))
		}
	}
	sort.Strings(out)
	return out
}

// onlyImports is a plancheck.PlanCheck: every resource change is a no-op import, and the
// imports per resource type are exactly want.
type onlyImports struct{ want map[string]int }

func (c onlyImports) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	got := map[string]int{}
	var errs []error
	for _, rc := range req.Plan.ResourceChanges {
		switch {
		case rc.Change == nil || rc.Change.Importing == nil:
			errs = append(errs, fmt.Errorf("%s: %v planned without an import", rc.Address, actionsOf(rc)))
		case !rc.Change.Actions.NoOp():
			errs = append(errs, fmt.Errorf("%s: imported with %v, want no change", rc.Address, rc.Change.Actions))
		default:
			got[rc.Type]++
		}
	}
	for typ := range mergeKeys(got, c.want) {
		if got[typ] != c.want[typ] {
			errs = append(errs, fmt.Errorf("%d imports of %s, want %d", got[typ], typ, c.want[typ]))
		}
	}
	resp.Error = errors.Join(errs...)
}

func actionsOf(rc *tfjson.ResourceChange) any {
	if rc.Change == nil {
		return nil
	}
	return rc.Change.Actions
}

func mergeKeys(ms ...map[string]int) map[string]bool {
	out := map[string]bool{}
	for _, m := range ms {
		for k := range m {
			out[k] = true
		}
	}
	return out
}

// copyExample copies the .tf and .tftpl files of examples/<dir> (not its subdirectories)
// into a new directory of the test.
func copyExample(t *testing.T, dir string) string {
	t.Helper()
	dst := t.TempDir()
	src := filepath.Join("..", "..", "examples", dir)
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || !(strings.HasSuffix(e.Name(), ".tf") || strings.HasSuffix(e.Name(), ".tftpl")) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// cliSupportsForEachImport: import blocks take for_each from Terraform 1.7 and OpenTofu 1.7.
func cliSupportsForEachImport(t *testing.T) bool {
	return cliAtLeast(t, 1, 7)
}

// fleet is what seedFleet created, outside Terraform.
type fleet struct {
	clusters, managed, credentials, buckets int
	apps, policies                          int      // on managed clusters, adopted with them
	s3Credentials                           []string // IDs, adopted through s3_credential_ids
	serviceAccounts                         int      // the public clouds' credentials (the simulator seeds three)
	accHost, connector, shared              string   // cluster names
	dayTwo                                  fleetDayTwo
}

// adoptFleetSize is the number of clusters seedFleet registers.
const adoptFleetSize = 50

// seedFleet registers, through the API as the web UI or NetApp's toolkit would,
// adoptFleetSize clusters in the private cloud: every fourth one managed, one hosting Astra
// Control Center (accHost), one registered through an Astra Connector (a private route,
// no credential), and two sharing one credential (the second was pointed at the first's);
// two buckets; and apps with protection policies on three managed clusters (seedFleetApps).
func seedFleet(a *accTarget) fleet {
	t, ctx, c := a.t, testContext(), a.client
	f := fleet{accHost: "acc-host", connector: "edge-connector", shared: "shared-b"}
	creds := map[string]string{}   // cluster name -> credential ID
	managed := map[string]string{} // cluster name -> ID, of the managed clusters
	for i := range adoptFleetSize {
		name := fmt.Sprintf("cluster-%02d", i)
		switch i {
		case 0:
			name = f.accHost
		case 1:
			name = f.connector
		case 2:
			name = "shared-a"
		case 3:
			name = f.shared
		}
		in := astra.ClusterCreate{Name: name}
		if name == f.connector {
			in.PrivateRouteID, in.ConnectorCapabilities = "route-"+name, []string{capabilityRelayV1, "watcherV1"}
		} else {
			body, err := astra.KubeconfigCredential("kc-"+name, a.kubeconfig(name))
			if err != nil {
				t.Fatal(err)
			}
			cred, err := c.CreateCredential(ctx, body)
			if err != nil {
				t.Fatalf("seeding credential of %s: %v", name, err)
			}
			in.CredentialID, creds[name] = cred.ID, cred.ID
			f.credentials++
		}
		if name == f.accHost {
			in.AccHost = astra.BoolPtr(true)
		}
		if i%7 == 5 {
			in.Labels = []astra.Label{{Name: "team", Value: "storage"}}
		}
		cl, err := c.CreateCluster(ctx, a.cloudID(), in)
		if err != nil {
			t.Fatalf("seeding cluster %s: %v", name, err)
		}
		f.clusters++
		if name == f.shared {
			// Shared: the cluster now uses shared-a's credential (its own stays, unused).
			cl.CredentialID = creds["shared-a"]
			if _, err := c.UpdateCluster(ctx, a.cloudID(), cl); err != nil {
				t.Fatalf("pointing %s at a shared credential: %v", name, err)
			}
			f.credentials--
		}
		if i%20 == 7 {
			cred, err := c.CreateCredential(ctx, astra.S3Credential("s3-"+name, "AKIA-"+name, "secret-"+name))
			if err != nil {
				t.Fatalf("seeding an S3 credential: %v", err)
			}
			f.s3Credentials = append(f.s3Credentials, cred.ID)
		}
		if i%4 == 0 && name != f.connector && name != f.shared {
			if _, err := c.CreateManagedCluster(ctx, astra.ManagedClusterCreate{ID: cl.ID}); err != nil {
				t.Fatalf("managing %s: %v", name, err)
			}
			f.managed++
			managed[name] = cl.ID
		}
	}
	clouds, err := c.ListClouds(ctx, astra.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, cl := range clouds {
		if isPublicCloudType(cl.CloudType) && cl.CredentialID != "" {
			f.serviceAccounts++
		}
	}
	// Two buckets backups go to: one in Cloud Storage (the GCP cloud's service account), one
	// S3 bucket with one of the adopted key pairs.
	buckets := map[string]string{} // name -> ID
	for _, b := range []astra.BucketCreate{
		{Name: "gcs-backups", CredentialID: a.sim.Seeds().GCP.CredentialID, Provider: astra.BucketProviderGCP,
			Parameters: astra.BucketParameters{GCP: &astra.GCPBucketParameters{BucketName: "gcs-backups"}}},
		{Name: "s3-backups", CredentialID: f.s3Credentials[0], Provider: astra.BucketProviderONTAPS3,
			Parameters: astra.BucketParameters{S3: &astra.S3BucketParameters{ServerURL: "s3.example.com", BucketName: "backups"}}},
	} {
		created, err := c.CreateBucket(ctx, b)
		if err != nil {
			t.Fatalf("seeding bucket %s: %v", b.Name, err)
		}
		buckets[b.Name] = created.ID
		f.buckets++
	}
	f.apps, f.policies = seedFleetApps(a, managed, buckets)
	adopted := map[string]bool{}
	for _, id := range managed {
		adopted[id] = true
	}
	f.dayTwo = seedFleetDayTwo(a, adopted, buckets["s3-backups"])
	return f
}

// seedFleetApps manages, as the web UI would, an app on each of three managed clusters of
// managed (name -> ID) and gives them protection policies of every granularity, and returns
// how many apps and policies it made. The apps differ in what their configuration must carry
// back: label selectors on two namespaces (web), cluster-scoped resources and labels
// (operator), nothing but a namespace (db). The policies: one backing up into a seeded bucket
// of buckets (name -> ID), one naming no bucket, one disabled. One more app, on a managed
// cluster of another cloud, is not counted: the example adopts one cloud's clusters.
func seedFleetApps(a *accTarget, managed, buckets map[string]string) (apps, policies int) {
	t := a.t
	t.Helper()
	for _, app := range []struct {
		cluster   string
		in        astra.AppCreate
		schedules []astra.AppScheduleFields
	}{
		{cluster: "cluster-04", in: astra.AppCreate{Name: "web", NamespaceScopedResources: []astra.NamespaceScope{
			{Namespace: "default", LabelSelectors: []string{"app=web", "tier in (frontend,backend)"}},
			{Namespace: "kube-public", LabelSelectors: []string{"!canary"}},
		}}, schedules: []astra.AppScheduleFields{
			{Name: "hourly", Granularity: "hourly", Minute: "15", SnapshotRetention: "24", BackupRetention: "0"},
			{Name: "daily", Granularity: "daily", Minute: "30", Hour: "2", SnapshotRetention: "7", BackupRetention: "7",
				BucketID: buckets["gcs-backups"]},
		}},
		{cluster: "cluster-08", in: astra.AppCreate{Name: "operator",
			NamespaceScopedResources: []astra.NamespaceScope{{Namespace: "trident"}},
			ClusterScopedResources: []astra.ClusterScope{
				{GVK: astra.GVK{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole"}, LabelSelectors: []string{"app.kubernetes.io/name=operator"}},
				{GVK: astra.GVK{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}},
			},
			Labels: []astra.Label{{Name: "team", Value: "storage"}, {Name: "tier", Value: "gold"}},
		}, schedules: []astra.AppScheduleFields{
			{Name: "weekly", Granularity: "weekly", Minute: "0", Hour: "3", DayOfWeek: "0", SnapshotRetention: "4", BackupRetention: "4"},
		}},
		{cluster: "cluster-12", in: astra.AppCreate{Name: "db", NamespaceScopedResources: []astra.NamespaceScope{{Namespace: "default"}}},
			schedules: []astra.AppScheduleFields{
				{Name: "monthly", Granularity: "monthly", Minute: "45", Hour: "4", DayOfMonth: "1", SnapshotRetention: "12",
					BackupRetention: "12", BucketID: buckets["s3-backups"], Enabled: astra.BoolPtr(false)},
			}},
	} {
		clusterID, ok := managed[app.cluster]
		if !ok {
			t.Fatalf("seeding app %s: %s is not a managed cluster of the fleet", app.in.Name, app.cluster)
		}
		app.in.ClusterID = clusterID
		id := seedReadyApp(a, app.in)
		apps++
		for _, s := range app.schedules {
			if _, err := a.client.CreateAppSchedule(testContext(), id, s); err != nil {
				t.Fatalf("seeding policy %s of app %s: %v", s.Name, app.in.Name, err)
			}
			policies++
		}
	}
	// An app on a managed cluster of another cloud (the seeded GKE one), with a policy: not
	// the example's to adopt, so not counted.
	gke := a.sim.Seeds().GCP.ClusterID
	if _, err := a.client.CreateManagedCluster(testContext(), astra.ManagedClusterCreate{ID: gke}); err != nil {
		t.Fatalf("managing the GKE cluster: %v", err)
	}
	elsewhere := seedReadyApp(a, astra.AppCreate{Name: "elsewhere", ClusterID: gke, NamespaceScopedResources: []astra.NamespaceScope{{Namespace: "default"}}})
	if _, err := a.client.CreateAppSchedule(testContext(), elsewhere, astra.AppScheduleFields{
		Name: "hourly", Granularity: "hourly", Minute: "0", SnapshotRetention: "1", BackupRetention: "0"}); err != nil {
		t.Fatalf("seeding the policy of the app elsewhere: %v", err)
	}
	return apps, policies
}

// seedReadyApp manages an app outside Terraform and waits until Astra Control has
// discovered it (a new app is answered "discovering", and only a ready app takes policies);
// it returns the app's ID.
func seedReadyApp(a *accTarget, in astra.AppCreate) string {
	t, ctx := a.t, testContext()
	t.Helper()
	app, err := a.client.CreateApp(ctx, in)
	if err != nil {
		t.Fatalf("seeding app %s: %v", in.Name, err)
	}
	if _, err := astra.Wait(ctx, a.waitSchedule(), func(ctx context.Context) (*astra.App, error) {
		return a.client.GetApp(ctx, app.ID)
	}, astra.AppReady); err != nil {
		t.Fatalf("waiting until app %s is ready: %v", in.Name, err)
	}
	return app.ID
}

// s3Vars writes the fleet's S3 credential IDs as s3_credential_ids into dir (an
// auto.tfvars file, which every plan and apply there reads).
func (f fleet) s3Vars(t *testing.T, dir string) {
	t.Helper()
	ids, _ := json.Marshal(f.s3Credentials)
	if err := os.WriteFile(filepath.Join(dir, "s3.auto.tfvars"), []byte("s3_credential_ids = "+string(ids)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestAccAdoptFleet adopts a fleet of adoptFleetSize clusters created outside Terraform,
// with their credentials, the buckets, and the apps of the managed clusters with their
// protection policies, using examples/adopt-fleet as it ships: import blocks with for_each
// (CLIs from 1.7), or, with
// Terraform 1.5 and 1.6, the import blocks examples/adopt-fleet/import-blocks prints and
// `plan -generate-config-out`. The plan only imports, the apply sends nothing to Astra
// Control, and the next plan is empty.
func TestAccAdoptFleet(t *testing.T) {
	requireTFAcc(t)
	a := newAccTarget(t)
	a.requireSim("seeds a fleet and counts the simulator's requests")
	f := seedFleet(a)
	want := map[string]int{"astra_cluster": f.clusters, "astra_managed_cluster": f.managed, "astra_kubeconfig_credential": f.credentials,
		"astra_service_account_credential": f.serviceAccounts, "astra_s3_credential": len(f.s3Credentials), "astra_bucket": f.buckets,
		"astra_app": f.apps, "astra_protection_policy": f.policies, "astra_hook_source": f.dayTwo.hookSources,
		"astra_execution_hook": f.dayTwo.hooks, "astra_app_snapshot": f.dayTwo.snapshots, "astra_app_backup": f.dayTwo.backups}
	if f.clusters != adoptFleetSize || f.managed == 0 || f.credentials >= f.clusters-1 || f.serviceAccounts == 0 || len(f.s3Credentials) == 0 ||
		f.apps == 0 || f.policies < 4 || f.dayTwo.snapshots == 0 || f.dayTwo.backups == 0 {
		t.Fatalf("the seeded fleet is not what this test is about: %+v", f)
	}
	w := a.newCLIWork()
	var summary string
	if cliSupportsForEachImport(t) {
		dir := copyExample(t, "adopt-fleet")
		f.s3Vars(t, dir)
		work := w.in(dir)
		work.cmd("init", "-input=false", "-no-color")
		summary = work.planOnlyImports(want)
		work.applyAndReplan()
	} else {
		summary = adoptWithGeneratedImports(w, "adopt-fleet/import-blocks", want, f.s3Vars)
	}
	total := f.clusters + f.managed + f.credentials + f.serviceAccounts + len(f.s3Credentials) + f.buckets + f.apps + f.policies +
		f.dayTwo.hookSources + f.dayTwo.hooks + f.dayTwo.snapshots + f.dayTwo.backups
	if !strings.HasPrefix(summary, fmt.Sprintf("Plan: %d to import, 0 to add, 0 to change, 0 to destroy.", total)) {
		t.Fatalf("plan summary %q", summary)
	}
	t.Logf("%s; writes sent by the apply: 0", summary)
}

// adoptWithGeneratedImports is the Terraform 1.5 path: the generator configuration prints
// import blocks (reading Astra Control only) for adoptGenerated. It returns the plan's
// summary line.
func adoptWithGeneratedImports(w *cliWork, generator string, want map[string]int, vars func(*testing.T, string)) string {
	t := w.t
	dir := copyExample(t, generator)
	vars(t, dir)
	gen := w.in(dir)
	gen.cmd("init", "-input=false", "-no-color")
	before := w.a.sim.Counts()
	gen.cmd("apply", "-input=false", "-no-color", "-auto-approve")
	if writes := writesSince(before, w.a.sim.Counts()); len(writes) > 0 {
		t.Fatalf("printing import blocks wrote to Astra Control: %v", writes)
	}
	summary, _ := adoptGenerated(w, gen.cmd("output", "-raw", "import_blocks"), want)
	return summary
}

// adoptGenerated puts imports in a new root module with the versions.tf of
// examples/adopt-fleet/import-blocks; `plan -generate-config-out` writes the resources,
// which must validate, plan only the imports of want, apply without a write and re-plan
// empty. It returns the plan's summary line and the generated configuration.
func adoptGenerated(w *cliWork, imports string, want map[string]int) (string, string) {
	t := w.t
	adopt := w.rootModule(map[string]string{"imports.tf": imports})
	summary := adopt.planOnlyImports(want, "-generate-config-out=generated.tf")
	generated, err := os.ReadFile(filepath.Join(adopt.dir, "generated.tf"))
	if err != nil {
		t.Fatalf("plan -generate-config-out wrote nothing: %v", err)
	}
	adopt.cmd("validate", "-no-color")
	adopt.applyAndReplan()
	return summary, string(generated)
}

// rootModule makes a new, initialized root module of the versions.tf of
// examples/adopt-fleet/import-blocks (the provider, configured from the simulator) and files.
func (w *cliWork) rootModule(files map[string]string) *cliWork {
	t := w.t
	t.Helper()
	dir := t.TempDir()
	versions, err := os.ReadFile(filepath.Join("..", "..", "examples", "adopt-fleet", "import-blocks", "versions.tf"))
	if err != nil {
		t.Fatal(err)
	}
	files["versions.tf"] = string(versions)
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	root := w.in(dir)
	root.cmd("init", "-input=false", "-no-color")
	return root
}

// TestAccAdoptGeneratedConfig imports one object of each resource, created outside
// Terraform, with `plan -generate-config-out`, under each CLI: the generated configuration
// validates, plans only the imports, applies without a write and re-plans empty. The
// objects are the awkward ones: a cloud with a credential, a kubeconfig credential (whose
// kubeconfig the API never returns), the cloud's service-account credential and an S3
// credential (whose secrets it never returns either), the cluster hosting Astra Control Center, a cluster
// registered through an Astra Connector, and managed clusters, private and public.
func TestAccAdoptGeneratedConfig(t *testing.T) {
	requireTFAcc(t)
	a := newAccTarget(t)
	a.requireSim("seeds objects and counts the simulator's requests")
	ctx, c, gcp := testContext(), a.client, a.sim.Seeds().GCP
	body, err := astra.KubeconfigCredential("kc-acc", a.kubeconfig("acc"))
	if err != nil {
		t.Fatal(err)
	}
	cred, err := c.CreateCredential(ctx, body)
	if err != nil {
		t.Fatal(err)
	}
	acc, err := c.CreateCluster(ctx, a.cloudID(), astra.ClusterCreate{Name: "acc", CredentialID: cred.ID, AccHost: astra.BoolPtr(true),
		Labels: []astra.Label{{Name: "team", Value: "storage"}}})
	if err != nil {
		t.Fatal(err)
	}
	edge, err := c.CreateCluster(ctx, a.cloudID(), astra.ClusterCreate{Name: "edge", PrivateRouteID: "route-edge",
		ConnectorCapabilities: []string{capabilityRelayV1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{acc.ID, gcp.ClusterID} {
		if _, err := c.CreateManagedCluster(ctx, astra.ManagedClusterCreate{ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	s3, err := c.CreateCredential(ctx, astra.S3Credential("s3-acc", "AKIA-ACC", "secret-acc"))
	if err != nil {
		t.Fatal(err)
	}
	imports := ""
	for _, imp := range []struct{ to, id string }{
		{"astra_cloud.gcp", gcp.CloudID},
		{"astra_service_account_credential.gcp", gcp.CredentialID},
		{"astra_s3_credential.acc", s3.ID},
		{"astra_kubeconfig_credential.acc", cred.ID},
		{"astra_cluster.acc", acc.ID},
		{"astra_cluster.edge", edge.ID},
		{"astra_managed_cluster.acc", acc.ID},
		{"astra_managed_cluster.gke", gcp.ClusterID},
	} {
		imports += fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\n", imp.to, imp.id)
	}
	w := a.newCLIWork()
	summary, generated := adoptGenerated(w, imports, map[string]int{
		"astra_cloud": 1, "astra_kubeconfig_credential": 1, "astra_cluster": 2, "astra_managed_cluster": 2,
		"astra_service_account_credential": 1, "astra_s3_credential": 1,
	})
	if want := "Plan: 8 to import, 0 to add, 0 to change, 0 to destroy."; summary != want {
		t.Errorf("plan summary %q, want %q", summary, want)
	}
	// Read-only values are not written as arguments; the secrets, which the API never
	// returns, are left out (null), never invented.
	for _, want := range []string{`name\s+= "kc-acc"`, `acc_host\s+= true`, `private_route_id\s+= "route-edge"`, `kubeconfig\s+= null`,
		`name\s+= "s3-acc"`, `access_key_id\s+= null`, `secret_access_key\s+= null`, `cloud_type\s+= "gcp"`, `service_account_json\s+= null`} {
		if !regexp.MustCompile(want).MatchString(generated) {
			t.Errorf("the generated configuration does not match %q:\n%s", want, generated)
		}
	}
	for _, readOnly := range []string{"managed_state", "trident_version", "metadata"} {
		if regexp.MustCompile(`(?m)^\s*` + readOnly + `\s+=`).MatchString(generated) {
			t.Errorf("the generated configuration sets the read-only %s:\n%s", readOnly, generated)
		}
	}
	t.Logf("generated configuration:\n%s", generated)
}

// TestAccKubeconfigCredential_adopted: a credential created outside Terraform is imported
// with neither name nor kubeconfig in the configuration (nothing sent), a rename without a
// kubeconfig is refused at plan time, setting the kubeconfig rotates it (one PUT), and
// removing it again changes state only (no request).
func TestAccKubeconfigCredential_adopted(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("counts the simulator's requests")
	id := a.kubeconfigCredential("adopted", "adopted")
	path := writeKubeconfig(t, "adopted", "https://adopted.k8s.example:6443")
	bare := a.config(fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\nresource \"astra_kubeconfig_credential\" \"test\" {}\n", credentialAddr, id))
	withKubeconfig := a.config(fmt.Sprintf("resource \"astra_kubeconfig_credential\" \"test\" {\n  kubeconfig = file(%q)\n}\n", path))
	noKubeconfig := a.config("resource \"astra_kubeconfig_credential\" \"test\" {}\n")
	var counts countDelta
	writes := func(want int) resource.TestCheckFunc {
		return a.simCheck(fmt.Sprintf("%d writes", want), func(sim *astrasim.Sim) error {
			return expectCount(len(writesSince(counts.before, sim.Counts())), want)
		})
	}
	a.test(resource.TestCase{Steps: []resource.TestStep{
		{
			PreConfig: func() { counts.mark(a.sim) },
			Config:    bare,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				onlyImports{want: map[string]int{"astra_kubeconfig_credential": 1}},
			}},
			ConfigStateChecks: []statecheck.StateCheck{expectString(credentialAddr, "name", a.name("adopted"))},
			Check:             writes(0),
		},
		{
			Config:      a.config("resource \"astra_kubeconfig_credential\" \"test\" {\n  name = \"renamed\"\n}\n"),
			ExpectError: regexp.MustCompile("(?s)Renaming needs the kubeconfig.*Set `kubeconfig`"),
		},
		{
			PreConfig:        func() { counts.mark(a.sim) },
			Config:           withKubeconfig,
			ConfigPlanChecks: planned(credentialAddr, plancheck.ResourceActionUpdate),
			Check: a.simCheck("one PUT", func(sim *astrasim.Sim) error {
				return expectCount(counts.since(sim, "PUT "+routeCredential), 1)
			}),
		},
		{
			PreConfig:        func() { counts.mark(a.sim) },
			Config:           noKubeconfig,
			ConfigPlanChecks: planned(credentialAddr, plancheck.ResourceActionUpdate),
			ConfigStateChecks: []statecheck.StateCheck{
				expectNull(credentialAddr, "kubeconfig"),
			},
			Check: writes(0),
		},
		{Config: noKubeconfig, ConfigPlanChecks: emptyPlan()},
	}})
}

// TestAccKubeconfigCredential_createNeeds: only an imported credential may leave out its
// name or kubeconfig; a new one is refused at plan time, saying what to set.
func TestAccKubeconfigCredential_createNeeds(t *testing.T) {
	a := newAccTarget(t)
	path := writeKubeconfig(t, "needs", "https://needs.k8s.example:6443")
	for _, tc := range []struct{ name, hcl, want string }{
		{"kubeconfig", "  name = \"needs\"\n", "(?s)Missing kubeconfig.*Set `kubeconfig`.*or\\s+`kubeconfig_wo`"},
		{"name", fmt.Sprintf("  kubeconfig = file(%q)\n", path), "(?s)Missing name.*needs `name`"},
	} {
		t.Logf("without %s", tc.name)
		a.test(resource.TestCase{Steps: []resource.TestStep{{
			Config:      a.config("resource \"astra_kubeconfig_credential\" \"test\" {\n" + tc.hcl + "}\n"),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(tc.want),
		}}})
	}
	if a.simulated() {
		if err := expectCount(a.sim.Count("POST", routeCredentials), 0); err != nil {
			t.Errorf("nothing may be sent for a refused credential: %v", err)
		}
	}
}

// TestOnlyImports: the plan check of the adoption tests refuses every plan that is not
// exactly the expected no-op imports.
func TestOnlyImports(t *testing.T) {
	imported := func(addr, typ string, actions ...tfjson.Action) *tfjson.ResourceChange {
		return &tfjson.ResourceChange{Address: addr, Type: typ, Change: &tfjson.Change{Actions: actions, Importing: &tfjson.Importing{ID: "x"}}}
	}
	want := map[string]int{"astra_cluster": 1}
	for name, tc := range map[string]struct {
		changes []*tfjson.ResourceChange
		err     string
	}{
		"one no-op import": {changes: []*tfjson.ResourceChange{imported("astra_cluster.a", "astra_cluster", tfjson.ActionNoop)}},
		"import with update": {changes: []*tfjson.ResourceChange{imported("astra_cluster.a", "astra_cluster", tfjson.ActionUpdate)},
			err: "astra_cluster.a: imported with [update], want no change"},
		"replace, no import": {changes: []*tfjson.ResourceChange{{Address: "astra_cluster.a", Type: "astra_cluster",
			Change: &tfjson.Change{Actions: tfjson.Actions{tfjson.ActionDelete, tfjson.ActionCreate}}}},
			err: "astra_cluster.a: [delete create] planned without an import"},
		"one import too many": {changes: []*tfjson.ResourceChange{imported("astra_cluster.a", "astra_cluster", tfjson.ActionNoop),
			imported("astra_cluster.b", "astra_cluster", tfjson.ActionNoop)}, err: "2 imports of astra_cluster, want 1"},
		"nothing imported": {err: "0 imports of astra_cluster, want 1"},
	} {
		var resp plancheck.CheckPlanResponse
		onlyImports{want: want}.CheckPlan(context.Background(), plancheck.CheckPlanRequest{Plan: &tfjson.Plan{ResourceChanges: tc.changes}}, &resp)
		switch {
		case tc.err == "" && resp.Error != nil:
			t.Errorf("%s: %v", name, resp.Error)
		case tc.err != "" && (resp.Error == nil || !strings.Contains(resp.Error.Error(), tc.err)):
			t.Errorf("%s: error %v, want %q", name, resp.Error, tc.err)
		}
	}
}

// TestWritesSince counts only the writes that arrived after the mark.
func TestWritesSince(t *testing.T) {
	before := map[string]int{"GET /a": 3, "POST /b": 1}
	after := map[string]int{"GET /a": 9, "POST /b": 1, "PUT /c": 2, "DELETE /d": 1}
	got := strings.Join(writesSince(before, after), ", ")
	if want := "1× DELETE /d, 2× PUT /c"; got != want {
		t.Fatalf("writesSince = %q, want %q", got, want)
	}
	if w := writesSince(after, after); len(w) != 0 {
		t.Fatalf("no new request, yet %v", w)
	}
}
