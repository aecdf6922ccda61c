package provider

// cliHarness drives the CLI binary directly (os/exec), for what plugin-testing cannot do:
// interrupt a running apply with SIGINT, restart the simulator in the middle of one, or
// run many cheap applies in a row (the fault matrix and the soak). The provider is served
// in-process and the CLI attaches to it through TF_REATTACH_PROVIDERS, as plugin-testing
// does, so it uses the simulator's fast wait and retry schedule.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
)

// restartableSim serves a simulator behind a fixed address, so a test can restart it
// (state saved to a file, a new simulator loaded from it) while the CLI runs.
type restartableSim struct {
	mu       sync.RWMutex
	sim      *astrasim.Sim
	opts     astrasim.Options
	srv      *httptest.Server
	restarts int
}

// ServeHTTP holds the read lock for the whole request, so a restart waits for the requests
// in flight: a write the old simulator answered after its state was saved was lost, and its
// ID given again to the next object (CI, TestAccFaultMatrix/simulator_restarts_mid-apply).
// A service that answered a write has kept it.
func (r *restartableSim) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	r.sim.ServeHTTP(w, req)
}

// current is the simulator now serving.
func (r *restartableSim) current() *astrasim.Sim {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.sim
}

// restart saves the state to a file and serves a new simulator loaded from it; faults and
// request counts start over, as after a real restart.
func (r *restartableSim) restart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sim-state.json")
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.sim.SaveState(path); err != nil {
		t.Errorf("saving the simulator's state: %v", err)
		return
	}
	next, err := astrasim.New(r.opts)
	if err == nil {
		err = next.LoadState(path)
	}
	if err != nil {
		t.Errorf("restarting the simulator from its state file: %v", err)
		return
	}
	r.sim = next
	r.restarts++
}

type cliHarness struct {
	t     *testing.T
	cli   string
	dir   string
	env   []string
	rs    *restartableSim
	url   string
	extra string // appended to the provider block (request_timeout, ...)

	initialized bool
	prefix      string       // names of this test's objects
	failed      atomic.Int64 // what a "during" action did, for the test to assert
}

// newCLIHarnessOf starts a simulator (behind a restartable front) and prepares a working
// directory for the CLI named by TF_ACC_TERRAFORM_PATH; the caller says how the CLI finds
// the provider.
func newCLIHarnessOf(t *testing.T, opts astrasim.Options, providerExtra string) *cliHarness {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1 (make test does)")
	}
	if realAstra() {
		t.Skip("needs the simulator (fault injection, restarts); skipped against a real Astra Control")
	}
	testAccPreCheck(t)
	opts.PausePolicies = true // no test of the harness needs the schedule clock: see newAccTarget
	if opts.OnResponseViolation == nil {
		opts.OnResponseViolation = func(method, route string, status int, err error) {
			t.Errorf("simulator answer to %s %s (%d) breaks the published schema: %v", method, route, status, err)
		}
	}
	sim, err := astrasim.New(opts)
	if err != nil {
		t.Fatalf("starting the simulator: %v", err)
	}
	rs := &restartableSim{sim: sim, opts: opts}
	rs.srv = httptest.NewServer(rs)
	t.Cleanup(rs.srv.Close)
	h := &cliHarness{t: t, cli: os.Getenv("TF_ACC_TERRAFORM_PATH"), dir: t.TempDir(), rs: rs, url: rs.srv.URL, extra: providerExtra}
	h.env = append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	return h
}

// newCLIHarness is newCLIHarnessOf with the provider served in-process for the whole run.
func newCLIHarness(t *testing.T, opts astrasim.Options, providerExtra string) *cliHarness {
	t.Helper()
	h := newCLIHarnessOf(t, opts, providerExtra)
	h.env = append(h.env, "TF_REATTACH_PROVIDERS="+h.serveProvider())
	return h
}

// serveProvider serves the provider in-process and returns its TF_REATTACH_PROVIDERS value.
func (h *cliHarness) serveProvider() string {
	t := h.t
	ctx, cancel := context.WithCancel(context.Background())
	reattach := make(chan *plugin.ReattachConfig, 1)
	closed := make(chan struct{})
	newServer := knownanswers.NewServer(New("test", WithWaitSchedule(accWaitSchedule), WithRetryWait(time.Millisecond, 10*time.Millisecond))())
	server := func() tfprotov6.ProviderServer {
		s, err := newServer()
		if err != nil {
			panic(err)
		}
		return s
	}
	go func() {
		err := tf6server.Serve("registry.terraform.io/hashicorp/astra", server,
			tf6server.WithDebug(ctx, reattach, closed), tf6server.WithGoPluginLogger(hclog.NewNullLogger()),
			tf6server.WithoutLogStderrOverride(), tf6server.WithLoggingSink(t))
		if err != nil {
			t.Errorf("serving the provider: %v", err)
		}
	}()
	t.Cleanup(func() { cancel(); <-closed })
	var cfg *plugin.ReattachConfig
	select {
	case cfg = <-reattach:
	case <-time.After(30 * time.Second):
		t.Fatal("the provider server did not start")
	}
	entry := map[string]any{"Protocol": string(cfg.Protocol), "ProtocolVersion": cfg.ProtocolVersion, "Pid": cfg.Pid, "Test": true,
		"Addr": map[string]string{"Network": cfg.Addr.Network(), "String": cfg.Addr.String()}}
	out, err := json.Marshal(map[string]any{"registry.terraform.io/hashicorp/astra": entry})
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// sim is the simulator serving now (a restart replaces it).
func (h *cliHarness) sim() *astrasim.Sim { return h.rs.current() }

// write replaces the configuration: the provider block, then hcl.
func (h *cliHarness) write(hcl string) {
	sim := h.sim()
	// The full source address, so OpenTofu too attaches to the in-process provider.
	provider := "terraform {\n  required_providers {\n    astra = { source = \"registry.terraform.io/hashicorp/astra\" }\n  }\n}\n\n" + fmt.Sprintf("provider \"astra\" {\n  endpoint   = %q\n  account_id = %q\n  api_token  = %q\n%s}\n",
		h.url, sim.AccountID(), astrasim.DefaultToken, h.extra)
	if err := os.WriteFile(filepath.Join(h.dir, "main.tf"), []byte(provider+hcl), 0o600); err != nil {
		h.t.Fatal(err)
	}
	if !h.initialized {
		h.run(context.Background(), "init", "-input=false", "-no-color")
		h.initialized = true
	}
}

// cliResult is one CLI run: its combined output and whether it failed.
type cliResult struct {
	out string
	err error
}

// run runs the CLI with args in the working directory; ctx may end it early.
func (h *cliHarness) run(ctx context.Context, args ...string) cliResult {
	return h.start(ctx, nil, args...)
}

// start runs the CLI; during, if set, is called with the running process.
func (h *cliHarness) start(ctx context.Context, during func(*os.Process), args ...string) cliResult {
	h.t.Helper()
	cmd := exec.CommandContext(ctx, h.cli, args...)
	cmd.Dir, cmd.Env = h.dir, h.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Start(); err != nil {
		h.t.Fatalf("starting %s %v: %v", h.cli, args, err)
	}
	if during != nil {
		go during(cmd.Process)
	}
	err := cmd.Wait()
	if args[0] == "init" && err != nil {
		h.t.Fatalf("%s init: %v\n%s", h.cli, err, out.String())
	}
	return cliResult{out: out.String(), err: err}
}

// apply runs `apply -auto-approve` with a bounded time.
func (h *cliHarness) apply(extra ...string) cliResult {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	return h.run(ctx, append([]string{"apply", "-auto-approve", "-input=false", "-no-color"}, extra...)...)
}

// planIsEmpty runs `plan -detailed-exitcode`: exit 0 is an empty plan.
func (h *cliHarness) planIsEmpty() error {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	r := h.run(ctx, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	if r.err != nil {
		return fmt.Errorf("the plan after convergence is not empty (%w):\n%s", r.err, r.out)
	}
	return nil
}

// interruptWhen sends SIGINT to the CLI once cond holds (polled), for start's during.
func interruptWhen(cond func() bool) func(*os.Process) {
	return func(p *os.Process) {
		deadline := time.Now().Add(2 * time.Minute)
		for !cond() && time.Now().Before(deadline) {
			time.Sleep(2 * time.Millisecond)
		}
		_ = p.Signal(syscall.SIGINT)
	}
}

// stateObject is one resource instance of the CLI's state file.
type stateObject struct {
	Type, Name, ID, Key string
	Tainted             bool
}

// state reads terraform.tfstate (nothing when there is none yet).
func (h *cliHarness) state() []stateObject {
	raw, err := os.ReadFile(filepath.Join(h.dir, "terraform.tfstate"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		h.t.Fatalf("reading the state: %v", err)
	}
	var st struct {
		Resources []struct {
			Mode, Type, Name string
			Instances        []struct {
				IndexKey   any    `json:"index_key"`
				Status     string `json:"status"`
				Attributes struct {
					ID string `json:"id"`
				} `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		h.t.Fatalf("decoding the state: %v", err)
	}
	var out []stateObject
	for _, r := range st.Resources {
		if r.Mode != "managed" {
			continue
		}
		for _, in := range r.Instances {
			key := ""
			if in.IndexKey != nil {
				key = fmt.Sprint(in.IndexKey)
			}
			out = append(out, stateObject{Type: r.Type, Name: r.Name, ID: in.Attributes.ID, Key: key, Tainted: in.Status == "tainted"})
		}
	}
	return out
}

// simObjects is what the simulator holds, by kind: credential, cloud, cluster, managed,
// bucket, app, schedule, snapshot, backup, hooksource, hook.
type simObjects map[string]map[string]string // kind -> ID -> name

func (h *cliHarness) simObjects() simObjects {
	raw, err := h.sim().Snapshot()
	if err != nil {
		h.t.Fatalf("snapshot: %v", err)
	}
	var view struct {
		Credentials map[string]struct{ Name string } `json:"credentials"`
		Clouds      map[string]struct{ Name string } `json:"clouds"`
		Buckets     map[string]struct{ Name string } `json:"buckets"`
		Clusters    map[string]struct {
			Name, ManagedState string
			Discovered         bool
		} `json:"clusters"`
		Apps        map[string]struct{ Name string } `json:"apps"`
		Schedules   map[string]struct{ Name string } `json:"schedules"`
		HookSources map[string]struct{ Name string } `json:"hookSources"`
		Hooks       map[string]struct{ Name string } `json:"executionHooks"`
		Snapshots   map[string]struct{ Name string } `json:"snapshots"`
		Backups     map[string]struct{ Name string } `json:"backups"`
	}
	if err := json.Unmarshal(raw, &view); err != nil {
		h.t.Fatalf("decoding the snapshot: %v", err)
	}
	out := simObjects{"credential": {}, "cloud": {}, "cluster": {}, "managed": {}, "bucket": {}, "app": {}, "schedule": {},
		"hooksource": {}, "hook": {}, "snapshot": {}, "backup": {}}
	for id, sn := range view.Snapshots {
		out["snapshot"][id] = sn.Name
	}
	for id, b := range view.Backups {
		out["backup"][id] = b.Name
	}
	for id, h := range view.HookSources {
		out["hooksource"][id] = h.Name
	}
	for id, h := range view.Hooks {
		out["hook"][id] = h.Name
	}
	for id, b := range view.Buckets {
		out["bucket"][id] = b.Name
	}
	for id, a := range view.Apps {
		out["app"][id] = a.Name
	}
	for id, sc := range view.Schedules {
		out["schedule"][id] = sc.Name
	}
	for id, c := range view.Credentials {
		out["credential"][id] = c.Name
	}
	for id, c := range view.Clouds {
		out["cloud"][id] = c.Name
	}
	for id, c := range view.Clusters {
		if !c.Discovered { // a public cloud lists those by itself: no resource creates them
			out["cluster"][id] = c.Name
		}
		if ms := strings.ToLower(c.ManagedState); ms != "unmanaged" && ms != "ineligible" && ms != "pending" && ms != "" {
			out["managed"][id] = c.Name
		}
	}
	return out
}

var kindOfType = map[string]string{
	"astra_kubeconfig_credential": "credential", "astra_s3_credential": "credential", "astra_service_account_credential": "credential",
	"astra_cloud": "cloud", "astra_cluster": "cluster", "astra_managed_cluster": "managed", "astra_bucket": "bucket",
	"astra_app": "app", "astra_protection_policy": "schedule", "astra_hook_source": "hooksource", "astra_execution_hook": "hook",
	"astra_app_snapshot": "snapshot", "astra_app_backup": "backup",
}

// invariant: the simulator holds exactly what state holds, beyond what it held at the
// start (baseline): no duplicate, no orphan, no lost entry. Snapshots and backups count
// with no exclusion: the harness pauses policies (PausePolicies), so none is scheduled.
func (h *cliHarness) invariant(baseline simObjects) error {
	want := map[string][]string{}
	for _, o := range h.state() {
		want[kindOfType[o.Type]] = append(want[kindOfType[o.Type]], o.ID)
	}
	now := h.simObjects()
	var problems []string
	for _, kind := range []string{"credential", "cloud", "cluster", "managed", "bucket", "app", "schedule", "snapshot", "backup", "hooksource", "hook"} {
		var got []string
		for id := range now[kind] {
			if _, seeded := baseline[kind][id]; !seeded {
				got = append(got, id)
			}
		}
		sort.Strings(got)
		w := append([]string(nil), want[kind]...)
		sort.Strings(w)
		if strings.Join(got, ",") != strings.Join(w, ",") {
			problems = append(problems, fmt.Sprintf("%s: the simulator holds %v, state %v", kind, got, w))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("simulator and state differ: %s", strings.Join(problems, "; "))
	}
	return nil
}
