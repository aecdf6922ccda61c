package astrasim

import (
	"strings"
	"testing"
)

func TestParseFilter(t *testing.T) {
	good := []struct {
		expr  string
		terms int
		op    string
		path  string
		vals  string
	}{
		{"name eq 'gke-prod'", 1, "eq", "name", "gke-prod"},
		{"name%20eq%20'gke-prod'", 1, "eq", "name", "gke-prod"},
		{"state in 'running,pending'", 1, "in", "state", "running|pending"},
		{"metadata.labels[*].name eq 'x'", 1, "eq", "metadata.labels*.name", "x"},
		{"clusterVersion gte '1.24',clusterType eq 'gke'", 2, "gte", "clusterVersion", "1.24"},
		{"name eq 'a b'", 1, "eq", "name", "a b"},
	}
	for _, g := range good {
		conds, err := parseFilter(g.expr)
		if err != nil {
			t.Errorf("%q: %v", g.expr, err)
			continue
		}
		if len(conds) != g.terms {
			t.Errorf("%q: %d terms, want %d", g.expr, len(conds), g.terms)
			continue
		}
		c := conds[0]
		var path []string
		for _, s := range c.path {
			name := s.name
			if s.all {
				name += "*"
			}
			path = append(path, name)
		}
		if c.op != g.op || strings.Join(path, ".") != g.path || strings.Join(c.values, "|") != g.vals {
			t.Errorf("%q: got %s %s %v", g.expr, strings.Join(path, "."), c.op, c.values)
		}
	}
	bad := map[string]string{
		"name":                  "not of the form",
		"name eq gke":           "single quotes",
		"name like 'x'":         "operator",
		"name eq ''":            "single quotes",
		"na-me eq 'x'":          "not a field name",
		"metadata..name eq 'x'": "not a field name",
	}
	for expr, want := range bad {
		if _, err := parseFilter(expr); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want one mentioning %q", expr, err, want)
		}
	}
}

func TestFilterMatches(t *testing.T) {
	item := map[string]any{
		"name": "gke-prod", "clusterVersion": "1.27", "count": 3.0,
		"metadata": map[string]any{
			"creationTimestamp": "2024-01-15T09:30:00.000000Z",
			"labels":            []any{map[string]any{"name": "team", "value": "blue"}, map[string]any{"name": "env", "value": "prod"}},
		},
	}
	cases := []struct {
		expr string
		want bool
	}{
		{"name eq 'gke-prod'", true},
		{"name eq 'gke'", false},
		{"name in 'aks-prod,gke-prod'", true},
		{"count lt '10'", true},  // numeric, not "3" > "10" as strings
		{"count gt '10'", false}, //
		{"count lte '3'", true},  //
		{"count gte '4'", false}, //
		{"clusterVersion gte '1.24'", true},
		{"metadata.creationTimestamp lt '2024-02-01T00:00:00Z'", true},
		{"metadata.creationTimestamp gt '2024-02-01T00:00:00Z'", false},
		{"metadata.labels[*].value eq 'prod'", true},
		{"metadata.labels[*].value eq 'qa'", false},
		{"metadata.missing eq 'x'", false},
		{"name eq 'gke-prod',count eq '3'", true},
		{"name eq 'gke-prod',count eq '4'", false},
	}
	for _, c := range cases {
		conds, err := parseFilter(c.expr)
		if err != nil {
			t.Fatalf("%q: %v", c.expr, err)
		}
		got := true
		for _, cond := range conds {
			got = got && cond.matches(item)
		}
		if got != c.want {
			t.Errorf("%q matched %v, want %v", c.expr, got, c.want)
		}
	}
}
