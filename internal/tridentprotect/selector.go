package tridentprotect

import (
	"regexp"
	"strings"

	"github.com/astra-control/terraform-provider-astra/internal/labelselector"
)

var setRequirement = regexp.MustCompile(`^(\S+)\s+(in|notin)\s*\((.*)\)$`)

// labelSelector turns an Astra selector string ("app=mysql,tier in (a,b),!canary") into a
// Kubernetes LabelSelector: equalities in matchLabels, the rest in matchExpressions. The
// string grammar's "key>n" and "key<n" have no LabelSelector form (its operators are In,
// NotIn, Exists and DoesNotExist): they are left out and returned in dropped, so that the
// selector selects more, never something else. Empty is no selector (nil); so is a
// selector all of whose requirements are dropped. The error is only for a string that is
// not a selector at all.
func labelSelector(s string) (sel map[string]any, dropped []string, err error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil, nil
	}
	if err := labelselector.Validate(s); err != nil {
		return nil, nil, err
	}
	matchLabels := map[string]any{}
	var exprs []any
	expr := func(key, op string, values []string) {
		e := map[string]any{"key": key, "operator": op}
		if values != nil {
			vs := make([]any, len(values))
			for i, v := range values {
				vs[i] = v
			}
			e["values"] = vs
		}
		exprs = append(exprs, e)
	}
	for _, req := range splitRequirements(s) {
		req = strings.TrimSpace(req)
		// Validated: a '>' or '<' is the operator of a numeric comparison.
		if strings.ContainsAny(req, "<>") {
			dropped = append(dropped, req)
			continue
		}
		if key, ok := strings.CutPrefix(req, "!"); ok {
			expr(strings.TrimSpace(key), "DoesNotExist", nil)
			continue
		}
		// The same order as labelselector.Validate: "!=" before "==" before "=".
		if key, value, ok := strings.Cut(req, "!="); ok {
			expr(strings.TrimSpace(key), "NotIn", []string{strings.TrimSpace(value)})
			continue
		}
		if key, value, ok := cutEquality(req); ok {
			// A key already matched to another value cannot sit twice in matchLabels.
			if prev, dup := matchLabels[key]; dup && prev != value {
				expr(key, "In", []string{value})
			} else {
				matchLabels[key] = value
			}
			continue
		}
		if m := setRequirement.FindStringSubmatch(req); m != nil {
			op := "In"
			if m[2] == "notin" {
				op = "NotIn"
			}
			var values []string
			for _, v := range strings.Split(m[3], ",") {
				values = append(values, strings.TrimSpace(v))
			}
			expr(m[1], op, values)
			continue
		}
		expr(req, "Exists", nil)
	}
	if len(matchLabels) == 0 && len(exprs) == 0 {
		return nil, dropped, nil
	}
	out := map[string]any{}
	if len(matchLabels) > 0 {
		out["matchLabels"] = matchLabels
	}
	if len(exprs) > 0 {
		out["matchExpressions"] = exprs
	}
	return out, dropped, nil
}

func cutEquality(req string) (key, value string, ok bool) {
	for _, op := range []string{"==", "="} {
		if k, v, found := strings.Cut(req, op); found {
			return strings.TrimSpace(k), strings.TrimSpace(v), true
		}
	}
	return "", "", false
}

// splitRequirements splits on the commas outside parentheses.
func splitRequirements(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
