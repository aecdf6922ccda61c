package tridentprotect

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The mapping's documentation names the release it follows and every spec field the
// renderer can emit, so that a field added to the renderer cannot go undocumented.
func TestMappingDocCoversRenderedFields(t *testing.T) {
	doc := MappingMarkdown
	for _, s := range []string{DocsRelease, DocsCommit, DocsCommitDate, APIVersion, DefaultProtectNamespace} {
		if !strings.Contains(doc, s) {
			t.Errorf("mapping.md does not mention %q", s)
		}
	}
	// A rendering that emits every optional field there is.
	e := sampleEstate()
	e.Buckets[2].S3.ServerURL = "http://10.0.0.5:9000"
	e.Apps[0].Hooks[0].Disabled = true
	r := mustRender(t, e, Options{DataMoverPasswordSecret: "pw"})
	paths := map[string]bool{}
	for _, m := range r.Manifests {
		collectPaths("spec", specOf(m), paths)
	}
	var missing []string
	for p := range paths {
		if !strings.Contains(doc, "`"+p+"`") {
			missing = append(missing, p)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("mapping.md does not document %v", missing)
	}
	if len(paths) < 25 {
		t.Errorf("only %d paths collected: the walk is broken", len(paths))
	}
	// Every Astra provider and Trident protect provider type, granularity, stage and action.
	var words []string
	for astra, p := range vaultProviders {
		words = append(words, "`"+astra+"`", "`"+p.providerType+"`")
		for _, k := range p.secretKeys {
			words = append(words, "`"+k+"`")
		}
	}
	for astra, tp := range granularities {
		words = append(words, "`"+astra+"` → `"+tp+"`")
	}
	for astra, tp := range hookStages {
		words = append(words, "`"+astra+"` → `"+tp+"`")
	}
	for astra, tp := range hookActions {
		words = append(words, "`"+astra+"` → `"+tp+"`")
	}
	for _, tp := range criterionTypes {
		words = append(words, "`"+tp+"`")
	}
	for _, w := range words {
		if !strings.Contains(doc, w) {
			t.Errorf("mapping.md does not mention %s", w)
		}
	}
}

// collectPaths adds the documented path of every field under v: list items as [], a
// list of strings as the list; selectors, group/version/kinds and credentials as a whole
// (the doc gives their members in their own tables and notes).
func collectPaths(path string, v any, out map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p := path + "." + k
			if k == "labelSelector" || k == "groupVersionKind" || k == "providerCredentials" {
				out[p] = true
				continue
			}
			collectPaths(p, e, out)
		}
	case []any:
		for _, e := range x {
			if _, scalar := e.(string); scalar {
				out[path] = true
				continue
			}
			collectPaths(path+"[]", e, out)
		}
	default:
		out[path] = true
	}
}

// Once the data source's template holds the mapping, it holds it as it is here.
func TestMappingDocInTemplate(t *testing.T) {
	path := filepath.Join("..", "..", "templates", "data-sources", "trident_protect_manifests.md.tmpl")
	tmpl, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		t.Skipf("%s does not exist yet", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(tmpl), strings.TrimSpace(MappingMarkdown)) && !strings.Contains(string(tmpl), "{{ .Description") {
		t.Errorf("%s neither holds mapping.md as it is nor renders the description that carries it", path)
	}
}
