package astrasim

import (
	"crypto/tls"
	"fmt"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// FaultKind is what an injected fault does to a request.
type FaultKind string

// Fault kinds.
const (
	FaultLatency         FaultKind = "latency" // only delay (Latency), then answer normally
	FaultTooManyRequests FaultKind = "429"     // 429 with Retry-After (not documented by Astra; gateways do it)
	FaultInternal        FaultKind = "500"     // 500 problem 34
	FaultBadGateway      FaultKind = "502"     // 502 problem 40
	FaultUnavailable     FaultKind = "503"     // 503 problem 24 (or Problem 41)
	FaultReset           FaultKind = "reset"   // the connection is reset before any answer; nothing applied
	FaultLostAnswer      FaultKind = "lost"    // the request is applied, then the connection is reset
	FaultRetryLater      FaultKind = "409"     // 409 problem 164 "Requested resource in unexpected state" (retry later), or Problem
	// FaultConcurrentWrite: another client writes the object just before the request is
	// evaluated (concurrent.go), so a PUT conditional on an earlier GET fails with 412.
	FaultConcurrentWrite FaultKind = "concurrent-write"
)

// Fault makes matching requests fail. Faults are tried in the order they were added; the
// first that fires decides the request.
type Fault struct {
	Method      string        // "" or "*": any method
	Route       string        // spec path template without /accounts/{account_id}; "" or "*": any; a trailing "*" matches a prefix
	Kind        FaultKind     // what happens
	Times       int           // fire this many times, then stop; 0: every time
	Probability float64       // chance a matching request is hit; 0 means 1. Deterministic under Options.Seed
	RetryAfter  time.Duration // 429/503: the Retry-After header in whole seconds (rounded up); 429 defaults to 1s
	Latency     time.Duration // wait this long first (with FaultLatency, only this)
	Problem     int           // 503: 24 (default) or 41; 409: 164 (default) or another 409 of the catalogue
}

func (f *Fault) matches(method, route string) bool {
	if f.Method != "" && f.Method != "*" && !strings.EqualFold(f.Method, method) {
		return false
	}
	switch {
	case f.Route == "" || f.Route == "*":
		return true
	case strings.HasSuffix(f.Route, "*"):
		return strings.HasPrefix(route, strings.TrimSuffix(f.Route, "*"))
	}
	return f.Route == route
}

// answersItself: the fault replaces the answer (rather than delaying or losing it).
func (f *Fault) answersItself() bool {
	return f.Kind != FaultLatency && f.Kind != FaultLostAnswer && f.Kind != FaultConcurrentWrite
}

func (f *Fault) validate() error {
	switch f.Kind {
	case FaultLatency, FaultTooManyRequests, FaultInternal, FaultBadGateway, FaultReset, FaultLostAnswer, FaultConcurrentWrite:
	case FaultRetryLater:
		if def, ok := catalogue[f.Problem]; f.Problem != 0 && (!ok || def.status != http.StatusConflict) {
			return fmt.Errorf("a 409 fault answers a 409 problem of the catalogue, not %d", f.Problem)
		}
	case FaultUnavailable:
		if f.Problem != 0 && f.Problem != 24 && f.Problem != 41 {
			return fmt.Errorf("a 503 fault answers problem 24 or 41, not %d", f.Problem)
		}
	default:
		return fmt.Errorf("unknown fault kind %q; known: latency, 409, 429, 500, 502, 503, reset, lost, concurrent-write", f.Kind)
	}
	if f.Times < 0 || f.Probability < 0 || f.Probability > 1 || f.Latency < 0 || f.RetryAfter < 0 {
		return fmt.Errorf("fault times, probability (0..1), latency and retry-after must not be negative")
	}
	return nil
}

type faultEntry struct {
	Fault
	fired int
}

type faultSet struct {
	mu   sync.Mutex
	list []*faultEntry
	rng  *rand.Rand
}

func (fs *faultSet) init(seed int64) {
	fs.rng = rand.New(rand.NewPCG(uint64(seed), 0x5eed))
}

// pick returns the fault that fires for this request, or nil.
func (fs *faultSet) pick(method, route string) *Fault {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for _, e := range fs.list {
		if !e.matches(method, route) || (e.Times > 0 && e.fired >= e.Times) {
			continue
		}
		if e.Probability > 0 && e.Probability < 1 && fs.rng.Float64() >= e.Probability {
			continue
		}
		e.fired++
		f := e.Fault
		return &f
	}
	return nil
}

// AddFault injects a fault. It panics on an invalid fault (a test bug); programs should
// build faults with ParseFault, which reports errors.
func (s *Sim) AddFault(f Fault) {
	if err := f.validate(); err != nil {
		panic("astrasim: " + err.Error())
	}
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	s.faults.list = append(s.faults.list, &faultEntry{Fault: f})
}

// ClearFaults removes every injected fault.
func (s *Sim) ClearFaults() {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	s.faults.list = nil
}

// Fired is how many times the faults added with this method, route and kind have fired,
// so a test can assert that the fault it injected did happen.
func (s *Sim) Fired(method, route string, kind FaultKind) int {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	n := 0
	for _, e := range s.faults.list {
		if e.Method == method && e.Route == route && e.Kind == kind {
			n += e.fired
		}
	}
	return n
}

// writeFault answers a request with its fault.
func (s *Sim) writeFault(w http.ResponseWriter, r *http.Request, route string, f *Fault) {
	if f.Kind == FaultReset {
		resetConnection(w)
		return
	}
	var p *apiProblem
	switch f.Kind {
	case FaultTooManyRequests:
		// No Astra problem type covers throttling; this is RFC 7807's plain-status form.
		p = &apiProblem{Type: "about:blank", Title: "Too Many Requests", Status: "429",
			Detail: "The request rate limit was exceeded. Retry after the time in Retry-After."}
		if f.RetryAfter <= 0 {
			f.RetryAfter = time.Second
		}
	case FaultInternal:
		p = problem(34)
	case FaultRetryLater:
		p = problem(164)
		if f.Problem != 0 {
			p = problem(f.Problem)
		}
	case FaultBadGateway:
		p = problem(40)
	case FaultUnavailable:
		n := f.Problem
		if n == 0 {
			n = 24
		}
		p = problem(n)
	}
	rep := fail(p)
	if f.RetryAfter > 0 {
		rep.header.Set("Retry-After", strconv.Itoa(int(math.Ceil(f.RetryAfter.Seconds()))))
	}
	s.write(w, r, route, rep)
}

// resetConnection drops the connection without an answer: an RST where the connection
// can be taken over, otherwise an aborted response.
func resetConnection(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	raw := conn
	if tc, ok := conn.(*tls.Conn); ok {
		raw = tc.NetConn()
	}
	if tcp, ok := raw.(*net.TCPConn); ok {
		_ = tcp.SetLinger(0)
	}
	_ = conn.Close()
}

// ParseFault reads the program's -fault SPEC:
//
//	METHOD:ROUTE:KIND[:OPTION...]
//
// METHOD is GET, POST, PUT, DELETE or *; ROUTE a spec path template without
// /accounts/{account_id} (a trailing * matches a prefix) or *; KIND one of latency=DUR,
// 409 (problem 164), 429, 500, 502, 503, reset, lost, concurrent-write (another client
// writes the object first, concurrent.go); OPTIONs are times=N, p=PROBABILITY, retry-after=DUR
// (or seconds), latency=DUR, problem=N (503: 24 or 41; 409: a 409 problem such as 157). Examples:
//
//	POST:/topology/v1/clouds/{cloud_id}/clusters:502:times=1
//	GET:*:429:retry-after=2s:p=0.3
//	*:*:latency=200ms
//	PUT:/topology/v1/clouds/{cloud_id}/clusters/{cluster_id}:concurrent-write:times=1
func ParseFault(spec string) (Fault, error) {
	parts := strings.Split(spec, ":")
	if len(parts) < 3 {
		return Fault{}, fmt.Errorf("fault %q: want METHOD:ROUTE:KIND[:OPTION...]", spec)
	}
	f := Fault{Method: strings.ToUpper(parts[0]), Route: parts[1]}
	kind := parts[2]
	opts := parts[3:]
	if strings.HasPrefix(kind, "latency=") {
		opts = append([]string{kind}, opts...)
		kind = string(FaultLatency)
	}
	f.Kind = FaultKind(kind)
	for _, opt := range opts {
		key, value, ok := strings.Cut(opt, "=")
		if !ok {
			return Fault{}, fmt.Errorf("fault %q: option %q is not KEY=VALUE", spec, opt)
		}
		var err error
		switch key {
		case "times":
			f.Times, err = strconv.Atoi(value)
		case "p":
			f.Probability, err = strconv.ParseFloat(value, 64)
		case "retry-after":
			f.RetryAfter, err = parseSeconds(value)
		case "latency":
			f.Latency, err = time.ParseDuration(value)
		case "problem":
			f.Problem, err = strconv.Atoi(value)
		default:
			err = fmt.Errorf("unknown option")
		}
		if err != nil {
			return Fault{}, fmt.Errorf("fault %q: option %q: %w", spec, opt, err)
		}
	}
	if err := f.validate(); err != nil {
		return Fault{}, fmt.Errorf("fault %q: %w", spec, err)
	}
	return f, nil
}

// parseSeconds accepts a Go duration or a whole number of seconds.
func parseSeconds(v string) (time.Duration, error) {
	if n, err := strconv.Atoi(v); err == nil {
		return time.Duration(n) * time.Second, nil
	}
	return time.ParseDuration(v)
}
