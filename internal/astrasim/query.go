package astrasim

import (
	"encoding/base64"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// The spec's grammars for include, limit and orderBy (query_include, query_limit, query_orderBy).
var (
	includePattern = regexp.MustCompile(`^([0-9a-zA-Z]+)(,[0-9a-zA-Z]+)*$`)
	limitPattern   = regexp.MustCompile(`^([1-9][0-9]*)$`)
	orderByPattern = regexp.MustCompile(`^([0-9a-zA-Z]+)(( |%20)desc)?$`)
)

// listQuery is a collection request's include, limit, filter, orderBy and continue.
type listQuery struct {
	include []string
	limit   int
	filters []condition
	orderBy string
	desc    bool
	offset  int
}

// parseListQuery checks the values of the parameters (which ones an endpoint supports was
// checked before): a malformed value, or a field the resource lacks, is problem 5.
func parseListQuery(values url.Values, item *openapi3.Schema) (*listQuery, *apiProblem) {
	lq := &listQuery{}
	var bad []fieldReason
	known := func(name string) bool {
		_, ok := item.Properties[name]
		return ok
	}
	if v := values.Get("include"); values.Has("include") {
		if !includePattern.MatchString(v) {
			bad = append(bad, fieldReason{"include", "include must be a comma-separated list of field names"})
		} else {
			for _, f := range strings.Split(v, ",") {
				if !known(f) {
					bad = append(bad, fieldReason{"include", "the resource has no field " + f})
				}
			}
			lq.include = strings.Split(v, ",")
		}
	}
	if v := values.Get("limit"); values.Has("limit") {
		n, err := strconv.Atoi(v)
		if !limitPattern.MatchString(v) || err != nil {
			bad = append(bad, fieldReason{"limit", "limit must be a positive integer"})
		}
		lq.limit = n
	}
	for _, f := range values["filter"] {
		conds, err := parseFilter(f)
		if err != nil {
			bad = append(bad, fieldReason{"filter", err.Error()})
			continue
		}
		for _, c := range conds {
			if !known(c.path[0].name) {
				bad = append(bad, fieldReason{"filter", "the resource has no field " + c.path[0].name})
			}
		}
		lq.filters = append(lq.filters, conds...)
	}
	if v := values.Get("orderBy"); values.Has("orderBy") {
		if !orderByPattern.MatchString(v) {
			bad = append(bad, fieldReason{"orderBy", "orderBy must be <field> or <field> desc"})
		} else {
			field := strings.Fields(strings.ReplaceAll(v, "%20", " "))
			lq.orderBy, lq.desc = field[0], len(field) == 2
			if !known(lq.orderBy) {
				bad = append(bad, fieldReason{"orderBy", "the resource has no field " + lq.orderBy})
			}
		}
	}
	if v := values.Get("continue"); values.Has("continue") {
		n, ok := decodeContinue(v)
		if !ok {
			bad = append(bad, fieldReason{"continue", "continue must be a token from metadata.continue"})
		}
		lq.offset = n
	}
	if len(bad) > 0 {
		return nil, invalidParams(5, bad...)
	}
	return lq, nil
}

// apply filters, orders, pages and projects rendered items into a list body. A continue
// token is issued only where the endpoint supports continue.
func (lq *listQuery) apply(items []map[string]any, paged bool) map[string]any {
	var kept []map[string]any
	for _, it := range items {
		ok := true
		for _, c := range lq.filters {
			if !c.matches(it) {
				ok = false
				break
			}
		}
		if ok {
			kept = append(kept, it)
		}
	}
	if lq.orderBy != "" {
		sort.SliceStable(kept, func(i, j int) bool {
			a, _ := scalarString(kept[i][lq.orderBy])
			b, _ := scalarString(kept[j][lq.orderBy])
			if lq.desc {
				return compare(a, "gt", b)
			}
			return compare(a, "lt", b)
		})
	}
	if lq.offset > len(kept) {
		lq.offset = len(kept)
	}
	kept = kept[lq.offset:]
	meta := map[string]any{}
	if lq.limit > 0 && len(kept) > lq.limit {
		if paged {
			meta["continue"] = encodeContinue(lq.offset + lq.limit)
		}
		kept = kept[:lq.limit]
	}
	out := make([]any, 0, len(kept))
	for _, it := range kept {
		if len(lq.include) == 0 {
			out = append(out, it)
			continue
		}
		row := make([]any, 0, len(lq.include))
		for _, f := range lq.include {
			row = append(row, it[f])
		}
		out = append(out, row)
	}
	return map[string]any{"items": out, "metadata": meta}
}

func encodeContinue(offset int) string {
	return base64.StdEncoding.EncodeToString([]byte("offset:" + strconv.Itoa(offset)))
}

func decodeContinue(token string) (int, bool) {
	raw, err := base64.StdEncoding.DecodeString(token)
	if err != nil {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimPrefix(string(raw), "offset:"))
	if err != nil || n < 0 || !strings.HasPrefix(string(raw), "offset:") {
		return 0, false
	}
	return n, true
}
