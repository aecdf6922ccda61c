package labelselector

import (
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	valid := []string{"", "app=mysql", "app==mysql", "app!=mysql", "app", "!canary", "tier in (prod, staging)",
		"tier notin (dev)", "app.kubernetes.io/name=web,tier=prod", "example.com/x_y-z.1=v", "app=", "a in (b),c notin (d,e),!f"}
	for _, s := range valid {
		if err := Validate(s); err != nil {
			t.Errorf("Validate(%q) = %v, want nil", s, err)
		}
	}
	invalid := map[string]string{
		"app=my sql":                     `value "my sql"`,
		"-app=x":                         `key "-app"`,
		"Example.com/app=x":              "prefix must be a DNS subdomain",
		"app=x,":                         "empty requirement",
		"tier in prod":                   "in parentheses",
		"tier in ()":                     "at least one value",
		"tier like (x)":                  "unknown operator",
		"app=" + strings.Repeat("v", 64): "at most 63",
	}
	for s, want := range invalid {
		err := Validate(s)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate(%q) = %v, want an error containing %q", s, err, want)
		}
	}
}
