package astrasim

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// condition is one filter term: `<path> <op> '<value>'`, e.g. `metadata.labels[*].name eq 'x'`.
type condition struct {
	path   []pathSegment
	op     string
	values []string // one value, or the list of an `in`
}

type pathSegment struct {
	name string
	all  bool // [*]: any element of an array
}

var filterOps = map[string]bool{"eq": true, "lt": true, "gt": true, "lte": true, "gte": true, "in": true}

// parseFilter reads one filter parameter: terms joined by commas outside quotes, all of
// which must hold. Spaces may arrive as literal %20 (the spec's grammar allows both).
func parseFilter(expr string) ([]condition, error) {
	expr = strings.ReplaceAll(expr, "%20", " ")
	var out []condition
	for _, term := range splitOutsideQuotes(expr, ',') {
		c, err := parseCondition(strings.TrimSpace(term))
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func splitOutsideQuotes(s string, sep rune) []string {
	var parts []string
	var cur strings.Builder
	quoted := false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted = !quoted
			cur.WriteRune(r)
		case r == sep && !quoted:
			parts = append(parts, cur.String())
			cur.Reset()
		default:
			cur.WriteRune(r)
		}
	}
	return append(parts, cur.String())
}

func parseCondition(term string) (condition, error) {
	field, rest, ok := strings.Cut(term, " ")
	if !ok {
		return condition{}, fmt.Errorf("%q is not of the form <field> <op> '<value>'", term)
	}
	op, value, ok := strings.Cut(strings.TrimLeft(rest, " "), " ")
	if !ok || !filterOps[op] {
		return condition{}, fmt.Errorf("%q: the operator must be one of eq, lt, gt, lte, gte, in", term)
	}
	value = strings.TrimSpace(value)
	if len(value) < 3 || value[0] != '\'' || value[len(value)-1] != '\'' {
		return condition{}, fmt.Errorf("%q: the value must be a non-empty string in single quotes", term)
	}
	value = value[1 : len(value)-1]
	c := condition{op: op, values: []string{value}}
	if op == "in" {
		c.values = strings.Split(value, ",")
	}
	for _, seg := range strings.Split(field, ".") {
		all := strings.HasSuffix(seg, "[*]")
		name := strings.TrimSuffix(seg, "[*]")
		if name == "" || !isAlnum(name) {
			return condition{}, fmt.Errorf("%q: %q is not a field name", term, seg)
		}
		c.path = append(c.path, pathSegment{name: name, all: all})
	}
	return c, nil
}

func isAlnum(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// matches reports whether any value at the condition's path satisfies it.
func (c condition) matches(item map[string]any) bool {
	for _, v := range valuesAt(item, c.path) {
		s, ok := scalarString(v)
		if !ok {
			continue
		}
		for _, want := range c.values {
			if compare(s, c.op, want) {
				return true
			}
		}
	}
	return false
}

func valuesAt(v any, path []pathSegment) []any {
	if len(path) == 0 {
		return []any{v}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	next, ok := m[path[0].name]
	if !ok {
		return nil
	}
	if !path[0].all {
		return valuesAt(next, path[1:])
	}
	list, _ := next.([]any)
	var out []any
	for _, elem := range list {
		out = append(out, valuesAt(elem, path[1:])...)
	}
	return out
}

func scalarString(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}

// compare orders numbers as numbers, timestamps as times, anything else as strings.
func compare(have, op, want string) bool {
	if op == "eq" || op == "in" {
		return have == want
	}
	if op == opContains {
		return containsFold(have, want)
	}
	cmp := strings.Compare(have, want)
	if a, errA := strconv.ParseFloat(have, 64); errA == nil {
		if b, errB := strconv.ParseFloat(want, 64); errB == nil {
			cmp = compareFloat(a, b)
		}
	} else if a, errA := time.Parse(time.RFC3339Nano, have); errA == nil {
		if b, errB := time.Parse(time.RFC3339Nano, want); errB == nil {
			cmp = a.Compare(b)
		}
	}
	switch op {
	case "lt":
		return cmp < 0
	case "gt":
		return cmp > 0
	case "lte":
		return cmp <= 0
	case "gte":
		return cmp >= 0
	}
	return false
}

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
