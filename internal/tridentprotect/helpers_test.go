package tridentprotect

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// sampleEstate is a realistic estate: a bucket of every provider, a two-namespace app with
// a policy of every granularity and hooks, and a one-namespace app.
func sampleEstate() Estate {
	return Estate{
		Buckets: []Bucket{
			{ID: "7d1c2a10-0001-4a6e-9b1f-000000000001", Name: "ONTAP S3 (prod)", Provider: "ontap-s3",
				S3:           &S3Location{ServerURL: "https://s3.ontap.example.com:8443", BucketName: "astra-prod"},
				CredentialID: "c0ffee00-0000-4000-8000-000000000001", CredentialName: "ontap-s3-keys", State: "available"},
			{ID: "7d1c2a10-0002-4a6e-9b1f-000000000002", Name: "grid-backups", Provider: "storagegrid-s3",
				S3:           &S3Location{ServerURL: "grid.example.com:10443", BucketName: "tp-backups"},
				CredentialID: "c0ffee00-0000-4000-8000-000000000002", CredentialName: "grid-keys"},
			{ID: "7d1c2a10-0003-4a6e-9b1f-000000000003", Name: "minio", Provider: "generic-s3",
				S3:           &S3Location{ServerURL: "http://10.0.0.5:9000", BucketName: "backups"},
				CredentialID: "c0ffee00-0000-4000-8000-000000000003", CredentialName: "minio-keys"},
			{ID: "7d1c2a10-0004-4a6e-9b1f-000000000004", Name: "aws-east", Provider: "aws",
				S3:           &S3Location{ServerURL: "s3.us-east-1.amazonaws.com", BucketName: "acme-astra-backups"},
				CredentialID: "c0ffee00-0000-4000-8000-000000000004", CredentialName: "aws-keys"},
			{ID: "7d1c2a10-0005-4a6e-9b1f-000000000005", Name: "gcs-backups", Provider: "gcp",
				GCP:          &GCPLocation{BucketName: "acme-gcs-backups", ProjectID: "acme-prod"},
				CredentialID: "c0ffee00-0000-4000-8000-000000000005", CredentialName: "astra-sa@gcp"},
			{ID: "7d1c2a10-0006-4a6e-9b1f-000000000006", Name: "azure-blob", Provider: "azure",
				Azure:        &AzureLocation{StorageAccount: "acmestorage", BucketName: "astra-backups"},
				CredentialID: "c0ffee00-0000-4000-8000-000000000006", CredentialName: "azure-container"},
		},
		Apps: []App{
			{
				ID: "a0000000-0000-4000-8000-00000000mysq", Name: "mysql",
				NamespaceScopedResources: []NamespaceScope{
					{Namespace: "mysql", LabelSelectors: []string{"app.kubernetes.io/name=mysql"}},
					{Namespace: "mysql-config"},
				},
				ClusterScopedResources: []ClusterScope{
					{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole", LabelSelectors: []string{"app=mysql"}},
				},
				DefaultBucketID: "7d1c2a10-0001-4a6e-9b1f-000000000001",
				Policies: []Policy{
					{ID: "p-hourly", Name: "hourly schedule", Granularity: "hourly", Minute: "15", SnapshotRetention: "24", BackupRetention: "0",
						BucketID: "7d1c2a10-0001-4a6e-9b1f-000000000001"},
					{ID: "p-daily", Name: "daily schedule", Granularity: "daily", Minute: "0", Hour: "2", SnapshotRetention: "7", BackupRetention: "14",
						BucketID: "7d1c2a10-0002-4a6e-9b1f-000000000002"},
					{ID: "p-weekly", Name: "weekly schedule", Granularity: "weekly", Minute: "30", Hour: "3", DayOfWeek: "0", SnapshotRetention: "4", BackupRetention: "8",
						BucketID: "7d1c2a10-0005-4a6e-9b1f-000000000005"},
					{ID: "p-monthly", Name: "monthly schedule", Granularity: "monthly", Minute: "45", Hour: "4", DayOfMonth: "1", SnapshotRetention: "0", BackupRetention: "12",
						BucketID: "7d1c2a10-0006-4a6e-9b1f-000000000006"},
				},
				Hooks: []Hook{
					{ID: "h-pre", Name: "mysql-quiesce", HookType: "custom", Action: "snapshot", Stage: "pre", Arguments: []string{"pre"},
						MatchingCriteria: []MatchingCriterion{{Type: "containerImage", Value: "^docker.io/bitnami/mysql:.*$"}, {Type: "podLabel", Value: "app.kubernetes.io/name=mysql"}},
						Source:           HookSource{ID: "s-mysql", Name: "mysql-hooks", Script: "#!/bin/sh\nmysql -e 'FLUSH TABLES WITH READ LOCK'\n"}},
					{ID: "h-post", Name: "mysql-unquiesce", HookType: "custom", Action: "snapshot", Stage: "post", Arguments: []string{"post"},
						MatchingCriteria: []MatchingCriterion{{Type: "containerImage", Value: "^docker.io/bitnami/mysql:.*$"}},
						Source:           HookSource{ID: "s-mysql", Name: "mysql-hooks", Script: "#!/bin/sh\nmysql -e 'UNLOCK TABLES'\n"}},
				},
			},
			{
				ID: "a0000000-0000-4000-8000-0000000wpres", Name: "WordPress",
				NamespaceScopedResources: []NamespaceScope{{Namespace: "wordpress"}},
				Policies: []Policy{
					{ID: "p-wp", Name: "nightly", Granularity: "daily", Minute: "10", Hour: "1", SnapshotRetention: "3", BackupRetention: "30",
						BucketID: "7d1c2a10-0004-4a6e-9b1f-000000000004"},
					{ID: "p-wp-2", Name: "weekly off-site", Granularity: "weekly", Minute: "0", Hour: "5", DayOfWeek: "6", SnapshotRetention: "0", BackupRetention: "4",
						BucketID: "7d1c2a10-0003-4a6e-9b1f-000000000003"},
				},
				Hooks: []Hook{
					{ID: "h-wp", Name: "wp-cache-flush", Action: "restore", Stage: "post",
						Source: HookSource{ID: "s-wp", Name: "wp-flush", Script: "#!/bin/sh\nwp cache flush\n"}},
				},
			},
		},
	}
}

// mustRender renders or fails the test.
func mustRender(t *testing.T, e Estate, opts Options) Rendering {
	t.Helper()
	r, err := Render(e, opts)
	if err != nil {
		t.Fatalf("Render: %v", err)
	}
	return r
}

// find returns the manifest of kind and name, or fails. An Application is found by its
// name without the hash of its scope (applicationName).
func find(t *testing.T, r Rendering, kind, name string) Manifest {
	t.Helper()
	for _, m := range r.Manifests {
		if m.Kind == kind && (m.Name == name || kind == KindApplication && scopeSuffixed.MatchString(m.Name) && m.Name[:len(m.Name)-7] == name) {
			return m
		}
	}
	t.Fatalf("no %s %q among %v", kind, name, manifestKeys(r))
	return Manifest{}
}

var scopeSuffixed = regexp.MustCompile(`-[0-9a-f]{6}$`)

// appRef is the rendered name of the Application of the app named name.
func appRef(t *testing.T, r Rendering, name string) string {
	t.Helper()
	return find(t, r, KindApplication, name).Name
}

func manifestKeys(r Rendering) []string {
	out := make([]string, len(r.Manifests))
	for i, m := range r.Manifests {
		out[i] = m.Key()
	}
	return out
}

func warningTexts(ws []Warning) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.String()
	}
	return out
}

// specOf is a manifest's spec.
func specOf(m Manifest) map[string]any {
	return m.Object["spec"].(map[string]any)
}

// jsonOf is v as indented JSON, for readable diffs of nested maps.
func jsonOf(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// assertValid fails for every way a rendering's manifests depart from the docs, or from
// what Trident protect's CRDs accept.
func assertValid(t *testing.T, r Rendering) {
	t.Helper()
	assertCRDsAccept(t, r)
	for _, m := range r.Manifests {
		if errs := validateManifest(m.Object); len(errs) > 0 {
			t.Errorf("%s departs from Trident protect's documented shape:\n  %s\n%s", m.Key(), strings.Join(errs, "\n  "), m.YAML)
		}
	}
}

// sameStrings compares two string lists, with a readable failure.
func sameStrings(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\ngot:\n  %s\nwant:\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
