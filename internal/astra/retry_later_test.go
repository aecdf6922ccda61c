package astra

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// conflicts answers problem first with a 409 carrying problem n, then 2xx with cloudJSON.
func conflicts(times, n int) func(http.ResponseWriter, *http.Request, []byte) {
	var seen atomic.Int32
	return func(w http.ResponseWriter, r *http.Request, _ []byte) {
		if int(seen.Add(1)) <= times {
			reply(w, http.StatusConflict, "application/problem+json", problemJSON(n, "409", "Conflict", "conflict "+r.Method))
			return
		}
		status := http.StatusOK
		if r.Method == http.MethodPost {
			status = http.StatusCreated
		}
		reply(w, status, "application/json", cloudJSON)
	}
}

// TestProblem164IsRetried: 409 problem 164 ("Requested resource in unexpected state ... retry
// the request") is retried on every method, POST included (the server refused it without
// acting); any other 409 is an answer.
func TestProblem164IsRetried(t *testing.T) {
	post := func(c *Client) error {
		_, err := c.CreateCloud(context.Background(), CloudCreate{Name: "private", CloudType: "private"})
		return err
	}
	get := func(c *Client) error { _, err := c.GetCloud(context.Background(), testCloud); return err }
	del := func(c *Client) error { return c.DeleteCloud(context.Background(), testCloud) }
	cases := []struct {
		name      string
		call      func(*Client) error
		times     int
		problem   int
		wantCount int
		wantErr   string
	}{
		{"POST 164 then 201", post, 2, 164, 3, ""},
		{"GET 164 then 200", get, 1, 164, 2, ""},
		{"DELETE 164 then 200", del, 1, 164, 2, ""},
		{"POST 164 forever gives up after 1+3", post, 10, 164, 4, "409 Conflict (problem 164): conflict POST"},
		{"POST 45 (duplicate) is an answer", post, 1, 45, 1, "409 Conflict (problem 45)"},
		{"DELETE 10 is an answer", del, 1, 10, 1, "409 Conflict (problem 10)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, conflicts(c.times, c.problem))
			err := c.call(f.client(t))
			if got := f.count(); got != c.wantCount {
				t.Errorf("requests = %d, want %d", got, c.wantCount)
			}
			switch {
			case c.wantErr == "" && err != nil:
				t.Fatalf("err = %v, want success", err)
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Fatalf("err = %v, want one containing %q (the last answer's problem, decoded)", err, c.wantErr)
			}
		})
	}
}

func TestRetryLaterLeavesTheBodyReadable(t *testing.T) {
	rec := httptest.NewRecorder()
	reply(rec, http.StatusConflict, "application/problem+json", problemJSON(164, "409", "Unexpected state", "wait"))
	resp := rec.Result()
	if !retryLater(resp) {
		t.Fatal("problem 164 not recognised")
	}
	if e := newAPIError("GET", "/x", resp.StatusCode, resp.Header, mustRead(t, resp)); e.Problem != 164 || e.Detail != "wait" {
		t.Fatalf("body after the peek decodes to %+v", e)
	}
	for _, status := range []int{http.StatusOK, http.StatusNotFound} {
		rec := httptest.NewRecorder()
		reply(rec, status, "application/problem+json", problemJSON(164, "", "t", "d"))
		if retryLater(rec.Result()) {
			t.Errorf("a %d answer is not a 409: no retry", status)
		}
	}
	if retryLater(nil) {
		t.Error("no answer at all is not problem 164")
	}
}

func mustRead(t *testing.T, resp *http.Response) []byte {
	t.Helper()
	var b strings.Builder
	buf := make([]byte, 512)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return []byte(b.String())
}

// TestRetryAfterIsCapped: a Retry-After beyond MaxRetryAfter (seconds or a date) waits
// MaxRetryAfter, not hours.
func TestRetryAfterIsCapped(t *testing.T) {
	now := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	cases := map[string]time.Duration{
		"59":                            59 * time.Second,
		"60":                            MaxRetryAfter,
		"3600":                          MaxRetryAfter,
		"99999999999999999":             MaxRetryAfter,
		"Sat, 02 Mar 2024 12:00:00 GMT": MaxRetryAfter,
	}
	for header, want := range cases {
		resp := &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": []string{header}}}
		if got := backoffDelay(time.Second, 30*time.Second, 0, resp, 0.5, now); got != want {
			t.Errorf("Retry-After %q: waits %v, want %v", header, got, want)
		}
	}
	if MaxRetryAfter != time.Minute {
		t.Errorf("MaxRetryAfter = %v; its documentation (retry.go) says one minute", MaxRetryAfter)
	}
}
