package astra

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
)

// newHTTPClient builds the per-attempt HTTP client: a clone of the base transport with our
// TLS settings, wrapped in the logging round tripper, and cfg.RequestTimeout per attempt.
func newHTTPClient(cfg Config) (*http.Client, error) {
	base := http.DefaultTransport
	var checkRedirect func(*http.Request, []*http.Request) error
	if cfg.HTTPClient != nil {
		checkRedirect = cfg.HTTPClient.CheckRedirect
		if cfg.HTTPClient.Transport != nil {
			base = cfg.HTTPClient.Transport
		}
	}
	transport, err := withTLS(base, cfg)
	if err != nil {
		return nil, err
	}
	timeout := cfg.RequestTimeout
	if timeout <= 0 {
		timeout = DefaultRequestTimeout
	}
	return &http.Client{
		Transport:     loggingTransport{next: transport},
		Timeout:       timeout,
		CheckRedirect: sameOriginRedirects(checkRedirect),
	}, nil
}

// withTLS returns a clone of base carrying the configured trust settings. A base that is
// not an *http.Transport cannot be given TLS settings; it is used as is when none are asked for.
func withTLS(base http.RoundTripper, cfg Config) (http.RoundTripper, error) {
	wantsTLS := len(cfg.CACertPEM) > 0 || cfg.InsecureSkipVerify
	t, ok := base.(*http.Transport)
	if !ok {
		if wantsTLS {
			return nil, fmt.Errorf("astra: cannot apply CA or skip-verify settings to a %T transport", base)
		}
		return base, nil
	}
	clone := t.Clone()
	tlsConfig := &tls.Config{MinVersion: tls.VersionTLS12}
	if clone.TLSClientConfig != nil {
		tlsConfig = clone.TLSClientConfig // already a copy, made by Clone
		if tlsConfig.MinVersion == 0 {
			tlsConfig.MinVersion = tls.VersionTLS12
		}
	}
	if len(cfg.CACertPEM) > 0 {
		pool, err := x509.SystemCertPool() // a fresh copy; adding to it changes nothing else
		if err != nil || pool == nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(cfg.CACertPEM) {
			return nil, errors.New("astra: the CA certificate bundle holds no PEM certificate")
		}
		tlsConfig.RootCAs = pool
	}
	if cfg.InsecureSkipVerify {
		tlsConfig.InsecureSkipVerify = true // #nosec G402 -- the user asked for it; the provider warns
	}
	clone.TLSClientConfig = tlsConfig
	return clone, nil
}

// certificateProblem reports whether err is a failure to trust the server's certificate,
// which no retry can fix.
func certificateProblem(err error) bool {
	var unknownAuthority x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	var verification *tls.CertificateVerificationError
	return errors.As(err, &unknownAuthority) || errors.As(err, &hostname) ||
		errors.As(err, &invalid) || errors.As(err, &verification)
}
