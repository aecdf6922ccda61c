package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// appReplacedBy is the first argument whose planned change replaces the app (a change of
// cluster or scope, which the service cannot make in place), nil when the plan keeps it.
// An unknown planned value may be a change: it counts as one.
func appReplacedBy(plan, prior appValues) *path.Path {
	for _, a := range []struct {
		name    string
		changed bool
	}{
		{"cluster_id", plan.ClusterID.IsUnknown() || !plan.ClusterID.Equal(prior.ClusterID)},
		{"namespace_scoped_resources", plan.NamespaceScopedResources.IsUnknown() || !plan.NamespaceScopedResources.Equal(prior.NamespaceScopedResources)},
		{"cluster_scoped_resources", plan.ClusterScopedResources.IsUnknown() || !plan.ClusterScopedResources.Equal(prior.ClusterScopedResources)},
	} {
		if a.changed {
			p := path.Root(a.name)
			return &p
		}
	}
	return nil
}

// countOf says how many of a kind an app has ("snapshots: 2"), or that they could not be
// counted.
func countOf[T any](items []T, err error, kind string) string {
	if err != nil {
		return kind + ": unknown (listing them failed: " + err.Error() + ")"
	}
	return fmt.Sprintf("%s: %d", kind, len(items))
}

// warnAppReplacement says what replacing an app costs, before the apply: it is unmanaged,
// then managed again. Astra Control Center's documentation says unmanaging an app deletes
// its snapshots and backups (NetApp's automation documentation says they stay): the
// provider warns as if they go, counting them, with the policies the replacement destroys.
func warnAppReplacement(ctx context.Context, client *astra.Client, because path.Path, prior appValues, diags *diag.Diagnostics) {
	id := prior.ID.ValueString()
	schedules, errSchedules := client.ListAppSchedules(ctx, id)
	snapshots, errSnapshots := client.ListAppSnapshots(ctx, id, astra.ListOptions{})
	backups, errBackups := client.ListAppBackups(ctx, id, astra.ListOptions{})
	policies := make([]string, 0, len(schedules))
	for _, s := range schedules {
		policies = append(policies, fmt.Sprintf("%q (%s)", s.Name, s.Granularity))
	}
	held := countOf(schedules, errSchedules, "protection policies")
	if len(policies) > 0 {
		held += " (" + strings.Join(policies, ", ") + ")"
	}
	diags.AddAttributeWarning(because, "Replacing the app unmanages it, with its snapshots and backups",
		fmt.Sprintf("Changing %s replaces the app %q (%s): the apply unmanages it, then manages its new scope as a new app "+
			"(Astra Control cannot change an app's cluster or scope in place). Astra Control Center's documentation says "+
			"unmanaging an app deletes its snapshots and backups (NetApp's automation documentation says they stay; the "+
			"provider assumes they go). What the app has: %s; %s; %s. Its policies are replaced with it, starting over.\n\n"+
			"To keep them, set %s back to what it was. To keep a backup through the change, take the new scope as a new "+
			"app beside this one (another astra_app resource) and destroy this one only when the new one is protected.",
			because, prior.Name.ValueString(), id, held, countOf(snapshots, errSnapshots, "snapshots"),
			countOf(backups, errBackups, "backups"), because))
}
