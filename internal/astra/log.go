package astra

import (
	"context"
	"net/http"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// LogSubsystem is the tflog subsystem of the client. Its level follows
// TF_LOG_PROVIDER_ASTRA_API when set, the provider's level otherwise.
const LogSubsystem = "astra_api"

// Log field names. Request and response bodies are never logged: a credential body holds a
// kubeconfig, and the token travels only in the Authorization header, which is never logged.
const (
	logMethod        = "method"
	logPath          = "path"
	logStatus        = "status"
	logLatency       = "latency_ms"
	logAttempt       = "attempt"
	logCorrelationID = "correlation_id"
	logError         = "error"
)

// logContext adds the client's subsystem to ctx, with the token masked as a last line of
// defence should it ever reach a message or field.
func (c *Client) logContext(ctx context.Context) context.Context {
	ctx = tflog.NewSubsystem(ctx, LogSubsystem, tflog.WithLevelFromEnv("TF_LOG_PROVIDER_ASTRA", "API"))
	ctx = tflog.SubsystemMaskAllFieldValuesStrings(ctx, LogSubsystem, c.token)
	ctx = tflog.SubsystemMaskMessageStrings(ctx, LogSubsystem, c.token)
	return tflog.SubsystemMaskFieldValuesWithFieldKeys(ctx, LogSubsystem, "authorization", "keyStore", "kubeconfig")
}

// attemptTrace records what happened to each attempt of one call; the logging round
// tripper fills it in and do() reads it to tell a lost answer from a request never sent.
type attemptTrace struct {
	attempts   int
	lastStatus int
	lastErr    error
	notSent    bool // the last attempt failed before any byte could reach the server
	// mayHaveActed: some attempt may have changed the object without this client seeing a
	// success (its answer lost after sending, or a 500, 502 or 504).
	mayHaveActed bool
}

type traceKey struct{}

func withTrace(ctx context.Context, t *attemptTrace) context.Context {
	return context.WithValue(ctx, traceKey{}, t)
}

func traceFrom(ctx context.Context) *attemptTrace {
	t, _ := ctx.Value(traceKey{}).(*attemptTrace)
	return t
}

// loggingTransport logs every attempt (retries included) and records it in the call's trace.
type loggingTransport struct{ next http.RoundTripper }

func (t loggingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	trace := traceFrom(ctx)
	if trace == nil {
		trace = &attemptTrace{}
	}
	trace.attempts++
	alreadyDone := ctx.Err() != nil
	start := time.Now()
	resp, err := t.next.RoundTrip(req)
	fields := map[string]any{
		logMethod:  req.Method,
		logPath:    req.URL.Path,
		logAttempt: trace.attempts,
		logLatency: time.Since(start).Milliseconds(),
	}
	if err != nil {
		trace.lastStatus, trace.lastErr = 0, err
		trace.notSent = alreadyDone || neverSent(err)
		trace.mayHaveActed = trace.mayHaveActed || !trace.notSent
		fields[logError] = err.Error()
		tflog.SubsystemDebug(ctx, LogSubsystem, "Astra API attempt failed", fields)
		return nil, err
	}
	trace.lastStatus, trace.lastErr, trace.notSent = resp.StatusCode, nil, false
	trace.mayHaveActed = trace.mayHaveActed || serverMayHaveActed(resp.StatusCode)
	fields[logStatus] = resp.StatusCode
	if id := correlationHeader(resp.Header); id != "" {
		fields[logCorrelationID] = id
	}
	tflog.SubsystemDebug(ctx, LogSubsystem, "Astra API attempt", fields)
	return resp, nil
}

// correlationHeader returns a request/correlation ID header, if the server or a proxy set one.
func correlationHeader(h http.Header) string {
	for _, name := range []string{"X-Correlation-Id", "X-Request-Id", "Correlation-Id"} {
		if v := h.Get(name); v != "" {
			return truncate(v, 64)
		}
	}
	return ""
}
