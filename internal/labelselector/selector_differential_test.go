package labelselector

import (
	"math/rand/v2"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/labels"
)

// Validate answers in place of Kubernetes' own parser (k8s.io/apimachinery, a test-only
// dependency here): both must accept and refuse the same selectors. The fuzz target and
// the seeded round below send the same inputs to both.

// selectorParts are the pieces random selectors are made of: every token of the grammar,
// valid and invalid keys and values, white space and stray bytes.
var selectorParts = []string{
	"app", "tier", "in", "notin", "a.b-c_d", "example.com/app", "Example.com/x", "a/b/c", "-bad", "x_", "9", "-3", "1.5",
	strings.Repeat("v", 63), strings.Repeat("w", 64), "=", "==", "!=", "!", "<", ">", "(", ")", ",", " ", "\t", "", "\x00",
	"é", ";", "*",
}

// differs reports a selector the two parsers disagree on.
func differs(t *testing.T, s string) {
	t.Helper()
	_, k8sErr := labels.Parse(s)
	ours := Validate(s)
	if (k8sErr == nil) != (ours == nil) {
		t.Fatalf("selector %q: Kubernetes says %v, Validate says %v", s, k8sErr, ours)
	}
}

func FuzzValidateMatchesKubernetes(f *testing.F) {
	for _, s := range []string{"", "app=mysql", "x>1", "tier in ()", "tier in (a,,b)", "a=b=c", "!a=b", "in in (in)", "a=b\x00c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { differs(t, s) })
}

// TestValidateMatchesKubernetes: 20,000 random selectors built from the grammar's pieces
// (a fixed seed, so a failure replays).
func TestValidateMatchesKubernetes(t *testing.T) {
	r := rand.New(rand.NewPCG(2026, 12))
	accepted := 0
	for range 20000 {
		var b strings.Builder
		for range r.IntN(9) {
			b.WriteString(selectorParts[r.IntN(len(selectorParts))])
		}
		differs(t, b.String())
		if Validate(b.String()) == nil {
			accepted++
		}
	}
	if accepted < 1000 || accepted > 19000 {
		t.Fatalf("%d of 20000 random selectors accepted: the generator no longer exercises both answers", accepted)
	}
}
