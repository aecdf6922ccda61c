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
)

// The differential guard: random requests built from each resource's schema go to the
// server with known answers and to the framework's own server, which must answer alike:
// planned or new state, identity, private state, replacements and diagnostics. Fixed
// seeds run first, then one random seed, logged; KNOWN_ANSWERS_SEED replays a seed and
// KNOWN_ANSWERS_DURATION (a Go duration, default 2s) bounds the random part, which
// `make fuzz` runs for longer.

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
	for _, seed := range seeds {
		g := newRequestGen(t, seed, f, scripted)
		for i := 0; i < 25; i++ {
			g.round(t, readBases, counts)
		}
	}
	// The guard is not vacuous: on the fixed seeds, every rule answered some requests of
	// each kind itself.
	for typ, rule := range f.fast.Rules() {
		for _, kind := range []string{"create", "unchanged"} {
			if len(seeds) > 0 && counts[typ+"/"+kind+"/shortcut"] == 0 {
				t.Errorf("%s: no %s plan took the known answer", typ, kind)
			}
		}
		if len(seeds) > 0 && rule.Reads && counts[typ+"/read/shortcut"] == 0 {
			t.Errorf("%s: no read took the known answer", typ)
		}
	}
	for typ := range f.schemas.ResourceSchemas {
		if len(seeds) > 0 && f.fast.Upgrades(typ) && counts[typ+"/upgrade/shortcut"] == 0 {
			t.Errorf("%s: no state upgrade took the known answer", typ)
		}
	}
	for typ := range scripted.fast.Applies() {
		for _, kind := range []string{"shortcut", "replayed"} {
			if len(seeds) > 0 && counts[typ+"/apply/"+kind] == 0 {
				t.Errorf("%s: no create's apply was %s", typ, map[string]string{"shortcut": "answered", "replayed": "replayed"}[kind])
			}
		}
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

// round sends one random plan of every resource type and one random read.
func (g *requestGen) round(t *testing.T, bases []readBase, counts map[string]int) {
	t.Helper()
	ctx := context.Background()
	schemas := g.f.schemas
	for _, typeName := range sortedKeys(schemas.ResourceSchemas) {
		req, kind := g.plan(typeName, schemas.ResourceSchemas[typeName])
		got, want, shortcut, err := served(ctx, req, g.f.fast.KnownPlan, g.f.fast.Framework().PlanResourceChange, g.f.framework.PlanResourceChange)
		if err != nil {
			t.Fatalf("seed %d: %s plan: %v", g.seed, typeName, err)
		}
		counts[typeName+"/"+kind+"/"+taken(shortcut)]++
		if d := planDiff(schemas.ResourceSchemas[typeName].ValueType(), g.identityType(typeName), got, want); d != "" {
			t.Errorf("seed %d: %s %s plan (shortcut %v) differs from the framework's: %s\nrequest: %s", g.seed, typeName, kind, shortcut, d, describePlan(req, schemas.ResourceSchemas[typeName].ValueType()))
		}
	}
	g.upgradeRound(t, counts)
	g.applyRound(t, counts)
	base := bases[g.Rand.Intn(len(bases))]
	req, expect := g.read(base)
	got, want, shortcut, err := served(ctx, req, g.f.fast.UnchangedRead, g.f.fast.Framework().ReadResource, g.f.framework.ReadResource)
	if err != nil {
		t.Fatalf("seed %d: %s read: %v", g.seed, base.typeName, err)
	}
	counts[base.typeName+"/read/"+taken(shortcut)]++
	if expect && !shortcut {
		t.Errorf("seed %d: %s: an unchanged read did not take the known answer", g.seed, base.typeName)
	}
	if d := readDiff(base.typ, g.identityType(base.typeName), got, want); d != "" {
		t.Errorf("seed %d: %s read (shortcut %v) differs from the framework's: %s", g.seed, base.typeName, shortcut, d)
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
