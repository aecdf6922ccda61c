package astra

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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

// listEnvelope is a collection answer: {"items": [...], "metadata": {"continue": ...}}.
type listEnvelope struct {
	Items    []json.RawMessage `json:"items"`
	Metadata struct {
		Continue string `json:"continue"`
	} `json:"metadata"`
}

// maxPages stops a server that keeps handing out continuation tokens.
const maxPages = 1000

// list GETs a whole collection, following metadata.continue when no limit was asked for.
func list[T any](ctx context.Context, c *Client, path, resource string, opts ListOptions) ([]T, error) {
	var out []T
	i := 0
	err := c.eachListItem(ctx, path, resource, opts, func(raw json.RawMessage) error {
		item, err := decodeItem[T](raw, opts.Include)
		if err != nil {
			return fmt.Errorf("GET %s: item %d: %w", c.accountPath+path, i, err)
		}
		i++
		out = append(out, item)
		return nil
	})
	return out, err
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
		resp, err := c.do(ctx, request{method: http.MethodGet, path: path, query: encodeQuery(q), resource: resource})
		if err != nil {
			return err
		}
		var env listEnvelope
		if err := decodeJSON(http.MethodGet, c.accountPath+path, resp, &env); err != nil {
			return err
		}
		for _, raw := range env.Items {
			if err := visit(raw); err != nil {
				return err
			}
		}
		next := env.Metadata.Continue
		if next == "" || opts.Limit > 0 || seen[next] {
			return nil
		}
		seen[next] = true
		q.Set("continue", next)
	}
	return nil
}

// decodeItem decodes one list item. With include, the server sends each item as an array
// of the requested fields' values in the order requested; it is turned back into an object.
func decodeItem[T any](raw json.RawMessage, include []string) (T, error) {
	var item T
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		if len(include) == 0 {
			return item, fmt.Errorf("an array item, but no include fields were asked for")
		}
		var values []json.RawMessage
		if err := json.Unmarshal(trimmed, &values); err != nil {
			return item, err
		}
		if len(values) != len(include) {
			return item, fmt.Errorf("%d values for %d include fields", len(values), len(include))
		}
		obj := make(map[string]json.RawMessage, len(values))
		for i, v := range values {
			obj[include[i]] = v
		}
		var err error
		if trimmed, err = json.Marshal(obj); err != nil {
			return item, err
		}
	}
	err := json.Unmarshal(trimmed, &item)
	return item, err
}
