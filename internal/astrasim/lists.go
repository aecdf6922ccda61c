package astrasim

import (
	"net/http"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// list answers a collection GET with include, limit, filter (and, where the endpoint
// supports them, orderBy and continue) applied to the rendered items.
func (s *Sim) list(q *request, resource string, items []map[string]any) *reply {
	lq, p := parseListQuery(q.r.URL.Query(), s.newestSchema(resource, apispec.GetResponse))
	if p != nil {
		return fail(p)
	}
	paged := s.queryParams[q.r.Method+" "+q.route.template]["continue"]
	body := lq.apply(s.scopeItems(q, items), paged) // role constraints (authorization.go)
	// As in every published example: the collection's media type and the release's newest
	// version of the resource, the one way a client can learn what the service speaks.
	body["type"], body["version"] = "application/astra-"+resource+"s", s.newest[resource]
	return answer(http.StatusOK, resource, kindList, s.newest[resource], body)
}

// created answers a POST: 201, the resource, and its full URL in Location.
func created(q *request, path string, resource, version string, body map[string]any) *reply {
	rep := answer(http.StatusCreated, resource, apispec.PostResponse, version, body)
	scheme := "http"
	if q.r.TLS != nil {
		scheme = "https"
	}
	rep.header.Set("Location", scheme+"://"+q.r.Host+path)
	return rep
}

// updated answers a PUT: 204, or 200 with the resource when the simulator is switched to
// do what the service was observed doing.
func (s *Sim) updated(q *request, resource, version string, body map[string]any) *reply {
	if s.opts.PutEcho {
		echo := copyMap(q.fields)
		echo["id"] = body["id"]
		return answer(http.StatusOK, resource, kindEcho, version, echo)
	}
	if s.opts.PutReturnsBody {
		return answer(http.StatusOK, resource, apispec.GetResponse, version, body)
	}
	return noContent()
}

// SetPutReturnsBody switches how PUT answers: 200 with the resource (on) or 204 (off),
// the two behaviours clients must accept.
func (s *Sim) SetPutReturnsBody(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.opts.PutReturnsBody = on
}

// accountPath is the /accounts/{id} prefix of the simulator's URLs.
func (s *Sim) accountPath() string { return "/accounts/" + s.opts.AccountID }

// getAccount answers the reachability probe the connector installer uses.
func (s *Sim) getAccount(q *request) *reply {
	return answer(http.StatusOK, "account", "", "1.0", map[string]any{
		"type": "application/astra-account", "version": "1.0", "id": s.opts.AccountID,
		"name": "Astra Control simulator", "state": "active",
	})
}
