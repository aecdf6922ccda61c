package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// identityFlags are the command line of identity and access (issue 47): entries of the
// simulated LDAP directory and namespace labels for role constraints.
type identityFlags struct {
	ldapUsers, ldapGroups, namespaceLabels, tokenConstraints listFlag
}

func (f *identityFlags) register(fs *flag.FlagSet) {
	fs.Var(&f.ldapUsers, "ldap-user", "a person of the simulated LDAP directory, `EMAIL:DN[:GROUP_DN...]`; repeatable")
	fs.Var(&f.ldapGroups, "ldap-group", "a group of the simulated LDAP directory, `DN` (cn=NAME,...); repeatable")
	fs.Var(&f.tokenConstraints, "token-constraint", "a role constraint of a -token's role binding, `TOKEN=CONSTRAINT` (such as ci=namespaces:kubernetesLabels='team=payments'.*; not for owners); repeatable")
	fs.Var(&f.namespaceLabels, "namespace-label", "a Kubernetes label of the namespaces named NAME on every cluster, `NAME:KEY=VALUE`, for kubernetesLabels role constraints; repeatable")
}

func (f *identityFlags) apply(opts *astrasim.Options) error {
	for _, spec := range f.ldapGroups {
		opts.Directory = append(opts.Directory, astrasim.DirectoryEntry{DN: spec})
	}
	for _, spec := range f.ldapUsers {
		parts := strings.Split(spec, ":")
		if len(parts) < 2 || !strings.Contains(parts[0], "@") {
			return fmt.Errorf("-ldap-user %q: want EMAIL:DN[:GROUP_DN...], such as bob@example.com:cn=bob,ou=users,dc=example,dc=com", spec)
		}
		opts.Directory = append(opts.Directory, astrasim.DirectoryEntry{Email: parts[0], DN: parts[1], MemberOf: parts[2:]})
	}
	for _, spec := range f.tokenConstraints {
		tok, constraint, ok := strings.Cut(spec, "=")
		if !ok || tok == "" || constraint == "" {
			return fmt.Errorf("-token-constraint %q: want TOKEN=CONSTRAINT, such as ci=namespaces:kubernetesLabels='team=payments'.*", spec)
		}
		if opts.Tokens[tok] == "" {
			return fmt.Errorf("-token-constraint %q: no -token of that name", spec)
		}
		if opts.Tokens[tok] == astrasim.RoleOwner {
			return fmt.Errorf("-token-constraint %q: an owner's binding keeps every namespace", spec)
		}
		if opts.TokenConstraints == nil {
			opts.TokenConstraints = map[string][]string{}
		}
		opts.TokenConstraints[tok] = append(opts.TokenConstraints[tok], constraint)
	}
	for _, spec := range f.namespaceLabels {
		name, label, ok := strings.Cut(spec, ":")
		key, value, ok2 := strings.Cut(label, "=")
		if !ok || !ok2 || name == "" || key == "" {
			return fmt.Errorf("-namespace-label %q: want NAME:KEY=VALUE, such as payments:team=payments", spec)
		}
		if opts.NamespaceLabels == nil {
			opts.NamespaceLabels = map[string]map[string]string{}
		}
		if opts.NamespaceLabels[name] == nil {
			opts.NamespaceLabels[name] = map[string]string{}
		}
		opts.NamespaceLabels[name][key] = value
	}
	return nil
}
