package astra

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

const cloudJSON = `{"type":"application/astra-cloud","version":"1.1","id":"` + testCloud + `","name":"private","state":"running","stateUnready":[],"cloudType":"private","metadata":{}}`

// sequence answers the n-th request with statuses[n] (the last one repeats); 2xx carry body.
func sequence(statuses []int, body string, headers ...string) func(http.ResponseWriter, *http.Request, []byte) {
	var n atomic.Int32
	return func(w http.ResponseWriter, r *http.Request, _ []byte) {
		i := int(n.Add(1)) - 1
		if i >= len(statuses) {
			i = len(statuses) - 1
		}
		for k := 0; k+1 < len(headers); k += 2 {
			w.Header().Set(headers[k], headers[k+1])
		}
		status := statuses[i]
		switch {
		case status == http.StatusNoContent:
			w.WriteHeader(status)
		case status < 300:
			reply(w, status, "application/json", body)
		default:
			reply(w, status, "application/problem+json", problemJSON(24, http.StatusText(status), "Service unavailable", "try later"))
		}
	}
}

func TestRetryRulesCountRequests(t *testing.T) {
	post := func(c *Client) error {
		_, err := c.CreateCloud(context.Background(), CloudCreate{Name: "private", CloudType: "private"})
		return err
	}
	get := func(c *Client) error { _, err := c.GetCloud(context.Background(), testCloud); return err }
	put := func(c *Client) error {
		_, err := c.UpdateCloud(context.Background(), &Cloud{ID: testCloud, Name: "private", CloudType: "private"})
		return err
	}
	del := func(c *Client) error { return c.DeleteCloud(context.Background(), testCloud) }

	cases := []struct {
		name        string
		call        func(*Client) error
		statuses    []int
		wantCount   int
		wantErr     bool
		wantUnknown bool
		wantStatus  int
	}{
		{"GET 502 502 200", get, []int{502, 502, 200}, 3, false, false, 0},
		{"GET 429 503 504 200", get, []int{429, 503, 504, 200}, 4, false, false, 0},
		{"GET 503 forever gives up after 1+3", get, []int{503}, 4, true, false, 503},
		{"GET 500 is not retried", get, []int{500}, 1, true, false, 500},
		{"GET 404 is not retried", get, []int{404}, 1, true, false, 404},
		{"PUT 504 200, then the read back", put, []int{504, 200, 200}, 3, false, false, 0},
		{"DELETE 502 204", del, []int{502, 204}, 2, false, false, 0},
		{"POST 503 201", post, []int{503, 201}, 2, false, false, 0},
		{"POST 429 201", post, []int{429, 201}, 2, false, false, 0},
		{"POST 502 is never repeated", post, []int{502, 201}, 1, true, true, 502},
		{"POST 504 is never repeated", post, []int{504, 201}, 1, true, true, 504},
		{"POST 500 is an answer", post, []int{500, 201}, 1, true, false, 500},
		{"POST 409 is an answer", post, []int{409, 201}, 1, true, false, 409},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, sequence(c.statuses, cloudJSON))
			err := c.call(f.client(t))
			if got := f.count(); got != c.wantCount {
				t.Errorf("requests = %d, want %d", got, c.wantCount)
			}
			if (err != nil) != c.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, c.wantErr)
			}
			if IsUnknownOutcome(err) != c.wantUnknown {
				t.Errorf("IsUnknownOutcome = %v, want %v (%v)", IsUnknownOutcome(err), c.wantUnknown, err)
			}
			if c.wantStatus != 0 && statusOf(err) != c.wantStatus {
				t.Errorf("status = %d, want %d (%v)", statusOf(err), c.wantStatus, err)
			}
		})
	}
}

// hangUp closes the connection without answering: a reset as the client sees it.
func hangUp(w http.ResponseWriter, _ *http.Request, _ []byte) {
	hijacker, ok := w.(http.Hijacker)
	if !ok {
		panic("the test server cannot hang up")
	}
	if conn, _, err := hijacker.Hijack(); err == nil {
		_ = conn.Close()
	}
}

func TestLostAnswers(t *testing.T) {
	slow := func(w http.ResponseWriter, r *http.Request, _ []byte) {
		select {
		case <-r.Context().Done():
		case <-time.After(2 * time.Second):
		}
	}
	fast := func(c *Config) { c.RequestTimeout = 50 * time.Millisecond }
	cases := []struct {
		name      string
		handler   func(http.ResponseWriter, *http.Request, []byte)
		post      bool
		wantCount int
	}{
		{"POST reset", hangUp, true, 1},
		{"POST timeout", slow, true, 1},
		{"GET reset is retried", hangUp, false, 4},
		{"GET timeout is retried", slow, false, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, c.handler)
			client := f.client(t, fast)
			var err error
			if c.post {
				_, err = client.CreateCluster(context.Background(), testCloud, ClusterCreate{CredentialID: testCredential})
			} else {
				_, err = client.GetCluster(context.Background(), testCloud, testCluster)
			}
			if got := f.count(); got != c.wantCount {
				t.Errorf("requests = %d, want %d", got, c.wantCount)
			}
			if err == nil {
				t.Fatal("expected an error")
			}
			if IsUnknownOutcome(err) != c.post {
				t.Errorf("IsUnknownOutcome = %v for %v", IsUnknownOutcome(err), err)
			}
			if !c.post && !strings.Contains(err.Error(), "giving up after 4 attempts") {
				t.Errorf("GET error should count attempts: %v", err)
			}
		})
	}
}

func TestPostToAClosedPortIsNotAnUnknownOutcome(t *testing.T) {
	f := newFake(t, sequence([]int{201}, cloudJSON))
	client := f.client(t)
	f.srv.Close()
	_, err := client.CreateCloud(context.Background(), CloudCreate{Name: "private", CloudType: "private"})
	if err == nil || IsUnknownOutcome(err) {
		t.Fatalf("a refused connection never reached the server; got %v", err)
	}
	if !strings.Contains(err.Error(), "giving up after 4 attempts") {
		t.Errorf("a request that never left may be retried, even a POST: %v", err)
	}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	f := newFake(t, sequence([]int{429, 200}, cloudJSON, "Retry-After", "1"))
	start := time.Now()
	if _, err := f.client(t).GetCloud(context.Background(), testCloud); err != nil {
		t.Fatal(err)
	}
	if elapsed := time.Since(start); elapsed < 900*time.Millisecond {
		t.Fatalf("retried after %v, before the server's Retry-After of 1s", elapsed)
	}
	if f.count() != 2 {
		t.Fatalf("requests = %d, want 2", f.count())
	}
}

func TestRetriesStopWhenTheContextEnds(t *testing.T) {
	f := newFake(t, sequence([]int{503}, "", "Retry-After", "30"))
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := f.client(t).GetCloud(ctx, testCloud)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want a deadline error", err)
	}
	if elapsed := time.Since(start); elapsed > 2*time.Second {
		t.Fatalf("took %v: the retry wait ignored the context", elapsed)
	}
	if f.count() != 1 {
		t.Fatalf("requests = %d, want 1", f.count())
	}

	// A POST cancelled while waiting after a 503 is known not to have acted.
	ctx2, cancel2 := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel2()
	_, err = f.client(t).CreateCloud(ctx2, CloudCreate{Name: "n", CloudType: "private"})
	if !errors.Is(err, context.DeadlineExceeded) || IsUnknownOutcome(err) {
		t.Fatalf("POST cancelled between attempts: %v", err)
	}
}

func TestPostCancelledInFlightIsAnUnknownOutcome(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		select {
		case <-r.Context().Done():
		case <-time.After(2 * time.Second):
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := f.client(t).CreateCloud(ctx, CloudCreate{Name: "n", CloudType: "private"})
	if !IsUnknownOutcome(err) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want an unknown outcome wrapping the deadline", err)
	}
	if f.count() != 1 {
		t.Fatalf("requests = %d, want 1", f.count())
	}
}

func TestAnswerMediaTypes(t *testing.T) {
	cases := []struct {
		ctype, body string
		wantErr     string
	}{
		{"application/json", cloudJSON, ""},
		{"application/astra-cloud+json", cloudJSON, ""},
		{"application/json; charset=utf-8", cloudJSON, ""},
		{"", cloudJSON, ""},
		{"text/html", "<html><body>Login required</body></html>", `expected a JSON answer, got "text/html": Login required`},
		{"application/json", "{", "decoding the answer"},
	}
	for _, c := range cases {
		f := newFake(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) { reply(w, 200, c.ctype, c.body) })
		cloud, err := f.client(t).GetCloud(context.Background(), testCloud)
		switch {
		case c.wantErr == "" && (err != nil || cloud.ID != testCloud):
			t.Errorf("%q: %v %+v", c.ctype, err, cloud)
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("%q: err %v, want %q", c.ctype, err, c.wantErr)
		}
	}
}

func TestRequestHeaders(t *testing.T) {
	f := newFake(t, sequence([]int{201}, cloudJSON))
	c := f.client(t)
	if _, err := c.CreateCloud(context.Background(), CloudCreate{Name: "private", CloudType: "private"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetCloud(context.Background(), testCloud); err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	post, get := reqs[0], reqs[1]
	checks := []struct{ name, got, want string }{
		{"authorization", post.Header.Get("Authorization"), "Bearer " + testToken},
		{"user agent", post.Header.Get("User-Agent"), "terraform-provider-astra/test Terraform/1.5.7"},
		{"post content type", post.Header.Get("Content-Type"), "application/astra-cloud+json"},
		{"accept", post.Header.Get("Accept"), "*/*"},
		{"get has no content type", get.Header.Get("Content-Type"), ""},
		{"path", get.Path, accountPrefix + "/topology/v1/clouds/" + testCloud},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, c.got, c.want)
		}
	}
}

func TestIDsAreEscapedAndEmptyIDsRefused(t *testing.T) {
	f := newFake(t, sequence([]int{200}, cloudJSON))
	c := f.client(t)
	if _, err := c.GetCloud(context.Background(), "a/b c"); err != nil {
		t.Fatal(err)
	}
	if got := f.requests()[0].Path; got != accountPrefix+"/topology/v1/clouds/a%2Fb%20c" {
		t.Fatalf("path %q", got)
	}
	for name, call := range map[string]func() error{
		"cloud":   func() error { _, err := c.GetCloud(context.Background(), ""); return err },
		"cluster": func() error { _, err := c.GetCluster(context.Background(), testCloud, " "); return err },
		"delete":  func() error { return c.DeleteCredential(context.Background(), "") },
	} {
		if err := call(); err == nil || !strings.Contains(err.Error(), "ID is empty") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if f.count() != 1 {
		t.Fatalf("an empty ID must not reach the server (requests = %d)", f.count())
	}
}

// TestInterruptedAfterTheAnswer: the server acted on a POST and answered 201, but the call
// was cancelled before the answer was read. The outcome is unknown (the caller then looks
// for the object, so it is never orphaned), where a GET or a refused POST is a plain error.
func TestInterruptedAfterTheAnswer(t *testing.T) {
	cases := []struct {
		name        string
		status      int
		post        bool
		wantUnknown bool
	}{
		{"POST answered 201", 201, true, true},
		{"POST answered 409", 409, true, false},
		{"GET answered 200", 200, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, sequence([]int{c.status}, cloudJSON))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			// Ends the call's context once an answer has arrived and before the client reads
			// it: what the CLI's interrupt does when it lands in that moment.
			var fired atomic.Int32
			cutAfterAnswer := roundTripFunc(func(r *http.Request) (*http.Response, error) {
				resp, err := http.DefaultTransport.RoundTrip(r)
				if err == nil {
					cancel()
					fired.Add(1)
				}
				return resp, err
			})
			client := f.client(t, func(cfg *Config) { cfg.HTTPClient = &http.Client{Transport: cutAfterAnswer} })
			var err error
			if c.post {
				_, err = client.CreateCloud(ctx, CloudCreate{Name: "private", CloudType: "private"})
			} else {
				_, err = client.GetCloud(ctx, testCloud)
			}
			if fired.Load() != 1 || f.count() != 1 {
				t.Fatalf("the context was cut after %d answers of %d requests; want 1 and 1", fired.Load(), f.count())
			}
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want the cancellation", err)
			}
			if IsUnknownOutcome(err) != c.wantUnknown {
				t.Errorf("IsUnknownOutcome = %v, want %v (%v)", IsUnknownOutcome(err), c.wantUnknown, err)
			}
		})
	}
}

func TestReadBodySizesItsBufferFromTheStatedLength(t *testing.T) {
	body := strings.Repeat(`{"id":"a"},`, 1000)
	for _, tt := range []struct {
		name   string
		stated int64
	}{
		{"stated", int64(len(body))},
		{"not stated", -1},
		{"understated", 10},
		{"overstated", int64(len(body)) + 100},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readBody(&http.Response{Body: io.NopCloser(strings.NewReader(body)), ContentLength: tt.stated})
			if err != nil || string(got) != body {
				t.Fatalf("read %d bytes (%v), want %d", len(got), err, len(body))
			}
			if tt.stated == int64(len(body)) {
				if allocs := testing.AllocsPerRun(10, func() {
					_, _ = readBody(&http.Response{Body: io.NopCloser(strings.NewReader(body)), ContentLength: tt.stated})
				}); allocs > 4 {
					t.Errorf("%v allocations to read a stated body, want one buffer (at most 4 in all)", allocs)
				}
			}
		})
	}
}
