package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// The real-mode pieces of the acceptance harness, tested without a CLI.

// TestProbeClusterVersion learns each release's newest cluster API version from its
// clusters collection, as the harness does against a real Astra Control; a wrong token is
// "cannot tell", never a version.
func TestProbeClusterVersion(t *testing.T) {
	for release, want := range map[string]string{"22.11": "1.3", "23.05": "1.4", "23.07": "1.5", "23.10": "1.6", "24.02": "1.7"} {
		t.Run(release, func(t *testing.T) {
			sim, url, stop, err := astrasim.Serve(astrasim.Options{Release: release})
			if err != nil {
				t.Fatal(err)
			}
			defer stop()
			cfg := astra.Config{Endpoint: url, AccountID: sim.AccountID(), Token: astrasim.DefaultToken}
			if got, err := probeClusterVersion(cfg); err != nil || got != want {
				t.Errorf("probe = %q, %v; want %s", got, err, want)
			}
			cfg.Token = "not-the-token"
			if got, err := probeClusterVersion(cfg); err == nil || got != "" {
				t.Errorf("with a wrong token: probe = %q, %v; want an error", got, err)
			}
		})
	}
}

// TestSkippedSteps: against a real Astra Control (no simulator), a simulator-only step and
// a step needing a newer API version are skipped without running their PreConfig; on the
// simulator, or on a service that speaks the version, they run unchanged.
func TestSkippedSteps(t *testing.T) {
	ran := false
	step := resource.TestStep{PreConfig: func() { ran = true }, Config: "# step"}
	sim := &astrasim.Sim{}
	cases := []struct {
		name     string
		a        *accTarget
		build    func(*accTarget) resource.TestStep
		wantSkip bool
	}{
		{"simStep, real", &accTarget{t: t}, func(a *accTarget) resource.TestStep { return a.simStep("why", step) }, true},
		{"simStep, simulator", &accTarget{t: t, sim: sim}, func(a *accTarget) resource.TestStep { return a.simStep("why", step) }, false},
		{"version, real, older", &accTarget{t: t, served: "1.3"}, func(a *accTarget) resource.TestStep { return a.apiVersionStep("1.5", step) }, true},
		{"version, real, unknown, newer than the default", &accTarget{t: t}, func(a *accTarget) resource.TestStep { return a.apiVersionStep("1.6", step) }, true},
		{"version, real, unknown, the default", &accTarget{t: t}, func(a *accTarget) resource.TestStep { return a.apiVersionStep("1.5", step) }, false},
		{"version, real, same", &accTarget{t: t, served: "1.5"}, func(a *accTarget) resource.TestStep { return a.apiVersionStep("1.5", step) }, false},
		{"version, real, newer", &accTarget{t: t, served: "1.7"}, func(a *accTarget) resource.TestStep { return a.apiVersionStep("1.5", step) }, false},
		{"version, simulator", &accTarget{t: t, sim: sim}, func(a *accTarget) resource.TestStep { return a.apiVersionStep("1.7", step) }, false},
	}
	for _, c := range cases {
		got := c.build(c.a)
		if !c.wantSkip {
			if got.SkipFunc != nil || got.PreConfig == nil {
				t.Errorf("%s: the step was changed", c.name)
			}
			continue
		}
		if got.PreConfig != nil || got.SkipFunc == nil {
			t.Errorf("%s: PreConfig %v, SkipFunc %v; want none and one", c.name, got.PreConfig != nil, got.SkipFunc != nil)
			continue
		}
		if skip, err := got.SkipFunc(); !skip || err != nil {
			t.Errorf("%s: SkipFunc = %v, %v", c.name, skip, err)
		}
	}
	if ran {
		t.Error("a PreConfig ran")
	}
}
