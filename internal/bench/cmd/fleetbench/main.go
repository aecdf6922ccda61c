// Command fleetbench measures the provider at fleet scale with a real CLI against the
// simulator (`make bench`): create latency, apply and plan of N clusters, and the provider's
// peak memory, beside two do-nothing floors (and, in the realistic fleet, the echo floor,
// internal/bench/echo) and beside the provider switched to the anchors' strategy (10s
// polling, one GET per read). It prints a table and writes BENCHMARKS.md with
// an SVG chart; every figure comes from the one run.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// variant is one provider binary under test.
type variant struct {
	key, label string
	dir        string // holds the terraform-provider-* binary
	floor      bool   // a do-nothing provider
	trivial    bool   // floor_thing instead of astra_cluster
	env        []string
	size       int64 // the binary's bytes: its file-backed pages are most of a provider's peak RSS
}

type result struct {
	wall     time.Duration
	requests int
	gets     int
	rssKiB   int64
	// cpu is the CPU time of the CLI with the providers it ran and reaped; providerCPU the
	// providers' part, sampled from /proc (a process's last few milliseconds may be missed).
	cpu, providerCPU time.Duration
	// fastest and slowest are the spread of the repetitions a median was taken from.
	fastest, slowest time.Duration
}

type bench struct {
	cli, root, work string
	// others are further CLIs (-cli's list after the first): the floors and astra apply and
	// plan under each too, in the same run, for the extra columns of the fleet tables.
	others   []string
	variants map[string]*variant
	sim      *astrasim.Sim
	url      string
	creds    []string
	rows     []row
	repeat   int // plans are run this many times; the median counts
	out      string
	nextCred int               // credentials are used once: a kubeconfig registers one cluster
	versions map[string]string // versionOf's answers, by CLI path
	// fleetFloors are the floors the realistic fleet measures beside astra (-fleet-floors).
	fleetFloors []string
	// fleetPlans is how many steady plans of each provider a fleet repetition runs (-fleet-plans).
	fleetPlans int
}

type row struct {
	scenario string
	layout   string // of the realistic fleet
	latency  time.Duration
	n        int
	res      map[string]result
}

func main() {
	cli := flag.String("cli", "", "the CLI binaries (tofu or terraform), comma-separated: the first runs every scenario, "+
		"each further one the floors and astra at scale (extra columns)")
	out := flag.String("out", "BENCHMARKS.md", "the report to write")
	planN := flag.String("plan-n", "10,100,500,1000", "plan scale: cluster counts")
	applyN := flag.String("apply-n", "10,100,500", "apply scale: cluster counts")
	latencies := flag.String("latency", "0s,100ms", "simulated latency of every answer")
	createT := flag.String("create-t", "2s,20s", "create latency: transition durations")
	fleetN := flag.String("fleet-n", "100,300,1000", "realistic fleet: cluster counts (a credential, the cluster with three labels and its management each)")
	fleetLayouts := flag.String("fleet-layout", "module,count", "realistic fleet: layouts (module: a module instance per cluster; count: three resources with count)")
	fleetCountMax := flag.Int("fleet-count-max", 300, "realistic fleet: the largest N the count layout runs (its CLI cost grows as N squared)")
	fleetFloors := flag.String("fleet-floors", "echo,trivial,schema,framework", "realistic fleet: what is measured beside astra: "+
		"the floors (echo, trivial, schema) and framework (astra with its known answers off, ASTRA_KNOWN_ANSWERS=off)")
	fleetPlans := flag.Int("fleet-plans", 3, "realistic fleet: steady plans of each provider per repetition, taking turns "+
		"between the providers (the median is over -repeat times this many)")
	repeat := flag.Int("repeat", 3, "how many times each plan runs, and each realistic fleet measurement (the median is reported, with the spread)")
	flag.Parse()
	if *cli == "" {
		log.Fatal("-cli is required (the path of tofu or terraform)")
	}
	root, _ := os.Getwd()
	work, err := os.MkdirTemp("", "fleetbench-")
	if err != nil {
		log.Fatal(err)
	}
	if os.Getenv("FLEETBENCH_KEEP") == "" { // set, the working directories and states stay for a look
		defer os.RemoveAll(work)
	} else {
		log.Printf("working directories kept in %s", work)
	}
	clis := strings.Split(*cli, ",")
	b := &bench{cli: clis[0], others: clis[1:], root: root, work: work, repeat: max(*repeat, 1), out: *out, fleetPlans: max(*fleetPlans, 1)}
	for _, f := range strings.Split(*fleetFloors, ",") {
		switch f = strings.TrimSpace(f); f {
		case "":
		case "echo", "trivial", "schema", "framework":
			b.fleetFloors = append(b.fleetFloors, f)
		default:
			log.Fatalf("-fleet-floors: %q is not echo, trivial, schema or framework", f)
		}
	}
	b.build(allVariants...)
	for _, t := range durations(*createT) {
		b.createLatency(t)
	}
	for _, l := range durations(*latencies) {
		b.scale(l, ints(*applyN), ints(*planN))
	}
	for _, layout := range strings.Split(*fleetLayouts, ",") {
		for _, n := range ints(*fleetN) {
			if layout = strings.TrimSpace(layout); layout != "" && (layout != "count" || n <= *fleetCountMax) {
				b.fleet(layout, n)
			}
		}
	}
	fmt.Print(b.write())
}

// write renders the report and the chart from the rows so far (after every row, so a run
// cut short still leaves what it measured).
func (b *bench) write() string {
	report := b.report()
	if err := os.WriteFile(b.out, []byte(report), 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(strings.TrimSuffix(b.out, ".md")+".svg", []byte(b.chart()), 0o644); err != nil {
		log.Fatal(err)
	}
	return report
}

func (b *bench) add(r row) {
	b.rows = append(b.rows, r)
	b.write()
}

// allVariants are every provider the bench builds.
var allVariants = []string{"ours", "anchors", "schema", "trivial", "echo", "framework"}

// build compiles the providers named by keys, each into a directory of its own.
func (b *bench) build(keys ...string) {
	b.variants = map[string]*variant{
		"ours":    {key: "ours", label: "astra"},
		"anchors": {key: "anchors", label: "astra, anchors' strategy", env: []string{"ASTRA_READ_MAX_AGE=0s"}},
		"schema":  {key: "schema", label: "same-schema floor", floor: true},
		"trivial": {key: "trivial", label: "trivial floor", floor: true, trivial: true},
		"echo":    {key: "echo", label: "echo floor", floor: true},
		// The same binary as ours with the switch users have: what the known answers buy.
		"framework": {key: "framework", label: "astra, known answers off", env: []string{"ASTRA_KNOWN_ANSWERS=off"}},
	}
	// The floors log as the provider does (main.go): nothing formatted that nobody keeps, so
	// the ratios compare the work, not the logging.
	if os.Getenv("TF_LOG") == "" && os.Getenv("TF_LOG_PROVIDER") == "" {
		for _, key := range []string{"schema", "trivial", "echo"} {
			for _, name := range []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER"} {
				b.variants[key].env = append(b.variants[key].env, name+"=OFF")
			}
		}
	}
	pkgs := map[string]string{"ours": ".", "anchors": "./internal/bench/cmd/astra-anchors",
		"schema": "./internal/bench/cmd/floor-schema", "trivial": "./internal/bench/cmd/floor-trivial",
		"echo": "./internal/bench/cmd/floor-echo", "framework": "."}
	if os.Getenv("ASTRA_PROFILE_DIR") != "" { // profiles of astra's own processes (astra-profiled); timings then include the profiling
		pkgs["ours"] = "./internal/bench/cmd/astra-profiled"
	}
	for _, key := range keys {
		v := b.variants[key]
		v.dir = filepath.Join(b.work, "bin-"+key)
		name := "terraform-provider-astra"
		if v.trivial {
			name = "terraform-provider-floor"
		}
		// Built as .goreleaser.yml builds the release, so the figures are the shipped binary's:
		// static (no C library mapped), symbols stripped.
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(v.dir, name), pkgs[key])
		cmd.Dir, cmd.Stderr, cmd.Env = b.root, os.Stderr, append(os.Environ(), "CGO_ENABLED=0")
		if err := cmd.Run(); err != nil {
			log.Fatalf("building %s: %v", key, err)
		}
		if info, err := os.Stat(filepath.Join(v.dir, name)); err == nil {
			v.size = info.Size()
		}
		rc := fmt.Sprintf(`provider_installation {
  dev_overrides {
    "registry.terraform.io/astra-control/astra" = %[1]q
    "registry.opentofu.org/astra-control/astra" = %[1]q
    "registry.terraform.io/bench/floor" = %[1]q
    "registry.opentofu.org/bench/floor" = %[1]q
  }
  direct {}
}
`, v.dir)
		if err := os.WriteFile(filepath.Join(v.dir, "cli.tfrc"), []byte(rc), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

// startSim serves a fresh simulator with enough credentials for n clusters per variant.
func (b *bench) startSim(opts astrasim.Options, n int) func() {
	sim, url, stop, err := astrasim.Serve(opts)
	if err != nil {
		log.Fatal(err)
	}
	b.sim, b.url = sim, url
	client, err := astra.New(astra.Config{Endpoint: url, AccountID: sim.AccountID(), Token: astrasim.DefaultToken})
	if err != nil {
		log.Fatal(err)
	}
	b.creds, b.nextCred = nil, 0
	for i := range n {
		name := fmt.Sprintf("c%d", i)
		body, err := astra.KubeconfigCredential(name, astrasim.TestKubeconfig(name, "https://"+name+".k8s.example:6443"))
		if err != nil {
			log.Fatal(err)
		}
		cred, err := client.CreateCredential(context.Background(), body)
		if err != nil {
			log.Fatal(err)
		}
		b.creds = append(b.creds, cred.ID)
	}
	return stop
}

// config is n clusters (or floor things) using credentials from offset on.
func (b *bench) config(v *variant, n int) string {
	if v.trivial {
		return fmt.Sprintf(`terraform {
  required_providers {
    floor = { source = "bench/floor" }
  }
}

resource "floor_thing" "c" {
  count = %d
  name  = "c-${count.index}"
}
`, n)
	}
	quoted := make([]string, n)
	for i := range quoted {
		quoted[i] = strconv.Quote(b.creds[b.nextCred+i])
	}
	b.nextCred += n
	return fmt.Sprintf(`terraform {
  required_providers {
    astra = { source = "astra-control/astra" }
  }
}

provider "astra" {}

locals {
  credentials = [%s]
}

resource "astra_cluster" "c" {
  count         = %d
  cloud_id      = %q
  credential_id = local.credentials[count.index]
}
`, strings.Join(quoted, ", "), n, b.sim.Seeds().PrivateCloudID)
}

// run runs the CLI in dir with provider v, counting the simulator's requests and sampling
// the provider's peak resident memory.
func (b *bench) run(v *variant, dir string, args ...string) result {
	return b.runWith(b.cli, v, dir, args...)
}

// freeProfilePath is dir/name.pprof, or dir/name-2.pprof and on when taken: a fleet runs
// apply twice in a directory (the create, then the apply with nothing to change), and
// both profiles are wanted.
func freeProfilePath(dir, name string) string {
	path := filepath.Join(dir, name+".pprof")
	for i := 2; ; i++ {
		if _, err := os.Stat(path); err != nil { // free, or the CLI will say why it is not
			return path
		}
		path = filepath.Join(dir, fmt.Sprintf("%s-%d.pprof", name, i))
	}
}

// runWith is run with another CLI.
func (b *bench) runWith(cli string, v *variant, dir string, args ...string) result {
	cmd := exec.Command(cli, args...)
	cmd.Dir, cmd.Env = dir, b.env(v)
	if dir := os.Getenv("FLEETBENCH_PROFILE"); dir != "" { // OpenTofu's own CPU profile of each run
		cmd.Env = append(cmd.Env, "TOFU_CPU_PROFILE="+freeProfilePath(dir, filepath.Base(cmd.Dir)+"-"+args[0]))
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	b.sim.ResetCounts()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		log.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var peak int64
	providerTicks := map[int]int64{} // pid -> user+system clock ticks, last seen
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			wall := time.Since(start)
			if err != nil {
				log.Fatalf("%s %s in %s: %v\n%s", cli, strings.Join(args, " "), dir, err, out.String())
			}
			r := result{wall: wall, rssKiB: peak, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
			for _, ticks := range providerTicks {
				r.providerCPU += time.Duration(ticks) * time.Second / clockTicks
			}
			if os.Getenv("FLEETBENCH_ROUTES") != "" {
				log.Printf("%s %s: requests by route %v", filepath.Base(dir), args[0], b.sim.Counts())
			}
			for k, n := range b.sim.Counts() {
				r.requests += n
				if strings.HasPrefix(k, "GET ") {
					r.gets += n
				}
			}
			return r
		case <-tick.C:
			if kib := providerPeak(cmd.Process.Pid, providerTicks); kib > peak {
				peak = kib
			}
		}
	}
}

// env is the environment of a CLI run with provider v: its dev_overrides, the simulator.
func (b *bench) env(v *variant) []string {
	env := append(os.Environ(), "TF_CLI_CONFIG_FILE="+filepath.Join(v.dir, "cli.tfrc"), "TF_IN_AUTOMATION=1",
		"CHECKPOINT_DISABLE=1", "ASTRA_ENDPOINT="+b.url, "ASTRA_ACCOUNT_ID="+b.sim.AccountID(),
		"ASTRA_API_TOKEN="+astrasim.DefaultToken)
	return append(env, v.env...)
}

// clockTicks is the unit of /proc/<pid>/stat's CPU times (USER_HZ, 100 on Linux).
const clockTicks = 100

// providerPeak is the largest VmHWM among the CLI's provider child processes; it also
// notes each one's CPU ticks so far in ticks.
func providerPeak(pid int, ticks map[int]int64) int64 {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	var peak int64
	for _, t := range tasks {
		data, _ := os.ReadFile(t)
		for _, child := range strings.Fields(string(data)) {
			comm, _ := os.ReadFile("/proc/" + child + "/comm")
			if !strings.HasPrefix(string(comm), "terraform-provi") {
				continue
			}
			if stat, err := os.ReadFile("/proc/" + child + "/stat"); err == nil {
				// Fields after the command's closing parenthesis; utime and stime are 14 and 15.
				if i := strings.LastIndexByte(string(stat), ')'); i > 0 {
					if f := strings.Fields(string(stat)[i+1:]); len(f) > 12 {
						u, _ := strconv.ParseInt(f[11], 10, 64)
						sys, _ := strconv.ParseInt(f[12], 10, 64)
						if id, err := strconv.Atoi(child); err == nil {
							ticks[id] = u + sys
						}
					}
				}
			}
			status, _ := os.ReadFile("/proc/" + child + "/status")
			for _, line := range strings.Split(string(status), "\n") {
				if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
					if kib, _ := strconv.ParseInt(f[1], 10, 64); kib > peak {
						peak = kib
					}
				}
			}
		}
	}
	return peak
}

// dir makes a working directory holding config as main.tf.
func (b *bench) dir(name, config string) string {
	return b.dirFiles(name, map[string]string{"main.tf": config})
}

// dirFiles makes a working directory holding files, by relative path.
func (b *bench) dirFiles(name string, files map[string]string) string {
	d := filepath.Join(b.work, name)
	for rel, content := range files {
		file := filepath.Join(d, rel)
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	return d
}

// createLatency applies one cluster whose discovery takes t, with our polling and the anchors'.
func (b *bench) createLatency(t time.Duration) {
	for _, transition := range []time.Duration{0, t} {
		stop := b.startSim(astrasim.Options{Delays: astrasim.Delays{Discover: transition}}, 2)
		r := row{scenario: "create", latency: transition, n: 1, res: map[string]result{}}
		for _, key := range []string{"ours", "anchors"} {
			v := b.variants[key]
			d := b.dir(fmt.Sprintf("create-%s-%s-of-%s", key, transition, t), b.config(v, 1))
			r.res[key] = b.run(v, d, "apply", "-auto-approve", "-input=false")
			log.Printf("create T=%v %s: %v, %d GETs", transition, key, r.res[key].wall, r.res[key].gets)
		}
		b.add(r)
		stop()
	}
}

// scale applies and plans N clusters with each variant at one simulated latency.
func (b *bench) scale(latency time.Duration, applyN, planN []int) {
	ns := map[int]bool{}

	for _, n := range append(append([]int(nil), applyN...), planN...) {
		ns[n] = true

	}
	var all []int
	for n := range ns {
		all = append(all, n)
	}
	sort.Ints(all)
	total := 0
	for _, n := range all {
		total += (3 + 2*len(b.others)) * n // astra, anchors and the same-schema floor each register their own, per CLI
	}
	stop := b.startSim(astrasim.Options{}, total)
	defer stop()
	if latency > 0 {
		b.sim.AddFault(astrasim.Fault{Kind: astrasim.FaultLatency, Latency: latency})
	}
	for _, n := range all {
		apply := row{scenario: "apply", latency: latency, n: n, res: map[string]result{}}
		plan := row{scenario: "plan", latency: latency, n: n, res: map[string]result{}}
		dirs := map[string]string{}
		for _, key := range []string{"trivial", "schema", "ours", "anchors"} {
			v := b.variants[key]
			if key == "anchors" && !contains(applyN, n) {
				continue // it plans on ours' state
			}
			dirs[key] = b.dir(fmt.Sprintf("scale-%s-%d-%s", key, n, latency), b.config(v, n))
			apply.res[key] = b.run(v, dirs[key], "apply", "-auto-approve", "-input=false")
			log.Printf("apply N=%d latency %v %s: %v, %d requests", n, latency, key, apply.res[key].wall, apply.res[key].requests)
		}
		b.scaleOthers(apply, plan, n, contains(planN, n))
		if contains(applyN, n) {
			b.add(apply)
		}
		if !contains(planN, n) {
			continue
		}
		for _, key := range []string{"trivial", "schema", "ours", "anchors"} {
			dir := dirs[key]
			if key == "anchors" {
				dir = dirs["ours"] // same state, the provider switched
			}
			plan.res[key] = b.planMedian(b.variants[key], dir)
			log.Printf("plan N=%d latency %v %s: %v, %d requests, provider peak %d MiB", n, latency, key,
				plan.res[key].wall, plan.res[key].requests, plan.res[key].rssKiB/1024)
		}
		b.add(plan)
	}
}

// planMedian plans dir b.repeat times with v and returns the median run.
func (b *bench) planMedian(v *variant, dir string) result {
	return b.planMedianWith(b.cli, v, dir)
}

// planMedianWith is planMedian with another CLI.
func (b *bench) planMedianWith(cli string, v *variant, dir string) result {
	var runs []result
	for range b.repeat {
		runs = append(runs, b.runWith(cli, v, dir, "plan", "-input=false", "-detailed-exitcode"))
	}
	return median(runs)
}

// median is the run of median wall time, with the spread of all (fastest, slowest).
func median(runs []result) result {
	runs = slices.Clone(runs)
	sort.Slice(runs, func(i, j int) bool { return runs[i].wall < runs[j].wall })
	m := runs[len(runs)/2]
	if len(runs) > 1 {
		m.fastest, m.slowest = runs[0].wall, runs[len(runs)-1].wall
	}
	return m
}

func contains(ns []int, n int) bool {
	for _, x := range ns {
		if x == n {
			return true
		}
	}
	return false
}

func durations(s string) []time.Duration {
	var out []time.Duration
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		d, err := time.ParseDuration(f)
		if err != nil {
			log.Fatalf("%q: %v", f, err)
		}
		out = append(out, d)
	}
	return out
}

func ints(s string) []int {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil {
			log.Fatalf("%q: %v", f, err)
		}
		out = append(out, n)
	}
	return out
}

// otherKeys are the variants each further CLI runs at scale.
var otherKeys = []string{"trivial", "schema", "ours"}

// otherKey is the result key of variant key under further CLI i.
func otherKey(key string, i int) string { return fmt.Sprintf("%s@cli%d", key, i+1) }

// scaleOthers applies and plans N clusters with the floors and astra under each further CLI,
// into the rows of the first.
func (b *bench) scaleOthers(apply, plan row, n int, planned bool) {
	for i, cli := range b.others {
		for _, key := range otherKeys {
			v, k := b.variants[key], otherKey(key, i)
			dir := b.dir(fmt.Sprintf("scale-%s-%d-%s-cli%d", key, n, apply.latency, i+1), b.config(v, n))
			apply.res[k] = b.runWith(cli, v, dir, "apply", "-auto-approve", "-input=false")
			log.Printf("apply N=%d latency %v %s (%s): %v, %d requests", n, apply.latency, key, cli, apply.res[k].wall, apply.res[k].requests)
			if !planned {
				continue
			}
			plan.res[k] = b.planMedianWith(cli, v, dir)
			log.Printf("plan N=%d latency %v %s (%s): %v, %d requests", n, plan.latency, key, cli, plan.res[k].wall, plan.res[k].requests)
		}
	}
}
