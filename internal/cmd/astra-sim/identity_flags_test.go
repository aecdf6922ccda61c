package main

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

func TestParseIdentityFlags(t *testing.T) {
	cfg, err := parseFlags([]string{"-release", "24.02", "-ldap-group", "cn=sre,ou=groups,dc=example,dc=com",
		"-ldap-user", "eve@example.com:cn=eve,ou=users,dc=example,dc=com:cn=sre,ou=groups,dc=example,dc=com",
		"-namespace-label", "payments:team=payments", "-delay", "ldap=3s"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := []astrasim.DirectoryEntry{{DN: "cn=sre,ou=groups,dc=example,dc=com"},
		{Email: "eve@example.com", DN: "cn=eve,ou=users,dc=example,dc=com", MemberOf: []string{"cn=sre,ou=groups,dc=example,dc=com"}}}
	if len(cfg.opts.Directory) != 2 || cfg.opts.Directory[0].DN != want[0].DN || cfg.opts.Directory[1].Email != want[1].Email ||
		strings.Join(cfg.opts.Directory[1].MemberOf, ";") != want[1].MemberOf[0] {
		t.Errorf("directory %+v", cfg.opts.Directory)
	}
	if cfg.opts.NamespaceLabels["payments"]["team"] != "payments" || cfg.opts.Delays.LDAP != 3*time.Second {
		t.Errorf("labels %v, ldap delay %v", cfg.opts.NamespaceLabels, cfg.opts.Delays.LDAP)
	}
	if _, err := astrasim.New(cfg.opts); err != nil {
		t.Errorf("the options do not build a simulator: %v", err)
	}
	for spec, want := range map[string]string{
		"-ldap-user=nobody":         "EMAIL:DN",
		"-namespace-label=payments": "NAME:KEY=VALUE",
		"-namespace-label=:team=x":  "NAME:KEY=VALUE",
		"-delay=ldapx=1s":           "unknown delay",
	} {
		if _, err := parseFlags([]string{spec}, io.Discard); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one mentioning %q", spec, err, want)
		}
	}
	cfg, err = parseFlags([]string{"-token", "boss", "-token", "ci:member", "-token-constraint", "ci=namespaces:kubernetesLabels='team=payments'.*",
		"-namespace-label", "payments:team=payments", "-namespace", "payments", "-namespace", "shop"}, io.Discard)
	if err != nil || strings.Join(cfg.opts.TokenConstraints["ci"], ";") != "namespaces:kubernetesLabels='team=payments'.*" {
		t.Fatalf("token constraints %v, %v", cfg.opts.TokenConstraints, err)
	}
	sim, err := astrasim.New(cfg.opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := sim.Role("ci"); got != "member namespaces:kubernetesLabels='team=payments'.*" {
		t.Errorf("the ci token's role: %q", got)
	}
	for _, args := range [][]string{
		{"-token", "boss", "-token-constraint", "boss=namespaces:*.*"},
		{"-token", "ci:member", "-token-constraint", "other=namespaces:*.*"},
		{"-token", "ci:member", "-token-constraint", "ci"},
	} {
		if _, err := parseFlags(args, io.Discard); err == nil || !strings.Contains(err.Error(), "-token-constraint") {
			t.Errorf("%v: error %v", args, err)
		}
	}
	cfg, _ = parseFlags([]string{"-token", "ci:member", "-token-constraint", "ci=team=payments"}, io.Discard)
	if _, err := astrasim.New(cfg.opts); err == nil || !strings.Contains(err.Error(), "role constraint") {
		t.Errorf("a malformed constraint: %v", err)
	}
	cfg, _ = parseFlags([]string{"-ldap-group", "ou=no-cn"}, io.Discard)
	if _, err := astrasim.New(cfg.opts); err == nil || !strings.Contains(err.Error(), "cn=NAME") {
		t.Errorf("a bad DN: %v", err)
	}
}
