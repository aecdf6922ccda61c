package astra

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"testing"
	"time"
)

func TestShouldRetryPolicy(t *testing.T) {
	reset := &url.Error{Op: "Post", URL: "https://x", Err: &net.OpError{Op: "read", Err: errors.New("connection reset by peer")}}
	timeout := &url.Error{Op: "Get", URL: "https://x", Err: context.DeadlineExceeded}
	refused := &url.Error{Op: "Post", URL: "https://x", Err: &net.OpError{Op: "dial", Err: errors.New("connection refused")}}
	dns := &url.Error{Op: "Get", URL: "https://x", Err: &net.DNSError{Err: "no such host", Name: "x"}}
	untrusted := &url.Error{Op: "Get", URL: "https://x", Err: x509.UnknownAuthorityError{}}
	eof := &url.Error{Op: "Post", URL: "https://x", Err: io.EOF}

	cases := []struct {
		method string
		status int
		err    error
		want   bool
	}{
		{"GET", 429, nil, true}, {"GET", 502, nil, true}, {"GET", 503, nil, true}, {"GET", 504, nil, true},
		{"PUT", 429, nil, true}, {"PUT", 502, nil, true}, {"PUT", 503, nil, true}, {"PUT", 504, nil, true},
		{"DELETE", 429, nil, true}, {"DELETE", 502, nil, true}, {"DELETE", 503, nil, true}, {"DELETE", 504, nil, true},
		{"POST", 429, nil, true}, {"POST", 503, nil, true},
		{"POST", 502, nil, false}, {"POST", 504, nil, false},
		{"GET", 200, nil, false}, {"GET", 404, nil, false}, {"GET", 500, nil, false}, {"PUT", 409, nil, false},
		{"POST", 201, nil, false}, {"POST", 400, nil, false}, {"POST", 500, nil, false},
		{"GET", 0, reset, true}, {"PUT", 0, timeout, true}, {"DELETE", 0, eof, true}, {"GET", 0, dns, true},
		{"POST", 0, reset, false}, {"POST", 0, timeout, false}, {"POST", 0, eof, false},
		{"POST", 0, refused, true}, // never left this machine: the server certainly did not act
		{"GET", 0, untrusted, false}, {"POST", 0, untrusted, false},
	}
	for _, c := range cases {
		if got := shouldRetry(c.method, c.status, c.err); got != c.want {
			t.Errorf("shouldRetry(%s, %d, %v) = %v, want %v", c.method, c.status, c.err, got, c.want)
		}
	}
}

func TestOutcomeUnknown(t *testing.T) {
	cases := []struct {
		status  int
		err     error
		notSent bool
		want    bool
	}{
		{502, nil, false, true}, {504, nil, false, true}, {503, nil, false, false}, {429, nil, false, false},
		{500, nil, false, false}, {0, io.EOF, false, true}, {0, io.EOF, true, false},
		{201, nil, false, true}, {200, nil, false, true}, {409, nil, false, false}, {300, nil, false, false},
	}
	for _, c := range cases {
		if got := outcomeUnknown(c.status, c.err, c.notSent); got != c.want {
			t.Errorf("outcomeUnknown(%d, %v, %v) = %v, want %v", c.status, c.err, c.notSent, got, c.want)
		}
	}
}

func TestCheckRetryStopsWhenTheContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), methodKey{}, "GET"))
	resp := &http.Response{StatusCode: 503}
	if retry, err := checkRetry(ctx, resp, nil); !retry || err != nil {
		t.Fatalf("live context, 503: retry=%v err=%v", retry, err)
	}
	cancel()
	if retry, err := checkRetry(ctx, resp, nil); retry || !errors.Is(err, context.Canceled) {
		t.Fatalf("ended context: retry=%v err=%v, want false and context.Canceled", retry, err)
	}
	post := context.WithValue(context.Background(), methodKey{}, "POST")
	if retry, _ := checkRetry(post, &http.Response{StatusCode: 502}, nil); retry {
		t.Fatal("a POST must not be retried after a 502")
	}
}

func TestBackoffDelay(t *testing.T) {
	now := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	withHeader := func(v string) *http.Response {
		return &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": []string{v}}}
	}
	cases := []struct {
		name    string
		attempt int
		resp    *http.Response
		random  float64
		want    time.Duration
	}{
		{"first retry, middle jitter", 0, nil, 0.5, time.Second},
		{"doubles", 2, nil, 0.5, 4 * time.Second},
		{"capped", 10, nil, 0.5, 30 * time.Second},
		{"jitter down, floored at min", 0, nil, 0, time.Second},
		{"jitter down", 3, nil, 0, 6 * time.Second},
		{"jitter up", 3, nil, 1, 10 * time.Second},
		{"jitter up, capped", 5, nil, 1, 30 * time.Second},
		{"huge attempt", 5000, nil, 0.5, 30 * time.Second},
		{"Retry-After seconds", 0, withHeader("7"), 0.5, 7 * time.Second},
		{"Retry-After beyond waitMax is honoured", 0, withHeader("50"), 0.5, 50 * time.Second},
		{"Retry-After date", 0, withHeader("Fri, 01 Mar 2024 12:00:09 GMT"), 0.5, 9 * time.Second},
		{"Retry-After date in the past", 0, withHeader("Fri, 01 Mar 2024 11:00:00 GMT"), 0.5, 0},
		{"Retry-After garbage ignored", 1, withHeader("soon"), 0.5, 2 * time.Second},
		{"Retry-After negative ignored", 1, withHeader("-3"), 0.5, 2 * time.Second},
		{"no header", 1, &http.Response{StatusCode: 503, Header: http.Header{}}, 0.5, 2 * time.Second},
	}
	for _, c := range cases {
		got := backoffDelay(time.Second, 30*time.Second, c.attempt, c.resp, c.random, now)
		if got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

func TestRetryAfterParsing(t *testing.T) {
	now := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"0", 0, true}, {"30", 30 * time.Second, true}, {" 5 ", 5 * time.Second, true},
		{"Fri, 01 Mar 2024 12:01:00 GMT", time.Minute, true},       // RFC 1123
		{"Friday, 01-Mar-24 12:00:30 GMT", 30 * time.Second, true}, // RFC 850
		{"Fri Mar  1 12:00:10 2024", 10 * time.Second, true},       // ANSI C
		{"", 0, false}, {"-1", 0, false}, {"1.5", 0, false}, {"tomorrow", 0, false},
	}
	for _, c := range cases {
		got, ok := retryAfter(c.in, now)
		if got != c.want || ok != c.ok {
			t.Errorf("retryAfter(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestNeverSentClassification(t *testing.T) {
	cases := []struct {
		err  error
		want bool
	}{
		{&url.Error{Err: &net.OpError{Op: "dial", Err: errors.New("refused")}}, true},
		{&url.Error{Err: &net.DNSError{Err: "no such host"}}, true},
		{fmt.Errorf("wrapped: %w", x509.UnknownAuthorityError{}), true},
		{&url.Error{Err: &net.OpError{Op: "read", Err: errors.New("reset")}}, false},
		{&url.Error{Err: context.DeadlineExceeded}, false},
	}
	for _, c := range cases {
		if got := neverSent(c.err); got != c.want {
			t.Errorf("neverSent(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
