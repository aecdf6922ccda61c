package provider

import (
	"sort"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/tridentprotect"
)

// tridentProtectSource is what astra_trident_protect_manifests read of an estate, as
// Astra Control answered it: the input of tridentProtectEstate. Every listing may hold
// more than the estate (all the account's buckets, hooks and hook sources): the
// conversion picks what the apps use.
type tridentProtectSource struct {
	Apps      []astra.App
	Schedules map[string][]astra.AppSchedule // by app ID
	Hooks     []astra.ExecutionHook
	// HookSources hold the scripts, base64-encoded as the API has them.
	HookSources []astra.HookSource
	Buckets     []astra.Bucket
	// Credentials are read for their names only: the API never returns a key store.
	Credentials []astra.Credential
	// DefaultBucketID is where Astra Control sends the backups of a policy that names no
	// bucket: every app of one rendering is on one managed cluster, so there is one.
	DefaultBucketID string
	GCPProjectIDs   map[string]string // bucket ID -> Google Cloud project
	AzureEndpoints  map[string]string // bucket ID -> Azure storage endpoint suffix
}

// tridentProtectEstate converts what was read into the renderer's input: every app with
// its policies and hooks (each with its script decoded), and the buckets the policies name
// plus the default bucket. It copies no credential value: the renderer's types have no
// field for one.
func tridentProtectEstate(src tridentProtectSource) tridentprotect.Estate {
	var e tridentprotect.Estate
	appIDs := map[string]bool{}
	for _, a := range src.Apps {
		appIDs[a.ID] = true
	}
	hooksOf := map[string][]tridentprotect.Hook{}
	sources := hookSourcesByID(src.HookSources)
	for _, h := range src.Hooks {
		if appIDs[h.AppID] {
			hooksOf[h.AppID] = append(hooksOf[h.AppID], tridentProtectHook(h, sources))
		}
	}
	used := map[string]bool{}
	if src.DefaultBucketID != "" {
		used[src.DefaultBucketID] = true
	}
	for _, a := range src.Apps {
		app := tridentProtectApp(a, src.DefaultBucketID)
		for _, s := range src.Schedules[a.ID] {
			app.Policies = append(app.Policies, tridentProtectPolicy(s))
			if s.BucketID != "" {
				used[s.BucketID] = true
			}
		}
		app.Hooks = hooksOf[a.ID]
		e.Apps = append(e.Apps, app)
	}
	credentialNames := map[string]string{}
	for _, c := range src.Credentials {
		credentialNames[c.ID] = c.Name
	}
	for _, b := range src.Buckets {
		if used[b.ID] {
			e.Buckets = append(e.Buckets, tridentProtectBucket(b, credentialNames[b.CredentialID], src.GCPProjectIDs[b.ID], src.AzureEndpoints[b.ID]))
		}
	}
	return e
}

func tridentProtectApp(a astra.App, defaultBucketID string) tridentprotect.App {
	out := tridentprotect.App{ID: a.ID, Name: a.Name, DefaultBucketID: defaultBucketID}
	for _, ns := range a.NamespaceScopedResources {
		out.NamespaceScopedResources = append(out.NamespaceScopedResources,
			tridentprotect.NamespaceScope{Namespace: ns.Namespace, LabelSelectors: ns.LabelSelectors})
	}
	for _, cs := range a.ClusterScopedResources {
		out.ClusterScopedResources = append(out.ClusterScopedResources, tridentprotect.ClusterScope{
			Group: cs.GVK.Group, Version: cs.GVK.Version, Kind: cs.GVK.Kind, LabelSelectors: cs.LabelSelectors})
	}
	return out
}

func tridentProtectPolicy(s astra.AppSchedule) tridentprotect.Policy {
	return tridentprotect.Policy{
		ID: s.ID, Name: s.Name, Granularity: s.Granularity,
		Minute: s.Minute, Hour: s.Hour, DayOfWeek: s.DayOfWeek, DayOfMonth: s.DayOfMonth,
		SnapshotRetention: s.SnapshotRetention, BackupRetention: s.BackupRetention, BucketID: s.BucketID,
		// Absent is Astra Control's default: enabled.
		Disabled: s.Enabled != nil && !s.Enabled.Value(),
	}
}

func tridentProtectHook(h astra.ExecutionHook, sources map[string]astra.HookSource) tridentprotect.Hook {
	out := tridentprotect.Hook{
		ID: h.ID, Name: h.Name, HookType: h.HookType, Action: h.Action, Stage: h.Stage, Arguments: h.Arguments,
		Disabled: h.Enabled != nil && !h.Enabled.Value(),
		// A source missing from the listing renders no ExecHook (no script), named by its ID.
		Source: tridentprotect.HookSource{ID: h.HookSourceID, Name: h.HookSourceID},
	}
	for _, c := range h.MatchingCriteria {
		out.MatchingCriteria = append(out.MatchingCriteria, tridentprotect.MatchingCriterion{Type: c.Type, Value: c.Value})
	}
	if s, ok := sources[h.HookSourceID]; ok {
		out.Source.Name, out.Source.Private = s.Name, s.Private.Value()
		// A source that does not decode is left without a script: the renderer then says
		// so instead of carrying bytes nobody can read.
		if script, err := s.Script(); err == nil {
			out.Source.Script = script
		}
	}
	return out
}

func hookSourcesByID(in []astra.HookSource) map[string]astra.HookSource {
	out := make(map[string]astra.HookSource, len(in))
	for _, s := range in {
		out[s.ID] = s
	}
	return out
}

func tridentProtectBucket(b astra.Bucket, credentialName, gcpProject, azureEndpoint string) tridentprotect.Bucket {
	out := tridentprotect.Bucket{
		ID: b.ID, Name: b.Name, Provider: b.Provider, State: b.State,
		CredentialID: b.CredentialID, CredentialName: credentialName,
	}
	if b.RetentionTime != nil {
		out.RetentionSeconds = *b.RetentionTime
	}
	if p := b.BucketParameters.S3; p != nil {
		out.S3 = &tridentprotect.S3Location{ServerURL: p.ServerURL, BucketName: p.BucketName}
	}
	if p := b.BucketParameters.GCP; p != nil {
		out.GCP = &tridentprotect.GCPLocation{BucketName: p.BucketName, ProjectID: gcpProject}
	}
	if p := b.BucketParameters.Azure; p != nil {
		out.Azure = &tridentprotect.AzureLocation{StorageAccount: p.StorageAccount, BucketName: p.BucketName, Endpoint: azureEndpoint}
	}
	return out
}

// unusedBucketKeys are the keys of a map by bucket ID (gcp_project_ids, azure_endpoints)
// that name no bucket of the estate of the kind it is for, sorted: a mistyped ID would
// otherwise go unnoticed.
func unusedBucketKeys(e tridentprotect.Estate, byBucket map[string]string, ofKind func(tridentprotect.Bucket) bool) []string {
	used := map[string]bool{}
	for _, b := range e.Buckets {
		if ofKind(b) {
			used[b.ID] = true
		}
	}
	var out []string
	for id := range byBucket {
		if !used[id] {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}
