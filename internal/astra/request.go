package astra

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// maxBody bounds how much of an answer is read; Astra objects are a few kilobytes.
const maxBody = 16 << 20

// request is one API call, before retries.
type request struct {
	method   string
	path     string // below /accounts/{id}, e.g. "/topology/v1/clouds"
	query    string // already encoded
	resource string // "cluster", "managedCluster", ...: names the media type
	body     any    // encoded as JSON when non-nil

	header http.Header // extra request headers, e.g. Force-Delete
	// once: a request that must not happen twice (an in-place restore's PUT), retried and
	// reported like a POST: sent again only when the server certainly did not act, else
	// an *UnknownOutcomeError.
	once bool

	trace *attemptTrace // where the attempts are recorded, when the caller needs them

	// stream, when set, reads a 2xx answer as it arrives instead of whole (a fleet's
	// listing: 1.5 MB read into one buffer cost more than twice that of the process's
	// memory); the response then has no body.
	stream func(header http.Header, body io.Reader) error
}

// retriedAs is the method whose retry policy applies to r: POST's for a request sent once.
func (r request) retriedAs() string {
	if r.once {
		return http.MethodPost
	}
	return r.method
}

// response is a successful answer, its body fully read.
type response struct {
	status int
	header http.Header
	body   []byte
}

// mediaType is the resource's request media type, e.g. "application/astra-cluster".
func mediaType(resource string) string { return "application/astra-" + resource }

// do sends r with retries and returns a 2xx answer, or an *APIError, an
// *UnknownOutcomeError (POST, or a request sent once) or a transport error.
func (c *Client) do(ctx context.Context, r request) (*response, error) {
	ctx = c.logContext(ctx)
	fullPath := c.accountPath + r.path
	var payload []byte
	if r.body != nil {
		var err error
		if payload, err = json.Marshal(r.body); err != nil {
			return nil, fmt.Errorf("%s %s: encoding the request: %w", r.method, fullPath, err)
		}
	}
	target := c.base.String() + fullPath // IDs in fullPath are already escaped
	if r.query != "" {
		target += "?" + r.query
	}
	trace := r.trace
	if trace == nil {
		trace = &attemptTrace{}
	}
	ctx = withTrace(context.WithValue(ctx, methodKey{}, r.retriedAs()), trace)
	var rawBody any
	if payload != nil {
		rawBody = payload // a byte slice can be replayed on every retry
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, r.method, target, rawBody)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", r.method, fullPath, err)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Accept", "*/*")
	req.Header.Set("User-Agent", c.userAgent)
	if payload != nil {
		req.Header.Set("Content-Type", mediaType(r.resource)+"+json")
	}
	for name, values := range r.header {
		req.Header[name] = values
	}
	if tag := ifMatch(ctx, r.method); tag != "" {
		req.Header.Set("If-Match", tag)
	}

	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		if resp != nil { // the passthrough error handler hands back the answer it gave up on
			_ = resp.Body.Close()
		}
		return nil, c.transportError(ctx, r, fullPath, trace, err)
	}
	defer resp.Body.Close()
	streamed := r.stream != nil && resp.StatusCode >= 200 && resp.StatusCode <= 299
	var body []byte
	var readErr error
	if streamed {
		readErr = r.stream(resp.Header, io.LimitReader(resp.Body, maxBody))
	} else {
		body, readErr = readBody(resp)
	}
	fields := map[string]any{
		logMethod:  r.method,
		logPath:    fullPath,
		logStatus:  resp.StatusCode,
		logAttempt: trace.attempts,
		logLatency: time.Since(start).Milliseconds(),
	}
	var decodeErr *streamDecodeError
	if errors.As(readErr, &decodeErr) {
		fields[logError] = readErr.Error()
		tflog.SubsystemDebug(ctx, LogSubsystem, "Astra API answer could not be decoded", fields)
		return nil, decodeErr.error
	}
	if readErr != nil {
		fields[logError] = readErr.Error()
		tflog.SubsystemDebug(ctx, LogSubsystem, "Astra API answer could not be read", fields)
		err := fmt.Errorf("reading the %d answer: %w", resp.StatusCode, readErr)
		if r.retriedAs() == http.MethodPost {
			return nil, &UnknownOutcomeError{Method: r.method, Path: fullPath, Err: err}
		}
		return nil, fmt.Errorf("%s %s: %w", r.method, fullPath, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		apiErr := newAPIError(r.method, fullPath, resp.StatusCode, resp.Header, body)
		if apiErr.CorrelationID != "" {
			fields[logCorrelationID] = apiErr.CorrelationID
		}
		fields["problem"] = apiErr.Problem
		tflog.SubsystemDebug(ctx, LogSubsystem, "Astra API error answer", fields)
		if r.retriedAs() == http.MethodPost && outcomeUnknown(resp.StatusCode, nil, false) {
			return nil, &UnknownOutcomeError{Method: r.method, Path: fullPath, Err: apiErr}
		}
		return nil, apiErr
	}
	if id := correlationHeader(resp.Header); id != "" {
		fields[logCorrelationID] = id
	}
	tflog.SubsystemDebug(ctx, LogSubsystem, "Astra API answer", fields)
	recordETag(ctx, r.method, resp.Header)
	return &response{status: resp.StatusCode, header: resp.Header, body: body}, nil
}

// transportError explains a call that ended without an HTTP answer. A POST whose last
// attempt may have reached the server becomes an UnknownOutcomeError, as does a request
// sent once.
func (c *Client) transportError(ctx context.Context, r request, path string, trace *attemptTrace, err error) error {
	method := r.method
	var redirect *RedirectError
	if errors.As(err, &redirect) {
		err = redirect // the *url.Error around it quotes the raw Location, query included
	}
	tflog.SubsystemDebug(ctx, LogSubsystem, "Astra API call failed", map[string]any{
		logMethod: method, logPath: path, logAttempt: trace.attempts, logError: err.Error(),
	})
	if redirect != nil {
		return fmt.Errorf("%s %s: %w", method, path, redirect) // an answer, not a lost request
	}
	if r.retriedAs() == http.MethodPost && trace.attempts > 0 &&
		outcomeUnknown(trace.lastStatus, trace.lastErr, trace.notSent) {
		return &UnknownOutcomeError{Method: method, Path: path, Err: err}
	}
	if certificateProblem(err) {
		return fmt.Errorf("%s %s: the server's TLS certificate is not trusted: %w. Trust the CA that signed it with "+
			"the provider's ca_certificate_file or ca_certificate argument (or ASTRA_CA_CERTIFICATE_FILE); for a "+
			"test installation only, insecure_skip_verify = true skips verification", method, path, err)
	}
	if isNotTLS(err) {
		return fmt.Errorf("%s %s: the server did not answer with TLS; check the endpoint's scheme: %w", method, path, err)
	}
	if trace.attempts > 1 {
		return fmt.Errorf("%s %s: giving up after %d attempts: %w", method, path, trace.attempts, err)
	}
	return fmt.Errorf("%s %s: %w", method, path, err)
}

// decodeJSON decodes a JSON answer into out. Astra answers application/json or a resource
// media type such as application/astra-cluster+json; anything else is refused, readably.
func decodeJSON(method, path string, resp *response, out any) error {
	if !isJSON(resp.header.Get("Content-Type"), resp.body) {
		return fmt.Errorf("%s %s: expected a JSON answer, got %q: %s", method, path,
			resp.header.Get("Content-Type"), excerpt(resp.body, resp.header.Get("Content-Type")))
	}
	if err := json.Unmarshal(resp.body, out); err != nil {
		return fmt.Errorf("%s %s: decoding the answer: %w", method, path, err)
	}
	return nil
}

// isJSON accepts JSON media types, and a JSON-looking body under a missing or generic type
// (servers and proxies that sniff label JSON text/plain); never an HTML page.
func isJSON(contentType string, body []byte) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err == nil && (mt == "application/json" || (strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))) {
		return true
	}
	if strings.Contains(mt, "html") {
		return false
	}
	trimmed := bytes.TrimSpace(body)
	return len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[')
}

// hasBody reports whether an answer carries something to decode (a 204, or a 200 with an
// empty body, does not).
func (r *response) hasBody() bool {
	return r.status != http.StatusNoContent && len(bytes.TrimSpace(r.body)) > 0
}

// streamDecodeError is a streamed answer that arrived but could not be decoded (as
// opposed to one that could not be read).
type streamDecodeError struct{ error }

func (e *streamDecodeError) Unwrap() error { return e.error }

// readBody reads an answer whole. The length the server states, when it does, sizes the
// buffer once: read by doubling, a fleet's listing (1.5 MB) left as much again behind it.
func readBody(resp *http.Response) ([]byte, error) {
	r := io.LimitReader(resp.Body, maxBody)
	if n := resp.ContentLength; n > 0 && n < maxBody {
		buf := bytes.NewBuffer(make([]byte, 0, n+bytes.MinRead))
		_, err := buf.ReadFrom(r)
		return buf.Bytes(), err
	}
	return io.ReadAll(r)
}

// getOne fetches one object.
func getOne[T any](ctx context.Context, c *Client, path, resource string) (*T, error) {
	out := new(T)
	if err := c.getInto(ctx, path, resource, out); err != nil {
		return nil, err
	}
	return out, nil
}

// getInto GETs one object into out (getOne's work, once for every type).
func (c *Client) getInto(ctx context.Context, path, resource string, out any) error {
	resp, err := c.do(ctx, request{method: http.MethodGet, path: path, resource: resource})
	if err != nil {
		return err
	}
	return decodeJSON(http.MethodGet, c.accountPath+path, resp, out)
}

// create POSTs body to path. The 201 answer normally holds the new object; when it holds
// none, the object is read back through the Location header.
func create[T any](ctx context.Context, c *Client, path, resource string, body any, get func(context.Context, string) (*T, error)) (*T, error) {
	out := new(T)
	id, err := c.createInto(ctx, path, resource, body, out)
	switch {
	case err != nil:
		return nil, err
	case id != "":
		return get(ctx, id)
	}
	return out, nil
}

// createInto is create's work, once for every type: the POST, with out filled from its
// answer, or the new object's ID when the answer holds none (from its Location header).
func (c *Client) createInto(ctx context.Context, path, resource string, body, out any) (id string, err error) {
	resp, err := c.do(ctx, request{method: http.MethodPost, path: path, resource: resource, body: body})
	if err != nil {
		return "", err
	}
	fullPath := c.accountPath + path
	if resp.hasBody() {
		if err := decodeJSON(http.MethodPost, fullPath, resp, out); err != nil {
			// Created, but unreadable: the caller must find it, as after a lost answer.
			return "", &UnknownOutcomeError{Method: http.MethodPost, Path: fullPath, Err: err}
		}
		return "", nil
	}
	if id := lastSegment(resp.header.Get("Location")); id != "" {
		return id, nil
	}
	return "", &UnknownOutcomeError{Method: http.MethodPost, Path: fullPath,
		Err: fmt.Errorf("the %d answer named no object (no body, no Location header)", resp.status)}
}

// update PUTs body to path, then reads the object back with its own GET. The answer to a
// PUT is never taken as the object: Astra documents 204, often answers 200 with the object,
// and answers a schedule PUT with the request echoed back plus its id (no name, enabled or
// metadata: NetApp's toolkit docs), which would pass for the object while missing what the
// service computes. One GET more per update buys a state that is what the service holds.
func update[T any](ctx context.Context, c *Client, path, resource string, body any, get func(context.Context) (*T, error)) (*T, error) {
	if _, err := c.do(ctx, request{method: http.MethodPut, path: path, resource: resource, body: body}); err != nil {
		return nil, err
	}
	return get(OwnRead(ctx))
}

// remove DELETEs path, with header's extra headers. A DELETE that failed after an attempt
// that may have acted unseen (an answer lost after sending; a 500, 502 or 504) may have
// deleted the object all the same, and a retry then meets a fault of its own rather than
// the 404 that would tell: the object's own GET decides before the DELETE fails, a 404
// meaning the delete happened (nil). Any other answer, or a failed read, leaves the
// DELETE's error.
func (c *Client) remove(ctx context.Context, path, resource string, header http.Header) error {
	trace := &attemptTrace{}
	_, err := c.do(ctx, request{method: http.MethodDelete, path: path, resource: resource, header: header, trace: trace})
	if err == nil || IsNotFound(err) || !trace.mayHaveActed || ctx.Err() != nil {
		return err
	}
	_, readErr := c.do(ctx, request{method: http.MethodGet, path: path, resource: resource})
	if IsNotFound(readErr) {
		tflog.SubsystemDebug(c.logContext(ctx), LogSubsystem, "Astra API DELETE failed, but the object is gone: it was deleted",
			map[string]any{logMethod: http.MethodDelete, logPath: c.accountPath + path, logError: err.Error()})
		return nil
	}
	return err
}

// lastSegment returns the last path segment of a Location URL.
func lastSegment(location string) string {
	if location == "" {
		return ""
	}
	u, err := url.Parse(location)
	if err != nil {
		return ""
	}
	p := strings.TrimRight(u.Path, "/")
	seg := p[strings.LastIndex(p, "/")+1:]
	if s, err := url.PathUnescape(seg); err == nil {
		return s
	}
	return seg
}

// segment escapes one ID for use in a path and refuses an empty one, which would turn an
// item URL into its collection's.
func segment(what, id string) (string, error) {
	if strings.TrimSpace(id) == "" {
		return "", errors.New("astra: the " + what + " ID is empty")
	}
	return url.PathEscape(id), nil
}
