package crdcheck

import (
	"strings"
	"testing"
)

// The table holds the four kinds the renderer emits, and refuses any other.
func TestKinds(t *testing.T) {
	if got := strings.Join(Kinds(), ","); got != "AppVault,Application,ExecHook,Schedule" {
		t.Errorf("kinds %s", got)
	}
	errs := Check{Name: OwnTable, rules: ownTable{}}.Refusals(map[string]any{"apiVersion": APIVersion, "kind": "Job",
		"metadata": map[string]any{"name": "j", "namespace": "n"}})
	if len(errs) != 1 || errs[0] != `kind "Job" is not in our table` {
		t.Errorf("an unknown kind: %q", errs)
	}
}

// Every rule of the table hangs below a rule that lets it be reached, so that no rule is
// dead for a misspelt path.
func TestTableRulesReachable(t *testing.T) {
	for kind, rules := range table {
		byPath := map[string]rule{}
		for _, r := range rules {
			if _, twice := byPath[r.path]; twice {
				t.Errorf("%s: %s twice", kind, r.path)
			}
			byPath[r.path] = r
		}
		for _, r := range rules {
			var parent string
			switch {
			case strings.HasSuffix(r.path, "[]"):
				parent = strings.TrimSuffix(r.path, "[]")
				if byPath[parent].is != list {
					t.Errorf("%s: %s is the item of %s, not a list", kind, r.path, parent)
				}
			case strings.HasSuffix(r.path, ".*"):
				parent = strings.TrimSuffix(r.path, ".*")
				if byPath[parent].is != dict {
					t.Errorf("%s: %s is a value of %s, not a dict", kind, r.path, parent)
				}
			default:
				if parent = parentOf(r.path); parent != "" && byPath[parent].is != object && !strings.HasSuffix(parent, "*") && !strings.HasSuffix(parent, "[]") {
					t.Errorf("%s: %s is a field of %s, not an object", kind, r.path, parent)
				}
			}
			if _, ok := byPath[parent]; parent != "" && !ok {
				t.Errorf("%s: %s has no rule for %s", kind, r.path, parent)
			}
		}
	}
}

// A directory without the chart's CRD files is an error naming what is missing, never a
// check that passes.
func TestChartDirWithoutCRDs(t *testing.T) {
	_, err := loadChartCRDs(t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "no protect.trident.netapp.io_*.yaml file with the v1 schema of") {
		t.Errorf("error %v", err)
	}
}

// A CEL rule without a Go twin is a refusal, never skipped.
func TestUnknownRuleRefuses(t *testing.T) {
	var errs []string
	schema := map[string]any{"x-kubernetes-validations": []any{map[string]any{"rule": "self.size() < 3", "message": "m"}}}
	walkCEL(schema, map[string]any{}, nil, false, "spec", &errs)
	if len(errs) != 1 || !strings.Contains(errs[0], `CEL rule "self.size() < 3" has no Go twin`) {
		t.Errorf("errors %q", errs)
	}
}
