package astra

import (
	"context"
	"encoding/pem"
	"net/http"
	"strings"
	"testing"
)

// tlsClient builds a client for a TLS fake WITHOUT the fake's own trusting client, so the
// configured CA and skip-verify settings are what decides.
func tlsClient(t *testing.T, f *fakeAstra, edit func(*Config)) *Client {
	t.Helper()
	cfg := testConfig(f.srv.URL)
	edit(&cfg)
	c, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

func TestTLSTrust(t *testing.T) {
	f := newTLSFake(t, sequence([]int{200}, cloudJSON))
	caPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: f.srv.Certificate().Raw})

	untrusted := tlsClient(t, f, func(c *Config) {})
	_, err := untrusted.GetCloud(context.Background(), testCloud)
	if err == nil || !strings.Contains(err.Error(), "the server's TLS certificate is not trusted") {
		t.Fatalf("self-signed server without a CA: %v", err)
	}
	for _, names := range []string{"ca_certificate_file", "ca_certificate argument", "ASTRA_CA_CERTIFICATE_FILE",
		"for a test installation only, insecure_skip_verify = true"} {
		if !strings.Contains(err.Error(), names) {
			t.Errorf("the error does not name %q, so the user cannot tell which setting fixes it: %v", names, err)
		}
	}
	if strings.Contains(err.Error(), "giving up") {
		t.Fatalf("an untrusted certificate must not be retried: %v", err)
	}
	if f.count() != 0 {
		t.Fatalf("no request can reach a server whose certificate is refused (got %d)", f.count())
	}

	withCA := tlsClient(t, f, func(c *Config) { c.CACertPEM = caPEM })
	if _, err := withCA.GetCloud(context.Background(), testCloud); err != nil {
		t.Fatalf("trusting the server's CA: %v", err)
	}

	insecure := tlsClient(t, f, func(c *Config) { c.InsecureSkipVerify = true })
	if _, err := insecure.GetCloud(context.Background(), testCloud); err != nil {
		t.Fatalf("skipping verification: %v", err)
	}
	if f.count() != 2 {
		t.Fatalf("requests = %d, want 2", f.count())
	}
}

func TestUntrustedPostIsNotAnUnknownOutcome(t *testing.T) {
	f := newTLSFake(t, sequence([]int{201}, cloudJSON))
	c := tlsClient(t, f, func(c *Config) {})
	_, err := c.CreateCloud(context.Background(), CloudCreate{Name: "n", CloudType: "private"})
	if err == nil || IsUnknownOutcome(err) {
		t.Fatalf("a TLS handshake failure means nothing was sent: %v", err)
	}
}

func TestPlainHTTPServerBehindHTTPSURL(t *testing.T) {
	f := newFake(t, sequence([]int{200}, cloudJSON))
	c := tlsClient(t, f, func(c *Config) { c.Endpoint = strings.Replace(f.srv.URL, "http://", "https://", 1) })
	_, err := c.GetCloud(context.Background(), testCloud)
	if err == nil || !strings.Contains(err.Error(), "did not answer with TLS") {
		t.Fatalf("got %v", err)
	}
}

func TestTransportIsClonedNeverMutated(t *testing.T) {
	f := newTLSFake(t, sequence([]int{200}, cloudJSON))
	base := &http.Transport{}
	baseClient := &http.Client{Transport: base}
	c := tlsClient(t, f, func(c *Config) {
		c.HTTPClient = baseClient
		c.InsecureSkipVerify = true
	})
	if _, err := c.GetCloud(context.Background(), testCloud); err != nil {
		t.Fatal(err)
	}
	// Transport.Clone itself lazily sets up HTTP/2 on the original (NextProtos), as its
	// first use would; our trust settings must not leak into it.
	if tc := base.TLSClientConfig; baseClient.Transport != base || (tc != nil && (tc.InsecureSkipVerify || tc.RootCAs != nil)) {
		t.Fatalf("the caller's transport was modified: %+v", base.TLSClientConfig)
	}
	if dt, ok := http.DefaultTransport.(*http.Transport); ok && dt.TLSClientConfig != nil && dt.TLSClientConfig.InsecureSkipVerify {
		t.Fatal("http.DefaultTransport was modified")
	}
	lt, ok := c.http.HTTPClient.Transport.(loggingTransport)
	if !ok {
		t.Fatalf("transport is %T", c.http.HTTPClient.Transport)
	}
	inner, ok := lt.next.(*http.Transport)
	if !ok || inner == base || !inner.TLSClientConfig.InsecureSkipVerify || inner.TLSClientConfig.MinVersion == 0 {
		t.Fatalf("expected a TLS-configured clone, got %+v", lt.next)
	}
}
