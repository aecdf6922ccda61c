package provider

// Where acceptance tests run: a simulator started in-process for each test (the default), or
// the real Astra Control named by ASTRA_ENDPOINT. Every TestAcc… of this package that talks to
// Astra uses it:
//
//	a := newAccTarget(t)                       // starts a simulator, or targets a real Astra Control
//	a.test(resource.TestCase{Steps: ...})      // PreCheck, fast provider, parallel on the simulator
//	Config: a.config(`resource "astra_cluster" "x" { cloud_id = "` + a.cloudID() + `" ... }`)
//	Check:  a.simCheck("one POST", func(s *astrasim.Sim) error { ... })
//
// The checks, HCL builders and counters the tests share are in helpers_test.go.
//
// Real Astra Control mode reads ASTRA_ENDPOINT, ASTRA_ACCOUNT_ID, ASTRA_API_TOKEN (and the
// provider's other ASTRA_* variables, such as ASTRA_CA_CERTIFICATE), plus:
//   - ASTRA_TEST_KUBECONFIG: path of a kubeconfig for a cluster the tests may add and remove;
//   - ASTRA_TEST_CLOUD_ID (optional): the cloud to add it to; default: the first private cloud.
//
// Against a real service the tests run one at a time (they share that one cluster), names get
// a random suffix, and what only the simulator can do is skipped with a log line saying why,
// at the smallest scale that keeps the rest meaningful:
//
//	a.requireSim("why")                        // the whole test (seeded clouds, injected faults)
//	a.simStep("why", resource.TestStep{...})   // one step (its PreConfig is not run either)
//	a.simCheck("what", func(*astrasim.Sim)...) // one assertion (request counts, internals)
//	a.requireAPIVersion("1.7")                 // the service must speak this cluster API version
//	a.apiVersionStep("1.5", resource.TestStep{...}) // one step that needs it
//
// Everything else (state, plans, what Astra Control holds afterwards) is checked through
// a.client, the API, in both modes. The cluster API version the service speaks is
// ASTRA_API_VERSION when set, else the version of its clusters collection; a service older
// than the provider's default is then spoken to in its own version.

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
	"github.com/astra-control/terraform-provider-astra/internal/provider/config"
)

// Environment of the real-Astra mode beyond the provider's own variables.
const (
	envTestKubeconfig = "ASTRA_TEST_KUBECONFIG"
	envTestCloudID    = "ASTRA_TEST_CLOUD_ID"
)

// accWaitSchedule polls the simulator every few milliseconds, so a delayed state or a
// timeout test costs well under a second of polling.
var accWaitSchedule = astra.Schedule{Min: time.Millisecond, Max: 5 * time.Millisecond, Multiplier: 1.5, NotFoundGrace: 200 * time.Millisecond}

// accTarget is one acceptance test's Astra Control.
type accTarget struct {
	t      *testing.T
	sim    *astrasim.Sim // nil against a real Astra Control
	url    string        // the simulator's base URL
	client *astra.Client // for setup and assertions outside Terraform
	cloud  string
	kube   []byte // real mode: the kubeconfig of the cluster tests may add
	suffix string // real mode: appended to names so runs do not collide
	caPEM  string // withTLS: the simulator's certificate
	// real mode: the cluster API version the service speaks ("" if unknown), and how it was learnt
	served, servedFrom string

	providerHCL string
	// provider is the provider the last test case served, whose known answers tests count.
	provider *astraProvider
}

// accOptions configure the simulator of a test (ignored against a real Astra Control).
type accOptions struct {
	sim        astrasim.Options
	apiVersion string
	tls        bool
	serial     bool
}

// accOption changes accOptions.
type accOption func(*accOptions)

// withSim changes the simulator's options (delays, release, clock...).
func withSim(f func(*astrasim.Options)) accOption {
	return func(o *accOptions) { f(&o.sim) }
}

// serial keeps the test out of the parallel pool, for a test that sets environment
// variables (t.Setenv refuses parallel tests).
func serial() accOption {
	return func(o *accOptions) { o.serial = true }
}

// withTLS serves the simulator over HTTPS with a self-signed certificate, as an on-premises
// Astra Control Center often is; the provider block trusts it through ca_certificate.
func withTLS() accOption {
	return func(o *accOptions) { o.tls = true }
}

// withAPIVersion sets the provider's api_version (and, on the simulator, a release that speaks it).
func withAPIVersion(v string) accOption {
	return func(o *accOptions) {
		o.apiVersion = v
		if release := releaseFor(v); release != "" && o.sim.Release == "" {
			o.sim.Release = release
		}
	}
}

// releaseFor is the published release whose newest cluster version is v.
func releaseFor(v string) string {
	switch v {
	case "1.3":
		return "22.11"
	case "1.4":
		return "23.05"
	case "1.6":
		return "23.10"
	case "1.7":
		return "24.02"
	}
	return ""
}

// realAstra reports whether the tests target a real Astra Control.
func realAstra() bool { return os.Getenv(config.EnvEndpoint) != "" }

// newAccTarget starts a simulator for t (and marks t parallel), or connects to the real
// Astra Control of the environment.
func newAccTarget(t *testing.T, opts ...accOption) *accTarget {
	t.Helper()
	// Protection policies never fire on their own in a test (an hourly policy would take a
	// snapshot whenever a test crosses the hour): a test that needs the schedule clock says so.
	o := accOptions{sim: astrasim.Options{PausePolicies: true}}
	for _, opt := range opts {
		opt(&o)
	}
	a := &accTarget{t: t}
	if realAstra() {
		o.apiVersion = a.connectReal(o)
	} else {
		a.startSim(o)
		if !o.serial {
			t.Parallel()
		}
	}
	a.providerHCL = a.renderProviderBlock(o.apiVersion)
	return a
}

func (a *accTarget) startSim(o accOptions) {
	t := a.t
	if o.sim.OnResponseViolation == nil {
		o.sim.OnResponseViolation = func(method, route string, status int, err error) {
			t.Errorf("simulator answer to %s %s (%d) breaks the published schema: %v", method, route, status, err)
		}
	}
	var (
		sim   *astrasim.Sim
		url   string
		caPEM []byte
		stop  func()
		err   error
	)
	if o.tls {
		sim, url, caPEM, stop, err = astrasim.ServeTLS(o.sim)
	} else {
		sim, url, stop, err = astrasim.Serve(o.sim)
	}
	if err != nil {
		t.Fatalf("starting the simulator: %v", err)
	}
	t.Cleanup(stop)
	a.sim, a.url, a.caPEM, a.cloud = sim, url, string(caPEM), sim.Seeds().PrivateCloudID
	a.client = a.newClient(astra.Config{Endpoint: url, AccountID: sim.AccountID(), Token: astrasim.DefaultToken,
		ClusterVersion: o.apiVersion, CACertPEM: caPEM})
}

// connectReal targets the Astra Control of the environment and returns the api_version the
// provider block must set ("" to leave it to the environment).
func (a *accTarget) connectReal(o accOptions) string {
	t := a.t
	resolved, diags := config.ResolveFromEnvironment(nullConfigModel())
	if diags.HasError() || len(resolved.Missing) > 0 {
		t.Fatalf("%s is set, so the tests target a real Astra Control, but its configuration is incomplete: %v %v", config.EnvEndpoint, diags, resolved.Missing)
	}
	a.served, a.servedFrom = servedAPIVersion(resolved.Client)
	apiVersion := o.apiVersion
	switch {
	case apiVersion != "":
		a.requireAPIVersion(apiVersion)
	case os.Getenv(config.EnvAPIVersion) == "" && a.served != "" && !versionAtLeast(a.served, config.DefaultAPIVersion):
		// The provider's default would be refused (problem 8): speak the service's version, as
		// its users must.
		apiVersion = a.served
		t.Logf("api_version = %q: the service speaks %s (%s), older than the provider's default %s", apiVersion, a.served, a.servedFrom, config.DefaultAPIVersion)
	}
	if apiVersion != "" {
		resolved.Client.ClusterVersion = apiVersion
	}
	a.client = a.newClient(resolved.Client)
	path := os.Getenv(envTestKubeconfig)
	kube, err := os.ReadFile(path)
	if path == "" || err != nil {
		t.Fatalf("against a real Astra Control, %s must name the kubeconfig of a cluster the tests may add and remove (%v)", envTestKubeconfig, err)
	}
	a.kube = kube
	a.cloud = os.Getenv(envTestCloudID)
	if a.cloud == "" {
		a.cloud = a.findPrivateCloud()
	}
	a.suffix = "-" + randomHex(3)
	return apiVersion
}

// The cluster API version of the real service, learnt once per test binary.
var (
	servedOnce              sync.Once
	servedVersion, servedBy string
)

// servedAPIVersion is the newest cluster API version the service speaks: ASTRA_API_VERSION
// when set, else the "version" of its clusters collection (the published examples answer
// the release's newest: 1.3 on 22.11, 1.5 on 23.07, 1.7 on 24.02). The API has no other way
// to ask. It returns "" and the reason when it cannot tell.
func servedAPIVersion(cfg astra.Config) (version, from string) {
	servedOnce.Do(func() {
		if v := os.Getenv(config.EnvAPIVersion); v != "" {
			servedVersion, servedBy = v, config.EnvAPIVersion
			return
		}
		v, err := probeClusterVersion(cfg)
		if err != nil {
			servedBy = err.Error()
			return
		}
		servedVersion, servedBy = v, "the version of its clusters collection"
	})
	return servedVersion, servedBy
}

// probeClusterVersion GETs the clusters collection and reads its version.
func probeClusterVersion(cfg astra.Config) (string, error) {
	tlsConfig := &tls.Config{InsecureSkipVerify: cfg.InsecureSkipVerify} //nolint:gosec // as the user configured the provider
	if len(cfg.CACertPEM) > 0 {
		pool, err := x509.SystemCertPool()
		if err != nil {
			pool = x509.NewCertPool()
		}
		pool.AppendCertsFromPEM(cfg.CACertPEM)
		tlsConfig.RootCAs = pool
	}
	client := &http.Client{Timeout: time.Minute, Transport: &http.Transport{TLSClientConfig: tlsConfig}}
	url := strings.TrimRight(cfg.Endpoint, "/") + "/accounts/" + cfg.AccountID + "/topology/v1/clusters?limit=1"
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+cfg.Token)
	req.Header.Set("Accept", "application/astra-clusters+json")
	resp, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("listing clusters to learn the API version: %w", err)
	}
	defer resp.Body.Close()
	var env struct {
		Version string `json:"version"`
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("listing clusters to learn the API version: HTTP %d", resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		return "", fmt.Errorf("reading the clusters collection to learn the API version: %w", err)
	}
	if minorVersion(env.Version) < 0 {
		return "", fmt.Errorf("the clusters collection names no version (%q)", env.Version)
	}
	return env.Version, nil
}

func (a *accTarget) findPrivateCloud() string {
	clouds, err := a.client.ListClouds(context.Background(), astra.ListOptions{})
	if err != nil {
		a.t.Fatalf("listing clouds to find the private one: %v", err)
	}
	for _, c := range clouds {
		if strings.EqualFold(c.CloudType, "private") {
			return c.ID
		}
	}
	a.t.Fatalf("no private cloud in the account; set %s", envTestCloudID)
	return ""
}

func (a *accTarget) newClient(cfg astra.Config) *astra.Client {
	cfg.RetryWaitMin, cfg.RetryWaitMax, cfg.MaxRetries = time.Millisecond, 10*time.Millisecond, 3
	// Checks must see the service as it is now: a listing shared between the checks' reads
	// would not know of the provider's writes (another client) and answer from before them.
	cfg.ReadMaxAge = 0
	if realAstra() {
		cfg.RetryWaitMin, cfg.RetryWaitMax = time.Second, 10*time.Second
	}
	c, err := astra.New(cfg)
	if err != nil {
		a.t.Fatalf("building the test client: %v", err)
	}
	return c
}

func nullConfigModel() config.Model {
	return config.Model{
		Endpoint: types.StringNull(), AccountID: types.StringNull(), APIToken: types.StringNull(),
		CACertificate: types.StringNull(), CACertificateFile: types.StringNull(), InsecureSkipVerify: types.BoolNull(),
		APIVersion: types.StringNull(), RequestTimeout: types.StringNull(), MaxRetries: types.Int64Null(),
		ReadMaxAge: types.StringNull(),
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// renderProviderBlock points the provider at the simulator; against a real Astra Control
// the environment configures it.
func (a *accTarget) renderProviderBlock(apiVersion string) string {
	var b strings.Builder
	b.WriteString("provider \"astra\" {\n")
	if a.sim != nil {
		fmt.Fprintf(&b, "  endpoint   = %q\n  account_id = %q\n  api_token  = %q\n", a.url, a.sim.AccountID(), astrasim.DefaultToken)
	}
	if a.caPEM != "" {
		fmt.Fprintf(&b, "  ca_certificate = <<-EOT\n%sEOT\n", a.caPEM)
	}
	if apiVersion != "" {
		fmt.Fprintf(&b, "  api_version = %q\n", apiVersion)
	}
	b.WriteString("}\n")
	return b.String()
}

// config is the provider block followed by the given HCL.
func (a *accTarget) config(hcl ...string) string {
	return a.providerHCL + "\n" + strings.Join(hcl, "\n")
}

// cloudID is the cloud clusters are added to (the simulator's seeded private cloud).
func (a *accTarget) cloudID() string { return a.cloud }

// name makes a name unique to this run against a real Astra Control.
func (a *accTarget) name(base string) string { return base + a.suffix }

// kubeconfig is the YAML of a kubeconfig for a cluster named clusterName: on the simulator
// a cluster of its own (its server is derived from the name); against a real Astra Control
// the one of ASTRA_TEST_KUBECONFIG.
func (a *accTarget) kubeconfig(clusterName string) []byte {
	if a.sim == nil {
		return a.kube
	}
	return astrasim.TestKubeconfig(clusterName, "https://"+clusterName+".k8s.example:6443")
}

// kubeconfigCredential creates, outside Terraform, a kubeconfig credential for the cluster
// clusterName (see kubeconfig) and returns its ID; against a real Astra Control it is deleted
// when the test ends.
func (a *accTarget) kubeconfigCredential(name, clusterName string) string {
	a.t.Helper()
	body, err := astra.KubeconfigCredential(a.name(name), a.kubeconfig(clusterName))
	if err != nil {
		a.t.Fatalf("building credential %s: %v", name, err)
	}
	cred, err := a.client.CreateCredential(context.Background(), body)
	if err != nil {
		a.t.Fatalf("creating credential %s: %v", name, err)
	}
	if a.sim == nil {
		a.t.Cleanup(func() {
			if err := a.client.DeleteCredential(context.Background(), cred.ID); err != nil && !astra.IsNotFound(err) {
				a.t.Errorf("deleting test credential %s: %v", cred.ID, err)
			}
		})
	}
	return cred.ID
}

// waitSchedule is how the provider (and a test's own waits) poll this target.
func (a *accTarget) waitSchedule() astra.Schedule {
	if a.sim == nil {
		return astra.DefaultSchedule()
	}
	return accWaitSchedule
}

// providerFactories serve the provider in-process with the fast wait and retry schedule on
// the simulator, and the default schedule against a real Astra Control.
func (a *accTarget) providerFactories() map[string]func() (tfprotov6.ProviderServer, error) {
	opts := []Option{WithWaitSchedule(a.waitSchedule())}
	if a.sim != nil {
		opts = append(opts, WithRetryWait(time.Millisecond, 10*time.Millisecond))
	}
	a.provider = New("test", opts...)().(*astraProvider)
	return testAccProtoV6ProviderFactories(a.provider)
}

// test runs tc against this target with the package's pre-check and provider.
func (a *accTarget) test(tc resource.TestCase) {
	a.t.Helper()
	tc.PreCheck = func() { testAccPreCheck(a.t) }
	tc.ProtoV6ProviderFactories = a.providerFactories()
	resource.Test(a.t, tc)
}

// simulated reports whether the tests target the simulator. Against a real Astra Control it
// also records that this test left something unchecked (see noteRealModeGap).
func (a *accTarget) simulated() bool {
	if a.sim == nil {
		a.noteRealModeGap()
	}
	return a.sim != nil
}

// noteRealModeGap appends the test's name to the file $ASTRA_TEST_REAL_GAPS, when set: a
// test that passed against a real Astra Control (make test's separate astra-sim) with no gap
// ran whole, so make test does not run it again in-process under the same CLI.
func (a *accTarget) noteRealModeGap() {
	file := os.Getenv("ASTRA_TEST_REAL_GAPS")
	if file == "" {
		return
	}
	f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err == nil {
		_, err = fmt.Fprintln(f, strings.SplitN(a.t.Name(), "/", 2)[0])
		err = errors.Join(err, f.Close())
	}
	if err != nil {
		a.t.Errorf("recording a real-mode gap in %s: %v", file, err)
	}
}

// simCheck is an assertion only the simulator can answer (request counts, injected state);
// against a real Astra Control it logs that it was skipped and passes.
func (a *accTarget) simCheck(what string, check func(*astrasim.Sim) error) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if a.sim == nil {
			a.noteRealModeGap()
			a.t.Logf("skipped against a real Astra Control (simulator-only check): %s", what)
			return nil
		}
		if err := check(a.sim); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return nil
	}
}

// requireSim skips a test that needs the simulator (its seeds, fault injection or
// internals), saying why, when the tests target a real Astra Control.
func (a *accTarget) requireSim(why string) {
	a.t.Helper()
	if a.sim == nil {
		a.t.Skipf("needs the simulator (%s); skipped against a real Astra Control", why)
	}
}

// simStep is a step only the simulator can run (it changes the simulator's state, injects
// a fault, or expects what only that causes). Against a real Astra Control it is skipped,
// its PreConfig included, with a log line saying why; the steps after it must not need it.
func (a *accTarget) simStep(why string, step resource.TestStep) resource.TestStep {
	if a.sim != nil {
		return step
	}
	return a.skippedStep(step, "needs the simulator: "+why)
}

// apiVersionStep is a step that needs cluster API version v: against a real Astra Control
// that speaks an older one, it is skipped like a simStep.
func (a *accTarget) apiVersionStep(v string, step resource.TestStep) resource.TestStep {
	if ok, why := a.speaks(v); !ok {
		return a.skippedStep(step, why)
	}
	return step
}

// speaks reports whether the target speaks cluster API version v, and if not, why. The
// simulator does (withAPIVersion picks its release). A real service whose version is unknown
// is assumed to speak the provider's default, as every other test assumes.
func (a *accTarget) speaks(v string) (bool, string) {
	switch {
	case a.sim != nil:
		return true, ""
	case a.served == "":
		if versionAtLeast(config.DefaultAPIVersion, v) {
			return true, ""
		}
		return false, fmt.Sprintf("needs cluster API version %s, and which the service speaks is unknown (%s): set %s", v, a.servedFrom, config.EnvAPIVersion)
	case !versionAtLeast(a.served, v):
		return false, fmt.Sprintf("needs cluster API version %s; the service speaks %s (%s)", v, a.served, a.servedFrom)
	}
	return true, ""
}

func (a *accTarget) skippedStep(step resource.TestStep, why string) resource.TestStep {
	step.PreConfig = nil // plugin-testing runs PreConfig before SkipFunc
	step.SkipFunc = func() (bool, error) {
		a.noteRealModeGap()
		a.t.Logf("step skipped against a real Astra Control (%s)", why)
		return true, nil
	}
	return step
}

// requireAPIVersion skips the test, saying why, when the real Astra Control does not speak
// cluster API version v (see speaks).
func (a *accTarget) requireAPIVersion(v string) {
	a.t.Helper()
	if ok, why := a.speaks(v); !ok {
		a.t.Skip(why)
	}
}
