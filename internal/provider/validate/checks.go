// Package validate holds the plan-time checks of the provider's arguments: pure functions
// that say what is wrong and how to fix it, and framework validators built on them, so the
// same rule serves a schema attribute and an environment variable.
package validate

import (
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/labelselector"
)

// astraIdentifier is the published schema's type_astra_identifier, exactly: a lowercase
// version 4 UUID (variant 8, 9, a or b), a lowercase version 5 UUID, or the all-zero UUID.
// The API refuses any other ID, so the provider refuses it at plan time.
var astraIdentifier = regexp.MustCompile(`^(?:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}` +
	`|[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}` +
	`|0{8}-0{4}-0{4}-0{4}-0{12})$`)

var uuidShape = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// CheckUUID accepts exactly the IDs the Astra Control API accepts (type_astra_identifier),
// and says what is wrong with any other.
func CheckUUID(s string) error {
	if astraIdentifier.MatchString(s) {
		return nil
	}
	if !uuidShape.MatchString(s) {
		return fmt.Errorf("%q is not a UUID: expected the form 8-4-4-4-12 lowercase hexadecimal digits, such as 6d4e8a5c-1f2b-4c3d-9e8f-0a1b2c3d4e5f", s)
	}
	lower := strings.ToLower(s)
	if lower != s && astraIdentifier.MatchString(lower) {
		return fmt.Errorf("%q has uppercase letters, and Astra Control accepts IDs only in lowercase: use %q", s, lower)
	}
	if lower[14] == '4' {
		return fmt.Errorf("%q is not an ID Astra Control accepts: in a version 4 UUID the fourth group starts with 8, 9, a or b, not %c", s, s[19])
	}
	return fmt.Errorf("%q is a version %c UUID, and Astra Control accepts only version 4 or 5 UUIDs (or the all-zero UUID): "+
		"copy the ID from Astra Control or from the resource or data source that reads it", s, s[14])
}

// CheckHTTPURL accepts an absolute http or https URL with a host.
func CheckHTTPURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return fmt.Errorf("%q is not an http(s) URL: expected a base URL such as https://astra.netapp.io or https://astra.example.com", s)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("%q must be a base URL without a query or fragment, such as https://astra.example.com", s)
	}
	return nil
}

// CheckPEMBundle requires at least one parseable certificate and nothing but PEM blocks.
func CheckPEMBundle(s string) error {
	rest := []byte(strings.TrimSpace(s))
	count := 0
	for len(rest) > 0 {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			return fmt.Errorf("the value is not a PEM bundle: after %d certificate(s) there is text that is not a PEM block; give one or more blocks of -----BEGIN CERTIFICATE-----", count)
		}
		if block.Type != "CERTIFICATE" {
			return fmt.Errorf("the PEM bundle holds a %q block; only CERTIFICATE blocks are accepted (never a private key)", block.Type)
		}
		if _, err := x509.ParseCertificate(block.Bytes); err != nil {
			return fmt.Errorf("certificate %d of the PEM bundle cannot be parsed: %w", count+1, err)
		}
		rest = []byte(strings.TrimSpace(string(rest)))
		count++
	}
	if count == 0 {
		return fmt.Errorf("the PEM bundle is empty; give one or more blocks of -----BEGIN CERTIFICATE-----")
	}
	return nil
}

// CheckPositiveDuration accepts a Go duration above zero, such as "60s" or "2m30s".
func CheckPositiveDuration(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("%q is not a duration: use a number with a unit, such as \"60s\", \"2m\" or \"1m30s\"", s)
	}
	if d <= 0 {
		return fmt.Errorf("%q must be longer than zero, such as \"60s\"", s)
	}
	return nil
}

// CheckNonNegativeDuration accepts a Go duration of zero or more, such as "0s" or "10s".
func CheckNonNegativeDuration(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("%q is not a duration: use a number with a unit, such as \"10s\" or \"0s\"", s)
	}
	if d < 0 {
		return fmt.Errorf("%q must not be negative; \"0s\" turns it off", s)
	}
	return nil
}

// CheckResourceName applies the rule the API documents for names ("validated to prevent XSS,
// Unicode, directory traversal, and SQL-injection attacks") before the service refuses them.
// A colon stays allowed: the service's own default names (a kubeconfig's cluster name) hold
// host:port.
func CheckResourceName(s string, maxLen int) error {
	if s == "" || len(s) > maxLen {
		return fmt.Errorf("the name must be 1 to %d characters long; it has %d", maxLen, len(s))
	}
	for i, r := range s {
		if r > 0x7e || r < 0x20 {
			return fmt.Errorf("the name must be printable ASCII; character %d (%q) is not", i+1, r)
		}
	}
	for _, bad := range []struct{ frag, what string }{
		{"<", "markup (<)"}, {">", "markup (>)"}, {"&", "markup (&)"},
		{"../", "a path traversal (../)"}, {`..\`, `a path traversal (..\)`}, {"/", "a path separator (/)"}, {`\`, `a path separator (\)`},
		{";", "an SQL metacharacter (;)"}, {"'", "an SQL metacharacter (')"}, {`"`, `an SQL metacharacter (")`},
		{"--", "an SQL comment (--)"}, {"/*", "an SQL comment (/*)"}, {"`", "a backquote"},
	} {
		if strings.Contains(s, bad.frag) {
			return fmt.Errorf("the name holds %s, which Astra Control refuses; use letters, digits, spaces, '-', '_', '.' or ':'", bad.what)
		}
	}
	return nil
}

// CheckKubeconfig accepts what Astra Control stores as a kubeconfig credential: YAML or
// JSON with exactly one cluster and one context (kubeconfig.Parse). The error never quotes
// the kubeconfig: it holds secrets.
func CheckKubeconfig(s string) error {
	return kubeconfigChecks.check(s)
}

// CheckServiceAccountJSON accepts a public cloud's service-account key file as Astra Control
// needs it: JSON that is an object and, for cloudType gcp (any casing), a GCP key file
// (type "service_account", with client_email and private_key). An empty cloudType (not
// known yet) checks only the JSON. The error never quotes the file: it holds a private key.
func CheckServiceAccountJSON(s, cloudType string) error {
	const fix = "use the key file as the cloud provider issued it, for example file(\"service-account.json\")"
	var doc any
	if err := json.Unmarshal([]byte(s), &doc); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			return fmt.Errorf("it is not valid JSON (a syntax error at byte %d): %s", syntax.Offset, fix)
		}
		return fmt.Errorf("it is not valid JSON: %s", fix)
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return fmt.Errorf("it is JSON but not an object ({ ... }): %s", fix)
	}
	if !strings.EqualFold(cloudType, "gcp") {
		return nil
	}
	if t, _ := obj["type"].(string); t != "service_account" {
		return fmt.Errorf("a GCP key file needs \"type\": \"service_account\" (create a key for a service account in the "+
			"Google Cloud console or with gcloud iam service-accounts keys create): %s", fix)
	}
	for _, member := range []string{"client_email", "private_key"} {
		if v, _ := obj[member].(string); v == "" {
			return fmt.Errorf("a GCP key file needs a non-empty %q: %s", member, fix)
		}
	}
	return nil
}

// CheckLabelSelector accepts what Kubernetes parses as a label selector.
func CheckLabelSelector(s string) error {
	if err := labelselector.Validate(s); err != nil {
		return fmt.Errorf("%q is not a Kubernetes label selector: %w", s, err)
	}
	return nil
}

// CheckObjectStoreURL accepts what an S3 bucket's serverURL holds: the endpoint's host (a
// name or an IP address) with an optional port, or an http(s) URL of it, with an optional
// base path; at most 1023 characters, as the published schema allows.
func CheckObjectStoreURL(s string) error {
	const example = "a host such as s3.example.com or 10.0.0.5:443, or a URL such as https://s3.example.com"
	if len(s) == 0 || len(s) > 1023 {
		return fmt.Errorf("the S3 endpoint must be 1 to 1023 characters long; it has %d: give %s", len(s), example)
	}
	if strings.ContainsAny(s, " \t\r\n") {
		return fmt.Errorf("%q holds white space; give %s", s, example)
	}
	raw := s
	if !strings.Contains(s, "://") {
		raw = "https://" + s
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("%q is not an S3 endpoint: give %s (no credentials, query or fragment; the key pair is the credential's)", s, example)
	}
	return nil
}

var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// CheckDNSLabel accepts a Kubernetes name: lower-case letters, digits and '-', starting and
// ending with a letter or digit, 1 to maxLen characters.
func CheckDNSLabel(s string, maxLen int) error {
	if len(s) == 0 || len(s) > maxLen || !dnsLabel.MatchString(s) {
		return fmt.Errorf("%q is not a Kubernetes name: use 1 to %d lower-case letters, digits and '-', starting and ending with a letter or digit", s, maxLen)
	}
	return nil
}
