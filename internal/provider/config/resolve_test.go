package config

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/testutil"
)

func nullModel() Model {
	return Model{
		Endpoint: types.StringNull(), AccountID: types.StringNull(), APIToken: types.StringNull(),
		CACertificate: types.StringNull(), CACertificateFile: types.StringNull(), InsecureSkipVerify: types.BoolNull(),
		APIVersion: types.StringNull(), RequestTimeout: types.StringNull(), MaxRetries: types.Int64Null(),
		ReadMaxAge: types.StringNull(), ConditionalWrites: types.BoolNull(),
	}
}

// conditional_writes is on by default, off by the argument or the variable (the argument
// wins), and a variable that is not a boolean is an error naming it.
func TestResolveConditionalWrites(t *testing.T) {
	off, on := types.BoolValue(false), types.BoolValue(true)
	for _, c := range []struct {
		name    string
		hcl     types.Bool
		env     string
		wantOff bool
		wantErr string
	}{
		{"default", types.BoolNull(), "", false, ""},
		{"argument false", off, "", true, ""},
		{"variable false", types.BoolNull(), "false", true, ""},
		{"variable true", types.BoolNull(), "TRUE", false, ""},
		{"the argument wins", on, "false", false, ""},
		{"a variable that is no boolean", types.BoolNull(), "sometimes", false, "Invalid ASTRA_CONDITIONAL_WRITES"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := nullModel()
			m.ConditionalWrites = c.hcl
			r, d := Resolve(m, envOf(map[string]string{EnvConditionalWrites: c.env}), noFile)
			if got := diagText(d); (c.wantErr == "") != !d.HasError() || !strings.Contains(got, c.wantErr) {
				t.Fatalf("diagnostics %q, want one containing %q", got, c.wantErr)
			}
			if !d.HasError() && r.Client.NoConditionalWrites != c.wantOff {
				t.Errorf("NoConditionalWrites = %v, want %v", r.Client.NoConditionalWrites, c.wantOff)
			}
		})
	}
}

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func noFile(string) ([]byte, error) { return nil, errors.New("no such file") }

func diagText(d diag.Diagnostics) string {
	var b strings.Builder
	for _, x := range d {
		b.WriteString(x.Severity().String() + ": " + x.Summary() + ": " + x.Detail() + "\n")
	}
	return b.String()
}

const acct = "6d4e8a5c-1f2b-4c3d-9e8f-0a1b2c3d4e5f"

func TestResolveDefaults(t *testing.T) {
	r, d := Resolve(nullModel(), envOf(nil), noFile)
	if d.HasError() {
		t.Fatal(diagText(d))
	}
	c := r.Client
	if c.Endpoint != DefaultEndpoint || c.ClusterVersion != "1.5" || c.RequestTimeout != 60*time.Second || c.MaxRetries != 8 || c.InsecureSkipVerify ||
		c.ReadMaxAge != 10*time.Second {
		t.Fatalf("defaults not applied: %+v", c)
	}
	if strings.Join(r.Missing, ";") != "account_id (ASTRA_ACCOUNT_ID);api_token (ASTRA_API_TOKEN)" {
		t.Fatalf("Missing = %v", r.Missing)
	}
}

func TestResolveEnvironmentFallbackAndHCLPrecedence(t *testing.T) {
	env := envOf(map[string]string{
		EnvEndpoint: "https://acc.example.com/", EnvAccountID: acct, EnvAPIToken: "env-token",
		EnvAPIVersion: "1.7", EnvRequestTimeout: "2m", EnvMaxRetries: "3", EnvInsecureSkipVerify: "false",
		EnvReadMaxAge: "0s",
	})
	r, d := Resolve(nullModel(), env, noFile)
	if d.HasError() {
		t.Fatal(diagText(d))
	}
	c := r.Client
	if c.Endpoint != "https://acc.example.com" || c.AccountID != acct || c.Token != "env-token" || c.ClusterVersion != "1.7" ||
		c.RequestTimeout != 2*time.Minute || c.MaxRetries != 3 || c.ReadMaxAge != 0 || len(r.Missing) != 0 {
		t.Fatalf("environment not used: %+v missing=%v", c, r.Missing)
	}

	m := nullModel()
	m.APIToken = types.StringValue("hcl-token")
	m.MaxRetries = types.Int64Value(0)
	m.APIVersion = types.StringValue("1.4")
	m.ReadMaxAge = types.StringValue("1m")
	r, _ = Resolve(m, env, noFile)
	if r.Client.Token != "hcl-token" || r.Client.MaxRetries != 0 || r.Client.ClusterVersion != "1.4" || r.Client.ReadMaxAge != time.Minute {
		t.Fatalf("HCL must win over the environment: %+v", r.Client)
	}
}

func TestResolveInvalidEnvironmentNamesTheVariable(t *testing.T) {
	cases := []struct {
		env, value, want string
	}{
		{EnvEndpoint, "astra.example.com", "Invalid ASTRA_ENDPOINT"},
		{EnvAccountID, "123", "Invalid ASTRA_ACCOUNT_ID"},
		{EnvAPIVersion, "2.0", "Invalid ASTRA_API_VERSION"},
		{EnvRequestTimeout, "60", "Invalid ASTRA_REQUEST_TIMEOUT"},
		{EnvMaxRetries, "many", "Invalid ASTRA_MAX_RETRIES"},
		{EnvMaxRetries, "-1", "Invalid ASTRA_MAX_RETRIES"},
		{EnvInsecureSkipVerify, "yes please", "Invalid ASTRA_INSECURE_SKIP_VERIFY"},
		{EnvReadMaxAge, "10", "Invalid ASTRA_READ_MAX_AGE"},
		{EnvReadMaxAge, "-1s", "Invalid ASTRA_READ_MAX_AGE"},
		{EnvCACertificate, "not pem", "Invalid ASTRA_CA_CERTIFICATE"},
	}
	for _, c := range cases {
		_, d := Resolve(nullModel(), envOf(map[string]string{c.env: c.value}), noFile)
		text := diagText(d)
		if !d.HasError() || !strings.Contains(text, c.want) || !strings.Contains(text, "environment variable "+c.env) {
			t.Errorf("%s=%q: diagnostics %q, want %q naming the variable", c.env, c.value, text, c.want)
		}
	}
}

func TestResolveCACertificates(t *testing.T) {
	testCA := testutil.SelfSignedCertPEM(t)
	m := nullModel()
	m.CACertificateFile = types.StringValue("/ca.pem")
	r, d := Resolve(m, envOf(nil), func(p string) ([]byte, error) {
		if p != "/ca.pem" {
			t.Fatalf("read %s", p)
		}
		return []byte(testCA), nil
	})
	if d.HasError() || string(r.Client.CACertPEM) != testCA {
		t.Fatalf("ca file not loaded: %s", diagText(d))
	}

	_, d = Resolve(m, envOf(nil), noFile)
	if !strings.Contains(diagText(d), "Reading /ca.pem: no such file") {
		t.Fatalf("unreadable file: %s", diagText(d))
	}

	_, d = Resolve(m, envOf(nil), func(string) ([]byte, error) { return []byte("junk"), nil })
	if !strings.Contains(diagText(d), "Invalid ca_certificate_file: /ca.pem: the value is not a PEM bundle") {
		t.Fatalf("junk file: %s", diagText(d))
	}

	_, d = Resolve(m, envOf(map[string]string{EnvCACertificate: testCA}), noFile)
	if !strings.Contains(diagText(d), "Conflicting CA settings") {
		t.Fatalf("conflict not reported: %s", diagText(d))
	}
}

func TestResolveInsecureWarns(t *testing.T) {
	m := nullModel()
	m.InsecureSkipVerify = types.BoolValue(true)
	r, d := Resolve(m, envOf(nil), noFile)
	if d.HasError() || d.WarningsCount() != 1 || !r.Client.InsecureSkipVerify {
		t.Fatalf("want one warning: %s", diagText(d))
	}
	if !strings.Contains(d.Warnings()[0].Summary(), "TLS verification is disabled") {
		t.Fatalf("warning text: %s", diagText(d))
	}
}

func TestClientsReportMissingAtFirstUse(t *testing.T) {
	r, _ := Resolve(nullModel(), envOf(nil), noFile)
	client, d := NewClients(r).Client()
	if client != nil || !strings.Contains(diagText(d), "missing account_id (ASTRA_ACCOUNT_ID) and api_token (ASTRA_API_TOKEN)") {
		t.Fatalf("got %v, %s", client, diagText(d))
	}
	_, d = Deferred().Client()
	if !strings.Contains(diagText(d), "not known yet") {
		t.Fatal(diagText(d))
	}
}

func TestUserAgent(t *testing.T) {
	if got := UserAgent("1.2.3", "1.5.7"); got != "terraform-provider-astra/1.2.3 (+https://registry.terraform.io/providers/astra-control/astra) Terraform/1.5.7" {
		t.Fatal(got)
	}
}

// TestResolvePlaintextEndpoint: plain http is refused on a host that is not written as a
// loopback address unless allow_plaintext_endpoint (or its variable) says so, with a warning.
func TestResolvePlaintextEndpoint(t *testing.T) {
	cases := []struct {
		name     string
		endpoint string // in HCL; "" leaves it to env
		allow    types.Bool
		env      map[string]string
		want     string // "" no diagnostic; "error: ..." or "warning: ..." with the text it contains
	}{
		{"https is fine", "https://astra.example.com", types.BoolNull(), nil, ""},
		{"loopback IPv4", "http://127.0.0.1:8080", types.BoolNull(), nil, ""},
		{"loopback elsewhere in 127/8", "http://127.3.2.1", types.BoolNull(), nil, ""},
		{"loopback IPv6", "http://[::1]:8080", types.BoolNull(), nil, ""},
		{"localhost", "http://LOCALHOST:9000", types.BoolNull(), nil, ""},
		{"remote name", "http://astra.example.com", types.BoolNull(), nil,
			`error: Plaintext endpoint refused: endpoint "http://astra.example.com" is plain http to a host that is not a loopback ` +
				`address: every request carries the API token, which would cross the network in clear text. Use https ` +
				`(for example "https://astra.example.com") or, for a test installation only, set allow_plaintext_endpoint = true ` +
				`(or ASTRA_ALLOW_PLAINTEXT_ENDPOINT=true).`},
		{"a name resolving to loopback is judged as written", "http://localhost.example.com", types.BoolNull(), nil,
			"error: Plaintext endpoint refused"},
		{"remote IPv6", "http://[fd00::5]:8080", types.BoolNull(), nil, `(for example "https://[fd00::5]")`},
		{"remote from the environment", "", types.BoolNull(), map[string]string{EnvEndpoint: "http://10.0.0.5:8080/"},
			`error: Plaintext endpoint refused: endpoint (from ASTRA_ENDPOINT) "http://10.0.0.5:8080" is plain http`},
		{"allowed in HCL", "http://astra.example.com", types.BoolValue(true), nil,
			"warning: Plaintext endpoint allowed: allow_plaintext_endpoint is true: the API token crosses the network to http://astra.example.com in clear text"},
		{"allowed by the environment", "http://astra.example.com", types.BoolNull(), map[string]string{EnvAllowPlaintext: " TRUE "},
			"warning: Plaintext endpoint allowed"},
		{"HCL false wins over the environment", "http://astra.example.com", types.BoolValue(false), map[string]string{EnvAllowPlaintext: "true"},
			"error: Plaintext endpoint refused"},
		{"allowed but unused: no warning", "https://astra.example.com", types.BoolValue(true), nil, ""},
		{"invalid variable", "https://astra.example.com", types.BoolNull(), map[string]string{EnvAllowPlaintext: "sure"},
			`error: Invalid ASTRA_ALLOW_PLAINTEXT_ENDPOINT: "sure" is not a boolean: use true or false. Fix or unset the environment variable ASTRA_ALLOW_PLAINTEXT_ENDPOINT.`},
	}
	for _, c := range cases {
		m := nullModel()
		if c.endpoint != "" {
			m.Endpoint = types.StringValue(c.endpoint)
		}
		m.AllowPlaintext = c.allow
		r, d := Resolve(m, envOf(c.env), noFile)
		text := strings.ToLower(diagText(d))
		switch {
		case c.want == "" && len(d) != 0:
			t.Errorf("%s: unexpected diagnostics %s", c.name, diagText(d))
		case c.want != "" && (len(d) != 1 || !strings.Contains(text, strings.ToLower(c.want))):
			t.Errorf("%s: diagnostics %q, want one containing %q", c.name, diagText(d), c.want)
		}
		wantPath := "endpoint"
		if strings.Contains(c.want, "Invalid ") {
			wantPath = "allow_plaintext_endpoint"
		}
		if e := d.Errors(); len(e) == 1 && e[0].(diag.DiagnosticWithPath).Path().String() != wantPath {
			t.Errorf("%s: the error is on %s, want %s", c.name, e[0].(diag.DiagnosticWithPath).Path(), wantPath)
		}
		if want := c.allow.ValueBool() || strings.HasPrefix(c.want, "warning"); r.Client.AllowPlaintext != want {
			t.Errorf("%s: AllowPlaintext = %v, want %v", c.name, r.Client.AllowPlaintext, want)
		}
	}
}

// TestResolveRefusesAccountsPathInEndpoint: an endpoint copied with its /accounts/<id> path
// is refused at configure time, on endpoint, with the base URL and the account ID to set.
func TestResolveRefusesAccountsPathInEndpoint(t *testing.T) {
	const account = "7c1f3a52-9e4b-4d8a-b6e2-5f0a1c3d9b47"
	cases := []struct {
		name, endpoint string
		env            map[string]string
		want           string // "" no diagnostic
	}{
		{"base URL", "https://astra.example.com", nil, ""},
		{"a path that only starts like accounts", "https://astra.example.com/accountsvc", nil, ""},
		{"with the account", "https://astra.example.com/accounts/" + account, nil,
			`Error: Endpoint includes the account path: endpoint "https://astra.example.com/accounts/` + account + `" includes ` +
				`/accounts/...: the provider adds /accounts/<account_id> to every request itself. Set endpoint to ` +
				`"https://astra.example.com" and account_id (or ASTRA_ACCOUNT_ID) to "` + account + `".`},
		{"under a prefix, with more path", "https://acc.example.com/astra/accounts/" + account + "/topology/v1/clouds", nil,
			`Set endpoint to "https://acc.example.com/astra" and account_id (or ASTRA_ACCOUNT_ID) to "` + account + `".`},
		{"from the environment", "", map[string]string{EnvEndpoint: "https://astra.example.com/accounts/"},
			`Error: Endpoint includes the account path: endpoint (from ASTRA_ENDPOINT) "https://astra.example.com/accounts" includes ` +
				`/accounts/...: the provider adds /accounts/<account_id> to every request itself. Set ASTRA_ENDPOINT to "https://astra.example.com".`},
	}
	for _, c := range cases {
		m := nullModel()
		if c.endpoint != "" {
			m.Endpoint = types.StringValue(c.endpoint)
		}
		_, d := Resolve(m, envOf(c.env), noFile)
		switch {
		case c.want == "" && d.HasError():
			t.Errorf("%s: unexpected diagnostics %s", c.name, diagText(d))
		case c.want != "" && (d.ErrorsCount() != 1 || !strings.Contains(diagText(d), c.want)):
			t.Errorf("%s: diagnostics %q, want one containing %q", c.name, diagText(d), c.want)
		case c.want != "":
			if p, ok := d.Errors()[0].(diag.DiagnosticWithPath); !ok || !p.Path().Equal(path.Root("endpoint")) {
				t.Errorf("%s: the error is not on endpoint", c.name)
			}
		}
	}
}
