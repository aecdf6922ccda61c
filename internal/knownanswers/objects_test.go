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
	// shortcut: an unchanged read of it must take the known answer. Not for a type
	// without known reads, nor for what a refresh warns about (a failed or removed
	// cluster), whose Read must not seal its answer.
	shortcut bool
}

// baseObject names an object for readBases.
type baseObject struct {
	typeName, id string
	warns        bool // its refresh warns
}

// readBases reads with the framework one object of every resource type, and the failed,
// removed and unreachable objects the service holds besides: the fixture's cluster (with
// three labels), credential and cloud, the cluster managed, an S3 and a service-account
// credential, a bucket, an app and its protection policy; a failed and a removed cluster,
// each managed, a bucket whose credential cannot open it (failed), a failed app.
func (f *answersFixture) readBases(t *testing.T) []readBase {
	t.Helper()
	objects := append(f.healthyObjects(t), f.unreachableObjects(t)...)
	ctx := context.Background()
	schemas, err := f.framework.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	rules := f.fast.Rules()
	var out []readBase
	for _, o := range objects {
		typ := schemas.ResourceSchemas[o.typeName].ValueType()
		imported, err := f.framework.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{TypeName: o.typeName, ID: o.id})
		if err != nil || len(imported.Diagnostics) > 0 || len(imported.ImportedResources) != 1 {
			t.Fatalf("import %s: %v %s", o.typeName, err, testutil.DiagnosticsText(imported.Diagnostics))
		}
		read := f.refresh(t, o, &tfprotov6.ReadResourceRequest{TypeName: o.typeName, CurrentState: imported.ImportedResources[0].State,
			CurrentIdentity: imported.ImportedResources[0].Identity, Private: imported.ImportedResources[0].Private})
		// A second read, as the next plan's refresh: the import's key is gone.
		read = f.refresh(t, o, &tfprotov6.ReadResourceRequest{TypeName: o.typeName, CurrentState: read.NewState,
			CurrentIdentity: read.NewIdentity, Private: read.Private})
		state, err := read.NewState.Unmarshal(typ)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, readBase{typeName: o.typeName, typ: typ, state: state, identity: read.NewIdentity, private: read.Private,
			shortcut: rules[o.typeName].Reads && !o.warns})
	}
	return out
}

// refresh is the framework's read of o: a warning where o warns, else nothing to say.
func (f *answersFixture) refresh(t *testing.T, o baseObject, req *tfprotov6.ReadResourceRequest) *tfprotov6.ReadResourceResponse {
	t.Helper()
	resp, err := f.framework.ReadResource(context.Background(), req)
	if err != nil || hasError(resp.Diagnostics) || (len(resp.Diagnostics) > 0) != o.warns {
		t.Fatalf("read %s %s: %v %s", o.typeName, o.id, err, testutil.DiagnosticsText(resp.Diagnostics))
	}
	return resp
}

// healthyObjects are objects of every resource type, as the service reports them when all
// is well.
func (f *answersFixture) healthyObjects(t *testing.T) []baseObject {
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
	bucket := f.bucket(t, "differential", s3.ID, astra.BucketAvailable)
	app := f.app(t, "differential-app")
	policy, err := f.client.CreateAppSchedule(ctx, app, astra.AppScheduleFields{Name: "differential", Granularity: "daily",
		Minute: "5", Hour: "2", SnapshotRetention: "3", BackupRetention: "2", BucketID: bucket})
	if err != nil {
		t.Fatal(err)
	}
	script, err := f.client.CreateHookSource(ctx, astra.HookSourceCreate{Name: "differential-script", Script: "#!/bin/sh\nexit 0\n"})
	if err != nil {
		t.Fatal(err)
	}
	hook, err := f.client.CreateExecutionHook(ctx, astra.ExecutionHookCreate{Name: "differential-hook", AppID: app,
		HookSourceID: script.ID, Action: astra.HookActionSnapshot, Stage: astra.HookStagePre, Arguments: []string{"fast"},
		MatchingCriteria: []astra.MatchingCriterion{{Type: "containerName", Value: ".*"}}})
	if err != nil {
		t.Fatal(err)
	}
	snapshot, backup := f.appRuns(t, app, "differential", bucket, func(string) error { return nil })
	return []baseObject{
		{typeName: "astra_hook_source", id: script.ID}, {typeName: "astra_execution_hook", id: hook.ID},
		{typeName: "astra_cluster", id: f.clusterID}, {typeName: "astra_kubeconfig_credential", id: f.credID},
		{typeName: "astra_cloud", id: f.cloudID}, {typeName: "astra_managed_cluster", id: f.clusterID},
		{typeName: "astra_s3_credential", id: s3.ID}, {typeName: "astra_service_account_credential", id: sa.ID},
		{typeName: "astra_bucket", id: bucket}, {typeName: "astra_app", id: app},
		{typeName: "astra_protection_policy", id: app + "/" + policy.ID},
		{typeName: "astra_app_snapshot", id: app + "/" + snapshot}, {typeName: "astra_app_backup", id: app + "/" + backup},
	}
}

// unreachableObjects are objects the service reports failed, removed or unreachable.
func (f *answersFixture) unreachableObjects(t *testing.T) []baseObject {
	t.Helper()
	failed, removed := f.unreachableCluster(t, "differential-failed", "failed"), f.unreachableCluster(t, "differential-removed", "removed")
	// A kubeconfig credential cannot open a bucket: the service fails it.
	bucket := f.bucket(t, "differential-unreachable", f.credID, func(b *astra.Bucket) (bool, error) { return b.State == "failed", nil })
	// A failed snapshot, and a backup that fails writing to the bucket Astra Control cannot open.
	runsOf := f.app(t, "differential-failed-runs")
	snapshot, backup := f.appRuns(t, runsOf, "differential-failed", bucket, func(app string) error {
		return f.sim.FailNextSnapshot(app, "The volume snapshot class was not found")
	})
	if sn, err := f.client.GetAppSnapshot(context.Background(), runsOf, snapshot); err != nil || sn.State != "failed" {
		t.Fatalf("the snapshot is %v (%v), want failed", sn, err)
	}
	if b, err := f.client.GetAppBackup(context.Background(), runsOf, backup); err != nil || b.State != "failed" {
		t.Fatalf("the backup is %v (%v), want failed", b, err)
	}
	app := f.app(t, "differential-failed-app")
	if err := f.sim.FailApp(app, "The application's resources could not be collected"); err != nil {
		t.Fatal(err)
	}
	return []baseObject{
		{typeName: "astra_app_snapshot", id: runsOf + "/" + snapshot}, {typeName: "astra_app_backup", id: runsOf + "/" + backup},
		{typeName: "astra_cluster", id: failed, warns: true}, {typeName: "astra_managed_cluster", id: failed, warns: true},
		{typeName: "astra_cluster", id: removed, warns: true}, {typeName: "astra_managed_cluster", id: removed, warns: true},
		{typeName: "astra_bucket", id: bucket}, {typeName: "astra_app", id: app},
	}
}

// bucket is the ID of a new bucket of the credential, once done says its state is reached.
func (f *answersFixture) bucket(t *testing.T, name, credID string, done func(*astra.Bucket) (bool, error)) string {
	t.Helper()
	bucket, err := f.client.CreateBucket(context.Background(), astra.BucketCreate{Name: name, CredentialID: credID,
		Provider: astra.BucketProviderONTAPS3, Parameters: astra.BucketParameters{S3: &astra.S3BucketParameters{
			ServerURL: "s3.example.com", BucketName: name}}})
	if err != nil {
		t.Fatal(err)
	}
	testutil.WaitUntil(t, "bucket "+name, func(ctx context.Context) (*astra.Bucket, error) { return f.client.GetBucket(ctx, bucket.ID) }, done)
	return bucket.ID
}

// app is the ID of a new app of the fixture's cluster's default namespace, once ready.
func (f *answersFixture) app(t *testing.T, name string) string {
	t.Helper()
	app, err := f.client.CreateApp(context.Background(), astra.AppCreate{Name: name, ClusterID: f.clusterID,
		NamespaceScopedResources: []astra.NamespaceScope{{Namespace: "default"}}})
	if err != nil {
		t.Fatal(err)
	}
	testutil.WaitUntil(t, "app "+name, func(ctx context.Context) (*astra.App, error) { return f.client.GetApp(ctx, app.ID) }, astra.AppReady)
	return app.ID
}

// appRuns takes an on-demand snapshot and backup (into bucket) of app, named name, after
// prepare (which may make them fail), and returns their IDs once each has ended (completed
// or failed).
func (f *answersFixture) appRuns(t *testing.T, app, name, bucket string, prepare func(app string) error) (snapshot, backup string) {
	t.Helper()
	ctx := context.Background()
	if err := prepare(app); err != nil {
		t.Fatal(err)
	}
	ended := func(state string) (bool, error) { return state == "completed" || state == "failed", nil }
	s, err := f.client.CreateAppSnapshot(ctx, app, astra.AppSnapshotCreate{Name: name + "-snapshot"})
	if err != nil {
		t.Fatal(err)
	}
	testutil.WaitUntil(t, "snapshot "+name, func(ctx context.Context) (*astra.AppSnapshot, error) { return f.client.GetAppSnapshot(ctx, app, s.ID) },
		func(s *astra.AppSnapshot) (bool, error) { return ended(s.State) })
	b, err := f.client.CreateAppBackup(ctx, app, astra.AppBackupCreate{Name: name + "-backup", BucketID: bucket})
	if err != nil {
		t.Fatal(err)
	}
	testutil.WaitUntil(t, "backup "+name, func(ctx context.Context) (*astra.AppBackup, error) { return f.client.GetAppBackup(ctx, app, b.ID) },
		func(b *astra.AppBackup) (bool, error) { return ended(b.State) })
	return s.ID, b.ID
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
