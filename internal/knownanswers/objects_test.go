package knownanswers_test

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
	"github.com/astra-control/terraform-provider-astra/internal/testutil"
)

// The objects the differential reads and plans: one of each resource type the simulator
// holds, healthy, and failed, removed or unreachable ones.

// readBase is an object on the simulator as the framework read it.
type readBase struct {
	typeName string
	typ      tftypes.Type
	state    tftypes.Value
	identity *tfprotov6.ResourceIdentityData
	private  []byte
}

// readBases reads one object of every resource type with known reads with the framework:
// the fixture's cluster (with three labels), credential and cloud, the cluster managed, an
// S3 and a service-account credential, a bucket, and a protection policy of an app.
func (f *answersFixture) readBases(t *testing.T) []readBase {
	t.Helper()
	ctx := context.Background()
	c, err := f.client.GetCluster(ctx, f.cloudID, f.clusterID)
	if err != nil {
		t.Fatal(err)
	}
	c.Metadata.Labels = append(c.Metadata.Labels, astra.Label{Name: "team", Value: "a"}, astra.Label{Name: "env", Value: "prod"},
		astra.Label{Name: "zone", Value: "eu-1"})
	if _, err := f.client.UpdateCluster(ctx, f.cloudID, c); err != nil {
		t.Fatal(err)
	}
	if _, err := f.client.CreateManagedCluster(ctx, astra.ManagedClusterCreate{ID: f.clusterID,
		Labels: []astra.Label{{Name: "a", Value: "1"}, {Name: "b", Value: "2"}, {Name: "c", Value: "3"}}}); err != nil {
		t.Fatal(err)
	}
	testutil.WaitUntil(t, "managing the cluster", func(ctx context.Context) (*astra.ManagedCluster, error) {
		return f.client.GetManagedCluster(ctx, f.clusterID)
	}, astra.ManagedClusterReady)
	s3, err := f.client.CreateCredential(ctx, astra.S3Credential("differential-s3", "AKIA-DIFF", "diff-secret"))
	if err != nil {
		t.Fatal(err)
	}
	sa, err := f.client.CreateCredential(ctx, astra.ServiceAccountCredential("differential-sa", "gcp", []byte(testutil.GCPKeyFile(1))))
	if err != nil {
		t.Fatal(err)
	}
	bucket, err := f.client.CreateBucket(ctx, astra.BucketCreate{Name: "differential-bucket", CredentialID: s3.ID,
		Provider: astra.BucketProviderONTAPS3, Parameters: astra.BucketParameters{S3: &astra.S3BucketParameters{
			ServerURL: "s3.example.com", BucketName: "differential"}}})
	if err != nil {
		t.Fatal(err)
	}
	testutil.WaitUntil(t, "bucket", func(ctx context.Context) (*astra.Bucket, error) { return f.client.GetBucket(ctx, bucket.ID) }, astra.BucketAvailable)
	app, err := f.client.CreateApp(ctx, astra.AppCreate{Name: "differential-app", ClusterID: f.clusterID,
		NamespaceScopedResources: []astra.NamespaceScope{{Namespace: "default"}}})
	if err != nil {
		t.Fatal(err)
	}
	testutil.WaitUntil(t, "app", func(ctx context.Context) (*astra.App, error) { return f.client.GetApp(ctx, app.ID) }, astra.AppReady)
	policy, err := f.client.CreateAppSchedule(ctx, app.ID, astra.AppScheduleFields{Name: "differential", Granularity: "daily",
		Minute: "5", Hour: "2", SnapshotRetention: "3", BackupRetention: "2", BucketID: bucket.ID})
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := f.framework.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var out []readBase
	for _, o := range []struct{ typeName, id string }{
		{"astra_cluster", f.clusterID}, {"astra_kubeconfig_credential", f.credID},
		{"astra_cloud", f.cloudID}, {"astra_managed_cluster", f.clusterID},
		{"astra_s3_credential", s3.ID}, {"astra_service_account_credential", sa.ID}, {"astra_bucket", bucket.ID},
		{"astra_protection_policy", app.ID + "/" + policy.ID},
	} {
		typ := schemas.ResourceSchemas[o.typeName].ValueType()
		imported, err := f.framework.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{TypeName: o.typeName, ID: o.id})
		if err != nil || len(imported.Diagnostics) > 0 || len(imported.ImportedResources) != 1 {
			t.Fatalf("import %s: %v %s", o.typeName, err, testutil.DiagnosticsText(imported.Diagnostics))
		}
		read := f.frameworkRead(t, &tfprotov6.ReadResourceRequest{TypeName: o.typeName, CurrentState: imported.ImportedResources[0].State,
			CurrentIdentity: imported.ImportedResources[0].Identity, Private: imported.ImportedResources[0].Private})
		// A second read, as the next plan's refresh: the import's key is gone.
		read = f.frameworkRead(t, &tfprotov6.ReadResourceRequest{TypeName: o.typeName, CurrentState: read.NewState,
			CurrentIdentity: read.NewIdentity, Private: read.Private})
		state, err := read.NewState.Unmarshal(typ)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, readBase{typeName: o.typeName, typ: typ, state: state, identity: read.NewIdentity, private: read.Private})
	}
	return out
}

// unreachableCluster is the ID of a new managed cluster the service then reports in state
// ("failed", or "removed": its credential now holds another cluster's kubeconfig).
func (f *answersFixture) unreachableCluster(t *testing.T, name, state string) string {
	t.Helper()
	ctx := context.Background()
	credID, err := f.registered.NewCredential(name)
	if err != nil {
		t.Fatal(err)
	}
	c, err := f.client.CreateCluster(ctx, f.cloudID, astra.ClusterCreate{Name: name, CredentialID: credID})
	if err != nil {
		t.Fatal(err)
	}
	testutil.WaitUntil(t, "the cluster running", func(ctx context.Context) (*astra.Cluster, error) { return f.client.GetCluster(ctx, "", c.ID) },
		astra.ClusterRunning)
	if _, err := f.client.CreateManagedCluster(ctx, astra.ManagedClusterCreate{ID: c.ID}); err != nil {
		t.Fatal(err)
	}
	testutil.WaitUntil(t, "managing the cluster", func(ctx context.Context) (*astra.ManagedCluster, error) {
		return f.client.GetManagedCluster(ctx, c.ID)
	}, astra.ManagedClusterReady)
	switch state {
	case "failed":
		err = f.sim.FailCluster(c.ID, "The kubeconfig's certificate has expired")
	case "removed":
		var elsewhere astra.CredentialCreate
		if elsewhere, err = astra.KubeconfigCredential(name, astrasim.TestKubeconfig("elsewhere", "https://elsewhere.k8s.example:6443")); err == nil {
			_, err = f.client.UpdateCredential(ctx, credID, elsewhere)
		}
	default:
		t.Fatalf("no way to make a cluster %s", state)
	}
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.client.GetCluster(ctx, "", c.ID)
	if err != nil || got.State != state {
		t.Fatalf("the cluster is %v (%v), want %s", got, err, state)
	}
	return c.ID
}
