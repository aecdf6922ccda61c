package astra

import (
	"context"
	"testing"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// dayTwoFixture is a simulator with a managed private cluster, an available bucket and a
// ready app, and a client speaking the release's versions.
type dayTwoFixture struct {
	sim      *astrasim.Sim
	c        *Client
	appID    string
	bucketID string
}

// clusterVersionOf is the cluster resource version a release published last.
var clusterVersionOf = map[string]string{"22.11": "1.3", "23.05": "1.4", "23.07": "1.5", "23.10": "1.6", "24.02": "1.7"}

// fastWait polls every few milliseconds, for waits against the simulator.
var fastWait = Schedule{InitialDelay: time.Millisecond, Min: 2 * time.Millisecond, Max: 5 * time.Millisecond, Multiplier: 1.5}

func newDayTwoFixture(t *testing.T, opts astrasim.Options) *dayTwoFixture {
	t.Helper()
	opts.OnResponseViolation = func(method, route string, status int, err error) {
		t.Errorf("the simulator's answer to %s %s (%d) violates the published schema: %v", method, route, status, err)
	}
	sim, url, stop, err := astrasim.Serve(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	c, err := New(Config{Endpoint: url, AccountID: sim.AccountID(), Token: astrasim.DefaultToken, ClusterVersion: clusterVersionOf[sim.Release()],
		RetryWaitMin: time.Millisecond, RetryWaitMax: 5 * time.Millisecond, MaxRetries: 2})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	kc, err := KubeconfigCredential("apps", astrasim.TestKubeconfig("apps", "https://apps.example.com:6443"))
	if err != nil {
		t.Fatal(err)
	}
	cred, err := c.CreateCredential(ctx, kc)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := c.CreateCluster(ctx, sim.Seeds().PrivateCloudID, ClusterCreate{Name: "apps", CredentialID: cred.ID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateManagedCluster(ctx, ManagedClusterCreate{ID: cl.ID}); err != nil {
		t.Fatal(err)
	}
	s3, err := c.CreateCredential(ctx, S3Credential("backups-key", "AKIAEXAMPLE", "secret"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.CreateBucket(ctx, BucketCreate{Name: "backups", CredentialID: s3.ID, Provider: BucketProviderGenericS3,
		Parameters: BucketParameters{S3: &S3BucketParameters{ServerURL: "s3.example.com", BucketName: "backups"}}})
	if err != nil {
		t.Fatal(err)
	}
	app, err := c.CreateApp(ctx, AppCreate{Name: "web", ClusterID: cl.ID, NamespaceScopedResources: []NamespaceScope{{Namespace: "default"}}})
	if err != nil {
		t.Fatal(err)
	}
	if app, err = WaitFrom(ctx, fastWait, app, func(ctx context.Context) (*App, error) { return c.GetApp(ctx, app.ID) }, AppReady); err != nil {
		t.Fatal(err)
	}
	sim.ResetCounts()
	return &dayTwoFixture{sim: sim, c: c, appID: app.ID, bucketID: b.ID}
}
