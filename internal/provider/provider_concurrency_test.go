package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccConcurrency200Clusters applies 200 clusters (each with its kubeconfig credential;
// ASTRA_TEST_CONCURRENCY_CLUSTERS changes the number: make test runs 20 under OpenTofu only)
// with -parallelism=20 against a simulator that answers 429 (Retry-After: 1s) to a fifth
// of all requests: the apply converges with no error and no duplicate, the plan after it
// is empty, and destroy (same parallelism, same throttling) leaves nothing.
func TestAccConcurrency200Clusters(t *testing.T) {
	n := 200
	if v := os.Getenv("ASTRA_TEST_CONCURRENCY_CLUSTERS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			t.Fatalf("ASTRA_TEST_CONCURRENCY_CLUSTERS=%q: want a positive number", v)
		}
	}
	h := newCLIHarness(t, astrasim.Options{Seed: 200}, "")
	baseline := h.simObjects()
	kubeDir := filepath.Join(t.TempDir(), "kube")
	if err := os.MkdirAll(kubeDir, 0o700); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		name := fmt.Sprintf("conc-%d", i)
		if err := os.WriteFile(filepath.Join(kubeDir, name+".yaml"), astrasim.TestKubeconfig(name, "https://"+name+".k8s.example:6443"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	h.write(fmt.Sprintf(`
resource "astra_kubeconfig_credential" "k" {
  count      = %[1]d
  name       = "conc-${count.index}"
  kubeconfig = file("%[2]s/conc-${count.index}.yaml")
}

resource "astra_cluster" "c" {
  count         = %[1]d
  cloud_id      = %[3]q
  name          = "conc-${count.index}"
  credential_id = astra_kubeconfig_credential.k[count.index].id
}
`, n, filepath.ToSlash(kubeDir), h.sim().Seeds().PrivateCloudID))
	throttle := astrasim.Fault{Method: "*", Route: "*", Kind: astrasim.FaultTooManyRequests, Probability: 0.2, RetryAfter: time.Second}
	h.sim().AddFault(throttle)

	start := time.Now()
	if r := h.apply("-parallelism=20"); r.err != nil {
		t.Fatalf("apply of %d clusters under 429s: %v\n%s", n, r.err, tail(r.out, 60))
	}
	t.Logf("apply of %d clusters + %d credentials with -parallelism=20: %s, %d answers were 429",
		n, n, time.Since(start).Round(time.Second), h.sim().Fired("*", "*", astrasim.FaultTooManyRequests))
	faultedApplies.Add(1)
	if h.sim().Fired("*", "*", astrasim.FaultTooManyRequests) == 0 {
		t.Fatal("no request was answered 429: the throttling did not happen")
	}
	if err := h.invariant(baseline); err != nil {
		t.Fatal(err)
	}
	invariantChecks.Add(1)
	objects := h.simObjects()
	for _, kind := range []string{"credential", "cluster"} {
		names := map[string]int{}
		for id, name := range objects[kind] {
			if _, seeded := baseline[kind][id]; !seeded {
				names[name]++
			}
		}
		if len(names) != n {
			t.Errorf("%d distinct %s names in the simulator, want %d", len(names), kind, n)
		}
		for name, count := range names {
			if count != 1 {
				t.Errorf("%s %s exists %d times", kind, name, count)
			}
		}
	}
	if len(h.state()) != 2*n {
		t.Fatalf("state holds %d objects, want %d", len(h.state()), 2*n)
	}
	if err := h.planIsEmpty(); err != nil {
		t.Fatal(tail(err.Error(), 40))
	}
	if r := h.run(t.Context(), "destroy", "-auto-approve", "-input=false", "-no-color", "-parallelism=20"); r.err != nil {
		t.Fatalf("destroy: %v\n%s", r.err, tail(r.out, 60))
	}
	if err := h.invariant(baseline); err != nil {
		t.Fatalf("after destroy: %v", err)
	}
	invariantChecks.Add(1)
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
