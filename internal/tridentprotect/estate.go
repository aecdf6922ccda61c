package tridentprotect

// Estate is what the provider knows of an Astra Control estate, for one rendering: the
// buckets the apps' backups may go to, and the apps with their policies and hooks.
//
// None of these types has a field for a credential value, on purpose: a rendering cannot
// leak what it is never given.
type Estate struct {
	Buckets []Bucket
	Apps    []App
}

// Options tune a rendering; the zero value is the documented default.
type Options struct {
	// ProtectNamespace is Trident protect's own namespace, where AppVaults and the Secrets
	// they read live; default DefaultProtectNamespace.
	ProtectNamespace string
	// DataMoverPasswordSecret names a Secret (in ProtectNamespace) holding the Kopia and
	// Restic repository passwords, referenced by every AppVault. Empty: Trident protect's
	// default password.
	DataMoverPasswordSecret string
}

// Bucket is an Astra Control bucket (application/astra-bucket).
type Bucket struct {
	ID   string
	Name string
	// Provider as Astra spells it: ontap-s3, storagegrid-s3, generic-s3, aws, gcp, azure.
	Provider string
	// Exactly one location is set, the one the provider takes.
	S3    *S3Location
	GCP   *GCPLocation
	Azure *AzureLocation
	// The Astra credential the bucket uses: named only, so that the user knows which
	// values to put in the Secret the AppVault reads.
	CredentialID   string
	CredentialName string
	// State is Astra's view of the bucket (available, removed, failed, ...); "" unknown.
	State string
	// RetentionSeconds is Astra's retentionTime: > 0 when the bucket has an object-lock
	// retention.
	RetentionSeconds float64
}

// S3Location is bucketParameters.s3 (ontap-s3, storagegrid-s3, generic-s3, aws).
type S3Location struct {
	ServerURL  string
	BucketName string
}

// GCPLocation is bucketParameters.gcp. ProjectID is not an Astra field: Astra Control
// does not record it, the caller may know it.
type GCPLocation struct {
	BucketName string
	ProjectID  string
}

// AzureLocation is bucketParameters.azure. Endpoint is not an Astra field: the storage
// endpoint suffix of the bucket's Azure cloud, DefaultAzureEndpoint when empty; the caller
// gives another for a sovereign cloud.
type AzureLocation struct {
	StorageAccount string
	BucketName     string
	Endpoint       string
}

// App is a managed app (application/astra-app) with its protection.
type App struct {
	ID                       string
	Name                     string
	NamespaceScopedResources []NamespaceScope
	ClusterScopedResources   []ClusterScope
	// DefaultBucketID is the bucket Astra sends the backups of a policy that names none
	// to (the managed cluster's or the cloud's default bucket), when the caller knows it.
	DefaultBucketID string
	Policies        []Policy
	Hooks           []Hook
}

// NamespaceScope is one namespace of an app; no selector means the whole namespace.
type NamespaceScope struct {
	Namespace      string
	LabelSelectors []string
}

// ClusterScope is one kind of cluster-scoped resource of an app.
type ClusterScope struct {
	Group, Version, Kind string
	LabelSelectors       []string
}

// Policy is a protection policy (application/astra-schedule). The numbers are strings as
// Astra spells them; "" or "*" is a field the granularity does not use.
type Policy struct {
	ID          string
	Name        string
	Granularity string // hourly, daily, weekly, monthly
	Minute      string // 0-59
	Hour        string // 0-23
	DayOfWeek   string // 0-7
	DayOfMonth  string // 1-31
	// SnapshotRetention and BackupRetention are non-negative integers.
	SnapshotRetention string
	BackupRetention   string
	BucketID          string
	// Disabled is Astra's enabled "false"; the zero value is Astra's default (enabled).
	Disabled bool
}

// Hook is an execution hook (application/astra-executionHook) with its hook source.
type Hook struct {
	ID   string
	Name string
	// HookType is Astra's hookType: "custom" (or "") for a user's hook, "netapp" for
	// NetApp's own.
	HookType         string
	Action           string // snapshot, backup, restore, failover
	Stage            string // pre, post
	Arguments        []string
	MatchingCriteria []MatchingCriterion
	Disabled         bool
	Source           HookSource
}

// MatchingCriterion is one of a hook's filters (ANDed): Type is containerImage,
// containerName, podName, podLabel or namespaceName, Value a regular expression.
type MatchingCriterion struct {
	Type  string
	Value string
}

// HookSource is the script a hook runs (application/astra-hookSource), as text.
type HookSource struct {
	ID     string
	Name   string
	Script string
	// Private is Astra's private "true": the service does not return the script.
	Private bool
}
