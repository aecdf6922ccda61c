package astra

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// The retry policy, as pure functions:
//   - GET, PUT and DELETE are retried on transport errors and on 429, 502, 503 and 504;
//   - POST is retried only when the server certainly did not act: 429, 503, or a request
//     that never left this machine (refused connection, DNS failure). After a timeout, a
//     reset, a 502 or a 504 nobody knows whether the object was created, so the caller gets
//     an UnknownOutcomeError and looks the object up instead of posting again;
//   - a 409 with problem 164 ("Requested resource in unexpected state ... retry the
//     request") is retried on every method: the server refused it without acting;
//   - a Retry-After is honoured up to MaxRetryAfter: a server asking for longer (a
//     misconfigured gateway, a date far ahead) must not stall an apply for hours;
//   - an untrusted certificate and a refused redirect are never retried; no retry outlives the context.

// MaxRetryAfter caps the wait a server's Retry-After can impose before one retry. One
// minute is the default request_timeout and twice the longest back-off of our own
// (DefaultRetryWaitMax): long enough for any throttle Astra Control's gateway announces,
// short enough that max_retries retries end within minutes.
const MaxRetryAfter = time.Minute

// problemRetryLater is the problem Astra Control documents as "wait ... and retry".
const problemRetryLater = 164

// shouldRetry decides whether an attempt that ended with status (0 if none) or err is repeated.
func shouldRetry(method string, status int, err error) bool {
	if err != nil {
		if certificateProblem(err) || isNotTLS(err) || isRefusedRedirect(err) {
			return false
		}
		if method == http.MethodPost {
			return neverSent(err)
		}
		return true
	}
	switch status {
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		return true
	case http.StatusBadGateway, http.StatusGatewayTimeout:
		return method != http.MethodPost
	}
	return false
}

// retryLater reports a 409 answer carrying problem 164, peeking at its body and putting it
// back so the caller still decodes it.
func retryLater(resp *http.Response) bool {
	if resp == nil || resp.StatusCode != http.StatusConflict || resp.Body == nil {
		return false
	}
	body, err := readBody(resp)
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return err == nil && newAPIError("", "", resp.StatusCode, resp.Header, body).Problem == problemRetryLater
}

// outcomeUnknown reports whether a POST that ended this way may have been acted upon. A
// success status counts when the call still failed: the context ended (an interrupt)
// between the answer's arrival and its reading, so the object exists but is not known.
func outcomeUnknown(status int, err error, notSent bool) bool {
	if err != nil {
		return !notSent
	}
	return status == http.StatusBadGateway || status == http.StatusGatewayTimeout ||
		(status >= 200 && status <= 299)
}

// serverMayHaveActed reports an answer after which nobody knows whether the server acted:
// a 500 (it failed part-way), a 502 or a 504 (a gateway lost the server's answer).
func serverMayHaveActed(status int) bool {
	return status == http.StatusInternalServerError || status == http.StatusBadGateway || status == http.StatusGatewayTimeout
}

// neverSent reports whether err happened before the request could reach the server.
func neverSent(err error) bool {
	var opErr *net.OpError
	if errors.As(err, &opErr) && (opErr.Op == "dial" || opErr.Op == "proxyconnect") {
		return true
	}
	var dnsErr *net.DNSError
	return errors.As(err, &dnsErr) || certificateProblem(err) || isNotTLS(err)
}

// isNotTLS reports a server that answered a TLS handshake with plain text (http:// vs https://).
func isNotTLS(err error) bool {
	var header tls.RecordHeaderError
	// net/http reports an HTTP answer to a TLS hello with an untyped error.
	return errors.As(err, &header) || strings.Contains(err.Error(), "server gave HTTP response to HTTPS client")
}

type methodKey struct{}

// checkRetry adapts shouldRetry to go-retryablehttp, which passes no method: do() puts it
// in the request context. It stops at once when the context ends.
func checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return false, ctxErr
	}
	method, _ := ctx.Value(methodKey{}).(string)
	status := 0
	if resp != nil {
		status = resp.StatusCode
	}
	return shouldRetry(method, status, err) || (err == nil && retryLater(resp)), nil
}

// backoffDelay is the wait before retry number attempt+1: the server's Retry-After when it
// sent one (at most MaxRetryAfter), otherwise waitMin*2^attempt capped at waitMax, with up to 25% jitter either way
// (random in [0,1)), kept within [waitMin, waitMax].
func backoffDelay(waitMin, waitMax time.Duration, attempt int, resp *http.Response, random float64, now time.Time) time.Duration {
	if resp != nil {
		if wait, ok := retryAfter(resp.Header.Get("Retry-After"), now); ok {
			return min(wait, MaxRetryAfter)
		}
	}
	if waitMax < waitMin {
		waitMax = waitMin
	}
	delay := float64(waitMin) * math.Pow(2, float64(attempt))
	if delay > float64(waitMax) || math.IsInf(delay, 0) {
		delay = float64(waitMax)
	}
	delay *= 0.75 + 0.5*random
	return time.Duration(math.Min(math.Max(delay, float64(waitMin)), float64(waitMax)))
}

// retryAfter parses a Retry-After value: delay-seconds or an HTTP date. A date in the past
// means "now".
func retryAfter(value string, now time.Time) (time.Duration, bool) {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0, false
	}
	if seconds, err := strconv.ParseInt(value, 10, 64); err == nil {
		if seconds < 0 {
			return 0, false
		}
		if seconds > math.MaxInt64/int64(time.Second) {
			seconds = math.MaxInt64 / int64(time.Second)
		}
		return time.Duration(seconds) * time.Second, true
	}
	when, err := http.ParseTime(value)
	if err != nil {
		return 0, false
	}
	if wait := when.Sub(now); wait > 0 {
		return wait, true
	}
	return 0, true
}

// newRetryingClient wires the policy into go-retryablehttp. It logs nothing itself (the
// logging transport does) and hands the last response back untouched so its problem body
// can be decoded.
func newRetryingClient(httpClient *http.Client, cfg Config) *retryablehttp.Client {
	waitMin, waitMax := cfg.RetryWaitMin, cfg.RetryWaitMax
	if waitMin <= 0 {
		waitMin = DefaultRetryWaitMin
	}
	if waitMax <= 0 {
		waitMax = DefaultRetryWaitMax
	}
	retries := cfg.MaxRetries
	if retries < 0 {
		retries = 0
	}
	return &retryablehttp.Client{
		HTTPClient:   httpClient,
		Logger:       nil,
		RetryWaitMin: waitMin,
		RetryWaitMax: waitMax,
		RetryMax:     retries,
		CheckRetry:   checkRetry,
		Backoff: func(waitMin, waitMax time.Duration, attempt int, resp *http.Response) time.Duration {
			return backoffDelay(waitMin, waitMax, attempt, resp, rand.Float64(), time.Now())
		},
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
	}
}
