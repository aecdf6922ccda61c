package tridentprotect

import (
	"strings"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/tridentprotect/crdcheck"
)

func crdRefusals(t testing.TB, obj map[string]any) []string { return crdcheck.Refusals(t, obj) }

func crdUpdateRefusals(t testing.TB, old, cur map[string]any) []string {
	return crdcheck.UpdateRefusals(t, old, cur)
}

// assertCRDsAccept fails for every manifest of r the CRDs would refuse.
func assertCRDsAccept(t *testing.T, r Rendering) {
	t.Helper()
	for _, m := range r.Manifests {
		if errs := crdRefusals(t, m.Object); len(errs) > 0 {
			t.Errorf("Trident protect's CRD refuses %s:\n  %s\n%s", m.Key(), strings.Join(errs, "\n  "), m.YAML)
		}
	}
}

// assertCRDsAcceptUpdate fails for every manifest of cur that, applied over the one of prev
// with the same key (as kubernetes_manifest for_each or kubectl apply would), is refused.
func assertCRDsAcceptUpdate(t *testing.T, prev, cur Rendering) {
	t.Helper()
	before := map[string]Manifest{}
	for _, m := range prev.Manifests {
		before[m.Key()] = m
	}
	for _, m := range cur.Manifests {
		if old, ok := before[m.Key()]; ok {
			if errs := crdUpdateRefusals(t, old.Object, m.Object); len(errs) > 0 {
				t.Errorf("Trident protect's CRD refuses the update of %s:\n  %s", m.Key(), strings.Join(errs, "\n  "))
			}
		}
	}
}
