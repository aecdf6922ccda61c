package astra

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestNewValidates(t *testing.T) {
	cases := []struct {
		name    string
		edit    func(*Config)
		wantErr string
	}{
		{"defaults are fine", func(c *Config) {}, ""},
		{"empty endpoint means Astra Control Service", func(c *Config) { c.Endpoint = "" }, ""},
		{"http to a remote host refused", func(c *Config) { c.Endpoint = "http://acc.local:8080/" },
			`endpoint "http://acc.local:8080" is plain http to a host that is not a loopback address`},
		{"http to a remote host allowed on request", func(c *Config) { c.Endpoint = "http://acc.local:8080/"; c.AllowPlaintext = true }, ""},
		{"http to loopback allowed", func(c *Config) { c.Endpoint = "http://127.0.0.1:8080/" }, ""},
		{"ftp refused", func(c *Config) { c.Endpoint = "ftp://acc.local" }, `endpoint "ftp://acc.local" must start with https:// or http://`},
		{"no scheme", func(c *Config) { c.Endpoint = "astra.netapp.io" }, "must start with https:// or http://"},
		{"no host", func(c *Config) { c.Endpoint = "https://" }, `endpoint "https://" has no host`},
		{"accounts suffix", func(c *Config) { c.Endpoint = "https://astra.netapp.io/accounts/x" }, "must not include /accounts/"},
		{"query", func(c *Config) { c.Endpoint = "https://astra.netapp.io?x=1" }, "without credentials, query or fragment"},
		{"user info is not echoed", func(c *Config) { c.Endpoint = "https://me:pw@astra.netapp.io" }, `endpoint "https://me:xxxxx@astra.netapp.io" must be a plain base URL`},
		{"no account", func(c *Config) { c.AccountID = " " }, "astra: the account ID is empty"},
		{"account with slash", func(c *Config) { c.AccountID = "a/b" }, "must not contain"},
		{"no token", func(c *Config) { c.Token = "" }, "astra: the API token is empty"},
		{"bearer only", func(c *Config) { c.Token = "Bearer " }, "astra: the API token is empty"},
		{"cluster version out of range", func(c *Config) { c.ClusterVersion = "1.8" }, `cluster resource version "1.8" is not one of 1.0, 1.1`},
		{"CA without certificates", func(c *Config) { c.CACertPEM = []byte("not a pem") }, "astra: the CA certificate bundle holds no PEM certificate"},
		{"TLS settings on a foreign transport", func(c *Config) {
			c.HTTPClient = &http.Client{Transport: roundTripFunc(nil)}
			c.InsecureSkipVerify = true
		}, "cannot apply CA or skip-verify settings"},
	}
	for _, c := range cases {
		cfg := testConfig("https://astra.example.com")
		c.edit(&cfg)
		_, err := New(cfg)
		switch {
		case c.wantErr == "" && err != nil:
			t.Errorf("%s: unexpected error %v", c.name, err)
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.wantErr)
		}
		if err != nil && strings.Contains(err.Error(), "pw") {
			t.Errorf("%s: error echoes a password: %v", c.name, err)
		}
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestVersionsAndDefaults(t *testing.T) {
	cases := []struct{ cluster, wantCluster, wantManaged string }{
		{"", "1.5", "1.2"}, {"1.0", "1.0", "1.2"}, {"1.3", "1.3", "1.2"}, {"1.5", "1.5", "1.2"},
		{"1.6", "1.6", "1.3"}, {"1.7", "1.7", "1.7"},
	}
	for _, c := range cases {
		cfg := testConfig("https://astra.example.com")
		cfg.ClusterVersion = c.cluster
		client, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if client.ClusterVersion() != c.wantCluster || client.ManagedClusterVersion() != c.wantManaged {
			t.Errorf("cluster %q: got %s/%s, want %s/%s", c.cluster, client.ClusterVersion(), client.ManagedClusterVersion(), c.wantCluster, c.wantManaged)
		}
	}
	cfg := testConfig("https://acc.example.com/base/")
	cfg.Token = "  Bearer abc  "
	cfg.MaxRetries = -4
	cfg.RetryWaitMin, cfg.RetryWaitMax, cfg.RequestTimeout = 0, 0, 0
	client, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if client.token != "abc" || client.base.String() != "https://acc.example.com/base" {
		t.Errorf("token %q base %q", client.token, client.base)
	}
	if client.http.RetryMax != 0 || client.http.RetryWaitMin != time.Second || client.http.RetryWaitMax != 30*time.Second ||
		client.http.HTTPClient.Timeout != 60*time.Second {
		t.Errorf("defaults: retries %d, wait %v..%v, timeout %v", client.http.RetryMax, client.http.RetryWaitMin,
			client.http.RetryWaitMax, client.http.HTTPClient.Timeout)
	}
}

func TestUserAgent(t *testing.T) {
	cases := []struct{ provider, terraform, want string }{
		{"0.1.0", "1.5.7", "terraform-provider-astra/0.1.0 (+https://registry.terraform.io/providers/astra-control/astra) Terraform/1.5.7"},
		{"", "", "terraform-provider-astra/dev (+https://registry.terraform.io/providers/astra-control/astra)"},
	}
	for _, c := range cases {
		if got := UserAgent(c.provider, c.terraform); got != c.want {
			t.Errorf("UserAgent(%q, %q) = %q", c.provider, c.terraform, got)
		}
	}
}

func TestPrintingNeverShowsTheToken(t *testing.T) {
	cfg := testConfig("https://astra.example.com")
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"%v", "%+v", "%#v", "%s"} {
		for _, v := range []any{cfg, c} {
			if out := fmt.Sprintf(format, v); strings.Contains(out, testToken) || !strings.Contains(out, testAccount) {
				t.Errorf("%s of %T: %s", format, v, out)
			}
		}
	}
}
