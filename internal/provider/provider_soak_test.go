package provider

import (
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccSoak applies a random sequence of configurations (up to three credential + cluster
// pairs, each maybe managed, with changing labels; on the first, once managed, day two: an
// app, its policy, snapshot, backup into a bucket, execution hook with its hook source, and
// a clone: see provider_soak_daytwo_test.go; creates, updates, unmanages, removals) under
// random faults on the write routes, and checks after every apply that the simulator holds
// exactly what state holds, that no clone was sent twice and no app restored. Once the
// time is up the faults stop, the last configuration converges with an empty plan, and
// destroy leaves nothing.
//
// SOAK_SECONDS bounds it (default 20: the short run of make test; make soak runs 600),
// SOAK_SEED replays a run: the seed is printed first. The CLI runs with -parallelism=1 so
// that a seed replays the same requests and the same faults.
func TestAccSoak(t *testing.T) {
	seed := time.Now().UnixNano()
	if v := os.Getenv("SOAK_SEED"); v != "" {
		var err error
		if seed, err = strconv.ParseInt(v, 10, 64); err != nil {
			t.Fatalf("SOAK_SEED=%q: %v", v, err)
		}
	}
	seconds := 20
	if v := os.Getenv("SOAK_SECONDS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			t.Fatalf("SOAK_SECONDS=%q: want a positive number of seconds", v)
		}
		seconds = n
	}
	t.Logf("soak seed %d for %ds (replay: SOAK_SEED=%d)", seed, seconds, seed)
	h := newCLIHarness(t, astrasim.Options{Seed: seed}, soakSettle)
	rng := rand.New(rand.NewPCG(uint64(seed), 0x50a4))
	baseline := h.simObjects()
	s := soak{h: h, rng: rng, kube: map[int]string{}}
	start := time.Now()
	steps, failures, fired := 0, 0, 0
	firedOn := map[string]int{} // faults fired by route, for the summary
	for time.Since(start) < time.Duration(seconds)*time.Second {
		steps++
		var cfg soakConfig
		var faults string
		var injected []astrasim.Fault
		if steps == 1 {
			cfg, faults, injected = s.firstStep()
		} else {
			cfg = s.randomConfig()
			faults, injected = s.randomFaults()
		}
		h.write(s.hcl(cfg))
		clonesBefore, cloneBefore := h.sim().Clones(soakCloneName), s.stateClone()
		r := h.run(t.Context(), "apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=1")
		faultedApplies.Add(1)
		if r.err != nil {
			failures++
			if !soakClearError.MatchString(r.out) {
				t.Fatalf("step %d (seed %d, faults %s): the apply failed without a clear error:\n%s", steps, seed, faults, r.out)
			}
		}
		t.Logf("step %d: config %s; faults %s; apply: %s", steps, describeConfig(cfg), faults, firstError(r))
		for _, check := range []func() error{func() error { return h.invariant(baseline) },
			func() error { return s.cloneOnce(clonesBefore, cloneBefore) }, s.noRestores} {
			if err := check(); err != nil {
				t.Fatalf("step %d (seed %d, faults %s, apply error: %v): %v\n%s", steps, seed, faults, r.err, err, r.out)
			}
		}
		invariantChecks.Add(1)
		counted := map[astrasim.Fault]bool{}
		for _, f := range injected {
			key := astrasim.Fault{Method: f.Method, Route: f.Route, Kind: f.Kind}
			if !counted[key] {
				counted[key] = true
				n := h.sim().Fired(f.Method, f.Route, f.Kind)
				fired += n
				firedOn[f.Method+" "+f.Route] += n
			}
		}
		if steps == 1 && fired == 0 {
			t.Fatalf("seed %d: the first step's fault (%s) did not fire: the soak's faults test nothing\n%s", seed, faults, r.out)
		}
		h.sim().ClearFaults()
	}
	// The last configuration converges. It may first be refused at plan: it unmanages a
	// cluster whose apps it keeps, or drops a bucket that still holds backups, which the
	// service refuses. Such a refusal changes nothing, and may clear once the service ends
	// what it was doing (an app still being unmanaged); one that stays is the answer.
	converged, refusal := false, ""
	for attempt := 1; attempt <= 3 && !converged; attempt++ {
		r := h.apply("-parallelism=1")
		if converged = r.err == nil; !converged {
			if refusal = soakPlanRefusal.FindString(r.out); refusal == "" {
				t.Fatalf("seed %d: the last configuration does not converge once the faults stop: %v\n%s", seed, r.err, r.out)
			}
			time.Sleep(time.Second)
		}
	}
	if converged {
		if err := h.planIsEmpty(); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	} else {
		t.Logf("seed %d: the last configuration stays refused at plan, as it must: %s", seed, refusal)
	}
	if err := h.invariant(baseline); err != nil {
		t.Fatalf("seed %d: after converging: %v", seed, err)
	}
	if err := s.noRestores(); err != nil {
		t.Fatalf("seed %d: after converging: %v", seed, err)
	}
	if r := h.run(t.Context(), "destroy", "-auto-approve", "-input=false", "-no-color"); r.err != nil {
		t.Fatalf("seed %d: destroy: %v\n%s", seed, r.err, r.out)
	}
	if err := h.invariant(baseline); err != nil {
		t.Fatalf("seed %d: after destroy: %v", seed, err)
	}
	invariantChecks.Add(2)
	t.Logf("soak seed %d: %d steps, %d faults fired (%v), %d applies failed with a clear error, in %s; so far in this package run: %d faulted applies, %d invariant checks held",
		seed, steps, fired, firedOn, failures, time.Since(start).Round(time.Second), faultedApplies.Load(), invariantChecks.Load())
}

// soakSettle bounds each request and the search after an unknown outcome. Not settleFast's
// 1s: on a loaded machine (load 20 on 2 cores) a POST and the search after it both ran out
// of 1s with no fault injected (seed 108, step 1: an orphaned bucket), a lost answer the
// seed does not replay. 5s costs only the steps whose create never reached the simulator.
const soakSettle = "  request_timeout = \"5s\"\n"

// soakClearError is what a faulted apply may fail with: an outcome the provider could not
// settle, or an API error it reports with the call that failed ("Cannot take the snapshot",
// "Cannot take the backup" for day two), or a plan refusal ("Cannot destroy a bucket that
// stays in use").
var soakClearError = regexp.MustCompile(`Outcome of creating .* is unknown|Cannot (add|create|update|read|delete|remove|manage|unmanage|take|destroy)|did not reach|giving up after \d+ attempts`)

// soakPlanRefusal is a plan refused with nothing changed, faults or not: a random
// configuration may unmanage a cluster whose apps it keeps, or drop a bucket that still
// holds backups (issue 44), which the service refuses and the provider refuses at plan.
var soakPlanRefusal = regexp.MustCompile(`Cannot unmanage a cluster that has managed applications|Cannot destroy a bucket that stays in use`)

type soakCluster struct {
	managed bool
	label   string
}

type soak struct {
	h    *cliHarness
	rng  *rand.Rand
	kube map[int]string

	cloneNS         string // the clone's namespace while it lives (cloneNamespace)
	cloneGen        int
	cloneFromBackup bool
}

// soakConfig is one step's configuration: the clusters by index, and day two on cluster 0.
type soakConfig struct {
	clusters map[int]soakCluster
	dayTwo   soakDayTwo
}

// randomConfig picks which of clusters 0..2 exist, which are managed, and their labels;
// cluster 0, which holds day two, is managed more often than the others.
func (s *soak) randomConfig() soakConfig {
	cfg := soakConfig{clusters: map[int]soakCluster{}}
	for i := range 3 {
		if s.rng.IntN(3) > 0 {
			managed := s.rng.IntN(2) == 0 || (i == 0 && s.rng.IntN(2) == 0)
			cfg.clusters[i] = soakCluster{managed: managed, label: []string{"", "blue", "green"}[s.rng.IntN(3)]}
		}
	}
	cfg.dayTwo = s.randomDayTwo(cfg.clusters[0].managed)
	return cfg
}

// soakFaultKinds are the faults a soak injects.
var soakFaultKinds = []astrasim.FaultKind{astrasim.FaultUnavailable, astrasim.FaultBadGateway, astrasim.FaultReset,
	astrasim.FaultLostAnswer, astrasim.FaultRetryLater, astrasim.FaultInternal}

// firstStep is every soak's first step: cluster 0, managed, with random day two, created
// under a random fault on its credential's POST, which the first apply always sends. Random
// faults on random write routes often hit nothing the step writes (a CI soak fired none in
// four faulted applies), so this is the fault each soak is sure to fire, and checks it did.
func (s *soak) firstStep() (soakConfig, string, []astrasim.Fault) {
	f := astrasim.Fault{Method: "POST", Route: routeCredentials + "*", Kind: soakFaultKinds[s.rng.IntN(len(soakFaultKinds))], Times: 1}
	s.h.sim().AddFault(f)
	return soakConfig{clusters: map[int]soakCluster{0: {managed: true}}, dayTwo: s.randomDayTwo(true)}, describeFault(f), []astrasim.Fault{f}
}

func describeFault(f astrasim.Fault) string {
	return fmt.Sprintf("%s %s %s×%d", f.Method, f.Route, f.Kind, f.Times)
}

// randomFaults injects zero to two faults on the write routes, each hitting the first one
// or two matching requests (never polling reads, whose number depends on timing, so a seed
// replays the same faults on the same requests) and describes them.
func (s *soak) randomFaults() (string, []astrasim.Fault) {
	methods := []string{"POST", "PUT", "DELETE"}
	routes := []string{routeCredentials + "*", "/topology/v1/clouds/*", routeManagedClusters + "*", routeBuckets + "*",
		routeApps + "*", "/k8s/v1/apps/*", routeHookSources + "*", routeExecutionHooks + "*"}
	var desc []string
	var injected []astrasim.Fault
	for range s.rng.IntN(3) {
		f := astrasim.Fault{Method: methods[s.rng.IntN(len(methods))], Route: routes[s.rng.IntN(len(routes))],
			Kind: soakFaultKinds[s.rng.IntN(len(soakFaultKinds))], Times: 1 + s.rng.IntN(2)}
		s.h.sim().AddFault(f)
		injected = append(injected, f)
		desc = append(desc, describeFault(f))
	}
	if len(desc) == 0 {
		return "none", nil
	}
	return strings.Join(desc, ", "), injected
}

func (s *soak) hcl(cfg soakConfig) string {
	var b strings.Builder
	for i := range 3 {
		c, ok := cfg.clusters[i]
		if !ok {
			continue
		}
		name := fmt.Sprintf("soak-%d", i)
		if s.kube[i] == "" {
			s.kube[i] = writeKubeconfig(s.h.t, name, "https://"+name+".k8s.example:6443")
		}
		fmt.Fprintf(&b, "resource \"astra_kubeconfig_credential\" \"k%d\" {\n  name       = %q\n  kubeconfig = file(%q)\n}\n\n", i, name, s.kube[i])
		labels := ""
		if c.label != "" {
			labels = fmt.Sprintf("\n  labels        = { color = %q }", c.label)
		}
		fmt.Fprintf(&b, "resource \"astra_cluster\" \"c%d\" {\n  cloud_id      = %q\n  name          = %q\n  credential_id = astra_kubeconfig_credential.k%d.id%s\n}\n\n",
			i, s.h.sim().Seeds().PrivateCloudID, name, i, labels)
		if c.managed {
			fmt.Fprintf(&b, "resource \"astra_managed_cluster\" \"m%d\" {\n  cluster_id = astra_cluster.c%d.id\n}\n\n", i, i)
		}
	}
	return b.String() + s.dayTwoHCL(cfg.dayTwo)
}

// describeConfig is a stable one-line summary of a step's configuration, for the log.
func describeConfig(cfg soakConfig) string {
	var parts []string
	for i := range 3 {
		if c, ok := cfg.clusters[i]; ok {
			parts = append(parts, fmt.Sprintf("%d(managed=%v,label=%q)", i, c.managed, c.label))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "no cluster")
	}
	return strings.Join(parts, " ") + "; day two: " + cfg.dayTwo.String()
}

// firstError is "ok", or the summary and the start of the detail of an apply's first error.
func firstError(r cliResult) string {
	if r.err == nil {
		return "ok"
	}
	_, after, found := strings.Cut(r.out, "Error: ")
	if !found {
		return "failed: " + r.err.Error()
	}
	return "failed: " + strings.Join(strings.Fields(after), " ")[:min(400, len(strings.Join(strings.Fields(after), " ")))]
}
