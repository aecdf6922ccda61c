package knownanswers_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The differential guard: random requests built from each resource's schema go to the
// server with known answers and to the framework's own server, which must answer alike:
// planned or new state, identity, private state, replacements and diagnostics; for
// validations, the diagnostics. The coverage pass (coverage_test.go) runs first, then ten
// rounds of each fixed seed, then the guard checks that every kind of request the known answers take
// was taken for every type; then one random seed, logged. KNOWN_ANSWERS_SEED replays a
// seed and KNOWN_ANSWERS_DURATION (a Go duration, default 2s) bounds the random part,
// which `make fuzz` runs for longer.

func TestKnownAnswers_differential(t *testing.T) {
	f := newAnswersFixture(t)
	readBases := f.readBases(t)
	seeds := []int64{1, 2, 3}
	random := time.Now().UnixNano()
	if s := os.Getenv("KNOWN_ANSWERS_SEED"); s != "" {
		var err error
		if random, err = strconv.ParseInt(s, 10, 64); err != nil {
			t.Fatalf("KNOWN_ANSWERS_SEED=%q: %v", s, err)
		}
		seeds = nil
	}
	duration := 2 * time.Second
	if d := os.Getenv("KNOWN_ANSWERS_DURATION"); d != "" {
		var err error
		if duration, err = time.ParseDuration(d); err != nil {
			t.Fatalf("KNOWN_ANSWERS_DURATION=%q: %v", d, err)
		}
	}
	counts := map[string]int{}
	scripted := newScriptedServers(t)
	if len(seeds) > 0 {
		f.cover(t, seeds[0], readBases, scripted, counts)
	}
	for _, seed := range seeds {
		g := newRequestGen(t, seed, f, scripted)
		for i := 0; i < 10; i++ {
			g.round(t, readBases, counts)
		}
	}
	if len(seeds) > 0 {
		guardCoverage(t, f, scripted, readBases, counts)
		guardGRPC(t, counts)
	}
	t.Logf("random seed %d (replay with KNOWN_ANSWERS_SEED=%d), for %s", random, random, duration)
	g := newRequestGen(t, random, f, scripted)
	iterations := 0
	for deadline := time.Now().Add(duration); time.Now().Before(deadline) && !t.Failed(); iterations++ {
		g.round(t, readBases, counts)
	}
	keys := sortedKeys(counts)
	var summary []string
	for _, k := range keys {
		summary = append(summary, fmt.Sprintf("%s=%d", k, counts[k]))
	}
	t.Logf("%d random rounds; requests compared: %s", iterations, strings.Join(summary, " "))
}

// round sends one random plan of every resource type, then reads and plans each object the
// simulator holds.
// guardCoverage: the guard is not vacuous. On the fixed seeds, every rule answered some
// requests of each kind itself, and the framework compared the warnings of issue 32.
func guardCoverage(t *testing.T, f *answersFixture, scripted *scriptedServers, bases []readBase, counts map[string]int) {
	t.Helper()
	objects := map[string]bool{}
	for _, b := range bases {
		objects[b.typeName] = true
	}
	for typ, rule := range f.fast.Rules() {
		for _, kind := range []string{"create", "unchanged", "object"} {
			if counts[typ+"/"+kind+"/shortcut"] == 0 && (kind != "object" || objects[typ]) {
				t.Errorf("%s: no %s plan took the known answer", typ, kind)
			}
		}
		if rule.Reads && counts[typ+"/read/shortcut"] == 0 {
			t.Errorf("%s: no read took the known answer", typ)
		}
		if rule.ReadsBytes && counts[typ+"/read/bytes"] == 0 {
			t.Errorf("%s: no read was matched on its bytes", typ)
		}
	}
	for typ := range f.schemas.ResourceSchemas {
		if f.fast.Upgrades(typ) && counts[typ+"/upgrade/shortcut"] == 0 {
			t.Errorf("%s: no state upgrade took the known answer", typ)
		}
		if f.fast.Validations()[typ] && (counts[typ+"/validate/shortcut"] == 0 || counts[typ+"/validate/framework"] == 0) {
			t.Errorf("%s: validations compared: %d known, %d by the framework; want some of each (a type without an object of the fixture needs one)",
				typ, counts[typ+"/validate/shortcut"], counts[typ+"/validate/framework"])
		}
	}
	for _, warned := range warnedRequests {
		if counts[warned.key()] == 0 {
			t.Errorf("no request compared where the framework %s", warned.key())
		}
	}
	directly := map[string]int{}
	for typ := range f.fast.Applies() {
		// A read the known answers do not take, of a type whose creates knownApply answers,
		// is read directly (directRead) when the framework would pass its outcome on.
		if objects[typ] && counts[typ+"/read/direct"] == 0 {
			t.Errorf("%s: no changed read was read directly", typ)
		}
		for _, outcome := range []string{"error", "gone"} {
			directly[outcome] += counts[typ+"/read/direct "+outcome]
		}
	}
	for outcome, n := range directly {
		if n == 0 {
			t.Errorf("no read whose outcome was an object %s was read directly", map[string]string{"error": "read in error", "gone": "gone"}[outcome])
		}
	}
	for typ := range scripted.fast.Applies() {
		for _, kind := range []string{"shortcut", "replayed"} {
			if counts[typ+"/apply/"+kind] == 0 {
				t.Errorf("%s: no create's apply was %s", typ, map[string]string{"shortcut": "answered", "replayed": "replayed"}[kind])
			}
		}
	}
}

func (g *requestGen) round(t *testing.T, bases []readBase, counts map[string]int) {
	t.Helper()
	schemas := g.f.schemas
	for _, typeName := range sortedKeys(schemas.ResourceSchemas) {
		req, kind := g.plan(typeName, schemas.ResourceSchemas[typeName])
		g.comparePlan(t, req, kind, counts)
	}
	g.upgradeRound(t, counts)
	g.applyRound(t, counts)
	g.validationRound(t, bases, counts)
	rules := g.f.fast.Rules()
	for _, base := range bases {
		g.compareRead(t, base, counts)
		if _, planned := rules[base.typeName]; planned { // else both plans are the framework's
			g.comparePlan(t, g.basePlan(base, schemas.ResourceSchemas[base.typeName]), "object", counts)
		}
	}
}

// comparePlan sends req to the known answers and to the bare framework and compares.
func (g *requestGen) comparePlan(t *testing.T, req *tfprotov6.PlanResourceChangeRequest, kind string, counts map[string]int) {
	t.Helper()
	typ := g.f.schemas.ResourceSchemas[req.TypeName].ValueType()
	got, want, shortcut, err := served(context.Background(), req, g.f.fast.KnownPlan, g.f.fast.Framework().PlanResourceChange, g.f.framework.PlanResourceChange)
	if err != nil {
		t.Fatalf("seed %d: %s plan: %v", g.seed, req.TypeName, err)
	}
	counts[req.TypeName+"/"+kind+"/"+taken(shortcut)]++
	countWarnings(counts, req.TypeName+"/plan", want.Diagnostics)
	g.sameOnGRPC(t, req, got, shortcut, counts)
	if d := planDiff(typ, g.identityType(req.TypeName), got, want); d != "" {
		t.Errorf("seed %d: %s %s plan (shortcut %v) differs from the framework's: %s\nrequest: %s", g.seed, req.TypeName, kind, shortcut, d, describePlan(req, typ))
	}
}

// compareRead sends a random read of base to the known answers and to the bare framework
// and compares. A read that succeeds is followed by another of the object it answered,
// with the private state it answered, as the next plan sends it: that one may be matched
// on the bytes (AnswerBytesReader), and is compared too. After the framework's read, the
// state is the one it answered, and no shortcut is required: its state may be one the
// known answers cannot take (a changed one, read again).
func (g *requestGen) compareRead(t *testing.T, base readBase, counts map[string]int) {
	t.Helper()
	got, shortcut := g.compareOneRead(t, base, counts)
	if got == nil || hasError(got.Diagnostics) || got.Private == nil || got.NewState == nil {
		return
	}
	next := base
	next.private = got.Private
	if !shortcut {
		state, err := got.NewState.Unmarshal(base.typ)
		if err != nil || state.IsNull() {
			return
		}
		next.state, next.identity, next.shortcut = state, got.NewIdentity, false
	}
	g.compareOneRead(t, next, counts)
}

func (g *requestGen) compareOneRead(t *testing.T, base readBase, counts map[string]int) (*tfprotov6.ReadResourceResponse, bool) {
	t.Helper()
	req, expect := g.read(base)
	byBytes := g.f.fast.Count("read by bytes " + base.typeName)
	direct := g.f.fast.Count("direct read " + base.typeName)
	got, want, shortcut, err := served(context.Background(), req, g.f.fast.UnchangedRead, g.f.fast.FrameworkRead, g.f.framework.ReadResource)
	if err != nil {
		t.Fatalf("seed %d: %s read: %v", g.seed, base.typeName, err)
	}
	counts[base.typeName+"/read/"+taken(shortcut)]++
	if g.f.fast.Count("read by bytes "+base.typeName) > byBytes {
		counts[base.typeName+"/read/bytes"]++
	}
	if g.f.fast.Count("direct read "+base.typeName) > direct {
		counts[base.typeName+"/read/direct"]++
		switch {
		case hasError(got.Diagnostics):
			counts[base.typeName+"/read/direct error"]++
		case got.NewState != nil && isNullState(got.NewState, base.typ):
			counts[base.typeName+"/read/direct gone"]++
		}
	}
	countWarnings(counts, base.typeName+"/read", want.Diagnostics)
	g.sameOnGRPC(t, req, got, shortcut, counts)
	if expect && !shortcut {
		t.Errorf("seed %d: %s: an unchanged read did not take the known answer", g.seed, base.typeName)
	}
	if d := readDiff(base.typ, g.identityType(base.typeName), got, want); d != "" {
		t.Errorf("seed %d: %s read (shortcut %v) differs from the framework's: %s", g.seed, base.typeName, shortcut, d)
	}
	return got, shortcut
}

// countWarnings counts the framework's warnings by summary ("astra_cluster/read warns
// Cluster is failed in Astra Control").
func countWarnings(counts map[string]int, prefix string, diags []*tfprotov6.Diagnostic) {
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityWarning {
			counts[prefix+" warns "+d.Summary]++
		}
	}
}

// served is what the wrapper serves for req (its known answer, or else the framework's it
// wraps, as its own method does) and what the bare framework answers; shortcut tells
// whether the known answer served.
func served[Req, Resp any](ctx context.Context, req Req, known func(context.Context, Req) *Resp,
	framework, bare func(context.Context, Req) (*Resp, error)) (got, want *Resp, shortcut bool, err error) {
	got = known(ctx, req)
	shortcut = got != nil
	var err1 error
	if !shortcut {
		got, err1 = framework(ctx, req)
	}
	want, err2 := bare(ctx, req)
	return got, want, shortcut, errors.Join(err1, err2)
}

func taken(shortcut bool) string {
	if shortcut {
		return "shortcut"
	}
	return "framework"
}

// isNullState: the state answered is null (the object is gone).
func isNullState(state *tfprotov6.DynamicValue, typ tftypes.Type) bool {
	v, err := state.Unmarshal(typ)
	return err == nil && v.IsNull()
}
