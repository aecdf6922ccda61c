package tridentprotect

import (
	"strings"
	"testing"
)

func TestParseS3Endpoint(t *testing.T) {
	const userinfo = "server URL carries user information, left out (credentials belong in the Secret)"
	const path = "server URL has a path, query or fragment, left out: Trident protect takes a host and port only"
	cases := []struct {
		in       string
		ok       bool
		host     string
		insecure bool
		notes    []string
	}{
		{in: "s3.example.com", ok: true, host: "s3.example.com"},
		{in: "  s3.example.com  ", ok: true, host: "s3.example.com"},
		{in: "s3.example.com/", ok: true, host: "s3.example.com"},
		{in: "10.0.0.5:9000", ok: true, host: "10.0.0.5:9000"},
		{in: "https://s3.ontap.example.com:8443", ok: true, host: "s3.ontap.example.com:8443"},
		{in: "HTTPS://S3.Example.com", ok: true, host: "S3.Example.com"},
		{in: "http://10.0.0.5:9000", ok: true, host: "10.0.0.5:9000", insecure: true},
		{in: "https://[fd00::5]:9000", ok: true, host: "[fd00::5]:9000"},
		{in: "https://s3.example.com/astra", ok: true, host: "s3.example.com", notes: []string{path}},
		{in: "https://s3.example.com?x=1", ok: true, host: "s3.example.com", notes: []string{path}},
		{in: "https://s3.example.com#frag", ok: true, host: "s3.example.com", notes: []string{path}},
		{in: "https://key:pass@s3.example.com", ok: true, host: "s3.example.com", notes: []string{userinfo}},
		{in: "key:pass@s3.example.com/b?sig=1", ok: true, host: "s3.example.com", notes: []string{userinfo, path}},
		{in: "", notes: []string{"has no server URL"}},
		{in: "   ", notes: []string{"has no server URL"}},
		{in: "ftp://s3.example.com", notes: []string{"has a server URL whose scheme is neither http nor https"}},
		{in: "https://", notes: []string{"has a server URL without a host"}},
		{in: "https://:9000", notes: []string{"has a server URL without a host"}},
		{in: "https://s3.example.com:port", notes: []string{"has a server URL that does not parse as a URL"}},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			e, ok := parseS3Endpoint(c.in)
			if ok != c.ok || e.host != c.host || e.insecure != c.insecure {
				t.Errorf("parseS3Endpoint(%q) = (%q, insecure %v, ok %v), want (%q, %v, %v)", c.in, e.host, e.insecure, ok, c.host, c.insecure, c.ok)
			}
			sameStrings(t, "notes", e.notes, c.notes)
			for _, n := range e.notes {
				if strings.Contains(n, "pass") || strings.Contains(n, "sig") {
					t.Errorf("note %q quotes the URL", n)
				}
			}
		})
	}
}
