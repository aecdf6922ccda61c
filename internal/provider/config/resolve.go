package config

import (
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

// Resolved is the merged configuration. Missing names required arguments that neither HCL
// nor the environment set; they become an error only when a resource calls the API, so a
// configuration that makes no call (or a `terraform validate`) does not fail.
type Resolved struct {
	Client  astra.Config
	Missing []string
}

// Resolve merges the provider block with the environment (HCL wins), applies defaults and
// validates values that came from the environment (HCL values were validated by the schema).
// getenv is os.Getenv outside tests; readFile reads ca_certificate_file.
func Resolve(m Model, getenv func(string) string, readFile func(string) ([]byte, error)) (Resolved, diag.Diagnostics) {
	var diags diag.Diagnostics
	var out Resolved
	c := &out.Client

	str := func(v types.String, attr, env, def string, check func(string) error) string {
		if !v.IsNull() && !v.IsUnknown() {
			return v.ValueString()
		}
		if s := strings.TrimSpace(getenv(env)); s != "" {
			if check != nil {
				if err := check(s); err != nil {
					diags.AddAttributeError(path.Root(attr), "Invalid "+env, err.Error()+". Fix or unset the environment variable "+env+".")
				}
			}
			return s
		}
		return def
	}
	flag := func(v types.Bool, attr, env string) bool {
		if !v.IsNull() && !v.IsUnknown() {
			return v.ValueBool()
		}
		s := strings.TrimSpace(getenv(env))
		if s == "" {
			return false
		}
		b, err := strconv.ParseBool(s)
		if err != nil {
			diags.AddAttributeError(path.Root(attr), "Invalid "+env,
				fmt.Sprintf("%q is not a boolean: use true or false. Fix or unset the environment variable %s.", s, env))
		}
		return b
	}

	c.Endpoint = strings.TrimRight(str(m.Endpoint, "endpoint", EnvEndpoint, DefaultEndpoint, validate.CheckHTTPURL), "/")
	checkAccountsPath(&diags, c.Endpoint, m.Endpoint.IsNull())
	c.AccountID = str(m.AccountID, "account_id", EnvAccountID, "", validate.CheckUUID)
	c.Token = str(m.APIToken, "api_token", EnvAPIToken, "", nil)
	c.ClusterVersion = str(m.APIVersion, "api_version", EnvAPIVersion, DefaultAPIVersion, checkAPIVersion)

	timeout := str(m.RequestTimeout, "request_timeout", EnvRequestTimeout, DefaultRequestTimeout, validate.CheckPositiveDuration)
	c.RequestTimeout, _ = time.ParseDuration(timeout)

	maxAge := str(m.ReadMaxAge, "read_max_age", EnvReadMaxAge, DefaultReadMaxAge, validate.CheckNonNegativeDuration)
	c.ReadMaxAge, _ = time.ParseDuration(maxAge)

	c.MaxRetries = DefaultMaxRetries
	switch {
	case !m.MaxRetries.IsNull() && !m.MaxRetries.IsUnknown():
		c.MaxRetries = int(m.MaxRetries.ValueInt64())
	case getenv(EnvMaxRetries) != "":
		n, err := strconv.Atoi(strings.TrimSpace(getenv(EnvMaxRetries)))
		if err != nil || n < 0 || n > 100 {
			diags.AddAttributeError(path.Root("max_retries"), "Invalid "+EnvMaxRetries,
				fmt.Sprintf("%q is not a whole number from 0 to 100. Fix or unset the environment variable %s.", getenv(EnvMaxRetries), EnvMaxRetries))
		} else {
			c.MaxRetries = n
		}
	}

	switch {
	case !m.InsecureSkipVerify.IsNull() && !m.InsecureSkipVerify.IsUnknown():
		c.InsecureSkipVerify = m.InsecureSkipVerify.ValueBool()
	case getenv(EnvInsecureSkipVerify) != "":
		b, err := strconv.ParseBool(strings.TrimSpace(getenv(EnvInsecureSkipVerify)))
		if err != nil {
			diags.AddAttributeError(path.Root("insecure_skip_verify"), "Invalid "+EnvInsecureSkipVerify,
				fmt.Sprintf("%q is not a boolean: use true or false. Fix or unset the environment variable %s.", getenv(EnvInsecureSkipVerify), EnvInsecureSkipVerify))
		}
		c.InsecureSkipVerify = b
	}
	if c.InsecureSkipVerify {
		diags.AddAttributeWarning(path.Root("insecure_skip_verify"), "TLS verification is disabled",
			"insecure_skip_verify is true: the provider accepts any certificate from "+c.Endpoint+", so a machine in the middle could read the API token. "+
				"Trust the server's CA with ca_certificate or ca_certificate_file instead.")
	}

	c.AllowPlaintext = flag(m.AllowPlaintext, "allow_plaintext_endpoint", EnvAllowPlaintext)
	// Conditional writes are on unless the argument or its variable says false.
	c.NoConditionalWrites = (!m.ConditionalWrites.IsNull() || strings.TrimSpace(getenv(EnvConditionalWrites)) != "") &&
		!flag(m.ConditionalWrites, "conditional_writes", EnvConditionalWrites)
	checkPlaintext(&diags, c.Endpoint, m.Endpoint.IsNull(), c.AllowPlaintext)

	caPEM := str(m.CACertificate, "ca_certificate", EnvCACertificate, "", validate.CheckPEMBundle)
	caFile := str(m.CACertificateFile, "ca_certificate_file", EnvCACertificateFile, "", nil)
	switch {
	case caPEM != "" && caFile != "":
		diags.AddAttributeError(path.Root("ca_certificate_file"), "Conflicting CA settings",
			"Both ca_certificate and ca_certificate_file are set (in HCL or through "+EnvCACertificate+" / "+EnvCACertificateFile+"). Set only one.")
	case caFile != "":
		data, err := readFile(caFile)
		if err != nil {
			diags.AddAttributeError(path.Root("ca_certificate_file"), "Cannot read ca_certificate_file",
				fmt.Sprintf("Reading %s: %v. Give the path of a readable PEM bundle.", caFile, err))
			break
		}
		if err := validate.CheckPEMBundle(string(data)); err != nil {
			diags.AddAttributeError(path.Root("ca_certificate_file"), "Invalid ca_certificate_file", caFile+": "+err.Error())
			break
		}
		c.CACertPEM = data
	case caPEM != "":
		c.CACertPEM = []byte(caPEM)
	}

	if c.AccountID == "" {
		out.Missing = append(out.Missing, "account_id ("+EnvAccountID+")")
	}
	if c.Token == "" {
		out.Missing = append(out.Missing, "api_token ("+EnvAPIToken+")")
	}
	return out, diags
}

// ResolveFromEnvironment is Resolve with the process environment and file system.
func ResolveFromEnvironment(m Model) (Resolved, diag.Diagnostics) {
	return Resolve(m, os.Getenv, os.ReadFile)
}

// checkPlaintext refuses an http:// endpoint on a host that is not a loopback address (the
// token would cross the network in clear text) unless allowed, and warns when it is allowed.
// The host is judged as written: no DNS lookup at configure time.
func checkPlaintext(diags *diag.Diagnostics, endpoint string, fromEnv, allowed bool) {
	u, err := url.Parse(endpoint)
	if err != nil || !astra.PlaintextToRemote(u) {
		return
	}
	name := "endpoint"
	if fromEnv {
		name += " (from " + EnvEndpoint + ")"
	}
	if allowed {
		diags.AddAttributeWarning(path.Root("allow_plaintext_endpoint"), "Plaintext endpoint allowed",
			fmt.Sprintf("allow_plaintext_endpoint is true: the API token crosses the network to %s in clear text, readable by any "+
				"machine on the way. Use it for a test installation only.", u.Redacted()))
		return
	}
	host := u.Hostname()
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	diags.AddAttributeError(path.Root("endpoint"), "Plaintext endpoint refused",
		fmt.Sprintf("%s %q is plain http to a host that is not a loopback address: every request carries the API token, "+
			"which would cross the network in clear text. Use https (for example \"https://%s\") or, for a test installation "+
			"only, set allow_plaintext_endpoint = true (or %s=true).", name, u.Redacted(), host, EnvAllowPlaintext))
}

// checkAccountsPath refuses an endpoint that holds the account's path (a URL copied from
// the API documentation or the browser): the provider adds /accounts/<account_id> itself.
func checkAccountsPath(diags *diag.Diagnostics, endpoint string, fromEnv bool) {
	u, err := url.Parse(endpoint)
	if err != nil {
		return
	}
	before, after, found := strings.Cut(u.Path, "/accounts")
	if !found || (after != "" && !strings.HasPrefix(after, "/")) {
		return
	}
	name, set := "endpoint", "endpoint"
	if fromEnv {
		name, set = "endpoint (from "+EnvEndpoint+")", EnvEndpoint
	}
	base := *u
	base.Path, base.RawPath = strings.TrimRight(before, "/"), ""
	account := strings.Trim(strings.SplitN(strings.TrimPrefix(after, "/"), "/", 2)[0], " ")
	fix := fmt.Sprintf("Set %s to %q", set, base.Redacted())
	if account != "" {
		fix += fmt.Sprintf(" and account_id (or %s) to %q", EnvAccountID, account)
	}
	diags.AddAttributeError(path.Root("endpoint"), "Endpoint includes the account path",
		fmt.Sprintf("%s %q includes /accounts/...: the provider adds /accounts/<account_id> to every request itself. %s.",
			name, u.Redacted(), fix))
}

func checkAPIVersion(s string) error {
	for _, v := range APIVersions {
		if v == s {
			return nil
		}
	}
	return fmt.Errorf("%q is not a supported cluster resource version; use one of %s", s, strings.Join(APIVersions, ", "))
}

// HasUnknown reports whether a value is unknown at configure time (it depends on a resource
// not yet created); the provider then defers building a client.
func (m Model) HasUnknown() bool {
	return m.Endpoint.IsUnknown() || m.AccountID.IsUnknown() || m.APIToken.IsUnknown() ||
		m.CACertificate.IsUnknown() || m.CACertificateFile.IsUnknown() || m.InsecureSkipVerify.IsUnknown() || m.AllowPlaintext.IsUnknown() ||
		m.APIVersion.IsUnknown() || m.RequestTimeout.IsUnknown() || m.MaxRetries.IsUnknown() || m.ReadMaxAge.IsUnknown() ||
		m.ConditionalWrites.IsUnknown()
}
