package knownanswers_test

import (
	"hash/fnv"
	"testing"
)

// The coverage pass of the differential: before the random rounds, each (type, kind) the
// known answers take is drawn from a stream of its own, seeded by the seed and its name,
// until the known answer took one (and, for validations, until the framework took one
// too), at most coverageDraws times. Each draw is compared like any other. A new resource
// type or kind thus shifts no other's draws, and the guard that follows fails only when
// the generator cannot reach an answer at all. The types come from the provider's schemas
// and the server's rules, never from a list.

// coverageDraws bounds the draws of one (type, kind); most take the known answer at the first.
const coverageDraws = 300

// cover runs the coverage pass for seed, adding to counts.
func (f *answersFixture) cover(t *testing.T, seed int64, bases []readBase, scripted *scriptedServers, counts map[string]int) {
	t.Helper()
	until := func(key string, draw func(g *requestGen)) {
		h := fnv.New64a()
		_, _ = h.Write([]byte(key))
		g := newRequestGen(t, seed^int64(h.Sum64()), f, scripted) //nolint:gosec // a seed, wrapping is fine
		for i := 0; i < coverageDraws && counts[key] == 0 && !t.Failed(); i++ {
			draw(g)
		}
	}
	rules, applies, validations := f.fast.Rules(), scripted.fast.Applies(), f.fast.Validations()
	for _, typeName := range sortedKeys(f.schemas.ResourceSchemas) {
		s := f.schemas.ResourceSchemas[typeName]
		var of []readBase
		for _, b := range bases {
			if b.typeName == typeName {
				of = append(of, b)
			}
		}
		// Every read and object plan of the type's objects: where a refresh or a plan
		// warns (a failed cluster, a rotation), the warning is compared too.
		objects := func(g *requestGen) {
			for _, base := range of {
				g.compareRead(t, base, counts)
				if _, planned := rules[typeName]; planned {
					g.comparePlan(t, g.basePlan(base, s), "object", counts)
				}
			}
		}
		if rule, ok := rules[typeName]; ok {
			for _, kind := range []string{"create", "unchanged"} {
				until(typeName+"/"+kind+"/shortcut", func(g *requestGen) { g.comparePlan(t, g.planOf(typeName, s, kind), kind, counts) })
			}
			until(typeName+"/object/shortcut", objects)
			if rule.Reads {
				until(typeName+"/read/shortcut", objects)
			}
		}
		for _, warned := range warnedRequests {
			if warned.typeName == typeName {
				until(warned.key(), objects)
			}
		}
		if f.fast.Upgrades(typeName) {
			until(typeName+"/upgrade/shortcut", func(g *requestGen) { g.compareUpgrade(t, typeName, counts) })
		}
		if _, ok := applies[typeName]; ok {
			for _, kind := range []string{"shortcut", "replayed"} {
				until(typeName+"/apply/"+kind, func(g *requestGen) { g.compareApply(t, typeName, counts) })
			}
		}
		if validations[typeName] {
			for _, kind := range []string{"shortcut", "framework"} {
				until(typeName+"/validate/"+kind, func(g *requestGen) { g.compareValidation(t, typeName, bases, counts) })
			}
		}
	}
}

// warnedRequest is a request where the framework warns, which the differential must have
// compared: the objects the defects of issue 32 hid in.
type warnedRequest struct{ typeName, request, summary string }

func (w warnedRequest) key() string { return w.typeName + "/" + w.request + " warns " + w.summary }

// warnedRequests: refreshes that warn of a failed or removed (managed) cluster, plans that
// warn of a kubeconfig rotation.
var warnedRequests = []warnedRequest{
	{"astra_cluster", "read", "Cluster is failed in Astra Control"}, {"astra_cluster", "read", "Cluster is removed in Astra Control"},
	{"astra_managed_cluster", "read", "Cluster is failed in Astra Control"}, {"astra_managed_cluster", "read", "Cluster is removed in Astra Control"},
	{"astra_kubeconfig_credential", "plan", "Rotated kubeconfig points at another API server"},
}
