package astrasim

import (
	"bytes"
	"crypto/md5"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"unicode/utf8"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// hookSource is a script execution hooks run (application/astra-hookSource, "scripts" in
// the web UI). Source is the base64 value as sent.
type hookSource struct {
	Seq         int    `json:"seq"`
	ID          string `json:"id"`
	Version     string `json:"version"`
	Name        string `json:"name"`
	SourceType  string `json:"sourceType"`
	Source      string `json:"source"`
	Description string `json:"description,omitempty"`
	Meta        meta   `json:"metadata"`
}

// maxSourceLength bounds the base64 source: "The maximum size of a source value is 128 KiB
// when encoded using base64" (every release's hookSource 1.0 schema; about 96 KiB of
// script, the limit Astra Control Center 22.11's documentation gives). The schema's
// maxLength sits beside a $ref, which JSON Schema ignores, so it is checked here.
const maxSourceLength = 128 << 10

// sourceProblem says why a base64 source is refused, or "". Besides the size, the schema's
// prose: "The plaintext source must not contain binary data or carriage-return characters".
// Binary data is taken to be a NUL byte or bytes that are not UTF-8 (the simulator's reading).
func sourceProblem(source string) string {
	if len(source) > maxSourceLength {
		return "the source must be at most 131072 base64 characters (128 KiB encoded)"
	}
	script, err := base64.StdEncoding.DecodeString(source)
	switch {
	case err != nil:
		return "the source must be base64-encoded"
	case bytes.IndexByte(script, 0) >= 0 || !utf8.Valid(script):
		return "the script must not contain binary data"
	case bytes.IndexByte(script, '\r') >= 0:
		return "the script must not contain carriage returns"
	}
	return ""
}

// sourceChecksum is sourceMD5Checksum: the hex MD5 of the source value as sent, base64 and
// all. The schema: "the MD5 checksum computed for the value of the 'source' key"; NetApp's
// toolkit documentation shows a real answer whose checksum is that of the base64 text
// (8ad9d02befca7ef9a0fd51f7ec4aebe7 for IyEvYmluL2Jhc2gKZWNobyAidGhpcyBpcyBqdXN0IGFuIGV4YW1wbGUi),
// not of the decoded script.
func sourceChecksum(source string) string {
	sum := md5.Sum([]byte(source))
	return hex.EncodeToString(sum[:])
}

func (s *Sim) hookSourcePath(h *hookSource) string {
	return s.accountPath() + "/core/v1/hookSources/" + h.ID
}

// renderHookSource answers the source: none is private or preloaded (the simulator seeds
// no NetApp-provided scripts), so the script itself is shown.
func (s *Sim) renderHookSource(h *hookSource) map[string]any {
	m := map[string]any{
		"type": "application/astra-hookSource", "version": h.Version, "id": h.ID, "name": h.Name,
		"private": "false", "preloaded": "false", "sourceType": h.SourceType, "source": h.Source,
		"sourceMD5Checksum": sourceChecksum(h.Source), "metadata": renderMeta(h.Meta),
	}
	putIf(m, "description", h.Description)
	return fitToSchema(s.responseSchema(apispec.HookSource, h.Version), m)
}

func (st *state) sortedHookSources() []*hookSource {
	out := make([]*hookSource, 0, len(st.HookSources))
	for _, h := range st.HookSources {
		out = append(out, h)
	}
	sortBySeq(out, func(h *hookSource) int { return h.Seq })
	return out
}

func (s *Sim) listHookSources(q *request) *reply {
	var items []map[string]any
	for _, h := range s.st.sortedHookSources() {
		items = append(items, s.renderHookSource(h))
	}
	return s.list(q, apispec.HookSource, items)
}

func (s *Sim) lookupHookSource(q *request) (*hookSource, *apiProblem) {
	h := s.st.HookSources[q.params["hookSource_id"]]
	if h == nil {
		return nil, notFound(q)
	}
	return h, nil
}

func (s *Sim) getHookSource(q *request) *reply {
	h, p := s.lookupHookSource(q)
	if p != nil {
		return fail(p)
	}
	return answer(http.StatusOK, apispec.HookSource, apispec.GetResponse, h.Version, s.renderHookSource(h))
}

// hookSourceNameTaken refuses a name another hook source has. The schema says names are
// unique; NetApp's toolkit documentation says a duplicate is answered 400, so it is
// problem 9 naming name (not 409 problem 10).
func (s *Sim) hookSourceNameTaken(name, self string) *apiProblem {
	for _, other := range s.st.HookSources {
		if other.Name == name && other.ID != self {
			return invalidFields(9, fieldReason{"name", "a hook source named " + name + " already exists"})
		}
	}
	return nil
}

func (s *Sim) postHookSource(q *request) *reply {
	b, p := s.readBody(q, apispec.HookSource, apispec.PostRequest)
	if p != nil {
		return fail(p)
	}
	name, _ := b.str("name")
	if p := s.hookSourceNameTaken(name, ""); p != nil {
		return fail(p)
	}
	source, _ := b.str("source")
	if reason := sourceProblem(source); reason != "" {
		return fail(invalidFields(9, fieldReason{"source", reason}))
	}
	sourceType, _ := b.str("sourceType")
	description, _ := b.str("description")
	h := &hookSource{Seq: s.st.nextSeq(), Version: b.version, Name: name, SourceType: sourceType, Source: source,
		Description: description, Meta: meta{Labels: []label{}, Created: q.now, Modified: q.now, CreatedBy: q.user.userID}}
	h.ID = derivedUUID4(s.opts.Seed, "object/"+itoa(h.Seq))
	if labels, ok := labelsOf(b); ok {
		h.Meta.Labels = mergeLabels(nil, labels)
	}
	s.st.HookSources[h.ID] = h
	return created(q, s.hookSourcePath(h), apispec.HookSource, h.Version, s.renderHookSource(h))
}

// putHookSource replaces a hook source with the body (replaceOnPut says how): what a
// source cannot do without (its name, type and script) is kept when left out; a
// description or labels left out go. private, preloaded and sourceMD5Checksum are the
// service's: ignored, as a GET body sent back carries them (the PUT schema lists them).
func (s *Sim) putHookSource(q *request) *reply {
	h, p := s.lookupHookSource(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderHookSource(h)); p != nil {
		return fail(p)
	}
	b, p := s.readBody(q, apispec.HookSource, apispec.PutRequest)
	if p != nil {
		return fail(p)
	}
	if id, ok := b.str("id"); ok && id != h.ID {
		return fail(invalidFields(10, fieldReason{"id", "the id differs from the hook source's"}))
	}
	next := hookSource{Seq: h.Seq, ID: h.ID, Version: b.version, Name: h.Name, SourceType: h.SourceType, Source: h.Source, Meta: h.Meta}
	if name, ok := b.str("name"); ok {
		if p := s.hookSourceNameTaken(name, h.ID); p != nil {
			return fail(p)
		}
		next.Name = name
	}
	if source, ok := b.str("source"); ok {
		if reason := sourceProblem(source); reason != "" {
			return fail(invalidFields(9, fieldReason{"source", reason}))
		}
		next.Source = source
	}
	next.Description, _ = b.str("description")
	labels, _ := labelsOf(b)
	next.Meta.Labels = mergeLabels(next.Meta.Labels, labels)
	touch(&next.Meta, q)
	*h = next
	return s.updated(q, apispec.HookSource, h.Version, s.renderHookSource(h))
}

// deleteHookSource refuses a source an execution hook runs: 403 problem 72, the problem
// the spec lists for this operation (the web UI's Delete is unavailable then).
func (s *Sim) deleteHookSource(q *request) *reply {
	h, p := s.lookupHookSource(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderHookSource(h)); p != nil {
		return fail(p)
	}
	for _, hook := range s.st.Hooks {
		if hook.HookSourceID == h.ID {
			return fail(problem(72))
		}
	}
	delete(s.st.HookSources, h.ID)
	return noContent()
}
