// Package config turns the provider block and its environment variables into a ready API
// client. It owns the argument names, their fallbacks and defaults, and their validation.
package config

import (
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

// Model is the provider block as the framework decodes it.
type Model struct {
	Endpoint           types.String `tfsdk:"endpoint"`
	AccountID          types.String `tfsdk:"account_id"`
	APIToken           types.String `tfsdk:"api_token"`
	CACertificate      types.String `tfsdk:"ca_certificate"`
	CACertificateFile  types.String `tfsdk:"ca_certificate_file"`
	InsecureSkipVerify types.Bool   `tfsdk:"insecure_skip_verify"`
	AllowPlaintext     types.Bool   `tfsdk:"allow_plaintext_endpoint"`
	APIVersion         types.String `tfsdk:"api_version"`
	RequestTimeout     types.String `tfsdk:"request_timeout"`
	MaxRetries         types.Int64  `tfsdk:"max_retries"`
	ReadMaxAge         types.String `tfsdk:"read_max_age"`
	ConditionalWrites  types.Bool   `tfsdk:"conditional_writes"`
}

// Environment variables, one per argument.
const (
	EnvEndpoint           = "ASTRA_ENDPOINT"
	EnvAccountID          = "ASTRA_ACCOUNT_ID"
	EnvAPIToken           = "ASTRA_API_TOKEN"
	EnvCACertificate      = "ASTRA_CA_CERTIFICATE"
	EnvCACertificateFile  = "ASTRA_CA_CERTIFICATE_FILE"
	EnvInsecureSkipVerify = "ASTRA_INSECURE_SKIP_VERIFY"
	EnvAllowPlaintext     = "ASTRA_ALLOW_PLAINTEXT_ENDPOINT"
	EnvAPIVersion         = "ASTRA_API_VERSION"
	EnvRequestTimeout     = "ASTRA_REQUEST_TIMEOUT"
	EnvMaxRetries         = "ASTRA_MAX_RETRIES"
	EnvReadMaxAge         = "ASTRA_READ_MAX_AGE"
	EnvConditionalWrites  = "ASTRA_CONDITIONAL_WRITES"
)

// Defaults applied when neither the argument nor its variable is set.
const (
	DefaultEndpoint       = "https://astra.netapp.io"
	DefaultAPIVersion     = "1.5"
	DefaultRequestTimeout = "60s"
	DefaultMaxRetries     = 8
	DefaultReadMaxAge     = "10s"
)

// APIVersions are the cluster resource versions the provider can send.
var APIVersions = []string{"1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7"}

// Schema is the provider block. Every argument is optional: each falls back to its
// environment variable, and missing required values are reported at the first API call.
func Schema() schema.Schema {
	return schema.Schema{
		MarkdownDescription: "The Astra Control provider manages NetApp Astra Control — Astra Control Service " +
			"(SaaS, `https://astra.netapp.io`) and Astra Control Center (on premises) — through its REST API. " +
			"Every argument is optional and falls back to the environment variable named in its description. " +
			"Should a plan or a refresh look wrong, run it again with the environment variable `ASTRA_KNOWN_ANSWERS=off` " +
			"(or `false`, `0`) to rule out the provider's known answers: every request then goes to Terraform's plugin " +
			"framework instead of the faster answers the provider gives where it can prove the framework's are the same " +
			"(a different outcome is a bug to report). `on`, `true`, `1` or unset is the default; any other value is an " +
			"error at configure time.",
		Attributes: map[string]schema.Attribute{
			"endpoint": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Base URL of Astra Control, without `/accounts/...`. Defaults to `" + DefaultEndpoint +
					"` (Astra Control Service); for Astra Control Center use its FQDN, e.g. `https://astra.example.com`. " +
					"`http://` is accepted only on a loopback address (a local simulator) or with `allow_plaintext_endpoint`. " +
					"Environment: `" + EnvEndpoint + "`.",
				Validators: []validator.String{validate.HTTPURL()},
			},
			"account_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Astra account ID (a UUID, shown in the UI under *API access*). Required. " +
					"Environment: `" + EnvAccountID + "`.",
				Validators: []validator.String{validate.UUID()},
			},
			"api_token": schema.StringAttribute{
				Optional:  true,
				Sensitive: true,
				MarkdownDescription: "API token, sent as `Authorization: Bearer` to the endpoint's scheme, host and port only " +
					"(a redirect anywhere else is an error, never followed), over TLS unless the endpoint is a loopback address " +
					"or `allow_plaintext_endpoint` is true; never logged. Required. " +
					"Environment: `" + EnvAPIToken + "`.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"ca_certificate": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "PEM bundle of certificate authorities trusted in addition to the system roots, " +
					"for an Astra Control Center behind a private CA or a self-signed certificate. Conflicts with " +
					"`ca_certificate_file`. Environment: `" + EnvCACertificate + "`.",
				Validators: []validator.String{
					validate.PEMBundle(),
					stringvalidator.ConflictsWith(path.MatchRoot("ca_certificate_file")),
				},
			},
			"ca_certificate_file": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Path to a PEM bundle, as `ca_certificate`. Conflicts with `ca_certificate`. " +
					"Environment: `" + EnvCACertificateFile + "`.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"insecure_skip_verify": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Skip TLS certificate verification. Defaults to `false`. Prefer `ca_certificate`: " +
					"when this is true every run shows a warning. Environment: `" + EnvInsecureSkipVerify + "`.",
			},
			"allow_plaintext_endpoint": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Accept an `http://` endpoint on a host that is not a loopback address. Defaults to `false`: " +
					"such an endpoint is an error, because every request carries the API token, which would cross the network " +
					"in clear text. For a test installation only; when true and used, every run shows a warning. `http://` to " +
					"`127.0.0.0/8`, `::1` or `localhost` is always accepted. The host is judged as written, without a DNS lookup: " +
					"another name that resolves to a loopback address needs this too. Environment: `" + EnvAllowPlaintext + "`.",
			},
			"api_version": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Cluster resource version sent in request bodies, `1.0` to `1.7`. Defaults to `" +
					DefaultAPIVersion + "` (Astra Control Service 23.07). Arguments the chosen version does not have are " +
					"refused at plan time. Environment: `" + EnvAPIVersion + "`.",
				Validators: []validator.String{stringvalidator.OneOf(APIVersions...)},
			},
			"request_timeout": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Time limit of one HTTP request, as a Go duration. Defaults to `" + DefaultRequestTimeout +
					"`. Waiting for a cluster is bounded by the resource's `timeouts`, not by this. Environment: `" +
					EnvRequestTimeout + "`.",
				Validators: []validator.String{validate.PositiveDuration()},
			},
			"max_retries": schema.Int64Attribute{
				Optional: true,
				MarkdownDescription: "How many times a retryable request is retried (transport errors, 429, 502, 503, 504; " +
					"a create only on 429 and 503). Defaults to `8`. Environment: `" + EnvMaxRetries + "`.",
				Validators: []validator.Int64{int64validator.Between(0, 100)},
			},
			"read_max_age": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "How old a listing made earlier in the same CLI command may be when a refresh answers " +
					"from it, as a Go duration. Reads that run together are served by shared list calls, so a plan of " +
					"many clusters costs a few requests instead of one per cluster; a listing never answers for an object " +
					"this provider wrote after the listing started, and waits always read anew. Defaults to `" +
					DefaultReadMaxAge + "`; `0s` turns sharing off (every read is its own request). Environment: `" +
					EnvReadMaxAge + "`.",
				Validators: []validator.String{validate.NonNegativeDuration()},
			},
			"conditional_writes": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Whether an update is sent with `If-Match`, the ETag of the read it was built from, so " +
					"that a change someone else made in between is never overwritten (the update reads again and retries " +
					"instead). Defaults to `true`. The provider already goes without the condition where it cannot work: " +
					"when the service answers no ETag or a weak one (a compressing proxy), and, with a warning, for an object " +
					"whose service refuses the very ETag it has just answered. Set `false` only when a proxy in front of " +
					"Astra Control mangles `If-Match` or ETags in another way that makes every update fail with \"changed " +
					"during the apply\": updates then overwrite whatever another writer changed between the provider's " +
					"read and its write. Environment: `" + EnvConditionalWrites + "`.",
			},
		},
	}
}
