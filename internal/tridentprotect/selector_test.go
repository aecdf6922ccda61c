package tridentprotect

import (
	"reflect"
	"strings"
	"testing"
)

func TestLabelSelector(t *testing.T) {
	expr := func(key, op string, values ...string) map[string]any {
		e := map[string]any{"key": key, "operator": op}
		if values != nil {
			vs := make([]any, len(values))
			for i, v := range values {
				vs[i] = v
			}
			e["values"] = vs
		}
		return e
	}
	cases := []struct {
		in   string
		want map[string]any
	}{
		{"", nil},
		{"   ", nil},
		{"app=mysql", map[string]any{"matchLabels": map[string]any{"app": "mysql"}}},
		{"app==mysql", map[string]any{"matchLabels": map[string]any{"app": "mysql"}}},
		{" app = mysql ", map[string]any{"matchLabels": map[string]any{"app": "mysql"}}},
		{"app=", map[string]any{"matchLabels": map[string]any{"app": ""}}},
		{"app.kubernetes.io/name=web,tier=prod", map[string]any{"matchLabels": map[string]any{"app.kubernetes.io/name": "web", "tier": "prod"}}},
		{"app!=mysql", map[string]any{"matchExpressions": []any{expr("app", "NotIn", "mysql")}}},
		{"tier in (prod, staging)", map[string]any{"matchExpressions": []any{expr("tier", "In", "prod", "staging")}}},
		{"tier notin (dev)", map[string]any{"matchExpressions": []any{expr("tier", "NotIn", "dev")}}},
		{"app", map[string]any{"matchExpressions": []any{expr("app", "Exists")}}},
		{"!canary", map[string]any{"matchExpressions": []any{expr("canary", "DoesNotExist")}}},
		{"app=web,tier in (a,b),!canary,track", map[string]any{
			"matchLabels":      map[string]any{"app": "web"},
			"matchExpressions": []any{expr("tier", "In", "a", "b"), expr("canary", "DoesNotExist"), expr("track", "Exists")}}},
		// Two values for one key cannot both sit in matchLabels; ANDed, they select nothing,
		// as the string does.
		{"app=a,app=b", map[string]any{"matchLabels": map[string]any{"app": "a"}, "matchExpressions": []any{expr("app", "In", "b")}}},
		{"app=a,app=a", map[string]any{"matchLabels": map[string]any{"app": "a"}}},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, dropped, err := labelSelector(c.in)
			if err != nil || dropped != nil {
				t.Fatalf("labelSelector(%q): %v, dropped %q", c.in, err, dropped)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("labelSelector(%q) =\n%s\nwant\n%s", c.in, jsonOf(got), jsonOf(c.want))
			}
			if got != nil {
				validateAsSelector(t, got)
			}
		})
	}
	for _, bad := range []string{"app=my sql", "tier in prod", "app=x,", "Example.com/app=x"} {
		if got, _, err := labelSelector(bad); err == nil {
			t.Errorf("labelSelector(%q) = %v, want an error", bad, got)
		}
	}
}

// A numeric comparison has no LabelSelector form: it is left out and reported, never
// turned into an existence test of a key "replicas>1".
func TestLabelSelectorDropsComparisons(t *testing.T) {
	cases := []struct {
		in          string
		want        map[string]any
		wantDropped []string
	}{
		{"replicas>1", nil, []string{"replicas>1"}},
		{"replicas < 3", nil, []string{"replicas < 3"}},
		{"app=web,replicas>1,tier", map[string]any{"matchLabels": map[string]any{"app": "web"},
			"matchExpressions": []any{map[string]any{"key": "tier", "operator": "Exists"}}}, []string{"replicas>1"}},
	}
	for _, c := range cases {
		got, dropped, err := labelSelector(c.in)
		if err != nil {
			t.Fatalf("labelSelector(%q): %v", c.in, err)
		}
		if !reflect.DeepEqual(got, c.want) || !reflect.DeepEqual(dropped, c.wantDropped) {
			t.Errorf("labelSelector(%q) = %s, dropped %q; want %s, dropped %q", c.in, jsonOf(got), dropped, jsonOf(c.want), c.wantDropped)
		}
	}
}

// validateAsSelector checks a selector against the LabelSelector table of the docs' shape.
func validateAsSelector(t *testing.T, sel map[string]any) {
	t.Helper()
	var errs []string
	validateField("labelSelector", sel, labelSelectorField, &errs)
	if len(errs) > 0 {
		t.Errorf("selector departs from LabelSelector: %s", strings.Join(errs, "; "))
	}
}
