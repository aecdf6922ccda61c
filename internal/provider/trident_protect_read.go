package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// tridentProtectScope is what astra_trident_protect_manifests renders: one app, or every
// app of one managed cluster (exactly one ID is set), and the default bucket the user
// chose, if any.
type tridentProtectScope struct {
	AppID, ClusterID string
	DefaultBucketID  string
}

// readTridentProtectSource reads an estate with as few requests as the API allows: one
// GET of the app or the managed cluster, a listing of the cluster's apps, one listing of
// schedules per app (the API has no account-wide one), and one listing each of the
// execution hooks, hook sources, buckets and credentials, skipped when nothing needs
// them. A diagnostic is added and ok is false when the estate cannot be read.
func readTridentProtectSource(ctx context.Context, c *astra.Client, scope tridentProtectScope, diags *diag.Diagnostics) (src tridentProtectSource, ok bool) {
	var clusterID string
	if scope.AppID != "" {
		app, err := c.GetApp(ctx, scope.AppID)
		if astra.IsNotFound(err) {
			diags.AddAttributeError(path.Root("app_id"), "App not found", "Astra Control has no app with ID "+scope.AppID+".")
			return src, false
		}
		if err != nil {
			addAPIError(diags, "Cannot read the app", err, nil)
			return src, false
		}
		src.Apps, clusterID = []astra.App{*app}, app.ClusterID
	} else {
		clusterID = scope.ClusterID
	}
	mc, err := c.GetManagedCluster(ctx, clusterID)
	switch {
	case scope.AppID == "" && (astra.IsNotFound(err) || err == nil && !isManaged(mc)):
		diags.AddAttributeError(path.Root("cluster_id"), "Managed cluster not found",
			"Astra Control manages no cluster with ID "+clusterID+": its apps are rendered only while it is managed.")
		return src, false
	case err != nil && !astra.IsNotFound(err):
		addAPIError(diags, "Cannot read the managed cluster", err, nil)
		return src, false
	}
	if scope.AppID == "" {
		if src.Apps, ok = listClusterApps(ctx, c, clusterID, diags); !ok {
			return src, false
		}
	}
	src.DefaultBucketID = scope.DefaultBucketID
	if src.DefaultBucketID == "" && mc != nil {
		if src.DefaultBucketID, ok = clusterDefaultBucket(ctx, c, mc, diags); !ok {
			return src, false
		}
	}
	return src, readTridentProtectDetails(ctx, c, scope, &src, diags)
}

// listClusterApps lists a cluster's apps, filtered by the service when it can and here in
// any case, so that a service ignoring the filter cannot widen the estate.
func listClusterApps(ctx context.Context, c *astra.Client, clusterID string, diags *diag.Diagnostics) ([]astra.App, bool) {
	var filters []astra.Filter
	if astra.Filterable(clusterID) {
		filters = []astra.Filter{astra.Eq("clusterID", clusterID)}
	}
	apps, err := c.ListApps(ctx, astra.ListOptions{Filters: filters})
	if len(filters) > 0 && astra.FilterRefused(err) {
		apps, err = c.ListApps(ctx, astra.ListOptions{})
	}
	if err != nil {
		addAPIError(diags, "Cannot list the cluster's apps", err, nil)
		return nil, false
	}
	var out []astra.App
	for _, a := range apps {
		if a.ClusterID == clusterID {
			out = append(out, a)
		}
	}
	return out, true
}

// clusterDefaultBucket is the managed cluster's default bucket, else its cloud's: where
// Astra Control sends the backups of a policy that names no bucket. "" when neither has
// one.
func clusterDefaultBucket(ctx context.Context, c *astra.Client, mc *astra.ManagedCluster, diags *diag.Diagnostics) (string, bool) {
	if mc.DefaultBucketID != "" || mc.CloudID == "" {
		return mc.DefaultBucketID, true
	}
	cloud, err := c.GetCloud(ctx, mc.CloudID)
	if astra.IsNotFound(err) {
		return "", true
	}
	if err != nil {
		addAPIError(diags, "Cannot read the cluster's cloud (for its default bucket)", err, nil)
		return "", false
	}
	return cloud.DefaultBucketID, true
}

// readTridentProtectDetails reads the apps' schedules and hooks, and the hook sources,
// buckets and credentials they refer to.
func readTridentProtectDetails(ctx context.Context, c *astra.Client, scope tridentProtectScope, src *tridentProtectSource, diags *diag.Diagnostics) bool {
	if len(src.Apps) == 0 {
		return true
	}
	src.Schedules = map[string][]astra.AppSchedule{}
	needBuckets := src.DefaultBucketID != ""
	for _, a := range src.Apps {
		schedules, err := c.ListAppSchedules(ctx, a.ID)
		if err != nil {
			addAPIError(diags, "Cannot list the protection policies of app "+a.Name, err, nil)
			return false
		}
		src.Schedules[a.ID] = schedules
		for _, s := range schedules {
			needBuckets = needBuckets || s.BucketID != ""
		}
	}
	var err error
	// One app: its own hooks. A cluster's apps: the account's hooks, one listing.
	if scope.AppID != "" {
		src.Hooks, err = c.ListAppExecutionHooks(ctx, scope.AppID, astra.ListOptions{})
	} else {
		src.Hooks, err = c.ListExecutionHooks(ctx, astra.ListOptions{})
	}
	if err != nil {
		addAPIError(diags, "Cannot list execution hooks", err, nil)
		return false
	}
	if len(src.Hooks) > 0 {
		if src.HookSources, err = c.ListHookSources(ctx, astra.ListOptions{}); err != nil {
			addAPIError(diags, "Cannot list hook sources", err, nil)
			return false
		}
	}
	if !needBuckets {
		return true
	}
	if src.Buckets, err = c.ListBuckets(ctx, astra.ListOptions{}); err != nil {
		addAPIError(diags, "Cannot list buckets", err, nil)
		return false
	}
	if src.Credentials, err = c.ListCredentials(ctx, astra.ListOptions{}); err != nil {
		addAPIError(diags, "Cannot list credentials (for the names of the buckets' credentials)", err, nil)
		return false
	}
	return true
}
