package astra

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// ListOptions narrows a collection GET.
type ListOptions struct {
	Filters []Filter // each becomes one `filter` query parameter: "<field> <op> '<value>'"
	Include []string // `include=a,b`; items then come back as arrays, mapped back by JSON name
	Limit   int      // `limit`; 0 = unset
}

// Filter is one `filter` condition. Op is one of eq, lt, gt, lte, gte, in.
type Filter struct{ Field, Op, Value string }

// Eq is a shorthand for an equality filter.
func Eq(field, value string) Filter { return Filter{Field: field, Op: "eq", Value: value} }

// The published grammar (components.schemas.query_filter / query_include). The value class
// is copied as published, including its ",-_" range.
var (
	filterField  = regexp.MustCompile(`^[0-9a-zA-Z]+(\[\*\])?(\.[0-9a-zA-Z]+(\[\*\])?)*$`)
	filterValue  = regexp.MustCompile(`^[0-9a-zA-Z.,-_:@ {}"]+$`)
	includeField = regexp.MustCompile(`^[0-9a-zA-Z]+$`)
	filterOps    = map[string]bool{"eq": true, "lt": true, "gt": true, "lte": true, "gte": true, "in": true}
)

// Filterable reports whether the API's filter grammar can express value (it cannot hold a
// quote, and most punctuation or non-ASCII text is refused).
func Filterable(value string) bool { return filterValue.MatchString(value) }

// query encodes the options, refusing what the server's grammar would refuse.
func (o ListOptions) query() (url.Values, error) {
	q := url.Values{}
	for _, f := range o.Filters {
		if !filterField.MatchString(f.Field) {
			return nil, fmt.Errorf("astra: filter field %q is not a field name", f.Field)
		}
		if !filterOps[f.Op] {
			return nil, fmt.Errorf("astra: filter operator %q is not one of eq, lt, gt, lte, gte, in", f.Op)
		}
		if !Filterable(f.Value) {
			return nil, fmt.Errorf("astra: the value of the %s filter holds characters the API cannot filter on", f.Field)
		}
		q.Add("filter", f.Field+" "+f.Op+" '"+f.Value+"'")
	}
	if len(o.Include) > 0 {
		for _, name := range o.Include {
			if !includeField.MatchString(name) {
				return nil, fmt.Errorf("astra: include field %q is not a field name", name)
			}
		}
		q.Set("include", strings.Join(o.Include, ","))
	}
	if o.Limit < 0 {
		return nil, fmt.Errorf("astra: limit %d is negative", o.Limit)
	}
	if o.Limit > 0 {
		q.Set("limit", strconv.Itoa(o.Limit))
	}
	return q, nil
}

// encodeQuery writes spaces as %20, the form the API documents ("filter=field%20eq%20%27value%27").
func encodeQuery(q url.Values) string {
	return strings.ReplaceAll(q.Encode(), "+", "%20")
}

// maxPages stops a server that keeps handing out continuation tokens.
const maxPages = 1000

// list GETs a whole collection, following metadata.continue when no limit was asked for.
func list[T any](ctx context.Context, c *Client, path, resource string, opts ListOptions) ([]T, error) {
	var out []T
	err := c.eachListItem(ctx, path, resource, opts, func(raw json.RawMessage) error {
		var item T
		if err := c.decodeListItem(path, len(out), raw, opts.Include, &item); err != nil {
			return err
		}
		out = append(out, item)
		return nil
	})
	return out, err
}

// decodeListItem decodes item i of a listing of path into item.
func (c *Client) decodeListItem(path string, i int, raw json.RawMessage, include []string, item any) error {
	if err := decodeItemInto(raw, include, item); err != nil {
		return fmt.Errorf("GET %s: item %d: %w", c.accountPath+path, i, err)
	}
	return nil
}

// eachListItem GETs the pages of a collection, following metadata.continue unless a limit
// was asked for (or the server repeats a token), and hands each raw item to visit.
func (c *Client) eachListItem(ctx context.Context, path, resource string, opts ListOptions, visit func(json.RawMessage) error) error {
	q, err := opts.query()
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for page := 0; page < maxPages; page++ {
		var next string
		_, err := c.do(ctx, request{method: http.MethodGet, path: path, query: encodeQuery(q), resource: resource,
			stream: func(header http.Header, body io.Reader) (err error) {
				next, err = eachItemOf(c.accountPath+path, header, body, visit)
				return err
			}})
		if err != nil {
			return err
		}
		if next == "" || opts.Limit > 0 || seen[next] {
			return nil
		}
		seen[next] = true
		q.Set("continue", next)
	}
	return nil
}

// eachItemOf hands each item of a collection answer (to a GET of path) ({"items": [...], "metadata":
// {"continue": ...}}) to visit as it arrives, so a listing of a fleet is never held whole,
// and returns the continuation token. An error reading body is returned as it is; any
// other (the answer's decoding, or visit's) as a *streamDecodeError.
func eachItemOf(path string, header http.Header, body io.Reader, visit func(json.RawMessage) error) (next string, err error) {
	read := &readRecorder{r: body}
	in := bufio.NewReader(read)
	if start, _ := in.Peek(512); !isJSON(header.Get("Content-Type"), start) {
		if read.err != nil {
			return "", read.err
		}
		return "", &streamDecodeError{decodeJSON(http.MethodGet, path, &response{header: header, body: start}, nil)}
	}
	next, err = eachItem(json.NewDecoder(in), visit)
	var visitErr visitError
	switch {
	case read.err != nil:
		return "", read.err
	case errors.As(err, &visitErr):
		return "", &streamDecodeError{visitErr.error}
	case err != nil:
		return "", &streamDecodeError{fmt.Errorf("GET %s: decoding the answer: %w", path, err)}
	}
	return next, nil
}

// eachItem decodes a collection answer item by item.
func eachItem(dec *json.Decoder, visit func(json.RawMessage) error) (next string, err error) {
	if tok, err := dec.Token(); err != nil {
		return "", err
	} else if tok != json.Delim('{') {
		return "", fmt.Errorf("a collection answer is an object, got %v", tok)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return "", err
		}
		switch tok {
		case "items":
			err = eachArrayItem(dec, visit)
		case "metadata":
			var metadata struct {
				Continue string `json:"continue"`
			}
			err = dec.Decode(&metadata)
			next = metadata.Continue
		default:
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			return "", err
		}
	}
	if _, err := dec.Token(); err != nil {
		return "", err
	}
	if _, err := dec.Token(); err != io.EOF {
		return "", fmt.Errorf("invalid character after top-level value")
	}
	return next, nil
}

// readRecorder keeps the error reading the answer, to tell it from one decoding it.
type readRecorder struct {
	r   io.Reader
	err error
}

func (r *readRecorder) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && err != io.EOF {
		r.err = err
	}
	return n, err
}

// visitError carries the visitor's own error through eachArrayItem unwrapped.
type visitError struct{ error }

// eachArrayItem decodes a JSON array (or null) item by item.
func eachArrayItem(dec *json.Decoder, visit func(json.RawMessage) error) error {
	tok, err := dec.Token()
	if err != nil || tok == nil {
		return err
	}
	if tok != json.Delim('[') {
		return fmt.Errorf("items is not an array: %v", tok)
	}
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		if err := visit(raw); err != nil {
			return visitError{err}
		}
	}
	_, err = dec.Token()
	return err
}

// decodeItem decodes one list item. With include, the server sends each item as an array
// of the requested fields' values in the order requested; it is turned back into an object.
func decodeItem[T any](raw json.RawMessage, include []string) (T, error) {
	var item T
	err := decodeItemInto(raw, include, &item)
	return item, err
}

// decodeItemInto is decodeItem's work, written once for every type: the generic functions
// of this package are thin wrappers over code that takes the value to fill as an any, so
// the binary holds one copy of each instead of one per API type (each copy is resident
// memory in every provider process).
func decodeItemInto(raw json.RawMessage, include []string, item any) error {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		if len(include) == 0 {
			return fmt.Errorf("an array item, but no include fields were asked for")
		}
		var values []json.RawMessage
		if err := json.Unmarshal(trimmed, &values); err != nil {
			return err
		}
		if len(values) != len(include) {
			return fmt.Errorf("%d values for %d include fields", len(values), len(include))
		}
		obj := make(map[string]json.RawMessage, len(values))
		for i, v := range values {
			obj[include[i]] = v
		}
		var err error
		if trimmed, err = json.Marshal(obj); err != nil {
			return err
		}
	}
	return json.Unmarshal(trimmed, item)
}
