package astrasim

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

// The readiness probe needs no token, is not counted, and is never faulted: a CI script
// waiting on it must not consume a times=N fault meant for the module under test.
func TestHealthz(t *testing.T) {
	sim, err := New(Options{Release: "24.02"})
	if err != nil {
		t.Fatal(err)
	}
	sim.AddFault(Fault{Method: "*", Route: "*", Kind: FaultUnavailable, Times: 1})

	cases := []struct {
		method     string
		wantStatus int
		wantAllow  string
	}{
		{http.MethodGet, http.StatusOK, ""},
		{http.MethodHead, http.StatusOK, ""},
		{http.MethodPost, http.StatusMethodNotAllowed, "GET, HEAD"},
		{http.MethodDelete, http.StatusMethodNotAllowed, "GET, HEAD"},
	}
	for _, c := range cases {
		rec := httptest.NewRecorder()
		sim.ServeHTTP(rec, httptest.NewRequest(c.method, HealthPath, nil)) // no Authorization header
		if rec.Code != c.wantStatus || rec.Header().Get("Allow") != c.wantAllow {
			t.Errorf("%s %s: %d Allow=%q, want %d Allow=%q", c.method, HealthPath, rec.Code, rec.Header().Get("Allow"), c.wantStatus, c.wantAllow)
		}
		if c.method == http.MethodGet {
			if got := health(t, sim); got.Status != "ok" || got.Release != "24.02" || got.AccountID != DefaultAccountID || got.FaultsFired != 0 {
				t.Errorf("GET %s: %+v", HealthPath, got)
			}
		}
	}
	if n := len(sim.Counts()); n != 0 {
		t.Errorf("probes were counted: %v", sim.Counts())
	}
	// The times=1 fault is still armed: the first API request gets it.
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/accounts/"+DefaultAccountID+"/topology/v1/clouds", nil)
	req.Header.Set("Authorization", "Bearer "+DefaultToken)
	sim.ServeHTTP(rec, req)
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("the fault meant for the API did not fire after the probes: %d", rec.Code)
	}
	if got := health(t, sim).FaultsFired; got != 1 {
		t.Errorf("faultsFired = %d after one faulted request, want 1", got)
	}
	// Only the exact path is the probe; under /accounts it is an unknown route.
	rec = httptest.NewRecorder()
	req = httptest.NewRequest(http.MethodGet, "/accounts/"+DefaultAccountID+HealthPath, nil)
	req.Header.Set("Authorization", "Bearer "+DefaultToken)
	sim.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotFound {
		t.Errorf("GET /accounts/{id}%s: %d, want 404", HealthPath, rec.Code)
	}
}

type healthAnswer struct {
	Status      string `json:"status"`
	Release     string `json:"release"`
	AccountID   string `json:"accountID"`
	FaultsFired int    `json:"faultsFired"`
}

func health(t *testing.T, sim *Sim) healthAnswer {
	t.Helper()
	rec := httptest.NewRecorder()
	sim.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, HealthPath, nil))
	var got healthAnswer
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatalf("GET %s body %q: %v", HealthPath, rec.Body, err)
	}
	return got
}
