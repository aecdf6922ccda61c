package astrasim

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// Sim is a simulated Astra Control account. It is an http.Handler; its methods are safe
// for concurrent use.
type Sim struct {
	opts        Options
	routes      []*route
	queryParams map[string]map[string]bool // "METHOD route" -> query parameters the spec declares
	newest      map[string]string          // resource -> newest version in the release
	users       map[string]principal       // token -> who it is
	// problemDescription: the release's problem schemas require "description" (22.11 does,
	// beside "detail"), so problems carry both.
	problemDescription bool

	mu               sync.Mutex // guards st, concurrentWrites and failNext
	st               *state
	concurrentWrites int            // by the concurrent-write fault (concurrent.go)
	failNext         []FailNext     // queued injected failures (failnext.go)
	clones           map[string]int // accepted clone POSTs by the new app's name (Clones)

	correlations atomic.Int64
	counters     counters
	faults       faultSet
}

// principal is the user behind a token.
type principal struct {
	role   Role
	userID string
	// constraints are the role constraints of the binding the role comes from (nil: every
	// namespace; authorization.go).
	constraints []string
}

// New builds a simulator with its seeds: a private cloud, three public clouds with
// discovered clusters, their storage classes and credentials.
func New(opts Options) (*Sim, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	doc, err := apispec.Load(opts.Release)
	if err != nil {
		return nil, err
	}
	s := &Sim{
		opts:        opts,
		routes:      routeTable(),
		queryParams: map[string]map[string]bool{},
		newest:      map[string]string{},
		users:       map[string]principal{},
	}
	for _, res := range []string{apispec.Cloud, apispec.Cluster, apispec.ManagedCluster, apispec.Credential, apispec.StorageClass, apispec.Bucket,
		apispec.App, apispec.Schedule, apispec.Namespace, apispec.AppSnap, apispec.AppBackup, apispec.ExecutionHook, apispec.HookSource,
		apispec.AppMirror, apispec.StorageBackend} {
		v, err := apispec.NewestVersion(opts.Release, res)
		if err != nil {
			return nil, err
		}
		s.newest[res] = v
	}
	if err := s.identityVersions(); err != nil { // identity and access (issue 47)
		return nil, err
	}
	for _, rt := range s.routes {
		for m := range rt.methods {
			allowed := map[string]bool{}
			if item := doc.Paths.Find(accountPrefix + rt.template); item != nil {
				if op := item.GetOperation(m); op != nil {
					for _, p := range op.Parameters {
						if p.Value != nil && p.Value.In == "query" {
							allowed[p.Value.Name] = true
						}
					}
				}
			}
			for _, name := range undeclaredQueryParams[m+" "+rt.template] {
				allowed[name] = true
			}
			s.queryParams[m+" "+rt.template] = allowed
		}
	}
	if p := doc.Components.Schemas["astra_problem_detail_1"]; p != nil && p.Value != nil {
		for _, r := range p.Value.Required {
			s.problemDescription = s.problemDescription || r == "description"
		}
	}
	for i, tok := range sortedTokens(opts.Tokens) {
		s.users[tok] = principal{role: opts.Tokens[tok], userID: derivedUUID4(opts.Seed, fmt.Sprintf("user/%d", i))}
	}
	s.faults.init(opts.Seed)
	s.failNext = append([]FailNext(nil), opts.FailNext...)
	s.st = s.seed()
	return s, nil
}

// AccountID is the account the simulator serves.
func (s *Sim) AccountID() string { return s.opts.AccountID }

// Release is the API release the simulator speaks.
func (s *Sim) Release() string { return s.opts.Release }

// Seeds returns the IDs of what was seeded.
func (s *Sim) Seeds() Seeds {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.Seeds.clone()
}

// request is one API call on its way through the simulator.
type request struct {
	r      *http.Request
	route  *route
	params map[string]string
	user   principal
	now    time.Time
	fields map[string]any // the body readBody decoded, for PutEcho
}

// ServeHTTP answers one API request: counting, faults, authentication, the account,
// method and role checks, then the route's handler under the state lock.
// GET /healthz, the readiness probe, is answered before all of that (serveHealth).
func (s *Sim) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.serveHealth(w, r) {
		return
	}
	rt, params, account, ok := s.match(r.URL.Path)
	routeName := unmatchedRoute
	if ok {
		routeName = rt.template
	}
	s.counters.add(r.Method, routeName, r.Header.Get("If-Match") != "")

	f := s.faults.pick(r.Method, routeName)
	if f != nil {
		if !sleepCtx(r.Context(), f.Latency) {
			return
		}
		if f.answersItself() {
			s.writeFault(w, r, routeName, f)
			return
		}
		if f.Kind == FaultConcurrentWrite {
			s.concurrentWrite(params)
		}
	}
	rep := s.handle(r, rt, params, account, ok)
	if f != nil && f.Kind == FaultLostAnswer {
		// The request was applied; the client never hears about it.
		resetConnection(w)
		return
	}
	s.write(w, r, routeName, rep)
}

func (s *Sim) handle(r *http.Request, rt *route, params map[string]string, account string, ok bool) *reply {
	user, prob := s.authenticate(r)
	if prob != nil {
		return fail(prob)
	}
	if account != "" {
		if prob := s.checkAccount(account); prob != nil {
			return fail(prob)
		}
	}
	if !ok {
		return fail(problem(2))
	}
	h, allowed := rt.methods[r.Method]
	if !allowed {
		rep := fail(problem(69))
		rep.header.Set("Allow", rt.allowed())
		return rep
	}
	if prob := authorize(user, r.Method, rt.template); prob != nil {
		return fail(prob)
	}
	// In the path's order, so that a URI with two bad IDs names the same one every time.
	for _, seg := range rt.segments {
		name, isParam := strings.CutPrefix(seg, "{")
		if !isParam {
			continue
		}
		name = strings.TrimSuffix(name, "}")
		if !isIdentifier(params[name]) {
			p := problem(35)
			p.Detail = "The " + name + " in the request URI isn't a valid identifier."
			return fail(p)
		}
	}
	if prob := s.checkQuery(r, rt); prob != nil {
		return fail(prob)
	}
	if prob := checkAccept(r); prob != nil {
		return fail(prob)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.opts.Now()
	s.advance(now)
	q := &request{r: r, route: rt, params: params, user: user, now: now}
	if prob := s.checkScope(q); prob != nil { // namespace role constraints (authorization.go)
		return fail(prob)
	}
	return h(s, q)
}

// checkQuery refuses query parameters the spec does not declare for the operation.
func (s *Sim) checkQuery(r *http.Request, rt *route) *apiProblem {
	allowed := s.queryParams[r.Method+" "+rt.template]
	var bad []fieldReason
	for name := range r.URL.Query() {
		if !allowed[name] {
			bad = append(bad, fieldReason{Name: name, Reason: "query parameter " + name + " isn't supported for this endpoint"})
		}
	}
	if len(bad) > 0 {
		sortFields(bad)
		return invalidParams(6, bad...)
	}
	return nil
}

// checkAccept refuses an Accept header that admits no JSON representation.
func checkAccept(r *http.Request) *apiProblem {
	accept := r.Header.Get("Accept")
	if accept == "" {
		return nil
	}
	for _, part := range strings.Split(accept, ",") {
		mt := strings.TrimSpace(strings.SplitN(part, ";", 2)[0])
		if mt == "*/*" || mt == "application/*" || strings.Contains(mt, "json") {
			return nil
		}
	}
	return problem(32)
}

func sleepCtx(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// undeclaredQueryParams are query parameters an operation takes although the published
// documents declare none for it: the bucket collection lists, filters and pages like the
// credentials (research §4.6; actoolkit filters and pages buckets), but its operation in
// the trimmed documents lists only the path's account_id.
var undeclaredQueryParams = map[string][]string{
	"GET /topology/v1/buckets": {"include", "limit", "filter", "orderBy", "continue"},
	// toolkit (issue 43): the published documents declare these (accountnamespaces.go)
	"GET " + namespacesRoute: {"include", "limit", "filter"},
}
