package tridentprotect

import (
	"fmt"
	"regexp"
	"strings"
)

// vaultProvider is how one Astra bucket provider becomes an AppVault: its providerType,
// the providerConfig member it fills, and the Secret keys its providerCredentials read.
type vaultProvider struct {
	providerType string
	configKey    string
	secretKeys   []string
	keysPurpose  string
}

var s3SecretKeys = []string{"accessKeyID", "secretAccessKey"}

const s3KeysPurpose = "accessKeyID: the access key ID, secretAccessKey: the secret access key of the bucket's Astra Control S3 credential"

var vaultProviders = map[string]vaultProvider{
	"ontap-s3":       {providerType: "OntapS3", configKey: "s3", secretKeys: s3SecretKeys, keysPurpose: s3KeysPurpose},
	"storagegrid-s3": {providerType: "StorageGridS3", configKey: "s3", secretKeys: s3SecretKeys, keysPurpose: s3KeysPurpose},
	"generic-s3":     {providerType: "GenericS3", configKey: "s3", secretKeys: s3SecretKeys, keysPurpose: s3KeysPurpose},
	"aws":            {providerType: "AWS", configKey: "s3", secretKeys: s3SecretKeys, keysPurpose: s3KeysPurpose},
	"gcp": {providerType: "GCP", configKey: "gcp", secretKeys: []string{"credentials"},
		keysPurpose: "credentials: the JSON key file of the Google Cloud service account the bucket's Astra Control credential holds"},
	"azure": {providerType: "Azure", configKey: "azure", secretKeys: []string{"accountKey"},
		keysPurpose: "accountKey: an access key of the Azure storage account"},
}

// vaultSecretName is the Secret an AppVault reads its credentials from: the AppVault's
// own name, so each bucket has one and the user can tell which.
func vaultSecretName(vaultName string) string {
	return vaultName + "-credentials"
}

// renderAppVault returns an AppVault's spec and the Secret it reads, or ok false (with
// the reason in warns) when the bucket cannot be one.
func renderAppVault(b Bucket, vaultName string, opts Options, warns *warnings, probs *problems) (spec map[string]any, secret Secret, ok bool) {
	src := bucketSource(b)
	p, known := vaultProviders[strings.ToLower(b.Provider)]
	if !known {
		warns.add(src, "provider %q has no Trident protect AppVault type; no AppVault is rendered", b.Provider)
		return nil, Secret{}, false
	}
	config, ok := vaultConfig(b, p, warns, probs)
	if !ok {
		return nil, Secret{}, false
	}
	secretName := vaultSecretName(vaultName)
	creds := map[string]any{}
	for _, k := range p.secretKeys {
		creds[k] = map[string]any{"valueFromSecret": map[string]any{"name": secretName, "key": k}}
	}
	spec = map[string]any{
		"providerType":        p.providerType,
		"providerConfig":      map[string]any{p.configKey: config},
		"providerCredentials": creds,
	}
	if opts.DataMoverPasswordSecret != "" {
		spec["dataMoverPasswordSecretRef"] = opts.DataMoverPasswordSecret
	}
	if b.State != "" && !strings.EqualFold(b.State, "available") {
		warns.add(src, "Astra Control reports this bucket %q, not available; check that Trident protect can reach it", strings.ToLower(b.State))
	}
	if b.RetentionSeconds > 0 {
		warns.add(src, "has an object-lock retention of %s seconds; Trident protect's documentation (%s) does not cover object lock: check that its backups, and the deletions its retention makes, work on this bucket",
			formatSeconds(b.RetentionSeconds), DocsRelease)
	}
	secret = Secret{
		Name: secretName, Namespace: opts.ProtectNamespace, Keys: append([]string(nil), p.secretKeys...),
		Purpose: p.keysPurpose, BucketID: b.ID, BucketName: b.Name, CredentialID: b.CredentialID, CredentialName: b.CredentialName,
	}
	return spec, secret, true
}

// vaultConfig is the providerConfig member of a bucket's provider.
func vaultConfig(b Bucket, p vaultProvider, warns *warnings, probs *problems) (map[string]any, bool) {
	src := bucketSource(b)
	switch p.configKey {
	case "s3":
		if b.S3 == nil || strings.TrimSpace(b.S3.BucketName) == "" {
			warns.add(src, "has no S3 bucket name; no AppVault is rendered")
			return nil, false
		}
		e, ok := parseS3Endpoint(b.S3.ServerURL)
		for _, n := range e.notes {
			if ok {
				warns.add(src, "%s", n)
			} else {
				warns.add(src, "%s; no AppVault is rendered", n)
			}
		}
		if !ok {
			return nil, false
		}
		config := map[string]any{"bucketName": b.S3.BucketName, "endpoint": e.host}
		if e.insecure {
			config["secure"] = "false" // the docs give it as a string
		}
		return config, true
	case "gcp":
		if b.GCP == nil || strings.TrimSpace(b.GCP.BucketName) == "" {
			warns.add(src, "has no Google Cloud Storage bucket name; no AppVault is rendered")
			return nil, false
		}
		if strings.TrimSpace(b.GCP.ProjectID) == "" {
			// The CRD requires projectID, and Astra Control does not record it.
			probs.add(src, ArgGCPProjectIDs, b.ID, "the AppVault needs the bucket's Google Cloud project (spec.providerConfig.gcp.projectID, "+
				"which Trident protect's AppVault CRD requires) and Astra Control does not record it: set %s[%q] to the project of bucket %q",
				ArgGCPProjectIDs, b.ID, b.GCP.BucketName)
			return nil, false
		}
		return map[string]any{"bucketName": b.GCP.BucketName, "projectID": strings.TrimSpace(b.GCP.ProjectID)}, true
	default: // azure
		if b.Azure == nil || strings.TrimSpace(b.Azure.BucketName) == "" || strings.TrimSpace(b.Azure.StorageAccount) == "" {
			warns.add(src, "has no Azure storage account or container name; no AppVault is rendered")
			return nil, false
		}
		endpoint := strings.ToLower(strings.TrimSpace(b.Azure.Endpoint))
		if endpoint == "" {
			endpoint = DefaultAzureEndpoint
		}
		if !dnsName.MatchString(endpoint) {
			probs.add(src, ArgAzureEndpoints, b.ID, "%s[%q] is %q, not the storage endpoint suffix of an Azure cloud (a DNS name such as %q, "+
				"without scheme, account or path)", ArgAzureEndpoints, b.ID, b.Azure.Endpoint, DefaultAzureEndpoint)
			return nil, false
		}
		return map[string]any{"accountName": b.Azure.StorageAccount, "bucketName": b.Azure.BucketName, "endpoint": endpoint}, true
	}
}

// DefaultAzureEndpoint is the storage endpoint suffix of Azure's public cloud, the only
// one Astra Control Service backs up to; NetApp's AppVault examples give it so.
const DefaultAzureEndpoint = "core.windows.net"

var dnsName = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+$`)

func bucketSource(b Bucket) Source {
	return Source{Kind: sourceBucket, ID: b.ID, Name: b.Name}
}

func formatSeconds(s float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", s), "0"), ".")
}
