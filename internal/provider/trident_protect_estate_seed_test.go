package provider

import (
	"context"
	"encoding/base64"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
	"github.com/astra-control/terraform-provider-astra/internal/testutil"
)

// tpEstate is an Astra Control estate seeded, through the client, for
// astra_trident_protect_manifests: a managed cluster whose default bucket is an ONTAP S3
// bucket, a bucket of every other provider (and one nothing uses), an app "shop" with label
// selectors and cluster-scoped resources, a policy of every granularity (the hourly one
// naming no bucket) and a hook of every stage and action, and an app "blog" of one whole
// namespace with a disabled policy and one naming no bucket.
type tpEstate struct {
	clusterID, shop, blog string
	buckets               map[string]string // bucket name -> ID
	policies              map[string]string // "app/policy" -> ID
	hooks                 map[string]string // hook name -> ID
	credentials           map[string]string // credential name -> ID
}

// Credential values of the estate: none may appear in state, output or YAML.
var tpSecrets = []string{
	"AKIATPSEEDEXAMPLE", "tp-s3-secret-never-rendered", "tp-gcp-private-key-never-rendered",
	"tp-azure-password-never-rendered", "url-password-never-rendered",
}

// tpScripts are the hook sources' scripts.
var tpScripts = map[string]string{
	"freeze.sh": "#!/bin/sh\n# flush and freeze the database\nmysql -e 'FLUSH TABLES WITH READ LOCK'\n",
	"thaw.sh":   "#!/bin/sh\nmysql -e 'UNLOCK TABLES'\n",
}

func seedTPEstate(t *testing.T, c *astra.Client, cloudID string) tpEstate {
	t.Helper()
	ctx := context.Background()
	e := tpEstate{buckets: map[string]string{}, policies: map[string]string{}, hooks: map[string]string{}, credentials: map[string]string{}}
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("seeding %s: %v", what, err)
		}
	}
	kube, err := astra.KubeconfigCredential("tp-cluster", astrasim.TestKubeconfig("tp-cluster", "https://tp-cluster.k8s.example:6443"))
	must("the kubeconfig", err)
	for _, cred := range []astra.CredentialCreate{
		kube,
		astra.S3Credential("tp-s3-keys", tpSecrets[0], tpSecrets[1]),
		astra.ServiceAccountCredential("tp-gcp-sa", "gcp", []byte(`{"type":"service_account","project_id":"acme-prod",`+
			`"client_email":"astra@acme-prod.iam.gserviceaccount.com","private_key":"`+tpSecrets[2]+`"}`)),
		astra.ServiceAccountCredential("tp-azure-sa", "azure", []byte(`{"appId":"00000000-0000-4000-8000-00000000a2e0",`+
			`"password":"`+tpSecrets[3]+`","tenant":"00000000-0000-4000-8000-0000000000te","subscriptionId":"00000000-0000-4000-8000-0000000000su"}`)),
	} {
		created, err := c.CreateCredential(ctx, cred)
		must("credential "+cred.Name, err)
		e.credentials[cred.Name] = created.ID
	}
	s3 := func(url, bucket string) astra.BucketParameters {
		return astra.BucketParameters{S3: &astra.S3BucketParameters{ServerURL: url, BucketName: bucket}}
	}
	for _, b := range []astra.BucketCreate{
		{Name: "ONTAP S3 (prod)", Provider: astra.BucketProviderONTAPS3, CredentialID: e.credentials["tp-s3-keys"],
			Parameters: s3("https://s3.ontap.example.com:8443", "astra-prod")},
		{Name: "grid-backups", Provider: astra.BucketProviderStorageGRIDS3, CredentialID: e.credentials["tp-s3-keys"],
			Parameters: s3("grid.example.com:10443", "tp-backups")},
		// User information in the URL: the rendering leaves it out, with a warning that does not repeat it.
		{Name: "minio", Provider: astra.BucketProviderGenericS3, CredentialID: e.credentials["tp-s3-keys"],
			Parameters: s3("http://minio:"+tpSecrets[4]+"@10.0.0.5:9000", "backups")},
		{Name: "aws-east", Provider: astra.BucketProviderAWS, CredentialID: e.credentials["tp-s3-keys"],
			Parameters: s3("s3.us-east-1.amazonaws.com", "acme-astra-backups")},
		{Name: "gcs-backups", Provider: astra.BucketProviderGCP, CredentialID: e.credentials["tp-gcp-sa"],
			Parameters: astra.BucketParameters{GCP: &astra.GCPBucketParameters{BucketName: "acme-gcs-backups"}}},
		{Name: "azure-blob", Provider: astra.BucketProviderAzure, CredentialID: e.credentials["tp-azure-sa"],
			Parameters: astra.BucketParameters{Azure: &astra.AzureBucketParameters{StorageAccount: "acmestorage", BucketName: "astra-backups"}}},
		{Name: "unused", Provider: astra.BucketProviderGenericS3, CredentialID: e.credentials["tp-s3-keys"],
			Parameters: s3("s3.example.com", "nobody-uses-this")},
	} {
		created, err := c.CreateBucket(ctx, b)
		must("bucket "+b.Name, err)
		e.buckets[b.Name] = created.ID
		testutil.WaitUntil(t, "bucket "+b.Name, func(ctx context.Context) (*astra.Bucket, error) { return c.GetBucket(ctx, created.ID) }, astra.BucketAvailable)
	}
	cluster, err := c.CreateCluster(ctx, cloudID, astra.ClusterCreate{Name: "tp-cluster", CredentialID: e.credentials["tp-cluster"],
		ConnectorCapabilities: []string{"neptuneV1"}})
	must("the cluster", err)
	e.clusterID = cluster.ID
	testutil.WaitUntil(t, "the cluster", func(ctx context.Context) (*astra.Cluster, error) { return c.GetCluster(ctx, cloudID, cluster.ID) }, astra.ClusterRunning)
	_, err = c.CreateManagedCluster(ctx, astra.ManagedClusterCreate{ID: cluster.ID, DefaultBucketID: e.buckets["ONTAP S3 (prod)"]})
	must("the managed cluster", err)
	testutil.WaitUntil(t, "the managed cluster", func(ctx context.Context) (*astra.ManagedCluster, error) {
		return c.GetManagedCluster(ctx, cluster.ID)
	}, astra.ManagedClusterReady)
	e.shop = seedTPApp(t, c, astra.AppCreate{Name: "shop", ClusterID: cluster.ID,
		NamespaceScopedResources: []astra.NamespaceScope{
			{Namespace: "default", LabelSelectors: []string{"app.kubernetes.io/name=shop", "tier in (web,db)"}},
			{Namespace: "kube-public"},
		},
		ClusterScopedResources: []astra.ClusterScope{
			{GVK: astra.GVK{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole"}, LabelSelectors: []string{"app=shop"}},
			{GVK: astra.GVK{Version: "v1", Kind: "PersistentVolume"}},
		}})
	e.blog = seedTPApp(t, c, astra.AppCreate{Name: "blog", ClusterID: cluster.ID,
		NamespaceScopedResources: []astra.NamespaceScope{{Namespace: "kube-node-lease"}}})
	appNames := map[string]string{e.shop: "shop", e.blog: "blog"}
	for _, p := range []struct {
		app string
		in  astra.AppScheduleFields
	}{
		// No bucket: Astra Control sends its backups to the default bucket (the managed cluster's).
		{e.shop, astra.AppScheduleFields{Name: "hourly", Granularity: "hourly", Minute: "15", SnapshotRetention: "24", BackupRetention: "1"}},
		{e.shop, astra.AppScheduleFields{Name: "daily", Granularity: "daily", Minute: "0", Hour: "2", SnapshotRetention: "7", BackupRetention: "14",
			BucketID: e.buckets["grid-backups"]}},
		{e.shop, astra.AppScheduleFields{Name: "weekly", Granularity: "weekly", Minute: "30", Hour: "3", DayOfWeek: "7", SnapshotRetention: "4",
			BackupRetention: "8", BucketID: e.buckets["gcs-backups"]}},
		{e.shop, astra.AppScheduleFields{Name: "monthly", Granularity: "monthly", Minute: "45", Hour: "4", DayOfMonth: "31", SnapshotRetention: "0",
			BackupRetention: "12", BucketID: e.buckets["azure-blob"]}},
		{e.blog, astra.AppScheduleFields{Name: "weekly", Granularity: "weekly", Minute: "0", Hour: "5", DayOfWeek: "6", SnapshotRetention: "1",
			BackupRetention: "4", BucketID: e.buckets["aws-east"]}},
		{e.blog, astra.AppScheduleFields{Name: "daily", Granularity: "daily", Minute: "10", Hour: "1", SnapshotRetention: "3", BackupRetention: "3",
			BucketID: e.buckets["minio"], Enabled: astra.BoolPtr(false)}},
		{e.blog, astra.AppScheduleFields{Name: "hourly", Granularity: "hourly", Minute: "0", SnapshotRetention: "6", BackupRetention: "0"}},
	} {
		s, err := c.CreateAppSchedule(ctx, p.app, p.in)
		must("policy "+p.in.Name, err)
		e.policies[appNames[p.app]+"/"+p.in.Name] = s.ID
	}
	sources := map[string]string{}
	for name, script := range tpScripts {
		s, err := c.CreateHookSource(ctx, astra.HookSourceCreate{Name: name, Script: script})
		must("hook source "+name, err)
		sources[name] = s.ID
	}
	image := []astra.MatchingCriterion{{Type: "containerImage", Value: "^docker.io/bitnami/mysql:.*$"}}
	for _, h := range []astra.ExecutionHookCreate{
		{Name: "freeze-snapshot", Action: astra.HookActionSnapshot, Stage: astra.HookStagePre, HookSourceID: sources["freeze.sh"],
			Arguments: []string{"--timeout", "30"}, MatchingCriteria: append(image, astra.MatchingCriterion{Type: "podLabel", Value: "app=shop"})},
		{Name: "thaw-snapshot", Action: astra.HookActionSnapshot, Stage: astra.HookStagePost, HookSourceID: sources["thaw.sh"], MatchingCriteria: image},
		{Name: "freeze-backup", Action: astra.HookActionBackup, Stage: astra.HookStagePre, HookSourceID: sources["freeze.sh"],
			MatchingCriteria: []astra.MatchingCriterion{{Type: "containerName", Value: "mysql"}, {Type: "namespaceName", Value: "default"}}},
		{Name: "thaw-backup", Action: astra.HookActionBackup, Stage: astra.HookStagePost, HookSourceID: sources["thaw.sh"],
			MatchingCriteria: []astra.MatchingCriterion{{Type: "podName", Value: "^shop-db-[0-9]+$"}}, Enabled: astra.BoolPtr(false)},
		{Name: "after-restore", Action: astra.HookActionRestore, Stage: astra.HookStagePost, HookSourceID: sources["thaw.sh"]},
		{Name: "after-failover", Action: astra.HookActionFailover, Stage: astra.HookStagePost, HookSourceID: sources["thaw.sh"]},
	} {
		h.AppID = e.shop
		created, err := c.CreateExecutionHook(ctx, h)
		must("hook "+h.Name, err)
		e.hooks[h.Name] = created.ID
	}
	return e
}

func seedTPApp(t *testing.T, c *astra.Client, in astra.AppCreate) string {
	t.Helper()
	app, err := c.CreateApp(context.Background(), in)
	if err != nil {
		t.Fatalf("seeding app %s: %v", in.Name, err)
	}
	testutil.WaitUntil(t, "app "+in.Name, func(ctx context.Context) (*astra.App, error) { return c.GetApp(ctx, app.ID) }, astra.AppReady)
	return app.ID
}

// tpSecretForms are the credential values as they could leak: as they are and base64-encoded.
func tpSecretForms() []string {
	var out []string
	for _, s := range tpSecrets {
		out = append(out, s, base64.StdEncoding.EncodeToString([]byte(s)))
	}
	return out
}
