package provider

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
)

var _ knownanswers.DestroyChecker = (*managedClusterResource)(nil)

// CheckDestroy refuses, at plan, to unmanage a cluster that keeps managed apps this plan
// does not destroy (made by another workspace or by hand): Astra Control refuses the
// unmanage (inUse), and the apply would first delete everything ordered before it, the
// cluster's snapshots, backups, policies and apps, then fail. The apps this plan destroys
// reference the cluster, so their destroys are planned first (destroySet).
func (r *managedClusterResource) CheckDestroy(ctx context.Context, state tfsdk.State) diag.Diagnostics {
	client := r.configuredClient()
	var prior managedClusterModel
	if client == nil || stateGet(ctx, state, &prior).HasError() || !isSet(prior.ID) {
		return nil
	}
	apps, err := client.ListApps(ctx, astra.ListOptions{})
	if err != nil {
		return nil // the apply's unmanage reports what the service says
	}
	id := prior.ID.ValueString()
	var onCluster []string
	for _, a := range apps {
		if a.ClusterID == id {
			onCluster = append(onCluster, a.ID)
		}
	}
	destroyed := r.destroyedHere(ctx, onCluster)
	var staying []string
	for _, a := range apps {
		if a.ClusterID == id && !destroyed[a.ID] {
			staying = append(staying, fmt.Sprintf("%s (%s)", a.Name, a.ID))
		}
	}
	if len(staying) == 0 {
		return nil
	}
	sort.Strings(staying)
	var diags diag.Diagnostics
	diags.AddError("Cannot unmanage a cluster that has managed applications",
		fmt.Sprintf("This plan unmanages cluster %s (%s), which has managed applications that it does not destroy. "+
			"Astra Control does not unmanage a cluster while it manages applications on it, and the apply would "+
			"first delete what it orders before the cluster (its apps, policies, snapshots and backups here), then "+
			"fail: nothing has been changed.\n\n"+
			"Choose one: unmanage those applications first (in the workspace that manages them, or in the Astra "+
			"Control UI or API), then plan again; or, if this configuration manages them with a literal cluster_id, "+
			"set it to astra_managed_cluster.<name>.id, so that Terraform destroys them first; or keep the cluster "+
			"managed and let Terraform forget it: removed { from = astra_managed_cluster.<name> lifecycle { destroy = "+
			"false } }.\n\nManaged applications: %s.", prior.Name.ValueString(), id, strings.Join(staying, ", ")))
	return diags
}
