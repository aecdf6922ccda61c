package astrasim

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
	"github.com/getkin/kin-openapi/openapi3"
)

// maxBody bounds a request body (problem 85 beyond it).
const maxBody = 1 << 20

// body is a request body that passed schema validation.
type body struct {
	fields  map[string]any // what the client sent, undocumented fields included in lenient mode
	version string
	extras  []string // fields accepted only because the simulator is lenient
	unknown members  // lenient: members no published release of the resource has
}

func (b *body) str(key string) (string, bool) {
	v, ok := b.fields[key].(string)
	return v, ok
}

func (b *body) strings(key string) ([]string, bool) {
	raw, ok := b.fields[key].([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(raw))
	for _, v := range raw {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out, true
}

// undocumentedFields are the request fields real clients send although no schema lists
// them (research §11); lenient mode accepts them.
var undocumentedFields = map[string][]string{
	apispec.Cluster: {"connectorInstall", "cloudID", "apiServiceID", "connectorNamespace", "astraControlURL",
		"hostAliasIP", "apiTokenRef", "lastHeartbeat", "heartbeatState", "defaultBucketID", "clusterVersion",
		"clusterVersionString"},
	apispec.ManagedCluster: {"connectorInstall", "connectorCapabilities", "privateRouteID", "apiServiceID",
		"connectorNamespace", "astraControlURL", "apiTokenRef", "hostAliasIP", "clusterType", "clusterVersion",
		"clusterVersionString", "lastHeartbeat", "heartbeatState", "defaultBucketID"},
}

// readBody decodes and validates a POST or PUT body against the published schema of the
// body's version: invalid JSON is problem 7, a schema violation problem 8.
func (s *Sim) readBody(q *request, resource, kind string) (*body, *apiProblem) {
	if ct := q.r.Header.Get("Content-Type"); ct != "" && !s.opts.Lenient && !strings.Contains(strings.ToLower(ct), "json") {
		return nil, invalidParams(12, fieldReason{Name: "Content-Type", Reason: "the request body must be JSON (application/json or application/astra-" + resource + "+json)"})
	}
	raw, err := io.ReadAll(io.LimitReader(q.r.Body, maxBody+1))
	if err != nil {
		return nil, problem(7)
	}
	if len(raw) > maxBody {
		return nil, problem(85)
	}
	var decoded any
	if err := json.Unmarshal(raw, &decoded); err != nil {
		return nil, problem(7)
	}
	fields, ok := decoded.(map[string]any)
	if !ok {
		p := problem(8)
		p.SchemaValidationFailure = "/: the request body must be a JSON object"
		return nil, p
	}
	version, _ := fields["version"].(string)
	b := &body{fields: fields, version: version}
	q.fields = fields

	schema, found := s.schemaFor(resource, version, kind)
	if !found {
		schema = s.newestSchema(resource, kind)
	}
	candidate := copyMap(fields)
	if resource == apispec.Schedule {
		// The "*" actoolkit sends for the time fields a granularity does not use is outside
		// the published patterns, yet the service takes it, and the JSON null its copy
		// command sends too (NetApp's toolkit docs): checked by applyScheduleBody.
		for _, f := range scheduleFields {
			if v, sent := candidate[f.name]; sent && (v == "*" || v == nil) {
				delete(candidate, f.name)
			}
		}
	}
	if v, sent := fields["arguments"]; sent && v == nil && resource == apispec.ExecutionHook {
		// actoolkit's "create hook" sends "arguments": null for a hook without arguments
		// (astraSDK's createHook), outside the published schema; NetApp's own client works, so
		// the service takes it: no arguments.
		delete(fields, "arguments")
		delete(candidate, "arguments")
	}
	if s.opts.Lenient {
		b.unknown = takeUnknown(resource, candidate, raw)
		b.extras = s.stripLenient(resource, kind, schema, candidate)
		if resource == apispec.Cloud {
			if ct, ok := candidate["cloudType"].(string); ok {
				candidate["cloudType"] = strings.ToLower(ct) // clients send "GCP" as the service answers it
			}
		}
	}
	verr := apispec.ValidateValue(schema, candidate)
	if verr != nil && s.opts.Lenient && found {
		// A body may carry fields of a newer version than it names (ACO sent 1.4 bodies with
		// 1.5 fields): accept it when the release's own schema is satisfied.
		if newest := s.newestSchema(resource, kind); newest != schema && apispec.ValidateValue(newest, withVersion(candidate, s.newest[resource])) == nil {
			verr = nil
		}
	}
	if verr != nil {
		p := problem(8)
		p.SchemaValidationFailure = formatSchemaErrors(verr)
		return nil, p
	}
	return b, nil
}

// stripLenient removes from candidate the fields the schema lacks but lenient mode
// accepts: the documented-as-sent undocumented fields and any field a newer published
// version of the resource has. It returns their names.
func (s *Sim) stripLenient(resource, kind string, schema *openapi3.Schema, candidate map[string]any) []string {
	allowed := map[string]bool{}
	for _, f := range undocumentedFields[resource] {
		allowed[f] = true
	}
	last := apispec.Releases[len(apispec.Releases)-1]
	if v, err := apispec.NewestVersion(last, resource); err == nil {
		if newest, ok := lookupSchema(last, resource, v, kind); ok {
			for name := range newest.Properties {
				allowed[name] = true
			}
		}
	}
	var stripped []string
	for name := range candidate {
		if _, known := schema.Properties[name]; known || !allowed[name] {
			continue
		}
		delete(candidate, name)
		stripped = append(stripped, name)
	}
	return stripped
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func withVersion(m map[string]any, version string) map[string]any {
	out := copyMap(m)
	out["version"] = version
	return out
}

// notFound is the 404 the spec lists for the method: problem 1 on PUT and DELETE of an
// item, problem 2 ("Collection not found") everywhere else.
func notFound(q *request) *apiProblem {
	if q.r.Method == http.MethodPut || q.r.Method == http.MethodDelete {
		return problem(1)
	}
	return problem(2)
}

// replaceOnPut: what the simulator's PUTs of apps and schedules do with a member left out.
// The published operation says a PUT "replaces the entire stored resource", and NetApp's
// own examples of it send partial bodies (an app PUT of a name alone, a schedule PUT without
// its name). So a member the object cannot do without (an app's cluster and namespaces, a
// schedule's name and granularity) is kept when left out; every other member left out is
// gone, not merged (labels, a schedule's bucketID, an app's cluster-scoped resources): a
// client that sends a partial body loses what it left out, and the tests see it.

// labelsOf reads metadata.labels from a body; present is false when the body has none.
func labelsOf(b *body) (labels []label, present bool) {
	m, ok := b.fields["metadata"].(map[string]any)
	if !ok {
		return nil, false
	}
	raw, ok := m["labels"].([]any)
	if !ok {
		return nil, false
	}
	labels = []label{}
	for _, item := range raw {
		lm, _ := item.(map[string]any)
		name, _ := lm["name"].(string)
		value, _ := lm["value"].(string)
		labels = append(labels, label{Name: name, Value: value})
	}
	return labels, true
}

// mergeLabels is what a PUT's labels become: the read-only labels the service keeps, plus
// the client's own labels (read-only ones a client sends are ignored).
func mergeLabels(stored, incoming []label) []label {
	out := []label{}
	for _, l := range stored {
		if strings.HasPrefix(l.Name, readOnlyPrefix) {
			out = append(out, l)
		}
	}
	for _, l := range incoming {
		if !strings.HasPrefix(l.Name, readOnlyPrefix) {
			out = append(out, l)
		}
	}
	return out
}

// checkName applies the extended validation the spec promises for names: no markup, SQL
// metacharacters, path traversal or non-ASCII. It returns the reason, or "".
func checkName(name string) string {
	for _, r := range name {
		if r < 0x20 || r > 0x7e {
			return "the name must contain printable ASCII characters only"
		}
	}
	switch {
	case strings.ContainsAny(name, "<>\"'`;\\&"):
		return "the name must not contain markup or SQL metacharacters (< > \" ' ` ; \\ &)"
	case strings.Contains(name, ".."):
		return "the name must not contain a path traversal (..)"
	case strings.Contains(name, "--") || strings.Contains(name, "/*") || strings.Contains(name, "*/"):
		return "the name must not contain SQL comment markers (--, /*, */)"
	}
	return ""
}
