package tridentprotect

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
)

// appNamespace is where an app's Application, Schedules and ExecHooks go: one of its own
// namespaces (Trident protect requires the Application's namespace among the included
// ones), never Trident protect's (it refuses application CRs there), the first in sort
// order so that it does not depend on the order Astra lists them in.
func appNamespace(a App, protectNamespace string) (string, bool) {
	var candidates []string
	for _, ns := range a.NamespaceScopedResources {
		if includable(ns.Namespace) && ns.Namespace != protectNamespace {
			candidates = append(candidates, ns.Namespace)
		}
	}
	if len(candidates) == 0 {
		return "", false
	}
	sort.Strings(candidates)
	return candidates[0], true
}

// crdNamespace is the pattern (and, with maxLength 63, the limit) of
// spec.includedNamespaces[].namespace in Trident protect's Application CRD: a namespace of
// one character, valid in Kubernetes, is refused there.
var crdNamespace = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*[a-z0-9]$`)

func includable(namespace string) bool {
	return len(namespace) <= 63 && crdNamespace.MatchString(namespace)
}

// applicationName is the base of an Application's name: the app's name and 6 characters
// of a hash of its scope, the spec Trident protect's CRD makes immutable
// (includedNamespaces and includedClusterScopedResources may not change after create). A
// change of the app's namespaces or selectors so renders another Application, which
// replaces the old one, where an update of the old one would be refused.
func applicationName(a App, protectNamespace, namespace string) string {
	var discard warnings
	spec, err := json.Marshal(renderApplication(a, protectNamespace, namespace, &discard))
	if err != nil { // never: the spec holds strings, lists and maps
		panic(err)
	}
	return withSuffix(sanitizeName(a.Name, "app"), hashOf(string(spec), scopeHashLength))
}

const scopeHashLength = 6

// renderApplication returns an Application's spec.
func renderApplication(a App, protectNamespace, namespace string, warns *warnings) map[string]any {
	src := appSource(a)
	for _, ns := range a.NamespaceScopedResources {
		if ns.Namespace == protectNamespace {
			warns.add(src, "includes namespace %q, where Trident protect accepts no application CRs; the app's CRs go to namespace %q",
				protectNamespace, namespace)
			break
		}
	}
	spec := map[string]any{"includedNamespaces": includedNamespaces(a, src, warns)}
	if csr := includedClusterScoped(a, src, warns); len(csr) > 0 {
		spec["includedClusterScopedResources"] = csr
	}
	return spec
}

// includedNamespaces is one entry per namespace and selector, sorted. Several selectors
// on one namespace become several entries, whose union Trident protect includes: Astra
// Control does not document how it combines them, and a union includes at least as much.
func includedNamespaces(a App, src Source, warns *warnings) []any {
	scopes := append([]NamespaceScope(nil), a.NamespaceScopedResources...)
	sort.SliceStable(scopes, func(i, j int) bool { return scopes[i].Namespace < scopes[j].Namespace })
	var out []any
	seen := map[string]bool{}
	for _, ns := range scopes {
		if ns.Namespace == "" {
			continue
		}
		if !includable(ns.Namespace) {
			warns.add(src, "namespace %s does not match %s, the pattern Trident protect's Application CRD requires of an included namespace "+
				"(a one-character name does not); it is left out of the Application: protect it another way", quote(ns.Namespace), crdNamespace)
			continue
		}
		what := "namespace " + quote(ns.Namespace)
		for _, sel := range selectorsOf(ns.LabelSelectors, what, src, warns) {
			entry := map[string]any{"namespace": ns.Namespace}
			if sel.selector != nil {
				entry["labelSelector"] = sel.selector
			}
			if k := ns.Namespace + "\x00" + sel.text; !seen[k] {
				seen[k] = true
				out = append(out, entry)
			}
		}
	}
	return out
}

// includedClusterScoped is one entry per group/version/kind and selector.
func includedClusterScoped(a App, src Source, warns *warnings) []any {
	scopes := append([]ClusterScope(nil), a.ClusterScopedResources...)
	sort.SliceStable(scopes, func(i, j int) bool { return gvkString(scopes[i]) < gvkString(scopes[j]) })
	var out []any
	seen := map[string]bool{}
	for _, cs := range scopes {
		if cs.Version == "" || cs.Kind == "" {
			warns.add(src, "cluster-scoped resource %s has no version or kind; left out", quote(gvkString(cs)))
			continue
		}
		what := "cluster-scoped resource " + quote(gvkString(cs))
		for _, sel := range selectorsOf(cs.LabelSelectors, what, src, warns) {
			entry := map[string]any{"groupVersionKind": map[string]any{"group": cs.Group, "version": cs.Version, "kind": cs.Kind}}
			if sel.selector != nil {
				entry["labelSelector"] = sel.selector
			}
			if k := gvkString(cs) + "\x00" + sel.text; !seen[k] {
				seen[k] = true
				out = append(out, entry)
			}
		}
	}
	return out
}

type parsedSelector struct {
	text     string
	selector map[string]any // nil: everything
}

// selectorsOf parses a scope's selectors. None (or only empty ones) is everything; one
// that does not parse is everything too, with a warning: including too much keeps the
// data protected, including too little would not.
func selectorsOf(selectors []string, what string, src Source, warns *warnings) []parsedSelector {
	var out []parsedSelector
	for _, s := range selectors {
		if strings.TrimSpace(s) == "" {
			continue
		}
		sel, dropped, err := labelSelector(s)
		if err != nil {
			warns.add(src, "label selector %s of %s is not a valid Kubernetes selector (%v); the whole of it is included instead", quote(s), what, err)
			return []parsedSelector{{}}
		}
		if len(dropped) > 0 {
			warns.add(src, "label selector %s of %s: %s has no form in a Kubernetes label selector, which Trident protect takes "+
				"(its operators are In, NotIn, Exists and DoesNotExist); left out, so the Application includes more than Astra Control did",
				quote(s), what, quoteAll(dropped))
		}
		if sel == nil { // nothing left: the whole of it, which also holds what the others select
			return []parsedSelector{{}}
		}
		out = append(out, parsedSelector{text: strings.TrimSpace(s), selector: sel})
	}
	if len(out) == 0 {
		return []parsedSelector{{}}
	}
	// In text order: Astra Control does not promise the order it lists them in, and the
	// Application's name hashes its spec.
	sort.SliceStable(out, func(i, j int) bool { return out[i].text < out[j].text })
	if len(out) > 1 {
		warns.add(src, "%s has %d label selectors; each is its own entry, so Trident protect includes what any of them selects (Astra Control does not document how it combines them)", what, len(out))
	}
	return out
}

func quoteAll(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = quote(s)
	}
	return strings.Join(q, " and ")
}

func gvkString(cs ClusterScope) string {
	if cs.Group == "" {
		return cs.Version + "/" + cs.Kind
	}
	return cs.Group + "/" + cs.Version + "/" + cs.Kind
}

func appSource(a App) Source {
	return Source{Kind: sourceApp, ID: a.ID, Name: a.Name}
}
