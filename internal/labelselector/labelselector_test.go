package labelselector

import (
	"strings"
	"testing"
)

// TestValidate: what Kubernetes' parser accepts (its comparisons, empty values and empty
// value sets included) is accepted, and what it refuses is refused with a reason naming
// the part at fault. selector_differential_test.go compares the two parsers on random input.
func TestValidate(t *testing.T) {
	valid := []string{"", "  ", "app=mysql", "app==mysql", "app!=mysql", "app", "!canary", "tier in (prod, staging)",
		"tier notin (dev)", "app.kubernetes.io/name=web,tier=prod", "example.com/x_y-z.1=v", "app=", "a in (b),c notin (d,e),!f",
		"x>1", "x < 5", "tier in ()", "tier in (,)", "tier in (a,,b)", "tier in (a,)", "in in (in)", "notin notin (notin)",
		"in", "!in", "a=in", "a = b , c", "a\tin\t(b)", "a=b\x00", "a=b\x00,c", "\x00garbage"}
	for _, s := range valid {
		if err := Validate(s); err != nil {
			t.Errorf("Validate(%q) = %v, want nil", s, err)
		}
	}
	invalid := map[string]string{
		"app=my sql":                     `found "sql"; expected a comma or the end`,
		"-app=x":                         `key "-app"`,
		"Example.com/app=x":              "prefix must be a DNS subdomain",
		"a/b/c=x":                        "at most one prefix",
		"app=x,":                         "after a comma",
		"app=x,,y":                       "after a comma",
		"tier in prod":                   "expected '(': the values of in are in parentheses",
		"tier in (a b)":                  `found "b" in the values of in; expected a comma or ')'`,
		"tier in (a":                     "found the end of the selector in the values of in",
		"tier like (x)":                  `found "like" after key "tier"; expected an operator`,
		"app=" + strings.Repeat("v", 64): "at most 63",
		"x>a":                            "must be a whole number",
		"x>":                             `must be a whole number, not ""`,
		"x>-3":                           `value "-3"`,
		"a=b\x00c":                       `found "c"; expected a comma or the end`,
		"a=b=c":                          `found "="; expected a comma or the end`,
		"!a=b":                           `found "="; expected a comma or the end`,
		"=a":                             "expected a requirement",
		"a!b":                            `found "!" after key "a"`,
		"!":                              "expected a key",
	}
	for s, want := range invalid {
		err := Validate(s)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate(%q) = %v, want an error containing %q", s, err, want)
		}
	}
}
