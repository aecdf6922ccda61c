package tridentprotect

import (
	"net/url"
	"regexp"
	"strings"
)

var hasScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`)

// s3Endpoint is what an AppVault's providerConfig.s3 takes from Astra's serverURL:
// Trident protect wants host[:port] as endpoint and says plain HTTP with secure "false",
// where Astra takes a URL. Dropped parts are reported without their content: user
// information or a query can hold credentials.
type s3Endpoint struct {
	host     string
	insecure bool
	notes    []string
}

func parseS3Endpoint(serverURL string) (s3Endpoint, bool) {
	raw := strings.TrimSpace(serverURL)
	if raw == "" {
		return s3Endpoint{notes: []string{"has no server URL"}}, false
	}
	if !hasScheme.MatchString(raw) {
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		// url.Error quotes the URL; say only that it does not parse.
		return s3Endpoint{notes: []string{"has a server URL that does not parse as a URL"}}, false
	}
	var e s3Endpoint
	switch strings.ToLower(u.Scheme) {
	case "https":
	case "http":
		e.insecure = true
	default:
		return s3Endpoint{notes: []string{"has a server URL whose scheme is neither http nor https"}}, false
	}
	if u.Host == "" || u.Hostname() == "" {
		return s3Endpoint{notes: []string{"has a server URL without a host"}}, false
	}
	e.host = u.Host
	if u.User != nil {
		e.notes = append(e.notes, "server URL carries user information, left out (credentials belong in the Secret)")
	}
	if strings.Trim(u.EscapedPath(), "/") != "" || u.RawQuery != "" || u.Fragment != "" || u.ForceQuery {
		e.notes = append(e.notes, "server URL has a path, query or fragment, left out: Trident protect takes a host and port only")
	}
	return e, true
}
