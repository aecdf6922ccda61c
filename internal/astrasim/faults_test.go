package astrasim

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestParseFault(t *testing.T) {
	good := map[string]Fault{
		"POST:/topology/v1/clouds/{cloud_id}/clusters:502:times=1": {Method: "POST", Route: "/topology/v1/clouds/{cloud_id}/clusters", Kind: FaultBadGateway, Times: 1},
		"GET:*:429:retry-after=2s:p=0.3":                           {Method: "GET", Route: "*", Kind: FaultTooManyRequests, RetryAfter: 2 * time.Second, Probability: 0.3},
		"*:*:latency=200ms":                                        {Method: "*", Route: "*", Kind: FaultLatency, Latency: 200 * time.Millisecond},
		"put:/core/*:503:problem=41:retry-after=3":                 {Method: "PUT", Route: "/core/*", Kind: FaultUnavailable, Problem: 41, RetryAfter: 3 * time.Second},
		"POST:*:lost:latency=1s":                                   {Method: "POST", Route: "*", Kind: FaultLostAnswer, Latency: time.Second},
		"DELETE:*:reset":                                           {Method: "DELETE", Route: "*", Kind: FaultReset},
		"GET:*:500":                                                {Method: "GET", Route: "*", Kind: FaultInternal},
		"POST:*:409:times=2":                                       {Method: "POST", Route: "*", Kind: FaultRetryLater, Times: 2},
		"PUT:/core/v1/credentials/{credential_id}:concurrent-write:times=1": {Method: "PUT", Route: "/core/v1/credentials/{credential_id}", Kind: FaultConcurrentWrite, Times: 1},
	}
	for spec, want := range good {
		got, err := ParseFault(spec)
		if err != nil || got != want {
			t.Errorf("ParseFault(%q) = %+v, %v; want %+v", spec, got, err, want)
		}
	}
	bad := map[string]string{
		"GET:*":                  "METHOD:ROUTE:KIND",
		"GET:*:418":              "unknown fault kind",
		"GET:*:503:problem=40":   "problem 24 or 41",
		"GET:*:429:p=1.5":        "probability",
		"GET:*:429:times":        "KEY=VALUE",
		"GET:*:429:bogus=1":      "unknown option",
		"GET:*:latency=soon":     "latency",
		"GET:*:429:times=-1":     "negative",
		"GET:*:429:retry-after=": "retry-after",
	}
	for spec, want := range bad {
		if _, err := ParseFault(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseFault(%q) error %v, want one mentioning %q", spec, err, want)
		}
	}
}

func TestFaultAnswers(t *testing.T) {
	cases := []struct {
		fault      Fault
		status     int
		problem    int
		retryAfter string
	}{
		{Fault{Kind: FaultTooManyRequests}, 429, 0, "1"},
		{Fault{Kind: FaultTooManyRequests, RetryAfter: 1500 * time.Millisecond}, 429, 0, "2"},
		{Fault{Kind: FaultUnavailable}, 503, 24, ""},
		{Fault{Kind: FaultUnavailable, Problem: 41, RetryAfter: 5 * time.Second}, 503, 41, "5"},
		{Fault{Kind: FaultBadGateway}, 502, 40, ""},
		{Fault{Kind: FaultInternal}, 500, 34, ""},
		{Fault{Kind: FaultRetryLater}, 409, 164, ""},
		{Fault{Kind: FaultRetryLater, Problem: 157}, 409, 157, ""},
	}
	for _, c := range cases {
		e := newEnv(t, Options{})
		c.fault.Method, c.fault.Route, c.fault.Times = "GET", "/topology/v1/clouds", 1
		e.sim.AddFault(c.fault)
		r := e.get("/topology/v1/clouds")
		if c.problem != 0 {
			r.problem(c.problem)
		} else if r.expect(c.status); r.str("status") != "429" || r.str("type") != "about:blank" {
			t.Errorf("429 body: %s", r.raw)
		}
		if got := r.header.Get("Retry-After"); got != c.retryAfter {
			t.Errorf("%s: Retry-After %q, want %q", c.fault.Kind, got, c.retryAfter)
		}
		if n := e.sim.Fired("GET", "/topology/v1/clouds", c.fault.Kind); n != 1 {
			t.Errorf("%s: Fired = %d, want 1", c.fault.Kind, n)
		}
		e.get("/topology/v1/clouds").expect(200) // times=1: spent
		if n := e.sim.Fired("GET", "/topology/v1/clouds", c.fault.Kind); n != 1 {
			t.Errorf("%s: Fired = %d after the fault was spent, want 1", c.fault.Kind, n)
		}
		e.get("/core/v1/credentials").expect(200)
	}
}

func TestFaultMatching(t *testing.T) {
	e := newEnv(t, Options{})
	e.sim.AddFault(Fault{Method: "POST", Route: "/topology/*", Kind: FaultBadGateway})
	e.get("/topology/v1/clouds").expect(200)
	e.post("/topology/v1/clouds", map[string]any{"type": "application/astra-cloud", "version": "1.1", "name": "x", "cloudType": "private"}).problem(40)
	e.post("/topology/v1/managedClusters", map[string]any{}).problem(40)
	e.post("/core/v1/credentials", map[string]any{}).problem(8)
	e.sim.ClearFaults()
	e.post("/topology/v1/managedClusters", map[string]any{}).problem(8)
}

// hits records which of n requests a probabilistic fault hit.
func hits(t *testing.T, seed int64, n int) string {
	e := newEnv(t, Options{Seed: seed})
	e.sim.AddFault(Fault{Kind: FaultUnavailable, Probability: 0.3})
	var b strings.Builder
	for i := 0; i < n; i++ {
		if e.get("/topology/v1/clouds").status == 503 {
			b.WriteByte('x')
		} else {
			b.WriteByte('.')
		}
	}
	return b.String()
}

func TestFaultProbabilityIsDeterministic(t *testing.T) {
	a, b, other := hits(t, 42, 60), hits(t, 42, 60), hits(t, 43, 60)
	if a != b {
		t.Errorf("same seed, different faults:\n%s\n%s", a, b)
	}
	if a == other {
		t.Errorf("different seeds gave the same pattern %s", a)
	}
	if n := strings.Count(a, "x"); n < 8 || n > 30 {
		t.Errorf("p=0.3 hit %d of 60 requests: %s", n, a)
	}
}

func (e *env) try(method, path string, body []byte) (*http.Response, error) {
	req, _ := http.NewRequest(method, e.url(path), bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+e.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := e.srv.Client().Do(req)
	if err == nil {
		resp.Body.Close()
	}
	return resp, err
}

func TestResetAndLostAnswer(t *testing.T) {
	e := newEnv(t, Options{})
	body := mustJSON(map[string]any{"type": "application/astra-cloud", "version": "1.1", "name": "lab", "cloudType": "private"})
	clouds := func() int { return len(e.get("/topology/v1/clouds").items()) }

	e.sim.AddFault(Fault{Method: "POST", Route: "/topology/v1/clouds", Kind: FaultReset, Times: 1})
	if _, err := e.try(http.MethodPost, "/topology/v1/clouds", body); err == nil {
		t.Fatal("a reset connection answered")
	}
	if clouds() != 4 {
		t.Error("a reset request was applied")
	}
	e.sim.AddFault(Fault{Method: "POST", Route: "/topology/v1/clouds", Kind: FaultLostAnswer, Times: 1})
	if _, err := e.try(http.MethodPost, "/topology/v1/clouds", body); err == nil {
		t.Fatal("a lost answer arrived")
	}
	if clouds() != 5 {
		t.Error("the POST whose answer was lost must be applied")
	}
	// The retry finds the object already there.
	e.post("/topology/v1/clouds", body).problem(140)
	if n := e.sim.Count("POST", "/topology/v1/clouds"); n != 3 {
		t.Errorf("counted %d POSTs, want 3", n)
	}
}

func TestLatency(t *testing.T) {
	e := newEnv(t, Options{})
	e.sim.AddFault(Fault{Route: "/topology/v1/clouds", Kind: FaultLatency, Latency: 80 * time.Millisecond, Times: 1})
	start := time.Now()
	e.get("/topology/v1/clouds").expect(200)
	if d := time.Since(start); d < 80*time.Millisecond {
		t.Errorf("answered after %v, want at least 80ms", d)
	}
	start = time.Now()
	e.get("/topology/v1/clouds").expect(200)
	if d := time.Since(start); d > 70*time.Millisecond {
		t.Errorf("a spent latency fault still delays: %v", d)
	}
}

func TestCounters(t *testing.T) {
	e := newEnv(t, Options{})
	e.get("/topology/v1/clouds")
	e.get("/topology/v1/clouds")
	e.get("/topology/v1/clusters/" + e.sim.Seeds().GCP.ClusterID)
	e.get("/nowhere")
	want := map[string]int{
		"GET /topology/v1/clouds":                2,
		"GET /topology/v1/clusters/{cluster_id}": 1,
		"GET (unmatched)":                        1,
	}
	got := e.sim.Counts()
	if len(got) != len(want) {
		t.Errorf("Counts() = %v", got)
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s counted %d, want %d", k, got[k], n)
		}
	}
	if e.sim.Count("GET", "/topology/v1/clouds") != 2 {
		t.Error("Count disagrees with Counts")
	}
	e.sim.ResetCounts()
	if len(e.sim.Counts()) != 0 || e.sim.Count("GET", "/topology/v1/clouds") != 0 {
		t.Error("ResetCounts left counts")
	}
}

func TestAddFaultRejectsInvalid(t *testing.T) {
	sim, _ := New(Options{})
	defer func() {
		if recover() == nil {
			t.Error("AddFault accepted an unknown kind")
		}
	}()
	sim.AddFault(Fault{Kind: "teapot"})
}

// PutEcho: a PUT is answered with the request echoed back plus the id, as the service
// answers a schedule PUT; the object itself is what a GET answers.
func TestPutEcho(t *testing.T) {
	e := newEnv(t, Options{PutEcho: true})
	id := e.managedCluster("echo")
	appID := e.post("/k8s/v2/apps", appBody("web", id, "default")).expect(201).str("id")
	r := e.put("/k8s/v2/apps/"+appID, map[string]any{"type": "application/astra-app", "version": "2.1", "name": "web-2"}).expect(200)
	if r.str("id") != appID || r.str("name") != "web-2" || r.str("state") != "" || r.str("metadata.creationTimestamp") != "" {
		t.Fatalf("the echo: %s", r.raw)
	}
	if got := e.get("/k8s/v2/apps/" + appID); got.str("state") != "ready" || got.str("name") != "web-2" {
		t.Fatalf("the app: %s", got.raw)
	}
}

// If-Match compares strongly: a weak tag never matches, and in WeakETag mode every tag the
// simulator answers is weak. ETagNeverMatches refuses every tag but "*".
func TestETagModes(t *testing.T) {
	for _, c := range []struct {
		name       string
		opts       Options
		weak       bool
		sameStatus int
	}{
		{"strong", Options{}, false, 204},
		{"weak", Options{WeakETag: true}, true, 412},
		{"never matches", Options{ETagNeverMatches: true}, false, 412},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, c.opts)
			path := "/topology/v1/clouds/" + e.sim.Seeds().PrivateCloudID
			tag := e.get(path).expect(200).header.Get("ETag")
			if strings.HasPrefix(tag, "W/") != c.weak {
				t.Fatalf("ETag %q", tag)
			}
			body := map[string]any{"type": "application/astra-cloud", "version": "1.1"}
			if got := e.doURL(http.MethodPut, e.url(path), body, http.Header{"If-Match": {tag}}); got.status != c.sameStatus {
				t.Fatalf("PUT with the ETag just read: %d, want %d: %s", got.status, c.sameStatus, got.raw)
			}
			if got := e.doURL(http.MethodPut, e.url(path), body, http.Header{"If-Match": {"*"}}); got.status != 204 {
				t.Fatalf("PUT with If-Match *: %d", got.status)
			}
		})
	}
}
