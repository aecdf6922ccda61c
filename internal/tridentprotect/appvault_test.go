package tridentprotect

import (
	"errors"
	"reflect"
	"testing"
)

func secretRef(secret, key string) map[string]any {
	return map[string]any{"valueFromSecret": map[string]any{"name": secret, "key": key}}
}

func s3Creds(secret string) map[string]any {
	return map[string]any{"accessKeyID": secretRef(secret, "accessKeyID"), "secretAccessKey": secretRef(secret, "secretAccessKey")}
}

func TestAppVaultPerProvider(t *testing.T) {
	const s3Purpose = "accessKeyID: the access key ID, secretAccessKey: the secret access key of the bucket's Astra Control S3 credential"
	cases := []struct {
		name       string
		bucket     Bucket
		opts       Options
		wantName   string
		wantSpec   map[string]any
		wantSecret Secret
		warnings   []string
	}{
		{
			name: "ontap-s3 over https with a port",
			bucket: Bucket{ID: "b-1", Name: "ONTAP S3 (prod)", Provider: "ontap-s3", CredentialID: "c-1", CredentialName: "ontap-keys",
				S3: &S3Location{ServerURL: "https://s3.ontap.example.com:8443", BucketName: "astra-prod"}},
			wantName: "ontap-s3-prod",
			wantSpec: map[string]any{"providerType": "OntapS3",
				"providerConfig":      map[string]any{"s3": map[string]any{"bucketName": "astra-prod", "endpoint": "s3.ontap.example.com:8443"}},
				"providerCredentials": s3Creds("ontap-s3-prod-credentials")},
			wantSecret: Secret{Name: "ontap-s3-prod-credentials", Namespace: "trident-protect", Keys: []string{"accessKeyID", "secretAccessKey"},
				Purpose: s3Purpose, BucketID: "b-1", BucketName: "ONTAP S3 (prod)", CredentialID: "c-1", CredentialName: "ontap-keys"},
		},
		{
			name: "storagegrid-s3 without a scheme",
			bucket: Bucket{ID: "b-2", Name: "grid", Provider: "storagegrid-s3", CredentialID: "c-2",
				S3: &S3Location{ServerURL: "grid.example.com:10443", BucketName: "tp"}},
			wantName: "grid",
			wantSpec: map[string]any{"providerType": "StorageGridS3",
				"providerConfig":      map[string]any{"s3": map[string]any{"bucketName": "tp", "endpoint": "grid.example.com:10443"}},
				"providerCredentials": s3Creds("grid-credentials")},
			wantSecret: Secret{Name: "grid-credentials", Namespace: "trident-protect", Keys: []string{"accessKeyID", "secretAccessKey"},
				Purpose: s3Purpose, BucketID: "b-2", BucketName: "grid", CredentialID: "c-2"},
		},
		{
			name: "generic-s3 over plain http, with a data mover password secret",
			bucket: Bucket{ID: "b-3", Name: "minio", Provider: "generic-s3",
				S3: &S3Location{ServerURL: "http://10.0.0.5:9000/", BucketName: "backups"}},
			opts:     Options{DataMoverPasswordSecret: "tp-repo-passwords"},
			wantName: "minio",
			wantSpec: map[string]any{"providerType": "GenericS3",
				"providerConfig":             map[string]any{"s3": map[string]any{"bucketName": "backups", "endpoint": "10.0.0.5:9000", "secure": "false"}},
				"providerCredentials":        s3Creds("minio-credentials"),
				"dataMoverPasswordSecretRef": "tp-repo-passwords"},
			wantSecret: Secret{Name: "minio-credentials", Namespace: "trident-protect", Keys: []string{"accessKeyID", "secretAccessKey"},
				Purpose: s3Purpose, BucketID: "b-3", BucketName: "minio"},
		},
		{
			name: "aws, in another protect namespace",
			bucket: Bucket{ID: "b-4", Name: "aws-east", Provider: "AWS",
				S3: &S3Location{ServerURL: "s3.us-east-1.amazonaws.com", BucketName: "acme"}},
			opts:     Options{ProtectNamespace: "protect"},
			wantName: "aws-east",
			wantSpec: map[string]any{"providerType": "AWS",
				"providerConfig":      map[string]any{"s3": map[string]any{"bucketName": "acme", "endpoint": "s3.us-east-1.amazonaws.com"}},
				"providerCredentials": s3Creds("aws-east-credentials")},
			wantSecret: Secret{Name: "aws-east-credentials", Namespace: "protect", Keys: []string{"accessKeyID", "secretAccessKey"},
				Purpose: s3Purpose, BucketID: "b-4", BucketName: "aws-east"},
		},
		{
			name:     "gcp with the project known",
			bucket:   Bucket{ID: "b-5", Name: "gcs", Provider: "gcp", CredentialName: "astra-sa@gcp", GCP: &GCPLocation{BucketName: "acme-gcs", ProjectID: "acme-prod"}},
			wantName: "gcs",
			wantSpec: map[string]any{"providerType": "GCP",
				"providerConfig":      map[string]any{"gcp": map[string]any{"bucketName": "acme-gcs", "projectID": "acme-prod"}},
				"providerCredentials": map[string]any{"credentials": secretRef("gcs-credentials", "credentials")}},
			wantSecret: Secret{Name: "gcs-credentials", Namespace: "trident-protect", Keys: []string{"credentials"},
				Purpose:  "credentials: the JSON key file of the Google Cloud service account the bucket's Astra Control credential holds",
				BucketID: "b-5", BucketName: "gcs", CredentialName: "astra-sa@gcp"},
		},
		{
			name:     "azure",
			bucket:   Bucket{ID: "b-7", Name: "Azure Blob", Provider: "azure", Azure: &AzureLocation{StorageAccount: "acmestorage", BucketName: "astra"}},
			wantName: "azure-blob",
			wantSpec: map[string]any{"providerType": "Azure",
				"providerConfig":      map[string]any{"azure": map[string]any{"accountName": "acmestorage", "bucketName": "astra", "endpoint": "core.windows.net"}},
				"providerCredentials": map[string]any{"accountKey": secretRef("azure-blob-credentials", "accountKey")}},
			wantSecret: Secret{Name: "azure-blob-credentials", Namespace: "trident-protect", Keys: []string{"accountKey"},
				Purpose: "accountKey: an access key of the Azure storage account", BucketID: "b-7", BucketName: "Azure Blob"},
		},
		{
			name: "azure in a sovereign cloud",
			bucket: Bucket{ID: "b-9", Name: "gov", Provider: "azure",
				Azure: &AzureLocation{StorageAccount: "acmegov", BucketName: "astra", Endpoint: " Core.USGovCloudAPI.net "}},
			wantName: "gov",
			wantSpec: map[string]any{"providerType": "Azure",
				"providerConfig":      map[string]any{"azure": map[string]any{"accountName": "acmegov", "bucketName": "astra", "endpoint": "core.usgovcloudapi.net"}},
				"providerCredentials": map[string]any{"accountKey": secretRef("gov-credentials", "accountKey")}},
			wantSecret: Secret{Name: "gov-credentials", Namespace: "trident-protect", Keys: []string{"accountKey"},
				Purpose: "accountKey: an access key of the Azure storage account", BucketID: "b-9", BucketName: "gov"},
		},
		{
			name: "removed, object-locked, URL with user information and a path",
			bucket: Bucket{ID: "b-8", Name: "locked", Provider: "generic-s3", State: "Removed", RetentionSeconds: 86400,
				S3: &S3Location{ServerURL: "https://user:pw@s3.example.com/locked", BucketName: "locked"}},
			wantName: "locked",
			wantSpec: map[string]any{"providerType": "GenericS3",
				"providerConfig":      map[string]any{"s3": map[string]any{"bucketName": "locked", "endpoint": "s3.example.com"}},
				"providerCredentials": s3Creds("locked-credentials")},
			wantSecret: Secret{Name: "locked-credentials", Namespace: "trident-protect", Keys: []string{"accessKeyID", "secretAccessKey"},
				Purpose: s3Purpose, BucketID: "b-8", BucketName: "locked"},
			warnings: []string{
				`bucket "locked" (b-8): server URL carries user information, left out (credentials belong in the Secret)`,
				`bucket "locked" (b-8): server URL has a path, query or fragment, left out: Trident protect takes a host and port only`,
				`bucket "locked" (b-8): Astra Control reports this bucket "removed", not available; check that Trident protect can reach it`,
				`bucket "locked" (b-8): has an object-lock retention of 86400 seconds; Trident protect's documentation (26.06) does not cover object lock: check that its backups, and the deletions its retention makes, work on this bucket`,
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := mustRender(t, Estate{Buckets: []Bucket{c.bucket}}, c.opts)
			m := find(t, r, KindAppVault, c.wantName)
			wantNS := c.opts.ProtectNamespace
			if wantNS == "" {
				wantNS = "trident-protect"
			}
			if m.Namespace != wantNS || m.Object["metadata"].(map[string]any)["namespace"] != wantNS {
				t.Errorf("namespace %q, want %q", m.Namespace, wantNS)
			}
			if !reflect.DeepEqual(specOf(m), c.wantSpec) {
				t.Errorf("spec:\n%s\nwant:\n%s", jsonOf(specOf(m)), jsonOf(c.wantSpec))
			}
			secrets := r.Secrets
			if c.opts.DataMoverPasswordSecret != "" {
				secrets = without(secrets, c.opts.DataMoverPasswordSecret)
			}
			if len(secrets) != 1 || !reflect.DeepEqual(secrets[0], c.wantSecret) {
				t.Errorf("secrets %+v, want [%+v]", secrets, c.wantSecret)
			}
			sameStrings(t, "warnings", warningTexts(r.Warnings), c.warnings)
			if m.Source != (Source{Kind: "bucket", ID: c.bucket.ID, Name: c.bucket.Name}) {
				t.Errorf("source %+v", m.Source)
			}
			assertValid(t, r)
		})
	}
}

func TestAppVaultNotRendered(t *testing.T) {
	cases := []struct {
		name    string
		bucket  Bucket
		warning string
	}{
		{"unknown provider", Bucket{ID: "b", Name: "x", Provider: "ibm-cos", S3: &S3Location{ServerURL: "s3.example.com", BucketName: "b"}},
			`bucket "x" (b): provider "ibm-cos" has no Trident protect AppVault type; no AppVault is rendered`},
		{"s3 without parameters", Bucket{ID: "b", Name: "x", Provider: "aws"},
			`bucket "x" (b): has no S3 bucket name; no AppVault is rendered`},
		{"s3 without a bucket name", Bucket{ID: "b", Name: "x", Provider: "ontap-s3", S3: &S3Location{ServerURL: "s3.example.com"}},
			`bucket "x" (b): has no S3 bucket name; no AppVault is rendered`},
		{"s3 without a server URL", Bucket{ID: "b", Name: "x", Provider: "generic-s3", S3: &S3Location{BucketName: "b"}},
			`bucket "x" (b): has no server URL; no AppVault is rendered`},
		{"s3 with a bad scheme", Bucket{ID: "b", Name: "x", Provider: "generic-s3", S3: &S3Location{ServerURL: "s3://b", BucketName: "b"}},
			`bucket "x" (b): has a server URL whose scheme is neither http nor https; no AppVault is rendered`},
		{"gcp parameters on an s3 provider", Bucket{ID: "b", Name: "x", Provider: "storagegrid-s3", GCP: &GCPLocation{BucketName: "b"}},
			`bucket "x" (b): has no S3 bucket name; no AppVault is rendered`},
		{"gcp without a bucket name", Bucket{ID: "b", Name: "x", Provider: "gcp", GCP: &GCPLocation{}},
			`bucket "x" (b): has no Google Cloud Storage bucket name; no AppVault is rendered`},
		{"azure without a storage account", Bucket{ID: "b", Name: "x", Provider: "azure", Azure: &AzureLocation{BucketName: "c"}},
			`bucket "x" (b): has no Azure storage account or container name; no AppVault is rendered`},
		{"azure without parameters", Bucket{ID: "b", Name: "x", Provider: "azure"},
			`bucket "x" (b): has no Azure storage account or container name; no AppVault is rendered`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := mustRender(t, Estate{Buckets: []Bucket{c.bucket}}, Options{DataMoverPasswordSecret: "pw"})
			if len(r.Manifests) != 0 || len(r.Secrets) != 0 {
				t.Errorf("rendered %v and secrets %+v, want nothing", manifestKeys(r), r.Secrets)
			}
			sameStrings(t, "warnings", warningTexts(r.Warnings), []string{c.warning})
		})
	}
}

// An AppVault the CRD would refuse is never rendered, nor left out quietly: the rendering
// fails, naming the bucket and the argument (and its key) that supplies what is missing.
func TestAppVaultRefused(t *testing.T) {
	cases := []struct {
		name   string
		bucket Bucket
		want   Problem
	}{
		{"gcp without the project", Bucket{ID: "b-6", Name: "gcs", Provider: "gcp", GCP: &GCPLocation{BucketName: "acme-gcs"}},
			Problem{Object: `bucket "gcs" (b-6)`, Argument: "gcp_project_ids", Key: "b-6",
				Message: `the AppVault needs the bucket's Google Cloud project (spec.providerConfig.gcp.projectID, which Trident protect's AppVault CRD requires) and Astra Control does not record it: set gcp_project_ids["b-6"] to the project of bucket "acme-gcs"`}},
		{"azure endpoint with a scheme", Bucket{ID: "b-7", Name: "az", Provider: "azure",
			Azure: &AzureLocation{StorageAccount: "a", BucketName: "c", Endpoint: "https://a.blob.core.windows.net"}},
			Problem{Object: `bucket "az" (b-7)`, Argument: "azure_endpoints", Key: "b-7",
				Message: `azure_endpoints["b-7"] is "https://a.blob.core.windows.net", not the storage endpoint suffix of an Azure cloud (a DNS name such as "core.windows.net", without scheme, account or path)`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Render(Estate{Buckets: []Bucket{c.bucket}}, Options{})
			var ie *InputError
			if !errors.As(err, &ie) || len(ie.Problems) != 1 || ie.Problems[0] != c.want {
				t.Fatalf("error %v, want one problem %+v", err, c.want)
			}
		})
	}
}

// The data mover password Secret is listed once, with its keys, when an AppVault reads it.
func TestDataMoverPasswordSecret(t *testing.T) {
	r := mustRender(t, sampleEstate(), Options{DataMoverPasswordSecret: "tp-repo-passwords"})
	var got []Secret
	for _, s := range r.Secrets {
		if s.Name == "tp-repo-passwords" {
			got = append(got, s)
		}
	}
	want := Secret{Name: "tp-repo-passwords", Namespace: "trident-protect", Keys: []string{"KOPIA_PASSWORD", "RESTIC_PASSWORD"},
		Purpose: "KOPIA_PASSWORD, RESTIC_PASSWORD: the passwords of the data mover repositories; a backup cannot be restored without them, so keep a copy outside the cluster"}
	if len(got) != 1 || !reflect.DeepEqual(got[0], want) {
		t.Errorf("data mover secret %+v, want [%+v]", got, want)
	}
	for _, m := range r.Manifests {
		if m.Kind == KindAppVault && specOf(m)["dataMoverPasswordSecretRef"] != "tp-repo-passwords" {
			t.Errorf("%s does not read the data mover password secret", m.Key())
		}
	}
	if len(r.Secrets) != 7 {
		t.Errorf("%d secrets, want 6 AppVault credentials and the data mover passwords", len(r.Secrets))
	}
}

func without(secrets []Secret, name string) []Secret {
	var out []Secret
	for _, s := range secrets {
		if s.Name != name {
			out = append(out, s)
		}
	}
	return out
}
