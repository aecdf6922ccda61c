package provider

import (
	"reflect"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/tridentprotect"
)

// tpSampleSource is an estate as Astra Control answers it: two apps of one cluster (one
// with selectors and cluster-scoped resources), policies naming two buckets and none, hooks
// of the two apps and of an app outside the estate, and listings holding more than the
// estate uses.
func tpSampleSource() tridentProtectSource {
	retention := 86400.0
	return tridentProtectSource{
		Apps: []astra.App{
			{ID: "app-1", Name: "shop", ClusterID: "mc-1",
				NamespaceScopedResources: []astra.NamespaceScope{{Namespace: "shop", LabelSelectors: []string{"tier=prod"}}, {Namespace: "shop-db"}},
				ClusterScopedResources: []astra.ClusterScope{{GVK: astra.GVK{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole"},
					LabelSelectors: []string{"app=shop"}}}},
			{ID: "app-2", Name: "blog", ClusterID: "mc-1", NamespaceScopedResources: []astra.NamespaceScope{{Namespace: "blog"}}},
		},
		Schedules: map[string][]astra.AppSchedule{
			"app-1": {
				{ID: "s-1", Name: "hourly", Granularity: "hourly", Minute: "5", SnapshotRetention: "24", BackupRetention: "0", BucketID: "b-s3"},
				{ID: "s-2", Name: "daily", Granularity: "daily", Minute: "0", Hour: "2", SnapshotRetention: "7", BackupRetention: "7",
					BucketID: "b-gcp", Enabled: astra.BoolPtr(false)},
			},
			"app-2": {{ID: "s-3", Name: "weekly", Granularity: "weekly", Minute: "0", Hour: "3", DayOfWeek: "6",
				SnapshotRetention: "4", BackupRetention: "4", Enabled: astra.BoolPtr(true)}},
		},
		Hooks: []astra.ExecutionHook{
			{ID: "h-1", Name: "quiesce", AppID: "app-1", HookSourceID: "src-1", HookType: "custom", Action: "snapshot", Stage: "pre",
				Arguments: []string{"--fast"}, MatchingCriteria: []astra.MatchingCriterion{{Type: "containerImage", Value: "^mysql"}}},
			{ID: "h-2", Name: "private", AppID: "app-2", HookSourceID: "src-private", Action: "backup", Stage: "post", Enabled: astra.BoolPtr(false)},
			{ID: "h-3", Name: "gone", AppID: "app-2", HookSourceID: "src-gone", Action: "backup", Stage: "pre"},
			{ID: "h-4", Name: "garbled", AppID: "app-2", HookSourceID: "src-garbled", Action: "backup", Stage: "pre"},
			{ID: "h-other", Name: "elsewhere", AppID: "app-other", HookSourceID: "src-1", Action: "snapshot", Stage: "pre"},
		},
		HookSources: []astra.HookSource{
			{ID: "src-1", Name: "mysql", Source: astra.EncodeScript("#!/bin/sh\necho quiesce\n")},
			{ID: "src-private", Name: "secret-sauce", Private: astra.BoolPtr(true)},
			{ID: "src-garbled", Name: "garbled", Source: "not base64!"},
		},
		Buckets: []astra.Bucket{
			{ID: "b-s3", Name: "s3", Provider: "ontap-s3", CredentialID: "cred-s3", State: "available", RetentionTime: &retention,
				BucketParameters: astra.BucketParameters{S3: &astra.S3BucketParameters{ServerURL: "s3.example.com", BucketName: "backups"}}},
			{ID: "b-gcp", Name: "gcs", Provider: "gcp", CredentialID: "cred-gcp",
				BucketParameters: astra.BucketParameters{GCP: &astra.GCPBucketParameters{BucketName: "gcs-backups"}}},
			{ID: "b-azure", Name: "blob", Provider: "azure", CredentialID: "cred-azure",
				BucketParameters: astra.BucketParameters{Azure: &astra.AzureBucketParameters{StorageAccount: "acct", BucketName: "c"}}},
			{ID: "b-unused", Name: "unused", Provider: "aws"},
		},
		Credentials:     []astra.Credential{{ID: "cred-s3", Name: "s3-keys"}, {ID: "cred-gcp", Name: "gcp-sa"}, {ID: "cred-azure", Name: "azure-key"}},
		DefaultBucketID: "b-azure",
		GCPProjectIDs:   map[string]string{"b-gcp": "acme-prod", "b-nowhere": "x"},
	}
}

func TestTridentProtectEstate(t *testing.T) {
	e := tridentProtectEstate(tpSampleSource())
	var buckets []string
	for _, b := range e.Buckets {
		buckets = append(buckets, b.ID)
	}
	// The policies' buckets and the default bucket, in the listing's order; b-unused is left out.
	if want := []string{"b-s3", "b-gcp", "b-azure"}; !reflect.DeepEqual(buckets, want) {
		t.Fatalf("buckets %v, want %v", buckets, want)
	}
	wantBuckets := []tridentprotect.Bucket{
		{ID: "b-s3", Name: "s3", Provider: "ontap-s3", CredentialID: "cred-s3", CredentialName: "s3-keys", State: "available", RetentionSeconds: 86400,
			S3: &tridentprotect.S3Location{ServerURL: "s3.example.com", BucketName: "backups"}},
		{ID: "b-gcp", Name: "gcs", Provider: "gcp", CredentialID: "cred-gcp", CredentialName: "gcp-sa",
			GCP: &tridentprotect.GCPLocation{BucketName: "gcs-backups", ProjectID: "acme-prod"}},
		{ID: "b-azure", Name: "blob", Provider: "azure", CredentialID: "cred-azure", CredentialName: "azure-key",
			Azure: &tridentprotect.AzureLocation{StorageAccount: "acct", BucketName: "c"}},
	}
	if !reflect.DeepEqual(e.Buckets, wantBuckets) {
		t.Errorf("buckets\n got %+v\nwant %+v", e.Buckets, wantBuckets)
	}
	if len(e.Apps) != 2 {
		t.Fatalf("%d apps, want 2", len(e.Apps))
	}
	shop, blog := e.Apps[0], e.Apps[1]
	wantShop := tridentprotect.App{ID: "app-1", Name: "shop", DefaultBucketID: "b-azure",
		NamespaceScopedResources: []tridentprotect.NamespaceScope{{Namespace: "shop", LabelSelectors: []string{"tier=prod"}}, {Namespace: "shop-db"}},
		ClusterScopedResources: []tridentprotect.ClusterScope{{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole",
			LabelSelectors: []string{"app=shop"}}},
		Policies: []tridentprotect.Policy{
			{ID: "s-1", Name: "hourly", Granularity: "hourly", Minute: "5", SnapshotRetention: "24", BackupRetention: "0", BucketID: "b-s3"},
			{ID: "s-2", Name: "daily", Granularity: "daily", Minute: "0", Hour: "2", SnapshotRetention: "7", BackupRetention: "7", BucketID: "b-gcp", Disabled: true},
		},
		Hooks: []tridentprotect.Hook{{ID: "h-1", Name: "quiesce", HookType: "custom", Action: "snapshot", Stage: "pre", Arguments: []string{"--fast"},
			MatchingCriteria: []tridentprotect.MatchingCriterion{{Type: "containerImage", Value: "^mysql"}},
			Source:           tridentprotect.HookSource{ID: "src-1", Name: "mysql", Script: "#!/bin/sh\necho quiesce\n"}}},
	}
	if !reflect.DeepEqual(shop, wantShop) {
		t.Errorf("shop\n got %+v\nwant %+v", shop, wantShop)
	}
	if len(blog.Policies) != 1 || blog.Policies[0].Disabled || blog.Policies[0].DayOfWeek != "6" {
		t.Errorf("blog's policies %+v: want the weekly one, enabled", blog.Policies)
	}
	// The hook of app-other is not the estate's; the others keep their listing order.
	wantSources := []tridentprotect.HookSource{
		{ID: "src-private", Name: "secret-sauce", Private: true}, // the service returns no script
		{ID: "src-gone", Name: "src-gone"},                       // not in the listing: named by its ID
		{ID: "src-garbled", Name: "garbled"},                     // does not decode: no script
	}
	var gotSources []tridentprotect.HookSource
	for _, h := range blog.Hooks {
		gotSources = append(gotSources, h.Source)
	}
	if !reflect.DeepEqual(gotSources, wantSources) {
		t.Errorf("blog's hook sources\n got %+v\nwant %+v", gotSources, wantSources)
	}
	if !blog.Hooks[0].Disabled || blog.Hooks[1].Disabled {
		t.Errorf("hook enabled flags: %+v", blog.Hooks)
	}
	if got := unusedBucketKeys(e, tpSampleSource().GCPProjectIDs, func(b tridentprotect.Bucket) bool { return b.GCP != nil }); !reflect.DeepEqual(got, []string{"b-nowhere"}) {
		t.Errorf("unusedGCPProjects = %v, want [b-nowhere]", got)
	}
}

// Which buckets go in: those the policies name and the default one, never the rest.
func TestTridentProtectEstateBuckets(t *testing.T) {
	all := []astra.Bucket{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	tests := []struct {
		name      string
		schedules map[string][]astra.AppSchedule
		def       string
		want      []string
	}{
		{"nothing used", map[string][]astra.AppSchedule{"app": {{ID: "s"}}}, "", nil},
		{"default only", nil, "b", []string{"b"}},
		{"policies and default", map[string][]astra.AppSchedule{"app": {{BucketID: "c"}, {BucketID: "a"}}}, "c", []string{"a", "c"}},
		{"a policy of an app outside the estate", map[string][]astra.AppSchedule{"other": {{BucketID: "a"}}}, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := tridentProtectEstate(tridentProtectSource{Apps: []astra.App{{ID: "app"}}, Schedules: tt.schedules, Buckets: all, DefaultBucketID: tt.def})
			var got []string
			for _, b := range e.Buckets {
				got = append(got, b.ID)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("buckets %v, want %v", got, tt.want)
			}
		})
	}
}

// A schedule's and a hook's enabled flag: absent is Astra Control's default, enabled.
func TestTridentProtectEnabled(t *testing.T) {
	for _, tt := range []struct {
		enabled      *astra.Bool
		wantDisabled bool
	}{{nil, false}, {astra.BoolPtr(true), false}, {astra.BoolPtr(false), true}} {
		if got := tridentProtectPolicy(astra.AppSchedule{Enabled: tt.enabled}).Disabled; got != tt.wantDisabled {
			t.Errorf("policy enabled %v: disabled %v", tt.enabled, got)
		}
		if got := tridentProtectHook(astra.ExecutionHook{Enabled: tt.enabled}, nil).Disabled; got != tt.wantDisabled {
			t.Errorf("hook enabled %v: disabled %v", tt.enabled, got)
		}
	}
}
