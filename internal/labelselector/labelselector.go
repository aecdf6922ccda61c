// Package labelselector checks Kubernetes label selectors ("app=mysql", "tier in (a,b)",
// "!canary") against the grammar of the Kubernetes API, without depending on
// k8s.io/apimachinery. Astra Control passes an app's selectors to the cluster, so a
// selector that does not parse there is refused before it is sent.
package labelselector

import (
	"fmt"
	"regexp"
	"strings"
)

var (
	namePattern  = regexp.MustCompile(`^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$`)
	dnsSubdomain = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
)

// Validate reports why selector is not a valid Kubernetes label selector, or nil. The
// empty selector (everything) is valid.
func Validate(selector string) error {
	if strings.TrimSpace(selector) == "" {
		return nil
	}
	for _, req := range splitRequirements(selector) {
		if err := requirement(strings.TrimSpace(req)); err != nil {
			return err
		}
	}
	return nil
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

func requirement(req string) error {
	if req == "" {
		return fmt.Errorf("empty requirement (two commas in a row, or a trailing comma)")
	}
	if key, ok := strings.CutPrefix(req, "!"); ok {
		return checkKey(strings.TrimSpace(key))
	}
	for _, op := range []string{"!=", "==", "="} {
		if key, value, ok := strings.Cut(req, op); ok {
			if err := checkKey(strings.TrimSpace(key)); err != nil {
				return err
			}
			return checkValue(strings.TrimSpace(value))
		}
	}
	fields := strings.Fields(req)
	if len(fields) == 1 && !strings.ContainsAny(req, "()") {
		return checkKey(fields[0]) // existence
	}
	if len(fields) < 2 {
		return fmt.Errorf("%q: expected key, key=value, key!=value, key in (...), key notin (...) or !key", req)
	}
	key := fields[0]
	if err := checkKey(key); err != nil {
		return err
	}
	rest := strings.TrimSpace(strings.TrimPrefix(req, key))
	var op string
	switch {
	case strings.HasPrefix(rest, "notin"):
		op = "notin"
	case strings.HasPrefix(rest, "in"):
		op = "in"
	default:
		return fmt.Errorf("%q: unknown operator after %q (use =, ==, !=, in or notin)", req, key)
	}
	set := strings.TrimSpace(strings.TrimPrefix(rest, op))
	if !strings.HasPrefix(set, "(") || !strings.HasSuffix(set, ")") {
		return fmt.Errorf("%q: the values of %s must be in parentheses, e.g. %s %s (a,b)", req, op, key, op)
	}
	inner := strings.TrimSpace(set[1 : len(set)-1])
	if inner == "" {
		return fmt.Errorf("%q: %s needs at least one value", req, op)
	}
	for _, v := range strings.Split(inner, ",") {
		if err := checkValue(strings.TrimSpace(v)); err != nil {
			return err
		}
	}
	return nil
}

func checkKey(key string) error {
	if key == "" {
		return fmt.Errorf("a requirement has an empty key")
	}
	name := key
	if prefix, n, ok := strings.Cut(key, "/"); ok {
		if len(prefix) > 253 || !dnsSubdomain.MatchString(prefix) {
			return fmt.Errorf("key %q: the prefix must be a DNS subdomain (lower case, at most 253 characters)", key)
		}
		name = n
	}
	if len(name) > 63 || !namePattern.MatchString(name) {
		return fmt.Errorf("key %q: the name must be 1-63 characters, alphanumerics, '-', '_' or '.', starting and ending with an alphanumeric", key)
	}
	return nil
}

func checkValue(v string) error {
	if v == "" {
		return nil
	}
	if len(v) > 63 || !namePattern.MatchString(v) {
		return fmt.Errorf("value %q: a value must be at most 63 characters, alphanumerics, '-', '_' or '.', starting and ending with an alphanumeric", v)
	}
	return nil
}
