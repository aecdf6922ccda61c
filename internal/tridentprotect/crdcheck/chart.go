package crdcheck

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"sigs.k8s.io/yaml"
)

// chartCRDs checks objects against the CRD files of a Trident protect chart (read at test
// time from a directory, never kept in the repository): their openAPIV3Schema with
// kin-openapi, unknown fields refused (the API server prunes them), and their CEL rules by
// the Go twins in celRules.
type chartCRDs struct {
	dir   string
	kinds map[string]crdKind
}

type crdKind struct {
	schema *openapi3.Schema
	raw    map[string]any // the same schema, walked for the CEL rules
}

// CRDFilePattern is how the chart names its CRD files, in templates/crd.
const CRDFilePattern = "protect.trident.netapp.io_*.yaml"

// loadChartCRDs reads the v1 schemas of the kinds the renderer emits from dir.
func loadChartCRDs(dir string) (*chartCRDs, error) {
	files, err := filepath.Glob(filepath.Join(dir, CRDFilePattern))
	if err != nil {
		return nil, err
	}
	out := &chartCRDs{dir: dir, kinds: map[string]crdKind{}}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		var crd struct {
			Spec struct {
				Names    struct{ Kind string }
				Versions []struct {
					Name   string
					Schema struct {
						OpenAPIV3Schema json.RawMessage `json:"openAPIV3Schema"`
					}
				}
			}
		}
		if err := yaml.Unmarshal(b, &crd); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		kind := crd.Spec.Names.Kind
		if _, ours := table[kind]; !ours {
			continue
		}
		for _, v := range crd.Spec.Versions {
			if v.Name != "v1" {
				continue
			}
			if out.kinds[kind], err = readSchema(v.Schema.OpenAPIV3Schema); err != nil {
				return nil, fmt.Errorf("%s: %w", file, err)
			}
		}
	}
	for _, kind := range Kinds() {
		if _, ok := out.kinds[kind]; !ok {
			return nil, fmt.Errorf("no %s file with the v1 schema of %s", CRDFilePattern, kind)
		}
	}
	return out, nil
}

func readSchema(raw []byte) (crdKind, error) {
	s := openapi3.NewSchema()
	if err := json.Unmarshal(raw, s); err != nil {
		return crdKind{}, err
	}
	if err := s.Validate(context.Background(), openapi3.EnableSchemaPatternValidation()); err != nil {
		return crdKind{}, err
	}
	closeObjects(s, map[*openapi3.Schema]bool{})
	var generic map[string]any
	if err := json.Unmarshal(raw, &generic); err != nil {
		return crdKind{}, err
	}
	return crdKind{schema: s, raw: generic}, nil
}

// closeObjects refuses unknown fields wherever the schema lists the fields (pruning).
func closeObjects(s *openapi3.Schema, seen map[*openapi3.Schema]bool) {
	if s == nil || seen[s] {
		return
	}
	seen[s] = true
	if len(s.Properties) > 0 && s.AdditionalProperties.Has == nil && s.AdditionalProperties.Schema == nil &&
		s.Extensions["x-kubernetes-preserve-unknown-fields"] != true {
		no := false
		s.AdditionalProperties.Has = &no
	}
	for _, p := range s.Properties {
		closeObjects(p.Value, seen)
	}
	if s.Items != nil {
		closeObjects(s.Items.Value, seen)
	}
	if s.AdditionalProperties.Schema != nil {
		closeObjects(s.AdditionalProperties.Schema.Value, seen)
	}
}

func (c *chartCRDs) refusals(kind string, obj map[string]any) []string {
	k, ok := c.kinds[kind]
	if !ok {
		return []string{fmt.Sprintf("kind %q has no CRD in %s", kind, c.dir)}
	}
	var errs []string
	if err := k.schema.VisitJSON(obj, openapi3.MultiErrors()); err != nil {
		errs = append(errs, schemaErrors(err)...)
	}
	walkCEL(k.raw, obj, nil, false, "", &errs)
	return errs
}

func (c *chartCRDs) updateRefusals(kind string, old, cur map[string]any) []string {
	var errs []string
	if k, ok := c.kinds[kind]; ok {
		walkCEL(k.raw, cur, old, true, "", &errs)
	}
	return errs
}

func schemaErrors(err error) []string {
	var out []string
	var me openapi3.MultiError
	if errors.As(err, &me) {
		for _, e := range me {
			out = append(out, schemaErrors(e)...)
		}
		return out
	}
	var se *openapi3.SchemaError
	if errors.As(err, &se) {
		return []string{strings.Join(se.JSONPointer(), ".") + ": " + se.Reason}
	}
	return []string{err.Error()}
}

// celRule is the Go twin of one CEL rule. transition: the rule reads oldSelf, so the API
// server evaluates it only on an update, when the old object has the field too.
type celRule struct {
	transition bool
	holds      func(self, oldSelf any) bool
}

func has(v any, field string) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	_, ok = m[field]
	return ok
}

// celRules: the CEL rules of chart 100.2605.0's four CRDs, keyed by their text (which is
// how a CRD names them). A rule without a twin is a refusal, so a new one is noticed.
var celRules = map[string]celRule{
	"self == oldSelf": {transition: true, holds: func(self, old any) bool { return reflect.DeepEqual(self, old) }},
	"oldSelf == '' || self == oldSelf": {transition: true, holds: func(self, old any) bool {
		return old == "" || reflect.DeepEqual(self, old)
	}},
	"has(self.includedClusterScopedResources) == has(oldSelf.includedClusterScopedResources)": {transition: true, holds: func(self, old any) bool {
		return has(self, "includedClusterScopedResources") == has(old, "includedClusterScopedResources")
	}},
	"has(self.includedVirtualMachines) != has(self.includedNamespaces)": {holds: func(self, _ any) bool {
		return has(self, "includedVirtualMachines") != has(self, "includedNamespaces")
	}},
}

// walkCEL evaluates the rules of schema s on value v (and old, on an update) and below.
func walkCEL(s map[string]any, v, old any, update bool, path string, errs *[]string) {
	if s == nil || v == nil {
		return
	}
	rules, _ := s["x-kubernetes-validations"].([]any)
	for _, r := range rules {
		m, _ := r.(map[string]any)
		rule, _ := m["rule"].(string)
		twin, known := celRules[rule]
		switch {
		case !known:
			*errs = append(*errs, fmt.Sprintf("%s: CEL rule %q has no Go twin in celRules", path, rule))
		case twin.transition && update && old != nil && !twin.holds(v, old):
			*errs = append(*errs, fmt.Sprintf("%s: an update breaks %q (%v)", path, rule, m["message"]))
		case !twin.transition && !twin.holds(v, nil):
			*errs = append(*errs, fmt.Sprintf("%s: %q fails (%v)", path, rule, m["message"]))
		}
	}
	switch x := v.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		oldMap, _ := old.(map[string]any)
		for _, f := range sortedKeys(x) {
			if ps, ok := props[f].(map[string]any); ok {
				walkCEL(ps, x[f], oldMap[f], update, path+"."+f, errs)
			}
		}
	case []any:
		// Rules on list items would need the list-type's notion of the old item; none of
		// these CRDs has one, which the rule-twin check above would report.
		if items, ok := s["items"].(map[string]any); ok {
			for i, e := range x {
				walkCEL(items, e, nil, false, fmt.Sprintf("%s[%d]", path, i), errs)
			}
		}
	}
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
