// Package provider implements the Astra Control provider: its configuration,
// resources and data sources (schema and CRUD only; the API lives in internal/astra).
package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
	"github.com/astra-control/terraform-provider-astra/internal/provider/config"
)

// typeName is the provider's local name: every resource and data source type starts with "astra_".
const typeName = "astra"

var (
	_ provider.Provider                  = (*astraProvider)(nil)
	_ provider.ProviderWithListResources = (*astraProvider)(nil)
	_ provider.ProviderWithActions       = (*astraProvider)(nil)
	_ knownanswers.CountingProvider      = (*astraProvider)(nil)
)

// astraProvider is the provider served by main.
type astraProvider struct {
	// version is the release version ("dev" for local builds, "test" in tests).
	version string
	opts    options
	// configured is what Configure handed to resources, for the requests the known
	// answers answer (knownanswers.Provider).
	configured atomic.Pointer[providerData]
	// reads outlive each Configure (a provider serving a whole run, as in tests, is
	// configured again for the apply's walk): a create's plan-time checks read each object
	// once per process; run carries what they found to the run's next process.
	reads objectReads
	run   func() *runMemory
	// deferred: Configure answered Deferred, so the framework defers every read and plan
	// and the known answers answer none.
	deferred atomic.Bool
	// answered counts the requests the known answers answered, by kind and type ("read
	// astra_cluster"), over every server of this provider: tests assert them.
	answered knownanswers.Counts
}

// options are settings only tests change: how fast waits poll and retries back off.
type options struct {
	wait               astra.Schedule
	retryMin, retryMax time.Duration
}

// Option changes how the provider polls and retries; the defaults suit a real Astra Control.
type Option func(*options)

// WithWaitSchedule makes waits (for a cluster to run, ...) poll on s instead of
// astra.DefaultSchedule, so tests against the simulator poll in milliseconds.
func WithWaitSchedule(s astra.Schedule) Option {
	return func(o *options) { o.wait = s }
}

// WithRetryWait bounds the back-off between retries of a failed request.
func WithRetryWait(minWait, maxWait time.Duration) Option {
	return func(o *options) { o.retryMin, o.retryMax = minWait, maxWait }
}

// New returns a constructor for the provider, as providerserver.Serve expects.
func New(version string, opts ...Option) func() provider.Provider {
	o := options{wait: astra.DefaultSchedule()}
	for _, opt := range opts {
		opt(&o)
	}
	return func() provider.Provider {
		return &astraProvider{version: version, opts: o, run: sync.OnceValue(openRunMemory)}
	}
}

func (p *astraProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = typeName
	resp.Version = p.version
}

func (p *astraProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = config.Schema()
}

// Configure merges the provider block with the environment and hands the client to every
// resource and data source. A missing account or token is not an error here: it becomes
// one at the first API call, so `validate` and plans that call nothing still work.
func (p *astraProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	defer func() { p.deferred.Store(resp.Deferred != nil) }()
	var m config.Model
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	data := &providerData{version: p.version, wait: p.opts.wait, claims: newClaimSet(), destroys: &destroySet{}}
	data.seen = &seenObjects{reads: &p.reads, run: p.run(), claims: data.claims}
	if m.HasUnknown() {
		data.clients = config.Deferred()
	} else {
		resolved, diags := config.ResolveFromEnvironment(m)
		resp.Diagnostics.Append(diags...)
		if resp.Diagnostics.HasError() {
			return
		}
		resolved.Client.UserAgent = config.UserAgent(p.version, req.TerraformVersion)
		resolved.Client.RetryWaitMin, resolved.Client.RetryWaitMax = p.opts.retryMin, p.opts.retryMax
		data.seen.scope = resolved.Client.Endpoint + " " + resolved.Client.AccountID
		data.clients = config.NewClients(resolved)
	}
	p.configured.Store(data)
	resp.ResourceData = data
	resp.DataSourceData = data
	resp.ListResourceData = data
	resp.ActionData = data
	resp.EphemeralResourceData = data // astra_api_token (issue 47)
}

// ResourceData is what Configure last handed to resources (knownanswers.Provider).
func (p *astraProvider) ResourceData() any {
	if data := p.configured.Load(); data != nil {
		return data
	}
	return nil
}

// ConfigureDeferred: Configure last answered Deferred (knownanswers.Provider).
func (p *astraProvider) ConfigureDeferred() bool { return p.deferred.Load() }

// AnswerCounts are the counts of what the known answers answered (knownanswers.CountingProvider).
func (p *astraProvider) AnswerCounts() *knownanswers.Counts { return &p.answered }

func (p *astraProvider) Resources(_ context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		identifiedByID(newClusterResource),
		identifiedByID(newKubeconfigCredentialResource),
		identifiedByID(newManagedClusterResource),
		identifiedByID(newCloudResource),
		identifiedByID(newS3CredentialResource),
		identifiedByID(newServiceAccountCredentialResource),
		identifiedByID(newBucketResource),
		identifiedByID(newAppResource),
		newProtectionPolicyResource, // its own identity: { app_id, id }
		identifiedByID(newHookSourceResource),
		identifiedByID(newExecutionHookResource),
		newAppSnapshotResource, // its own identity: { app_id, id }
		newAppBackupResource,   // its own identity: { app_id, id }
		// Replication (issue 46)
		identifiedByID(newAppMirrorResource),
		// Identity and access (issue 47).
		identifiedByID(newUserResource),
		identifiedByID(newGroupResource),
		identifiedByID(newRoleBindingResource),
		identifiedByID(newLDAPResource),
	}
}

func (p *astraProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		newCloudDataSource,
		newCloudsDataSource,
		newClusterDataSource,
		newClustersDataSource,
		newStorageClassesDataSource,
		newTridentProtectManifestsDataSource,
		newManagedClusterDataSource,
		newBucketDataSource,
		newBucketsDataSource,
		newAppsDataSource,
		newProtectionPoliciesDataSource,
		newHookSourcesDataSource,
		newExecutionHooksDataSource,
		newAppSnapshotsDataSource,
		newAppBackupsDataSource,
		// Replication (issue 46)
		newAppMirrorsDataSource,
		newStorageBackendsDataSource,
		// Identity and access (issue 47).
		newUsersDataSource,
		newGroupsDataSource,
		newRoleBindingsDataSource,
		newLDAPUsersDataSource,
		newLDAPGroupsDataSource,
	}
}

// ListResources serve `terraform query` (Terraform 1.14+); tested end to end under Terraform 1.16.4.
func (p *astraProvider) ListResources(_ context.Context) []func() list.ListResource {
	return []func() list.ListResource{
		newClusterListResource,
		newManagedClusterListResource,
		newBucketListResource,
		newAppListResource,
		newProtectionPolicyListResource,
	}
}

// Actions (Terraform 1.14+): imperative day-two operations, tested under Terraform 1.16.4.
func (p *astraProvider) Actions(_ context.Context) []func() action.Action {
	return []func() action.Action{
		newAppSnapshotAction,
		newAppBackupAction,
		newAppRestoreAction,
		// Replication (issue 46)
		newAppMirrorReverseAction,
		newAppMirrorResyncAction,
	}
}
