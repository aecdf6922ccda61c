package main

import (
	"fmt"
	"log"
	"slices"
	"strings"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// The realistic fleet: per cluster a kubeconfig credential, the cluster with three labels
// and its management, 3N resources, in two layouts:
//   - module: a module instance per cluster (`count` on the module), the three resources
//     inside referring to each other;
//   - count: three resources with `count`, each instance referring to the same index of
//     the previous resource.
//
// The CLI evaluates a reference to `astra_cluster.c[count.index]` by decoding the state of
// every instance of astra_cluster.c, so the count layout costs the CLI N² decodes of the
// referenced objects whatever the provider does (OpenTofu's own profile: 77% of its CPU in
// evaluationStateData.GetResource at N = 300); inside a module instance a reference decodes
// only that instance's objects. The trivial floor has the same layout and references, so
// each ratio compares the providers, not the layouts.
//
// Each CLI of -cli, for each provider: apply (create), plan (the first, against the state
// the create wrote), apply again (nothing to change: it writes the refreshed state, as any
// later apply does); then, once every provider has settled, -fleet-plans rounds of a plan
// of each (the steady state, the median of the -repeat × -fleet-plans plans).

// fleetFiles is the fleet of n clusters in layout for provider v.
func (b *bench) fleetFiles(v *variant, layout string, n int) map[string]string {
	header, body := fleetHeaderAstra, fleetBodyAstra
	if v.trivial {
		header, body = fleetHeaderTrivial, fleetBodyTrivial
	}
	cloud := b.sim.Seeds().PrivateCloudID
	switch layout {
	case "module":
		root := header + fmt.Sprintf(`
module "cluster" {
  source   = "./cluster"
  count    = %d
  index    = count.index
  cloud_id = %q
}
`, n, cloud)
		module := header + `
variable "index" {
  type = number
}

variable "cloud_id" {
  type = string
}
` + fleetBody(body, "", "var.index", "", "var.cloud_id")
		return map[string]string{"main.tf": root, "cluster/main.tf": module}
	case "count":
		return map[string]string{"main.tf": header + fleetBody(body, fmt.Sprintf("  count = %d\n", n), "count.index", "[count.index]", fmt.Sprintf("%q", cloud))}
	}
	log.Fatalf("-fleet-layout: %q is not module or count", layout)
	return nil
}

// fleetBody fills a body's placeholders: COUNT (the count line or nothing), INDEX (the
// cluster's number), AT (the index of a reference), CLOUD (the cloud ID expression).
func fleetBody(body, count, index, at, cloud string) string {
	return strings.NewReplacer("COUNT\n", count, "INDEX", index, "[AT]", at, "CLOUD", cloud).Replace(body)
}

const fleetHeaderAstra = `terraform {
  required_providers {
    astra = { source = "astra-control/astra" }
  }
}
`

const fleetHeaderTrivial = `terraform {
  required_providers {
    floor = { source = "bench/floor" }
  }
}
`

const fleetBodyAstra = `
resource "astra_kubeconfig_credential" "k" {
COUNT
  name       = "fleet-${INDEX}"
  kubeconfig = <<-EOT
    apiVersion: v1
    kind: Config
    clusters:
    - name: "fleet-${INDEX}"
      cluster:
        server: "https://fleet-${INDEX}.k8s.example:6443"
        insecure-skip-tls-verify: true
    contexts:
    - name: "fleet-${INDEX}"
      context:
        cluster: "fleet-${INDEX}"
        user: "fleet-${INDEX}-admin"
    current-context: "fleet-${INDEX}"
    preferences: {}
    users:
    - name: "fleet-${INDEX}-admin"
      user:
        token: sim-fake-token-not-a-secret
  EOT
}

resource "astra_cluster" "c" {
COUNT
  cloud_id      = CLOUD
  credential_id = astra_kubeconfig_credential.k[AT].id
  labels = {
    team = "team-${INDEX % 7}"
    env  = "prod"
    tier = "gold"
  }
}

resource "astra_managed_cluster" "m" {
COUNT
  cluster_id = astra_cluster.c[AT].id
}
`

// fleetBodyTrivial is the same graph of floor_things: each refers to the previous one.
const fleetBodyTrivial = `
resource "floor_thing" "k" {
COUNT
  name = "fleet-${INDEX}"
}

resource "floor_thing" "c" {
COUNT
  name = floor_thing.k[AT].name
}

resource "floor_thing" "m" {
COUNT
  name = floor_thing.c[AT].name
}
`

// fleetCLIs are the CLIs the fleet runs under and the result key suffix of each.
func (b *bench) fleetCLIs() []struct{ cli, suffix string } {
	out := []struct{ cli, suffix string }{{b.cli, ""}}
	for i, cli := range b.others {
		out = append(out, struct{ cli, suffix string }{cli, otherKey("", i)})
	}
	return out
}

// fleet measures the fleet of n clusters in layout with the floors and astra, under every
// CLI, at no added latency.
func (b *bench) fleet(layout string, n int) {
	apply := row{scenario: "fleet-apply", layout: layout, n: n, res: map[string]result{}}
	first := row{scenario: "fleet-plan-first", layout: layout, n: n, res: map[string]result{}}
	plan := row{scenario: "fleet-plan", layout: layout, n: n, res: map[string]result{}}
	// Each repetition starts over (a fresh simulator and directories), so the applies repeat
	// as the plans do; every figure is the median repetition's, with the spread of the walls.
	runs := map[string][]result{}
	for rep := range b.repeat {
		for _, c := range b.fleetCLIs() {
			// A simulator per CLI: the second would otherwise register the same clusters again.
			stop := b.startSim(astrasim.Options{}, 0)
			dirs := map[string]string{}
			var settled []settledFleet
			for _, key := range b.fleetKeys() {
				if key == "framework" {
					// A fresh simulator: ours registered the fleet's clusters in this one, and a
					// service holds a cluster once. The steady plans of those it served run first.
					b.steadyPlans(c.cli, settled, rep, runs)
					settled = nil
					stop()
					stop = b.startSim(astrasim.Options{}, 0)
				}
				v, k := b.variants[key], key+c.suffix
				if key == "echo" {
					v = b.echoVariant(c.cli, dirs["ours"])
				}
				dir := b.dirFiles(fmt.Sprintf("fleet-%s-%s-%d%s-r%d", layout, key, n, strings.ReplaceAll(c.suffix, "@", "-"), rep), b.fleetFiles(v, layout, n))
				dirs[key] = dir
				if layout == "module" {
					b.runWith(c.cli, v, dir, "get") // installs the local module (init would look for the providers); not counted
				}
				a := b.runWith(c.cli, v, dir, "apply", "-auto-approve", "-input=false")
				f := b.runWith(c.cli, v, dir, "plan", "-input=false", "-detailed-exitcode")
				settle := b.runWith(c.cli, v, dir, "apply", "-auto-approve", "-input=false")
				runs["apply "+k], runs["first "+k] = append(runs["apply "+k], a), append(runs["first "+k], f)
				log.Printf("fleet %s N=%d %s%s (repetition %d of %d): apply %v (%d requests), first plan %v (%d), unchanged apply %v (%d)",
					layout, n, key, c.suffix, rep+1, b.repeat, a.wall, a.requests, f.wall, f.requests, settle.wall, settle.requests)
				settled = append(settled, settledFleet{key: k, label: fmt.Sprintf("fleet %s N=%d %s%s", layout, n, key, c.suffix), v: v, dir: dir})
			}
			b.steadyPlans(c.cli, settled, rep, runs)
			stop()
		}
	}
	for key, rs := range runs {
		scenario, k, _ := strings.Cut(key, " ")
		map[string]row{"apply": apply, "first": first, "plan": plan}[scenario].res[k] = median(rs)
	}
	b.add(apply)
	b.add(first)
	b.add(plan)
}

// settledFleet is a provider's fleet after its unchanged apply: what a steady plan runs.
type settledFleet struct {
	key, label string
	v          *variant
	dir        string
}

// steadyPlans runs b.fleetPlans rounds of one steady plan of each settled fleet and adds
// them to runs. The providers compared take turns within a round, and the first of a round
// alternates, so that each sees the machine as the other does: measured one provider after
// the other, minutes apart, a cell's ratio moved by a tenth between runs of the same code.
func (b *bench) steadyPlans(cli string, settled []settledFleet, rep int, runs map[string][]result) {
	for round := range b.fleetPlans {
		for _, s := range takingTurns(settled, rep*b.fleetPlans+round) {
			p := b.runWith(cli, s.v, s.dir, "plan", "-input=false", "-detailed-exitcode")
			runs["plan "+s.key] = append(runs["plan "+s.key], p)
			log.Printf("%s (repetition %d of %d, steady plan %d of %d): plan %v (%d requests, provider peak %d KiB)",
				s.label, rep+1, b.repeat, round+1, b.fleetPlans, p.wall, p.requests, p.rssKiB)
		}
	}
}

// takingTurns is the order of the providers in round k of a fleet's steady plans: as they
// settled in even rounds, reversed in odd ones.
func takingTurns[T any](settled []T, k int) []T {
	order := slices.Clone(settled)
	if k%2 == 1 {
		slices.Reverse(order)
	}
	return order
}

// fleetKeys are the providers the fleet runs, in order: the echo floor after astra, whose
// apply it echoes.
func (b *bench) fleetKeys() []string {
	var keys []string
	for _, key := range []string{"trivial", "schema", "ours", "echo", "framework"} {
		if key == "ours" || slices.Contains(b.fleetFloors, key) {
			keys = append(keys, key)
		}
	}
	return keys
}

var fleetTitles = map[string]string{
	"fleet-apply":      "Apply (create)",
	"fleet-plan-first": "First plan after the create (the state the create wrote)",
	"fleet-plan":       "Plan (refresh), steady state (after an apply with nothing to change)",
}

// fleetReport renders the realistic fleet's rows: a table per scenario and layout, a line
// per N and CLI. The headline ratio is astra's to the echo floor: what astra costs beyond
// the fastest provider that could exist for its schemas and values.
func (b *bench) fleetReport(s *strings.Builder) {
	for _, layout := range []string{"module", "count"} {
		for _, scenario := range []string{"fleet-apply", "fleet-plan-first", "fleet-plan"} {
			header := false
			for _, r := range b.rows {
				if r.scenario != scenario || r.layout != layout {
					continue
				}
				if !header {
					fmt.Fprintf(s, "\n## Realistic fleet (%s layout), %s: N clusters, each a kubeconfig credential, the cluster with three labels and its management (3N resources)\n\n", layout, fleetTitles[scenario])
					s.WriteString("| N | CLI | echo floor | trivial floor (3N things, same references) | same-schema floor | astra | **astra / echo** | astra / trivial | astra / same-schema | astra requests | " +
						"peak RSS: echo / trivial / same-schema / astra | astra RSS / echo, / trivial | CPU: echo / trivial / same-schema / astra (provider part) | astra CPU / echo (provider part) |\n" +
						"|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
					header = true
				}
				for _, c := range b.fleetCLIs() {
					res := map[string]result{}
					for _, key := range fleetReportKeys {
						res[key] = r.res[key+c.suffix]
					}
					o := res["ours"]
					fmt.Fprintf(s, "| %d | %s | %s | %s | %s | %s | **%s** | %s | %s | %d | %s | %s, %s | %s | %s |\n", r.n, b.versionOf(c.cli),
						wall(res["echo"]), wall(res["trivial"]), wall(res["schema"]), wall(o),
						ratio(o, res["echo"]), ratio(o, res["trivial"]), ratio(o, res["schema"]), o.requests,
						rssList(res, fleetReportKeys), rssRatioTo(o, res["echo"]), rssRatioTo(o, res["trivial"]),
						cpuSplit(res, fleetReportKeys...), cpuRatio(o, res["echo"]))
				}
			}
		}
	}
}

// knownAnswersReport compares astra with its known answers on (the default) and off
// (ASTRA_KNOWN_ANSWERS=off: every request served by the framework), for each fleet row:
// what the protocol layer buys, which the README quotes.
func (b *bench) knownAnswersReport(s *strings.Builder) {
	header := false
	for _, r := range b.rows {
		if !strings.HasPrefix(r.scenario, "fleet-") {
			continue
		}
		for _, c := range b.fleetCLIs() {
			on, off := r.res["ours"+c.suffix], r.res["framework"+c.suffix]
			if on.wall <= 0 || off.wall <= 0 {
				continue
			}
			if !header {
				s.WriteString("\n## What the known answers buy: the realistic fleet with them on (astra) and off (`ASTRA_KNOWN_ANSWERS=off`)\n\n" +
					"| layout | scenario | N | CLI | on | off | **off / on** | CPU on / off (provider part) | provider CPU off / on | peak RSS on / off | requests on / off |\n" +
					"|---|---|---|---|---|---|---|---|---|---|---|\n")
				header = true
			}
			providerRatio := "-"
			if on.providerCPU > 0 {
				providerRatio = fmt.Sprintf("%.2fx", off.providerCPU.Seconds()/on.providerCPU.Seconds())
			}
			fmt.Fprintf(s, "| %s | %s | %d | %s | %s | %s | **%s** | %s | %s | %d / %d MiB | %d / %d |\n",
				r.layout, fleetTitles[r.scenario], r.n, b.versionOf(c.cli), wall(on), wall(off), ratio(off, on),
				cpuSplit(map[string]result{"on": on, "off": off}, "on", "off"), providerRatio,
				on.rssKiB/1024, off.rssKiB/1024, on.requests, off.requests)
		}
	}
}

// fleetReportKeys are the fleet tables' providers, in their columns' order.
var fleetReportKeys = []string{"echo", "trivial", "schema", "ours"}

// rssRatioTo is a's peak RSS as a multiple of b's, to two decimals.
func rssRatioTo(a, b result) string { return rssRatio(a, b, 2) }

// rssRatio is a's peak RSS as a multiple of b's, to the decimals given.
func rssRatio(a, b result, decimals int) string {
	if b.rssKiB <= 0 || a.rssKiB <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.*fx", decimals, float64(a.rssKiB)/float64(b.rssKiB))
}

// rssList is each provider's peak RSS, "-" for one not measured.
func rssList(res map[string]result, keys []string) string {
	parts := make([]string, len(keys))
	for i, key := range keys {
		parts[i] = "-"
		if res[key].wall > 0 {
			parts[i] = fmt.Sprint(res[key].rssKiB / 1024)
		}
	}
	return strings.Join(parts, " / ") + " MiB"
}

// cpuRatio is a's CPU time as a multiple of b's, the providers' parts in parentheses.
func cpuRatio(a, b result) string {
	if b.wall <= 0 || a.wall <= 0 || b.cpu <= 0 {
		return "-"
	}
	provider := "-"
	if b.providerCPU > 0 {
		provider = fmt.Sprintf("%.2fx", a.providerCPU.Seconds()/b.providerCPU.Seconds())
	}
	return fmt.Sprintf("%.2fx (%s)", a.cpu.Seconds()/b.cpu.Seconds(), provider)
}

// fleetGoals restates the fleet goals of issue 48 (against the echo floor) with this run's figures,
// at every N and layout, for every CLI; and issue 23's where their floors ran.
func (b *bench) fleetGoals(s *strings.Builder) {
	for _, r := range b.rows {
		if r.scenario != "fleet-plan" && r.scenario != "fleet-apply" {
			continue
		}
		for _, c := range b.fleetCLIs() {
			o, echo := r.res["ours"+c.suffix], r.res["echo"+c.suffix]
			at := fmt.Sprintf("fleet of %d (%s layout), %s", r.n, r.layout, b.versionOf(c.cli))
			if r.scenario == "fleet-apply" {
				fmt.Fprintf(s, "| %s, apply: ≤ 1.10x the echo floor | %s |\n", at, ratio(o, echo))
				continue
			}
			fmt.Fprintf(s, "| %s, steady plan: ≤ 1.10x the echo floor, ≤ 30 requests | %s, %d requests |\n", at, ratio(o, echo), o.requests)
			// To three decimals and in KiB, so that a value at the bound says which side it is on.
			fmt.Fprintf(s, "| %s, provider peak RSS in the steady plan ≤ 1.5x the echo floor's | %s (%d / %d KiB) |\n",
				at, rssRatio(o, echo, 3), o.rssKiB, echo.rssKiB)
			if t := r.res["trivial"+c.suffix]; t.wall > 0 { // the earlier goals, where their floors ran
				fmt.Fprintf(s, "| %s, steady plan: ≤ 1.0x the same-schema floor, ≤ 2.0x the trivial floor (2.5x under Terraform 1.5) | %s, %s |\n",
					at, ratio(o, r.res["schema"+c.suffix]), ratio(o, t))
			}
		}
	}
}
