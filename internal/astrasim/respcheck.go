package astrasim

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
	"github.com/getkin/kin-openapi/openapi3"
)

// checkResponse validates a response body against the release's published schemas:
// resources against the schema of the version they carry, lists item by item, problems
// against the operation's documented problems. It is the test-time proof that the
// simulator answers what the spec describes (Options.OnResponseViolation).
func (s *Sim) checkResponse(method, route string, status int, rep *reply, data []byte) error {
	if len(data) == 0 || isOffSpec(route) || route == unmatchedRoute {
		return nil
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("the body is not JSON: %w", err)
	}
	if rep.problem != nil {
		return s.checkProblem(method, route, status, v)
	}
	switch rep.kind {
	case kindList:
		return s.checkList(rep.resource, v)
	case kindEcho:
		return nil // the request echoed back: what a client must not trust
	}
	return s.checkResource(rep.resource, rep.version, rep.kind, v)
}

func (s *Sim) checkResource(resource, version, kind string, v any) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("%s body is not an object", resource)
	}
	if got, _ := m["version"].(string); got != version {
		return fmt.Errorf("%s body has version %q, want %q", resource, got, version)
	}
	sc, ok := s.schemaFor(resource, version, kind)
	if !ok {
		return fmt.Errorf("no published %s schema for version %s", resource, version)
	}
	if s.opts.Lenient {
		m = withoutUnknown(resource, m) // a newer server's members are not this release's to check
	}
	if resource == apispec.App {
		m = withEmptySelectors(m)
	}
	if s.opts.InFlightReady && (resource == apispec.AppSnap || resource == apispec.AppBackup) && m["state"] == inFlightReadyState {
		// A deviation reproduced on purpose (Options.InFlightReady): checked as "running".
		m = copyMap(m)
		m["state"] = "running"
	}
	if resource == apispec.Cloud {
		// A deviation reproduced on purpose: the service answers "GCP", "Azure",
		// "AWS" where the published enum is lowercase.
		m = copyMap(m)
		if ct, ok := m["cloudType"].(string); ok {
			m["cloudType"] = strings.ToLower(ct)
		}
	}
	if err := apispec.ValidateValue(sc, m); err != nil {
		return fmt.Errorf("%s %s %s: %s", resource, version, kind, formatSchemaErrors(err))
	}
	return nil
}

// withEmptySelectors puts back the empty labelSelectors the service leaves out of an app's
// namespaceScopedResources (NetApp's toolkit docs show it), a deviation reproduced on
// purpose: the published schema requires the member.
func withEmptySelectors(m map[string]any) map[string]any {
	scopes, ok := m["namespaceScopedResources"].([]any)
	if !ok {
		return m
	}
	out, filled := copyMap(m), make([]any, len(scopes))
	for i, item := range scopes {
		entry, ok := item.(map[string]any)
		if ok {
			if _, has := entry["labelSelectors"]; !has {
				entry = copyMap(entry)
				entry["labelSelectors"] = []any{}
			}
		}
		filled[i] = entry
	}
	out["namespaceScopedResources"] = filled
	return out
}

func (s *Sim) checkList(resource string, v any) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("%s list is not an object", resource)
	}
	items, ok := m["items"].([]any)
	if !ok {
		return fmt.Errorf("%s list has no items array", resource)
	}
	doc, _ := apispec.Load(s.opts.Release)
	metaSchema := doc.Components.Schemas["type_astra_metadata_list"]
	if _, ok := m["metadata"]; !ok || metaSchema == nil {
		return fmt.Errorf("%s list has no metadata", resource)
	}
	if err := apispec.ValidateValue(metaSchema.Value, m["metadata"]); err != nil {
		return fmt.Errorf("%s list metadata: %s", resource, formatSchemaErrors(err))
	}
	for i, item := range items {
		if _, projected := item.([]any); projected {
			continue // include= answers arrays, which the list schema allows
		}
		obj, _ := item.(map[string]any)
		version, _ := obj["version"].(string)
		if err := s.checkResource(resource, version, apispec.GetResponse, item); err != nil {
			return fmt.Errorf("item %d: %w", i, err)
		}
	}
	return nil
}

// checkProblem validates a problem against the operation's documented problems when the
// operation lists it, else against the problem's component schema where a published
// document defines it, else against the catalogue (problems the trimmed documents lack).
func (s *Sim) checkProblem(method, route string, status int, v any) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("problem body is not an object")
	}
	if st, _ := m["status"].(string); st != strconv.Itoa(status) {
		return fmt.Errorf("problem status %q does not match HTTP status %d", m["status"], status)
	}
	typ, _ := m["type"].(string)
	n := problemNumber(typ)
	name := "astra_problem_detail_" + strconv.Itoa(n)
	m = withDocumentedDetail(n, m)
	doc, _ := apispec.Load(s.opts.Release)
	if item := doc.Paths.Find(accountPrefix + route); item != nil {
		if op := item.GetOperation(method); op != nil {
			if resp := op.Responses.Status(status); resp != nil && resp.Value != nil {
				if mt := resp.Value.Content.Get("application/problem+json"); mt != nil && mt.Schema != nil && lists(mt.Schema, name) {
					if err := apispec.ValidateValue(mt.Schema.Value, m); err != nil {
						return fmt.Errorf("problem %d: %s", n, formatSchemaErrors(err))
					}
					return nil
				}
			}
		}
	}
	for i := len(apispec.Releases) - 1; i >= 0; i-- {
		d, err := apispec.Load(apispec.Releases[i])
		if err != nil {
			continue
		}
		if ref := d.Components.Schemas[name]; ref != nil && ref.Value != nil {
			if err := apispec.ValidateValue(ref.Value, m); err != nil {
				return fmt.Errorf("problem %d: %s", n, formatSchemaErrors(err))
			}
			return nil
		}
	}
	return checkProblemShape(n, status, m)
}

func lists(ref *openapi3.SchemaRef, name string) bool {
	if ref.Value == nil {
		return false
	}
	for _, alt := range ref.Value.AnyOf {
		if strings.HasSuffix(alt.Ref, "/"+name) {
			return true
		}
	}
	return false
}

// checkProblemShape checks a problem no published document defines: the catalogue's
// status and title, the members every problem has, a UUID correlationID.
func checkProblemShape(n, status int, m map[string]any) error {
	for _, k := range []string{"type", "title", "detail", "status"} {
		if s, _ := m[k].(string); s == "" {
			return fmt.Errorf("problem %d lacks %s", n, k)
		}
	}
	if id, ok := m["correlationID"].(string); ok && !isIdentifier(id) {
		return fmt.Errorf("problem %d: correlationID %q is not an Astra identifier", n, id)
	}
	if n == 0 {
		if m["type"] != "about:blank" {
			return fmt.Errorf("problem type %q is neither an Astra problem nor about:blank", m["type"])
		}
		return nil
	}
	def, ok := catalogue[n]
	if !ok {
		return fmt.Errorf("problem %d is not in the catalogue", n)
	}
	if def.status != status || m["title"] != def.title {
		return fmt.Errorf("problem %d: status %d title %q, catalogue says %d %q", n, status, m["title"], def.status, def.title)
	}
	return nil
}

// deliberateDetails are problems whose detail the simulator words on purpose otherwise
// than the documents' enum: 14, as the real gateway answers a wrong account (naming
// x-pcloud-accountid, which actoolkit keys on; auth.go), and 35, naming the malformed
// path parameter. They are checked with the documented detail in its place.
var deliberateDetails = map[int]string{
	14: "The user isn't enabled.",
	35: "The resource ID isn't in the appropriate format.",
}

func withDocumentedDetail(n int, m map[string]any) map[string]any {
	d, ok := deliberateDetails[n]
	if !ok {
		return m
	}
	m = copyMap(m)
	m["detail"] = d
	if _, has := m["description"]; has {
		m["description"] = d
	}
	return m
}
