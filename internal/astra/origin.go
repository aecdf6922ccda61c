package astra

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// The API token is a bearer credential for the whole account. Two rules keep it where it
// belongs: it crosses the network in clear text only when the user said so (a plaintext
// endpoint must be a loopback address, or explicitly allowed), and it is never sent to an
// origin other than the endpoint's. Go's own redirect policy is not enough for the second:
// it forwards Authorization to the same host on another port, to subdomains, and over an
// https -> http downgrade.

// IsLoopbackHost reports whether host, as written in the endpoint, is a loopback address:
// an IP in 127.0.0.0/8 or ::1, or the name "localhost". No DNS is done: another name that
// resolves to a loopback address counts as remote, since what it resolves to can change.
func IsLoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" {
		return true
	}
	addr, err := netip.ParseAddr(host)
	return err == nil && addr.Unmap().IsLoopback()
}

// PlaintextToRemote reports whether u sends requests in clear text (http://) to a host that
// is not a loopback address: the API token would cross the network unprotected.
func PlaintextToRemote(u *url.URL) bool {
	return strings.EqualFold(u.Scheme, "http") && !IsLoopbackHost(u.Hostname())
}

// maxRedirects is Go's default limit, which a custom CheckRedirect must enforce itself.
const maxRedirects = 10

// RedirectError is a redirect the client refused to follow: the request after it would
// carry the API token to another origin or in clear text, or the chain is too long.
// Nothing was sent to Target.
type RedirectError struct {
	Target   string // the redirect target, without user info, query or fragment
	Endpoint string // the origin the token belongs to, scheme://host:port
	reason   redirectReason
}

type redirectReason int

const (
	redirectOtherOrigin redirectReason = iota
	redirectDowngrade
	redirectTooMany
)

func (e *RedirectError) Error() string {
	switch e.reason {
	case redirectDowngrade:
		return fmt.Sprintf("refused to follow a redirect to %s: it leaves https for plain http, which would send the API token "+
			"in clear text; check the redirects of the server or of a proxy in front of it", e.Target)
	case redirectTooMany:
		return fmt.Sprintf("stopped after %d redirects, at %s", maxRedirects, e.Target)
	}
	return fmt.Sprintf("refused to follow a redirect to %s: it leaves %s, the only origin the API token is sent to; "+
		"if Astra Control moved, set the provider's endpoint to its new address", e.Target, e.Endpoint)
}

// isRefusedRedirect reports whether err is a refused redirect, which no retry can fix.
func isRefusedRedirect(err error) bool {
	var r *RedirectError
	return errors.As(err, &r)
}

// sameOriginRedirects wraps a CheckRedirect policy (nil: Go's default limit) so that a
// redirect is followed only to the origin (scheme, host, port) of the first request.
func sameOriginRedirects(next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if err := checkRedirectTarget(via[0].URL, req.URL); err != nil {
			return err
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= maxRedirects {
			return &RedirectError{Target: redactedTarget(req.URL), Endpoint: origin(via[0].URL), reason: redirectTooMany}
		}
		return nil
	}
}

// checkRedirectTarget refuses a redirect from the origin of from to another origin.
func checkRedirectTarget(from, to *url.URL) error {
	if origin(from) == origin(to) {
		return nil
	}
	reason := redirectOtherOrigin
	if strings.EqualFold(from.Scheme, "https") && !strings.EqualFold(to.Scheme, "https") {
		reason = redirectDowngrade
	}
	return &RedirectError{Target: redactedTarget(to), Endpoint: origin(from), reason: reason}
}

// redactedTarget is u without user info, query or fragment, which may hold secrets.
func redactedTarget(u *url.URL) string {
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath}).String()
}

// origin is scheme://host:port, lower case, with the scheme's default port made explicit.
func origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[scheme]
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}
