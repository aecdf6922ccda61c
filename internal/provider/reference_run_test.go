package provider

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
)

// servePluginVariable, set, makes this test binary serve the provider as main.go does, so a
// CLI can start it as its plugin: a process for each walk, as in real use, which
// TF_REATTACH_PROVIDERS (one process for the whole run) cannot show.
const servePluginVariable = "ASTRA_TEST_SERVE_AS_PLUGIN"

func TestMain(m *testing.M) {
	if os.Getenv(servePluginVariable) != "" {
		err := tf6server.Serve("registry.terraform.io/hashicorp/astra", func() tfprotov6.ProviderServer {
			server, err := knownanswers.NewServer(New("test")())()
			if err != nil {
				log.Fatal(err)
			}
			return server
		})
		if err != nil {
			log.Fatal(err)
		}
		return
	}
	os.Exit(m.Run())
}

// usePluginProcesses makes the CLI start this test binary as the provider, a process per
// walk (dev_overrides), with the user cache directory (the run's file) in cache.
func (h *cliHarness) usePluginProcesses(cache string) {
	h.t.Helper()
	self, err := os.Executable()
	if err != nil {
		h.t.Fatal(err)
	}
	bin := h.t.TempDir()
	if err := os.Symlink(self, filepath.Join(bin, "terraform-provider-astra")); err != nil {
		h.t.Fatal(err)
	}
	rc := filepath.Join(bin, "cli.tfrc")
	overrides := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"registry.terraform.io/hashicorp/astra\" = %q\n  }\n  direct {}\n}\n", bin)
	if err := os.WriteFile(rc, []byte(overrides), 0o600); err != nil {
		h.t.Fatal(err)
	}
	h.env = append(h.env, "TF_CLI_CONFIG_FILE="+rc, "XDG_CACHE_HOME="+cache, servePluginVariable+"=1")
	h.initialized = true // the CLIs refuse init of an overridden provider they cannot download
}

// TestAccCreatesCheckReferencesOncePerRun: `apply` plans a create in one provider process
// and plans it again in the next, which creates it. The checks of cloud_id and
// credential_id read each object once in the run (the first plan's finds are in the run's
// file), and the create's wait sees a 2-second discovery in the discovery schedule's 3
// reads (astra.Schedule.Discovery): 5 GETs in all, as before the checks, where they made it
// 9. A wrong ID is still refused at plan.
func TestAccCreatesCheckReferencesOncePerRun(t *testing.T) {
	h := newCLIHarnessOf(t, astrasim.Options{Delays: astrasim.Delays{Discover: 2 * time.Second}}, "")
	cache := t.TempDir()
	h.usePluginProcesses(cache)
	client, err := astra.New(astra.Config{Endpoint: h.url, AccountID: h.sim().AccountID(), Token: astrasim.DefaultToken})
	if err != nil {
		t.Fatal(err)
	}
	body, err := astra.KubeconfigCredential("once", astrasim.TestKubeconfig("once", "https://once.k8s.example:6443"))
	if err != nil {
		t.Fatal(err)
	}
	cred, err := client.CreateCredential(context.Background(), body)
	if err != nil {
		t.Fatal(err)
	}
	cluster := func(name, credential string) string {
		return fmt.Sprintf("\nresource \"astra_cluster\" %q {\n  cloud_id      = %q\n  credential_id = %q\n}\n", name, h.sim().Seeds().PrivateCloudID, credential)
	}
	h.write(cluster("c", cred.ID))
	h.sim().ResetCounts()
	if r := h.apply(); r.err != nil {
		t.Fatalf("apply: %v\n%s", r.err, r.out)
	}
	counts := h.sim().Counts()
	gets := 0
	for route, n := range counts {
		if strings.HasPrefix(route, "GET ") {
			gets += n
		}
	}
	if counts["GET "+routeCloud] != 1 || counts["GET "+routeCredential] != 1 {
		t.Errorf("the run read the cloud %d and the credential %d times, want once each (%v)",
			counts["GET "+routeCloud], counts["GET "+routeCredential], counts)
	}
	if polls := counts["GET "+routeCloudCluster]; polls < 1 || polls > 3 || gets != polls+2 || gets > 5 {
		t.Errorf("%d GETs of which %d of the cluster, want at most 5: 1 to 3 of the cluster and the two checks (%v)", gets, polls, counts)
	}
	runs, _ := filepath.Glob(filepath.Join(cache, "terraform-provider-astra", "runs", "*"))
	if len(runs) != 1 {
		t.Fatalf("run files %v, want the one of this run", runs)
	}
	if raw, err := os.ReadFile(runs[0]); err != nil || strings.Count(string(raw), "\n") != 2 || strings.Contains(string(raw), cred.ID) {
		t.Errorf("the run's file holds %q (%v), want two hashed entries", raw, err)
	}

	// Another run: a well-formed ID of nothing is refused at plan, as before.
	h.write(cluster("c", cred.ID) + cluster("wrong", missingID))
	r := h.run(context.Background(), "plan", "-input=false", "-no-color")
	if r.err == nil || !errorPhrases("No such credential", `credential_id "`+missingID+`" names no credential of this Astra Control account`).MatchString(r.out) {
		t.Fatalf("plan with a missing credential: %v\n%s", r.err, r.out)
	}
}

// TestRunMemory: what one process of a run adds, the run's next process has; the run's own
// file is kept, while files of ended runs (a process ID that names no such process) and
// files older than a run lasts are swept, and a stale file of this run is not believed.
func TestRunMemory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "runs")
	run := runOf(os.Getpid())
	plan := &runMemory{dir: dir, path: filepath.Join(dir, run)}
	if plan.has("cloud 1") {
		t.Fatal("an empty run has the cloud")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	ended := filepath.Join(dir, "999999999-1-deadbeef")
	if err := os.WriteFile(ended, []byte("x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	plan.add("cloud 1")
	if _, err := os.Stat(ended); !os.IsNotExist(err) {
		t.Errorf("the file of an ended run is still there (%v)", err)
	}
	apply := &runMemory{dir: dir, path: plan.path}
	if !apply.has("cloud 1") || apply.has("cloud 2") {
		t.Errorf("the next process has cloud 1 %v, cloud 2 %v: want only cloud 1", apply.has("cloud 1"), apply.has("cloud 2"))
	}
	old := time.Now().Add(-runFileMaxAge - time.Hour)
	if err := os.Chtimes(plan.path, old, old); err != nil {
		t.Fatal(err)
	}
	if (&runMemory{dir: dir, path: plan.path}).has("cloud 1") {
		t.Error("a file older than a run lasts is believed")
	}
	var nothing *runMemory
	nothing.add("cloud 1")
	if nothing.has("cloud 1") {
		t.Error("no run memory has the cloud")
	}
}

// TestAccCreatesSkipChecksOfWhatTheyCreated: the apply plans a resource again once what it
// references exists; an object this run created is not read to check it (a fleet's create
// pays no GET per cluster for its credential nor per management for its cluster), while a
// reference to an object the run did not create is still read.
func TestAccCreatesSkipChecksOfWhatTheyCreated(t *testing.T) {
	h := newCLIHarnessOf(t, astrasim.Options{}, "")
	h.usePluginProcesses(t.TempDir())
	h.write(managedStackHCL(h, "made"))
	h.sim().ResetCounts()
	if r := h.apply(); r.err != nil {
		t.Fatalf("apply: %v\n%s", r.err, r.out)
	}
	counts := h.sim().Counts()
	if n := counts["GET "+routeCredential] + counts["GET "+routeClusterByID]; n != 0 {
		t.Errorf("the apply read the credential %d and the cluster %d times by ID, want 0: this run created both (%v)",
			counts["GET "+routeCredential], counts["GET "+routeClusterByID], counts)
	}
	if n := counts["GET "+routeCloud]; n != 1 {
		t.Errorf("the apply read the cloud %d times, want 1: the run did not create it (%v)", n, counts)
	}
}
