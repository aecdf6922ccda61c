package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

func secs(d time.Duration) string { return fmt.Sprintf("%.2fs", d.Seconds()) }

// wall is r's wall time, "-" when r was not measured (a floor left out by -fleet-floors).
func wall(r result) string {
	if r.wall <= 0 {
		return "-"
	}
	if r.slowest > r.fastest {
		return fmt.Sprintf("%s (%s–%s)", secs(r.wall), secs(r.fastest), secs(r.slowest))
	}
	return secs(r.wall)
}

func ratio(a, b result) string {
	if b.wall <= 0 || a.wall <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", a.wall.Seconds()/b.wall.Seconds())
}

// cliVersion names the first CLI, and the further ones of the extra columns.
func (b *bench) cliVersion() string {
	v := b.versionOf(b.cli)
	if len(b.others) > 0 {
		var others []string
		for _, cli := range b.others {
			others = append(others, b.versionOf(cli))
		}
		v += " (extra columns: " + strings.Join(others, ", ") + ")"
	}
	return v
}

// versionOf is the first line of `cli version` ("OpenTofu v1.12.6"), or cli; asked once
// per CLI (the report is rendered after every row).
func (b *bench) versionOf(cli string) string {
	if v, ok := b.versions[cli]; ok {
		return v
	}
	v := askVersion(cli, b.variants["ours"].dir)
	if b.versions == nil {
		b.versions = map[string]string{}
	}
	b.versions[cli] = v
	return v
}

func askVersion(cli, providerDir string) string {
	cmd := exec.Command(cli, "version")
	cmd.Env = append(cmd.Environ(), "TF_CLI_CONFIG_FILE="+filepath.Join(providerDir, "cli.tfrc"))
	out, _ := cmd.Output()
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "OpenTofu v") || strings.HasPrefix(line, "Terraform v") {
			return line
		}
	}
	return cli
}

// otherHeader and otherCells are the columns of the further CLIs: astra's wall time and its
// ratios to the floors measured under the same CLI.
func (b *bench) otherHeader() (string, string) {
	var h, sep strings.Builder
	for _, cli := range b.others {
		v := b.versionOf(cli)
		fmt.Fprintf(&h, " %[1]s: astra | %[1]s: astra / trivial | %[1]s: astra / same-schema |", v)
		sep.WriteString("---|---|---|")
	}
	return h.String(), sep.String()
}

func (b *bench) otherCells(r row) string {
	var s strings.Builder
	for i := range b.others {
		ours := r.res[otherKey("ours", i)]
		fmt.Fprintf(&s, " %s | %s | %s |", secs(ours.wall), ratio(ours, r.res[otherKey("trivial", i)]), ratio(ours, r.res[otherKey("schema", i)]))
	}
	return s.String()
}

// report renders BENCHMARKS.md.
func (b *bench) report() string {
	var s strings.Builder
	fmt.Fprintf(&s, "# Benchmarks\n\n")
	fmt.Fprintf(&s, "Written by `make bench` (`go run ./internal/bench/cmd/fleetbench`) on %s: %s, %s/%s, %d CPUs; "+
		"all figures from this one run. The CLI runs with its default parallelism against the in-process simulator; "+
		"\"requests\" are the HTTP requests the simulator counted, \"latency\" a delay added to every answer, \"CPU\" the "+
		"CPU time of the CLI and the providers it ran, the provider's part in parentheses. A plan is run %[6]d "+
		"times and its median shown; an apply once, but in the realistic fleet, where each measurement (apply, first plan) "+
		"is repeated %[6]d times from a fresh start and the median repetition shown, with the spread of its walls "+
		"(fastest–slowest), and each repetition ends with %[9]d rounds of a steady plan of each provider, taking turns, "+
		"so that a steady plan's figures are the median of %[10]d plans. Machine: %[7]s. Flags: `%[8]s`. "+
		"The machine may be shared: compare figures within a row.\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), b.cliVersion(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), b.repeat, machine(), flags(),
		b.fleetPlans, b.repeat*b.fleetPlans)
	s.WriteString("Providers: **astra** (this provider, defaults); **anchors** (the same provider switched to the anchors' " +
		"strategy: 10 s polling and one GET per read, `read_max_age = 0s`, and served by the framework alone, as the anchors " +
		"are, without this provider's answers to unchanged reads and plans and to creates' plans); **same-schema floor** " +
		"(serves every resource type's schema, taken from the provider at run time with its plan modifiers and validators, " +
		"calls nothing, answers reads with the prior state); **trivial floor** (one resource with one string; in the realistic fleet, 3N of them " +
		"referring to each other as the fleet's resources do); **echo floor** (realistic fleet only: the fastest provider that could exist for " +
		"astra's schemas and values, the headline ratio's base. Written on terraform-plugin-go without the framework, it serves the schemas " +
		"`providers schema -json` printed for astra and answers every plan, apply and read with the values astra's own apply of the same " +
		"configuration recorded (`show -json`), under the same CLI, doing nothing else; whatever astra costs beyond it is its own); " +
		"**astra, known answers off** (realistic fleet only: the same binary with `ASTRA_KNOWN_ANSWERS=off`, every request served by " +
		"the framework, against a simulator of its own: what the known answers buy). Every provider is built as the release " +
		"is (`CGO_ENABLED=0 go build -trimpath -ldflags='-s -w'`, as .goreleaser.yml does), and every " +
		"provider runs with the SDK, framework and provider log levels OFF, as this provider sets them when neither TF_LOG " +
		"nor TF_LOG_PROVIDER is set.")
	s.WriteString(b.binarySizes())
	s.WriteString("\n\n")

	if b.has("create") {
		s.WriteString("## Create latency (one cluster, discovery takes T)\n\n")
		s.WriteString("| T | provider | apply wall | wall − T − wall at T=0 (detection overhead) | GETs |\n|---|---|---|---|---|\n")
	}
	base := map[string]time.Duration{}
	for _, r := range b.rows {
		if r.scenario != "create" {
			continue
		}
		for _, key := range []string{"ours", "anchors"} {
			res := r.res[key]
			if r.latency == 0 {
				base[key] = res.wall
			}
			fmt.Fprintf(&s, "| %v | %s | %s | %s | %d |\n", r.latency, b.variants[key].label, secs(res.wall),
				secs(res.wall-r.latency-base[key]), res.gets)
		}
	}
	for _, scenario := range []string{"apply", "plan"} {
		if !b.has(scenario) {
			continue
		}
		fmt.Fprintf(&s, "\n## %s of N clusters\n\n", map[string]string{"apply": "Apply (create)", "plan": "Plan (refresh)"}[scenario])
		otherH, otherSep := b.otherHeader()
		s.WriteString("| latency | N | trivial floor | same-schema floor | astra | anchors | astra / trivial | astra / same-schema | " +
			"anchors / same-schema | astra requests | anchors requests | astra peak RSS | CPU: trivial / same-schema / astra (provider part) |" + otherH + "\n" +
			"|---|---|---|---|---|---|---|---|---|---|---|---|---|" + otherSep + "\n")
		for _, r := range b.rows {
			if r.scenario != scenario {
				continue
			}
			fmt.Fprintf(&s, "| %v | %d | %s | %s | %s | %s | %s | %s | %s | %d | %d | %d MiB | %s |%s\n", r.latency, r.n,
				secs(r.res["trivial"].wall), secs(r.res["schema"].wall), secs(r.res["ours"].wall), secs(r.res["anchors"].wall),
				ratio(r.res["ours"], r.res["trivial"]), ratio(r.res["ours"], r.res["schema"]), ratio(r.res["anchors"], r.res["schema"]),
				r.res["ours"].requests, r.res["anchors"].requests, r.res["ours"].rssKiB/1024, cpuSplit(r.res), b.otherCells(r))
		}
	}
	b.fleetReport(&s)
	b.knownAnswersReport(&s)
	b.goals(&s)
	if b.has("apply") || b.has("plan") {
		fmt.Fprintf(&s, "\n![astra and anchors, wall time as a multiple of the same-schema floor](%s)\n",
			strings.TrimSuffix(filepath.Base(b.out), ".md")+".svg")
	}
	return s.String()
}

// has: the run measured scenario.
func (b *bench) has(scenario string) bool {
	for _, r := range b.rows {
		if r.scenario == scenario {
			return true
		}
	}
	return false
}

// cpuSplit is the CPU time of each of keys' variants (by default the trivial floor, the
// same-schema floor and astra), with the provider's part in parentheses.
func cpuSplit(res map[string]result, keys ...string) string {
	if len(keys) == 0 {
		keys = []string{"trivial", "schema", "ours"}
	}
	var parts []string
	for _, key := range keys {
		if res[key].wall <= 0 {
			parts = append(parts, "-")
			continue
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", secs(res[key].cpu), secs(res[key].providerCPU)))
	}
	return strings.Join(parts, " / ")
}

// chart draws, for every apply and plan row, the wall time of astra and of the anchors'
// strategy as a multiple of the same-schema floor.
func (b *bench) chart() string {
	type bar struct {
		label       string
		ours, other float64
	}
	var bars []bar
	top := 1.0
	for _, r := range b.rows {
		if (r.scenario != "apply" && r.scenario != "plan") || r.res["schema"].wall <= 0 {
			continue
		}
		f := r.res["schema"].wall.Seconds()
		bb := bar{label: fmt.Sprintf("%s %d @%v", r.scenario, r.n, r.latency), ours: r.res["ours"].wall.Seconds() / f,
			other: r.res["anchors"].wall.Seconds() / f}
		top = max(top, bb.ours, bb.other)
		bars = append(bars, bb)
	}
	const h, rowH, left, width = 20, 44, 170, 520
	var s strings.Builder
	height := len(bars)*rowH + 60
	fmt.Fprintf(&s, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", left+width+80, height)
	fmt.Fprintf(&s, `<text x="4" y="16">wall time / same-schema floor (blue: astra, grey: anchors' strategy; line: 1x)</text>`+"\n")
	x1 := left + int(float64(width)/top)
	fmt.Fprintf(&s, `<line x1="%d" y1="24" x2="%d" y2="%d" stroke="black" stroke-dasharray="3,3"/>`+"\n", x1, x1, height-10)
	for i, bb := range bars {
		y := 30 + i*rowH
		fmt.Fprintf(&s, `<text x="4" y="%d">%s</text>`+"\n", y+h, bb.label)
		for j, v := range []float64{bb.ours, bb.other} {
			color := []string{"#2a6fdb", "#999"}[j]
			w := int(float64(width) * v / top)
			fmt.Fprintf(&s, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/><text x="%d" y="%d">%.2fx</text>`+"\n",
				left, y+j*h, w, h-2, color, left+w+4, y+j*h+14, v)
		}
	}
	s.WriteString("</svg>\n")
	return s.String()
}

// goals restates the goals with this run's figures, at the largest N measured.
func (b *bench) goals(s *strings.Builder) {
	s.WriteString("\n## Against the goals (largest N of this run)\n\n| goal | measured |\n|---|---|\n")
	largest := map[string]row{}
	for _, r := range b.rows {
		key := fmt.Sprintf("%s@%v", r.scenario, r.latency)
		if r.scenario != "create" && r.n >= largest[key].n {
			largest[key] = r
		}
	}
	for _, scenario := range []string{"plan", "apply"} {
		for _, latency := range []time.Duration{0, 100 * time.Millisecond} {
			r, ok := largest[fmt.Sprintf("%s@%v", scenario, latency)]
			if !ok {
				continue
			}
			want := "1.3x"
			if latency > 0 {
				want = "1.5x"
			}
			requests := ", ≤ 25 requests"
			if scenario == "apply" {
				requests = " (requests: one POST per cluster)"
			}
			fmt.Fprintf(s, "| %s of %d at %v: astra ≤ %s the same-schema floor, ≤ 3x the trivial floor%s | %s, %s, %d requests (anchors' strategy: %s, %d requests) |\n",
				scenario, r.n, latency, want, requests, ratio(r.res["ours"], r.res["schema"]), ratio(r.res["ours"], r.res["trivial"]),
				r.res["ours"].requests, ratio(r.res["anchors"], r.res["schema"]), r.res["anchors"].requests)
		}
	}
	base := map[string]time.Duration{}
	for _, r := range b.rows {
		if r.scenario != "create" {
			continue
		}
		if r.latency == 0 {
			base["ours"], base["anchors"] = r.res["ours"].wall, r.res["anchors"].wall
			continue
		}
		want, gets := "0.5s", 5 // issue 48: as before the plan-time checks, which these GETs include
		if r.latency > 5*time.Second {
			want, gets = "2s", 10
		}
		fmt.Fprintf(s, "| detection overhead at T = %v ≤ %s, ≤ %d GETs (the plan-time checks included) | %s, %d GETs (anchors' strategy: %s, %d GETs) |\n", r.latency, want, gets,
			secs(r.res["ours"].wall-r.latency-base["ours"]), r.res["ours"].gets,
			secs(r.res["anchors"].wall-r.latency-base["anchors"]), r.res["anchors"].gets)
	}
	var peak int64
	n := 0
	for _, r := range b.rows {
		if r.scenario == "plan" && r.n >= n {
			n, peak = r.n, max(peak, r.res["ours"].rssKiB)
		}
	}
	if n > 0 {
		fmt.Fprintf(s, "| provider peak RSS ≤ 100 MiB at 1000 clusters | %d MiB at %d clusters (plan) |\n", peak/1024, n)
	}
	b.fleetGoals(s)
}

// machine describes the CPU, memory and load the figures were taken on (Linux; "unknown"
// where /proc does not tell).
func machine() string {
	var parts []string
	if info, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(info), "\n") {
			if name, ok := strings.CutPrefix(line, "model name"); ok {
				parts = append(parts, strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), ":")))
				break
			}
		}
	}
	if info, err := os.ReadFile("/proc/meminfo"); err == nil {
		if f := strings.Fields(strings.SplitN(string(info), "\n", 2)[0]); len(f) >= 2 {
			if kb, err := strconv.ParseInt(f[1], 10, 64); err == nil {
				parts = append(parts, fmt.Sprintf("%d GiB memory", (kb+1<<19)>>20))
			}
		}
	}
	if load, err := os.ReadFile("/proc/loadavg"); err == nil {
		parts = append(parts, "load average at the end "+strings.Join(strings.Fields(string(load))[:3], " "))
	}
	if len(parts) == 0 {
		return "unknown"
	}
	return strings.Join(parts, ", ")
}

// flags are the command line's flags, CLI paths shortened to their names, so a reader can
// run the same.
func flags() string {
	var out []string
	for _, a := range os.Args[1:] {
		if v, ok := strings.CutPrefix(a, "-cli="); ok {
			a = "-cli=" + cliNames(v)
		}
		out = append(out, a)
	}
	for i := range out {
		if out[i] == "-cli" && i+1 < len(out) {
			out[i+1] = cliNames(out[i+1])
		}
	}
	return strings.Join(out, " ")
}

func cliNames(list string) string {
	var names []string
	for _, p := range strings.Split(list, ",") {
		names = append(names, filepath.Base(filepath.Dir(p))+"/"+filepath.Base(p))
	}
	return strings.Join(names, ",")
}

// binarySizes is the report's sentence on the binaries' sizes, astra's first: most of a
// provider's peak RSS is its executable's pages, so the memory ratio follows their ratio.
func (b *bench) binarySizes() string {
	ours := b.variants["ours"]
	if ours == nil || ours.size == 0 {
		return ""
	}
	parts := []string{fmt.Sprintf("astra %.2f MB", float64(ours.size)/1e6)}
	for _, key := range []string{"echo", "schema", "trivial"} {
		if v := b.variants[key]; v != nil && v.size > 0 {
			parts = append(parts, fmt.Sprintf("%s %.2f MB (astra's is %.2fx)", v.label, float64(v.size)/1e6, float64(ours.size)/float64(v.size)))
		}
	}
	return " Binary sizes: " + strings.Join(parts, ", ") + "."
}
