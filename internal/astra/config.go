package astra

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// Config configures a Client. Only Endpoint, AccountID and Token are required.
type Config struct {
	Endpoint           string        // base URL, e.g. "https://astra.netapp.io" (no /accounts suffix)
	AccountID          string        // used in every path: /accounts/{AccountID}/...
	Token              string        // sent as "Authorization: Bearer <Token>"; never logged
	CACertPEM          []byte        // extra trusted roots, in addition to the system roots
	InsecureSkipVerify bool          // accept any server certificate (self-signed ACC)
	AllowPlaintext     bool          // accept an http:// endpoint on a host that is not a loopback address
	RequestTimeout     time.Duration // per HTTP attempt; 0 -> 60s
	MaxRetries         int           // retries of a retryable request; <0 -> 0
	RetryWaitMin       time.Duration // 0 -> 1s
	RetryWaitMax       time.Duration // 0 -> 30s
	UserAgent          string        // e.g. "terraform-provider-astra/0.1.0 (+https://...) Terraform/1.5.7"
	ClusterVersion     string        // cluster resource version sent in cluster bodies, "1.0".."1.7"; "" -> "1.5"
	HTTPClient         *http.Client  // optional base client; its Transport is cloned, never mutated
	ReadMaxAge         time.Duration // how old a shared listing may be when it answers a read; 0 -> no sharing (see share.go)
	// NoConditionalWrites sends every PUT without If-Match (conditional.go says when a user
	// would want that).
	NoConditionalWrites bool
}

// Resource versions the client sends for the resources whose version does not follow the cluster's.
const (
	CloudVersion      = "1.1"
	CredentialVersion = "1.1"
	BucketVersion     = "1.1" // what actoolkit sends; every release takes 1.0 to 1.2
)

// Defaults applied by New to zero-valued settings.
const (
	DefaultEndpoint       = "https://astra.netapp.io"
	DefaultClusterVersion = "1.5"
	DefaultRequestTimeout = 60 * time.Second
	DefaultRetryWaitMin   = time.Second
	DefaultRetryWaitMax   = 30 * time.Second
	DefaultUserAgent      = "terraform-provider-astra"
)

// ClusterVersions lists the cluster resource versions the client can speak, oldest first.
var ClusterVersions = []string{"1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7"}

// Client talks to one Astra Control account. It is safe for concurrent use.
type Client struct {
	base           *url.URL // endpoint + /accounts/{id}
	accountPath    string   // "/accounts/{id}", the prefix of every path
	token          string
	userAgent      string
	clusterVersion string
	http           *retryablehttp.Client
	share          *sharing // nil when reads are not shared
	conds          *conditions
}

// New validates cfg and builds a Client. TLS settings are applied to a clone of the base
// transport, so neither http.DefaultTransport nor cfg.HTTPClient is ever modified.
func New(cfg Config) (*Client, error) {
	base, err := parseEndpoint(cfg.Endpoint)
	if err != nil {
		return nil, err
	}
	if PlaintextToRemote(base) && !cfg.AllowPlaintext {
		return nil, fmt.Errorf("astra: endpoint %q is plain http to a host that is not a loopback address, so the API token "+
			"would cross the network in clear text; use https, or set AllowPlaintext for a test installation", base.Redacted())
	}
	account := strings.TrimSpace(cfg.AccountID)
	if account == "" {
		return nil, errors.New("astra: the account ID is empty")
	}
	if strings.ContainsAny(account, "/?#") {
		return nil, errors.New("astra: the account ID must not contain '/', '?' or '#'")
	}
	token := normalizeToken(cfg.Token)
	if token == "" {
		return nil, errors.New("astra: the API token is empty")
	}
	version := cfg.ClusterVersion
	if version == "" {
		version = DefaultClusterVersion
	}
	if !isClusterVersion(version) {
		return nil, fmt.Errorf("astra: cluster resource version %q is not one of %s", version, strings.Join(ClusterVersions, ", "))
	}
	httpClient, err := newHTTPClient(cfg)
	if err != nil {
		return nil, err
	}
	accountPath := "/accounts/" + url.PathEscape(account)
	userAgent := strings.TrimSpace(cfg.UserAgent)
	if userAgent == "" {
		userAgent = DefaultUserAgent
	}
	return &Client{
		base:           base,
		accountPath:    accountPath,
		token:          token,
		userAgent:      userAgent,
		clusterVersion: version,
		http:           newRetryingClient(httpClient, cfg),
		share:          newSharing(cfg.ReadMaxAge),
		conds:          &conditions{off: cfg.NoConditionalWrites},
	}, nil
}

// String describes the configuration without its token.
func (cfg Config) String() string {
	return fmt.Sprintf("astra.Config{Endpoint:%q AccountID:%q Token:(redacted) CACertPEM:%d bytes InsecureSkipVerify:%v "+
		"RequestTimeout:%v MaxRetries:%d RetryWaitMin:%v RetryWaitMax:%v UserAgent:%q ClusterVersion:%q ReadMaxAge:%v NoConditionalWrites:%v}",
		cfg.Endpoint, cfg.AccountID, len(cfg.CACertPEM), cfg.InsecureSkipVerify, cfg.RequestTimeout, cfg.MaxRetries,
		cfg.RetryWaitMin, cfg.RetryWaitMax, cfg.UserAgent, cfg.ClusterVersion, cfg.ReadMaxAge, cfg.NoConditionalWrites)
}

// GoString keeps %#v from printing the token.
func (cfg Config) GoString() string { return cfg.String() }

// String describes the client without its token.
func (c *Client) String() string {
	return fmt.Sprintf("astra.Client{%s%s cluster version %s}", c.base, c.accountPath, c.clusterVersion)
}

// GoString keeps %#v from printing the token.
func (c *Client) GoString() string { return c.String() }

// RegistryURL is the provider's page, named in the User-Agent.
const RegistryURL = "https://registry.terraform.io/providers/astra-control/astra"

// UserAgent builds the User-Agent the provider sends, e.g.
// "terraform-provider-astra/0.1.0 (+https://registry.terraform.io/providers/astra-control/astra) Terraform/1.5.7".
// An empty provider version reads "dev"; an empty Terraform version is left out.
func UserAgent(providerVersion, terraformVersion string) string {
	if providerVersion == "" {
		providerVersion = "dev"
	}
	ua := DefaultUserAgent + "/" + providerVersion + " (+" + RegistryURL + ")"
	if terraformVersion != "" {
		ua += " Terraform/" + terraformVersion
	}
	return ua
}

// ClusterVersion is the cluster resource version sent in cluster bodies, e.g. "1.5".
func (c *Client) ClusterVersion() string { return c.clusterVersion }

// ManagedClusterVersion is the managedCluster resource version that was published beside
// the configured cluster version: cluster <=1.5 -> "1.2", 1.6 -> "1.3", 1.7 -> "1.7".
func (c *Client) ManagedClusterVersion() string { return managedClusterVersionFor(c.clusterVersion) }

func managedClusterVersionFor(clusterVersion string) string {
	switch clusterVersion {
	case "1.6":
		return "1.3"
	case "1.7":
		return "1.7"
	default:
		return "1.2"
	}
}

func isClusterVersion(v string) bool {
	for _, known := range ClusterVersions {
		if v == known {
			return true
		}
	}
	return false
}

// parseEndpoint accepts an http(s) base URL without query, fragment or /accounts suffix.
func parseEndpoint(endpoint string) (*url.URL, error) {
	endpoint = strings.TrimSpace(endpoint)
	if endpoint == "" {
		endpoint = DefaultEndpoint
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		return nil, fmt.Errorf("astra: endpoint is not a URL: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("astra: endpoint %q must start with https:// or http://", endpoint)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("astra: endpoint %q has no host", endpoint)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("astra: endpoint %q must be a plain base URL, without credentials, query or fragment", u.Redacted())
	}
	u.Path = strings.TrimRight(u.Path, "/")
	if strings.Contains(u.Path, "/accounts") {
		return nil, fmt.Errorf("astra: endpoint %q must not include /accounts/...; the account ID is configured separately", endpoint)
	}
	u.RawPath = ""
	return u, nil
}

// normalizeToken trims whitespace and a pasted "Bearer " prefix.
func normalizeToken(token string) string {
	token = strings.TrimSpace(token)
	if scheme, rest, found := strings.Cut(token, " "); found && strings.EqualFold(scheme, "bearer") {
		return strings.TrimSpace(rest)
	}
	if strings.EqualFold(token, "bearer") {
		return ""
	}
	return token
}
