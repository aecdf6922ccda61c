package astrasim

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"
)

// env is a simulator behind a real HTTP server, with a client that fails the test on any
// response that violates the published schemas.
type env struct {
	t     *testing.T
	sim   *Sim
	srv   *httptest.Server
	token string
}

func newEnv(t *testing.T, opts Options) *env {
	t.Helper()
	opts.OnResponseViolation = func(method, route string, status int, err error) {
		t.Errorf("the answer to %s %s (%d) violates the published schema: %v", method, route, status, err)
	}
	sim, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	srv := httptest.NewServer(sim)
	t.Cleanup(srv.Close)
	token := DefaultToken
	for tok, role := range opts.Tokens {
		if role == RoleOwner {
			token = tok
		}
	}
	return &env{t: t, sim: sim, srv: srv, token: token}
}

// fakeClock is a settable clock for delayed transitions.
type fakeClock struct{ now time.Time }

func (c *fakeClock) Now() time.Time            { return c.now }
func (c *fakeClock) advance(d time.Duration)   { c.now = c.now.Add(d) }
func newClock() *fakeClock                     { return &fakeClock{now: time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)} }
func (e *env) url(path string) string          { return e.srv.URL + "/accounts/" + e.sim.AccountID() + path }
func (e *env) get(path string) *result         { return e.do(http.MethodGet, path, nil) }
func (e *env) post(path string, b any) *result { return e.do(http.MethodPost, path, b) }
func (e *env) put(path string, b any) *result  { return e.do(http.MethodPut, path, b) }
func (e *env) del(path string) *result         { return e.do(http.MethodDelete, path, nil) }
func (e *env) as(token string) *env            { c := *e; c.token = token; return &c }
func (e *env) do(method, path string, b any) *result {
	return e.doURL(method, e.url(path), b, nil)
}

// result is one answer, decoded.
type result struct {
	t      *testing.T
	status int
	header http.Header
	raw    []byte
	body   map[string]any
}

func (e *env) doURL(method, url string, b any, header http.Header) *result {
	e.t.Helper()
	var rd io.Reader
	switch v := b.(type) {
	case nil:
	case string:
		rd = strings.NewReader(v)
	case []byte:
		rd = bytes.NewReader(v)
	default:
		data, err := json.Marshal(v)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if e.token != "" {
		req.Header.Set("Authorization", "Bearer "+e.token)
	}
	if b != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := &result{t: e.t, status: resp.StatusCode, header: resp.Header, raw: raw}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &r.body); err != nil {
			e.t.Fatalf("%s %s: answer is not a JSON object: %s", method, url, raw)
		}
	}
	return r
}

// expect fails unless the status is want.
func (r *result) expect(want int) *result {
	r.t.Helper()
	if r.status != want {
		r.t.Fatalf("status %d, want %d; body %s", r.status, want, r.raw)
	}
	return r
}

// problem fails unless the answer is problem n with its HTTP status.
func (r *result) problem(n int) *result {
	r.t.Helper()
	def := catalogue[n]
	if r.status != def.status || problemNumber(r.str("type")) != n {
		r.t.Fatalf("got %d %s, want problem %d (%d); body %s", r.status, r.str("type"), n, def.status, r.raw)
	}
	if r.str("status") != itoa(def.status) || !isIdentifier(r.str("correlationID")) {
		r.t.Fatalf("problem %d: status %q, correlationID %q", n, r.str("status"), r.str("correlationID"))
	}
	if ct := r.header.Get("Content-Type"); ct != "application/problem+json" {
		r.t.Fatalf("problem %d served as %q", n, ct)
	}
	return r
}

// field returns the reason an invalidFields/invalidParams entry gives for name, or fails.
func (r *result) field(member, name string) string {
	r.t.Helper()
	list, _ := r.body[member].([]any)
	for _, f := range list {
		m, _ := f.(map[string]any)
		if m["name"] == name {
			return m["reason"].(string)
		}
	}
	r.t.Fatalf("%s has no %q entry: %s", member, name, r.raw)
	return ""
}

func (r *result) str(key string) string {
	v, _ := lookup(r.body, key).(string)
	return v
}

func (r *result) items() []any {
	items, _ := r.body["items"].([]any)
	return items
}

// lookup follows a dotted path through maps.
func lookup(m map[string]any, path string) any {
	var cur any = m
	for _, k := range strings.Split(path, ".") {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = mm[k]
	}
	return cur
}

func itemField(items []any, i int, key string) string {
	m, _ := items[i].(map[string]any)
	s, _ := m[key].(string)
	return s
}

// kubeconfigBody is the POST body of a kubeconfig credential, encoded as the real clients
// do it: YAML converted to JSON, then base64.
func kubeconfigBody(name, server string) map[string]any {
	js, err := yaml.YAMLToJSON(TestKubeconfig(name, server))
	if err != nil {
		panic(err)
	}
	return map[string]any{
		"type": "application/astra-credential", "version": "1.1", "name": name, "keyType": "kubeconfig",
		"keyStore": map[string]any{"base64": base64.StdEncoding.EncodeToString(js)},
		"metadata": map[string]any{"labels": []any{
			map[string]any{"name": labelCredType, "value": "kubeconfig"},
			map[string]any{"name": labelCloudName, "value": "private"},
		}},
	}
}

// addPrivateCluster creates a kubeconfig credential and adds its cluster to the private
// cloud, returning (credentialID, clusterID).
func (e *env) addPrivateCluster(name string) (string, string) {
	e.t.Helper()
	cred := e.post("/core/v1/credentials", kubeconfigBody(name, "https://"+name+".example.com:6443")).expect(201)
	cl := e.post("/topology/v1/clouds/"+e.sim.Seeds().PrivateCloudID+"/clusters", map[string]any{
		"type": "application/astra-cluster", "version": e.sim.newest["cluster"], "credentialID": cred.str("id"),
	}).expect(201)
	return cred.str("id"), cl.str("id")
}

func (e *env) manage(clusterID string) *result {
	e.t.Helper()
	return e.post("/topology/v1/managedClusters", map[string]any{
		"type": "application/astra-managedCluster", "version": e.sim.newest["managedCluster"], "id": clusterID,
	})
}

func mustJSON(v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return data
}

func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
