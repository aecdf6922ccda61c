package astra

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// APIError is an error answer from Astra Control: an RFC 7807 problem when the server sent
// one, otherwise the status and a short, sanitized excerpt of whatever came back.
type APIError struct {
	Method, Path            string // path without the host, account ID kept
	StatusCode              int
	Problem                 int // N of https://astra.netapp.io/problems/N; 0 if none
	Type, Title, Detail     string
	CorrelationID           string
	InvalidFields           []InvalidField
	InvalidParams           []InvalidField
	SchemaValidationFailure string
	Body                    string // for non-problem bodies: a short, sanitized excerpt
}

// InvalidField names a request member or query parameter the server refused, and why.
type InvalidField struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// Error reads like
// `POST /accounts/…/topology/v1/clouds/…/clusters: 409 Cluster exists (problem 45): <detail> [correlation ID …]`.
func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %d", e.Method, e.Path, e.StatusCode)
	title := e.Title
	if title == "" {
		title = http.StatusText(e.StatusCode)
	}
	if title != "" {
		b.WriteString(" " + title)
	}
	if e.Problem != 0 {
		fmt.Fprintf(&b, " (problem %d)", e.Problem)
	}
	if e.Detail != "" && e.Detail != e.Title {
		b.WriteString(": " + e.Detail)
	}
	writeFields(&b, "invalid fields", e.InvalidFields)
	writeFields(&b, "invalid parameters", e.InvalidParams)
	if e.SchemaValidationFailure != "" {
		b.WriteString("; schema validation: " + e.SchemaValidationFailure)
	}
	if e.Body != "" {
		b.WriteString(": " + e.Body)
	}
	if e.CorrelationID != "" {
		fmt.Fprintf(&b, " [correlation ID %s]", e.CorrelationID)
	}
	return b.String()
}

func writeFields(b *strings.Builder, label string, fields []InvalidField) {
	if len(fields) == 0 {
		return
	}
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = f.Name
		if f.Reason != "" {
			parts[i] += " (" + f.Reason + ")"
		}
	}
	fmt.Fprintf(b, "; %s: %s", label, strings.Join(parts, ", "))
}

func statusOf(err error) int {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode
	}
	return 0
}

// IsNotFound reports a 404 (problems 1 "Resource not found" and 2 "Collection not found").
func IsNotFound(err error) bool { return statusOf(err) == http.StatusNotFound }

// IsConflict reports a 409 (problems 10, 44, 45, 140, 141, 164, ...).
func IsConflict(err error) bool { return statusOf(err) == http.StatusConflict }

// IsUnauthorized reports a 401: a missing, invalid or revoked token (problems 3, 4, 166).
func IsUnauthorized(err error) bool { return statusOf(err) == http.StatusUnauthorized }

// IsForbidden reports a 403: the token's role may not do this (problem 11).
func IsForbidden(err error) bool { return statusOf(err) == http.StatusForbidden }

// IsPreconditionFailed reports a 412 (problem 38).
func IsPreconditionFailed(err error) bool { return statusOf(err) == http.StatusPreconditionFailed }

// ProblemNumber returns the problem number of an API error, 0 when there is none.
func ProblemNumber(err error) int {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.Problem
	}
	return 0
}

// UnknownOutcomeError says a POST was sent but no answer tells whether the server acted on
// it (a timeout, a reset connection, a 502 or 504). It is never retried blindly: look the
// object up (FindCluster, FindCredential, FindCloud) before posting again.
type UnknownOutcomeError struct {
	Method, Path string
	Err          error
}

func (e *UnknownOutcomeError) Error() string {
	return fmt.Sprintf("%s %s: the request was sent but no answer says whether Astra Control acted on it; "+
		"look for the object before trying again: %v", e.Method, e.Path, e.Err)
}

func (e *UnknownOutcomeError) Unwrap() error { return e.Err }

// IsUnknownOutcome reports whether err is (or wraps) an UnknownOutcomeError.
func IsUnknownOutcome(err error) bool {
	var u *UnknownOutcomeError
	return errors.As(err, &u)
}

// AmbiguousMatchError says a finder matched more than one object, so it cannot tell which
// one a lost POST created.
type AmbiguousMatchError struct {
	What  string // "cluster", "credential", "cloud"
	Count int
}

func (e *AmbiguousMatchError) Error() string {
	return fmt.Sprintf("%d %ss match; cannot tell which one is meant", e.Count, e.What)
}
