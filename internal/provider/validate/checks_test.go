package validate

import (
	"strings"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/testutil"
)

func TestChecks(t *testing.T) {
	cert := testutil.SelfSignedCertPEM(t)
	cases := []struct {
		name    string
		check   func(string) error
		in      string
		wantErr string // "" means valid
	}{
		{"uuid ok", CheckUUID, "6d4e8a5c-1f2b-4c3d-9e8f-0a1b2c3d4e5f", ""},
		{"uuid short", CheckUUID, "6d4e8a5c-1f2b-4c3d-9e8f", "is not a UUID"},
		{"uuid braces", CheckUUID, "{6d4e8a5c-1f2b-4c3d-9e8f-0a1b2c3d4e5f}", "is not a UUID"},
		{"url https", CheckHTTPURL, "https://astra.netapp.io", ""},
		{"url http port", CheckHTTPURL, "http://127.0.0.1:8080", ""},
		{"url no scheme", CheckHTTPURL, "astra.netapp.io", "is not an http(s) URL"},
		{"url ftp", CheckHTTPURL, "ftp://astra.netapp.io", "is not an http(s) URL"},
		{"url query", CheckHTTPURL, "https://a.example.com/?x=1", "without a query"},
		{"pem ok", CheckPEMBundle, cert, ""},
		{"pem two", CheckPEMBundle, cert + "\n" + cert, ""},
		{"pem empty", CheckPEMBundle, "  ", "is empty"},
		{"pem junk", CheckPEMBundle, "hello", "not a PEM bundle"},
		{"pem trailing junk", CheckPEMBundle, cert + "junk", "after 1 certificate(s)"},
		{"pem key", CheckPEMBundle, "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", `"PRIVATE KEY" block`},
		{"pem bad der", CheckPEMBundle, "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n", "certificate 1 of the PEM bundle cannot be parsed"},
		{"duration ok", CheckPositiveDuration, "1m30s", ""},
		{"duration no unit", CheckPositiveDuration, "60", "is not a duration"},
		{"duration zero", CheckPositiveDuration, "0s", "longer than zero"},
		{"duration negative", CheckPositiveDuration, "-5s", "longer than zero"},
		{"non-negative duration zero", CheckNonNegativeDuration, "0s", ""},
		{"non-negative duration ok", CheckNonNegativeDuration, "10s", ""},
		{"non-negative duration no unit", CheckNonNegativeDuration, "10", "is not a duration"},
		{"non-negative duration negative", CheckNonNegativeDuration, "-1s", "must not be negative; \"0s\" turns it off"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.check(c.in)
			if c.wantErr == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Fatalf("error = %v, want it to contain %q", err, c.wantErr)
			}
		})
	}
}

func TestCheckResourceName(t *testing.T) {
	cases := []struct {
		in, wantErr string
	}{
		{"prod-cluster-1", ""},
		{"api-cluster.example.com:6443", ""},
		{"My Cluster_2", ""},
		{"", "1 to 63 characters"},
		{strings.Repeat("a", 64), "it has 64"},
		{"<script>", "markup (<)"},
		{"a&b", "markup (&)"},
		{"../etc", "path traversal (../)"},
		{"a/b", "path separator (/)"},
		{"x'; DROP TABLE", "SQL metacharacter"},
		{"a--b", "SQL comment (--)"},
		{"clüster", "printable ASCII; character 3"},
		{"tab\there", "printable ASCII"},
	}
	for _, c := range cases {
		err := CheckResourceName(c.in, 63)
		switch {
		case c.wantErr == "" && err != nil:
			t.Errorf("%q: unexpected error %v", c.in, err)
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("%q: error = %v, want %q", c.in, err, c.wantErr)
		}
	}
}

// TestCheckServiceAccountJSON: the JSON parses and is an object; for gcp it is a key file.
// No error quotes the file, which holds the private key.
func TestCheckServiceAccountJSON(t *testing.T) {
	const secret = "PRIVATE-KEY-MATERIAL"
	gcp := `{"type":"service_account","client_email":"sa@p.iam.gserviceaccount.com","private_key":"` + secret + `"}`
	cases := []struct {
		name, in, cloudType, wantErr string
	}{
		{"gcp key file", gcp, "gcp", ""},
		{"gcp any casing", gcp, "GCP", ""},
		{"azure object", `{"clientId":"` + secret + `"}`, "azure", ""},
		{"unknown cloud type checks JSON only", `{"a":1}`, "", ""},
		{"not JSON", `{"private_key": "` + secret + `"`, "gcp", "is not valid JSON (a syntax error at byte"},
		{"bad character", secret, "aws", "is not valid JSON (a syntax error at byte 1)"},
		{"array", `["` + secret + `"]`, "aws", "is JSON but not an object"},
		{"gcp other type", `{"type":"authorized_user","client_email":"a","private_key":"` + secret + `"}`, "gcp", `needs "type": "service_account"`},
		{"gcp no email", `{"type":"service_account","private_key":"` + secret + `"}`, "gcp", `needs a non-empty "client_email"`},
		{"gcp empty key", `{"type":"service_account","client_email":"a","private_key":""}`, "gcp", `needs a non-empty "private_key"`},
		{"aws needs no gcp members", `{"type":"x"}`, "aws", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := CheckServiceAccountJSON(c.in, c.cloudType)
			switch {
			case c.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Fatalf("error = %v, want it to contain %q", err, c.wantErr)
			case err != nil && (strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), "PRIVATE")):
				t.Fatalf("the error quotes the key file: %v", err)
			case err != nil && !strings.Contains(err.Error(), `file("service-account.json")`):
				t.Fatalf("the error says no fix: %v", err)
			}
		})
	}
}
