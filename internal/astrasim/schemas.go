package astrasim

import (
	"errors"
	"strings"
	"sync"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
	"github.com/getkin/kin-openapi/openapi3"
)

var schemaCache sync.Map // "release/resource/version/kind" -> *openapi3.Schema (nil: none)

// schemaFor finds the published schema that describes resource at version and kind for
// the simulator's release: the schema of that version (in this or an older release), or,
// for a version never published on its own (cluster 1.0-1.2, managedCluster 1.4-1.6…),
// the oldest published schema whose version enum lists it.
func (s *Sim) schemaFor(resource, version, kind string) (*openapi3.Schema, bool) {
	return lookupSchema(s.opts.Release, resource, version, kind)
}

func lookupSchema(release, resource, version, kind string) (*openapi3.Schema, bool) {
	key := release + "/" + resource + "/" + version + "/" + kind
	if v, ok := schemaCache.Load(key); ok {
		sc, _ := v.(*openapi3.Schema)
		return sc, sc != nil
	}
	sc, ok := findSchema(release, resource, version, kind)
	schemaCache.Store(key, sc)
	return sc, ok
}

func findSchema(release, resource, version, kind string) (*openapi3.Schema, bool) {
	if version == "" {
		return nil, false
	}
	if sc, _, ok := apispec.Schema(release, resource, version, kind); ok {
		return sc, true
	}
	for _, r := range apispec.Releases {
		if apispec.CompareReleases(r, release) > 0 {
			break
		}
		newest, err := apispec.NewestVersion(r, resource)
		if err != nil {
			continue
		}
		sc, _, ok := apispec.Schema(r, resource, newest, kind)
		if ok && enumHas(sc.Properties["version"], version) {
			return sc, true
		}
	}
	return nil, false
}

// newestSchema is the release's own schema of a resource and kind.
func (s *Sim) newestSchema(resource, kind string) *openapi3.Schema {
	sc, _ := s.schemaFor(resource, s.newest[resource], kind)
	return sc
}

// enumHas reports whether a property's enum (or its items' enum) lists value.
func enumHas(ref *openapi3.SchemaRef, value string) bool {
	if ref == nil || ref.Value == nil {
		return false
	}
	enum := ref.Value.Enum
	if len(enum) == 0 && ref.Value.Items != nil && ref.Value.Items.Value != nil {
		enum = ref.Value.Items.Value.Enum
	}
	for _, e := range enum {
		if e == value {
			return true
		}
	}
	return false
}

// fitToSchema keeps only the properties the schema has, so a resource answers with the
// field set of the version it is rendered at.
func fitToSchema(sc *openapi3.Schema, m map[string]any) map[string]any {
	if sc == nil {
		return m
	}
	for k := range m {
		if _, ok := sc.Properties[k]; !ok {
			delete(m, k)
		}
	}
	return m
}

// formatSchemaErrors turns kin-openapi errors into the one-line-per-violation text
// of schemaValidationFailure, without echoing values (they may be secrets).
func formatSchemaErrors(err error) string {
	var lines []string
	var walk func(error)
	walk = func(e error) {
		var multi openapi3.MultiError
		var schemaErr *openapi3.SchemaError
		switch {
		case errors.As(e, &multi):
			for _, inner := range multi {
				walk(inner)
			}
		case errors.As(e, &schemaErr):
			path := "/" + strings.Join(schemaErr.JSONPointer(), "/")
			lines = append(lines, path+": "+schemaErr.Reason)
		default:
			lines = append(lines, e.Error())
		}
	}
	walk(err)
	return strings.Join(dedupe(lines), "; ")
}

func dedupe(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
