package astrasim

import (
	"fmt"
	"strings"
)

// A selective restore (issue 43, item 8): an in-place restore's PUT may carry restoreFilter
// (app 2.2: the 23.05 to 24.02 documents; 2.1 and 22.11's schemas have no such member), as
// Astra Control Center's "restore apps" page and actoolkit's restore/ipr --filterSelection
// and --filterSet do. Its shape is the schema's: resourceSelectionCriteria include or
// exclude, and GVKN, filters each matching a resource when every field it sets matches
// (namespaces and names: any element; labelSelectors: all); a resource matching any filter
// is included or excluded. The schema validates the shape (readBody); the rest of its prose
// is checked here: an empty GVKN filter is a validation error (400 problem 9 naming it), and
// group, version and kind are "validated against Astra /apiResources", which the simulator
// takes as the kinds of its modelled assets (assets below; an unknown one is 400/9). What
// the restore put back is Sim.Restored. Problem 155 ("Selective restore not supported") is
// never answered: nothing documents when an app is not eligible.

// asset is one modelled Kubernetes resource of an app.
type asset struct {
	Name, Namespace, Group, Version, Kind string
	Labels                                []label
}

// appAssets models an app's resources from its modelled containers (containers.go): per
// container a Pod, a PersistentVolumeClaim "data-<pod>", a Service and a StatefulSet named
// after it, all with its labels (the kinds of the example in actoolkit's list assets docs).
func appAssets(a *app) []asset {
	var out []asset
	for _, c := range appContainers(a) {
		out = append(out,
			asset{Name: c.Pod, Namespace: c.Namespace, Version: "v1", Kind: "Pod", Labels: c.Labels},
			asset{Name: "data-" + c.Pod, Namespace: c.Namespace, Version: "v1", Kind: "PersistentVolumeClaim", Labels: c.Labels},
			asset{Name: c.Name, Namespace: c.Namespace, Version: "v1", Kind: "Service", Labels: c.Labels},
			asset{Name: c.Name, Namespace: c.Namespace, Group: "apps", Version: "v1", Kind: "StatefulSet", Labels: c.Labels})
	}
	return out
}

func (x asset) String() string { return x.Kind + " " + x.Namespace + "/" + x.Name }

// gvknFilter is one GVKN element.
type gvknFilter struct {
	Group, Version, Kind string
	hasGroup, hasVersion bool
	Namespaces, Names    []string
	LabelSelectors       []string
}

// readRestoreFilter checks a PUT's restoreFilter (already valid against the schema) and
// answers its criteria and filters.
func readRestoreFilter(raw map[string]any) (string, []gvknFilter, *apiProblem) {
	criteria, _ := raw["resourceSelectionCriteria"].(string)
	items, _ := raw["GVKN"].([]any)
	if len(items) == 0 {
		return "", nil, invalidFields(9, fieldReason{"restoreFilter.GVKN", "a selective restore needs at least one GVKN filter"})
	}
	kinds := map[string]bool{}
	for _, x := range appAssets(&app{NamespaceScope: []nsScope{{Namespace: "n"}}}) {
		kinds[x.Group+"/"+x.Version+"/"+x.Kind] = true
	}
	var out []gvknFilter
	for i, item := range items {
		m, _ := item.(map[string]any)
		at := fmt.Sprintf("restoreFilter.GVKN[%d]", i)
		if len(m) == 0 {
			return "", nil, invalidFields(9, fieldReason{at, "an empty GVKN filter is a validation error: set group, version, kind, namespaces, names or labelSelectors"})
		}
		f := gvknFilter{Namespaces: anyStrings(m["namespaces"]), Names: anyStrings(m["names"]), LabelSelectors: anyStrings(m["labelSelectors"])}
		f.Group, f.hasGroup = m["group"].(string)
		f.Version, f.hasVersion = m["version"].(string)
		f.Kind, _ = m["kind"].(string)
		if f.Kind != "" && !knownKind(kinds, f) {
			return "", nil, invalidFields(9, fieldReason{at + ".kind", "no API resource " + f.Group + "/" + f.Version + " " + f.Kind + " is known"})
		}
		for j, sel := range f.LabelSelectors {
			if _, ok := parseSelector(sel); !ok {
				return "", nil, invalidFields(9, fieldReason{fmt.Sprintf("%s.labelSelectors[%d]", at, j), "not a label selector the simulator reads (key=value, key!=value, key, !key, comma separated)"})
			}
		}
		out = append(out, f)
	}
	return criteria, out, nil
}

func knownKind(kinds map[string]bool, f gvknFilter) bool {
	for k := range kinds {
		parts := strings.SplitN(k, "/", 3)
		if parts[2] == f.Kind && (!f.hasGroup || parts[0] == f.Group) && (!f.hasVersion || parts[1] == f.Version) {
			return true
		}
	}
	return false
}

func anyStrings(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// selectorTerm is one term of an equality-based label selector.
type selectorTerm struct {
	key, value string
	op         string // "=", "!=", "exists", "!exists"
}

// parseSelector reads the equality-based selector grammar (k=v, k==v, k!=v, k, !k);
// set-based terms (in, notin) are not modelled.
func parseSelector(sel string) ([]selectorTerm, bool) {
	var out []selectorTerm
	for _, term := range strings.Split(sel, ",") {
		term = strings.TrimSpace(term)
		switch {
		case term == "" || strings.ContainsAny(term, " ()"):
			return nil, false
		case strings.Contains(term, "!="):
			k, v, _ := strings.Cut(term, "!=")
			out = append(out, selectorTerm{k, v, "!="})
		case strings.Contains(term, "="):
			k, v, _ := strings.Cut(term, "=")
			out = append(out, selectorTerm{k, strings.TrimPrefix(v, "="), "="})
		case strings.HasPrefix(term, "!"):
			out = append(out, selectorTerm{key: term[1:], op: "!exists"})
		default:
			out = append(out, selectorTerm{key: term, op: "exists"})
		}
		if last := out[len(out)-1]; last.key == "" {
			return nil, false
		}
	}
	return out, true
}

func selectorMatches(sel string, labels []label) bool {
	terms, _ := parseSelector(sel)
	for _, t := range terms {
		v, has := "", false
		for _, l := range labels {
			if l.Name == t.key {
				v, has = l.Value, true
			}
		}
		ok := map[string]bool{"=": has && v == t.value, "!=": !has || v != t.value, "exists": has, "!exists": !has}[t.op]
		if !ok {
			return false
		}
	}
	return true
}

// matches: every field the filter sets matches the asset.
func (f gvknFilter) matches(x asset) bool {
	switch {
	case f.hasGroup && f.Group != x.Group, f.hasVersion && f.Version != x.Version, f.Kind != "" && f.Kind != x.Kind,
		len(f.Namespaces) > 0 && !containsString(f.Namespaces, x.Namespace), len(f.Names) > 0 && !containsString(f.Names, x.Name):
		return false
	}
	for _, sel := range f.LabelSelectors {
		if !selectorMatches(sel, x.Labels) {
			return false
		}
	}
	return true
}

// selectAssets is what a restore with this filter puts back: the assets matching a filter
// (include) or matching none (exclude).
func selectAssets(all []asset, criteria string, filters []gvknFilter) []string {
	var out []string
	for _, x := range filterAssets(all, criteria, filters) {
		out = append(out, x.String())
	}
	return out
}

// filterAssets is selectAssets' assets themselves (a clone renames their namespaces).
func filterAssets(all []asset, criteria string, filters []gvknFilter) []asset {
	var out []asset
	for _, x := range all {
		hit := false
		for _, f := range filters {
			hit = hit || f.matches(x)
		}
		if hit == (criteria == "include") {
			out = append(out, x)
		}
	}
	return out
}

// Restored is what the app's last in-place restore, or the clone that made it, put back
// ("Kind namespace/name", in the order of its modelled assets): every asset, or what a
// restoreFilter selected; nil before either. Tests check a selective restore's filter with it.
func (s *Sim) Restored(appID string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a := s.st.Apps[appID]; a != nil {
		return append([]string(nil), a.Restored...)
	}
	return nil
}
