package tridentprotect

import "sort"

// The estate is sorted before it is rendered, by name then ID, so that warnings and
// manifests come out in one order whatever order Astra Control listed them in.

func sortedPolicies(in []Policy) []Policy {
	out := append([]Policy(nil), in...)
	sort.SliceStable(out, func(i, j int) bool { return less(out[i].Name, out[i].ID, out[j].Name, out[j].ID) })
	return out
}

func sortedHooks(in []Hook) []Hook {
	out := append([]Hook(nil), in...)
	sort.SliceStable(out, func(i, j int) bool { return less(out[i].Name, out[i].ID, out[j].Name, out[j].ID) })
	return out
}

// less orders by a first, then b.
func less(a1, b1, a2, b2 string) bool {
	if a1 != a2 {
		return a1 < a2
	}
	return b1 < b2
}
