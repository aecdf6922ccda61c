package astrasim

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// kindList marks a list body for the response check (the apispec kinds name the rest);
// kindEcho a PutEcho answer, which no published schema describes.
const (
	kindList = "list"
	kindEcho = "echo"
)

// reply is what a handler answers: a problem, or a status with an optional JSON body and
// what that body is (resource, schema kind, version) so it can be checked.
type reply struct {
	status   int
	body     any
	problem  *apiProblem
	header   http.Header
	resource string
	kind     string
	version  string
}

func fail(p *apiProblem) *reply { return &reply{problem: p, header: http.Header{}} }

func answer(status int, resource, kind, version string, body any) *reply {
	return &reply{status: status, body: body, header: http.Header{}, resource: resource, kind: kind, version: version}
}

func noContent() *reply { return &reply{status: http.StatusNoContent, header: http.Header{}} }

// write sends a reply: problems as application/problem+json with a correlationID,
// resources with an ETag (hex MD5 of the body, as the service computes it).
func (s *Sim) write(w http.ResponseWriter, r *http.Request, routeName string, rep *reply) {
	h := w.Header()
	for k, v := range rep.header {
		h[k] = v
	}
	status := rep.status
	var data []byte
	switch {
	case rep.problem != nil:
		p := rep.problem
		if p.CorrelationID == "" {
			p.CorrelationID = s.nextCorrelationID()
		}
		if s.problemDescription {
			p.Description = p.Detail
		}
		data, _ = json.Marshal(p)
		status = p.StatusCode()
		h.Set("Content-Type", "application/problem+json")
		if status == http.StatusUnauthorized {
			h.Set("WWW-Authenticate", `Bearer realm="Astra Control"`)
		}
	case rep.body != nil:
		data, _ = json.Marshal(rep.body)
		h.Set("Content-Type", negotiate(r, rep.resource))
		if rep.kind != kindList && !s.opts.NoETag {
			h.Set("ETag", s.etagHeader(data))
		}
	}
	if s.opts.OnResponseViolation != nil {
		if err := s.checkResponse(r.Method, routeName, status, rep, data); err != nil {
			s.opts.OnResponseViolation(r.Method, routeName, status, err)
		}
	}
	if data != nil {
		h.Set("Content-Length", strconv.Itoa(len(data)))
	}
	w.WriteHeader(status)
	if data != nil && r.Method != http.MethodHead {
		_, _ = w.Write(data)
	}
}

func (s *Sim) nextCorrelationID() string {
	n := s.correlations.Add(1)
	return derivedUUID4(s.opts.Seed, "correlation/"+strconv.FormatInt(n, 10))
}

// negotiate answers the resource media type when Accept names it, application/json
// otherwise (what the service does for */* or no Accept).
func negotiate(r *http.Request, resource string) string {
	if resource != "" {
		want := "application/astra-" + resource + "+json"
		for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
			if strings.EqualFold(strings.TrimSpace(strings.SplitN(part, ";", 2)[0]), want) {
				return want
			}
		}
	}
	return "application/json"
}

func etag(body []byte) string {
	sum := md5.Sum(body)
	return `"` + hex.EncodeToString(sum[:]) + `"`
}

// etagHeader is the ETag of an answer: weak in WeakETag mode.
func (s *Sim) etagHeader(data []byte) string {
	if s.opts.WeakETag {
		return "W/" + etag(data)
	}
	return etag(data)
}

// checkIfMatch enforces If-Match against the resource as a GET would return it: a
// mismatch is 412 problem 38. "*" matches any existing resource. The comparison is strong
// (RFC 9110 §13.1.1): a weak tag never matches. ETagNeverMatches refuses every tag.
func (s *Sim) checkIfMatch(r *http.Request, current any) *apiProblem {
	header := r.Header.Get("If-Match")
	if header == "" {
		return nil
	}
	data, _ := json.Marshal(current)
	want := etag(data)
	for _, tag := range strings.Split(header, ",") {
		tag = strings.TrimSpace(tag)
		if tag == "*" || (!s.opts.ETagNeverMatches && !strings.HasPrefix(tag, "W/") && tag == want) {
			return nil
		}
	}
	return problem(38)
}

func sortFields(fs []fieldReason) {
	sort.Slice(fs, func(i, j int) bool { return fs[i].Name < fs[j].Name })
}
