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

var _ knownanswers.DestroyChecker = (*appResource)(nil)

// CheckDestroy warns, at plan, that unmanaging the app may take with it snapshots and
// backups the configuration does not hold: ones a policy, an action, a person or another
// workspace took. What unmanaging does to them is documented both ways (Astra Control
// Center's use/unmanage: deleted; the automation docs' wf_unmanage_app: kept), so the
// warning says both, as warnAppReplacement does. Snapshots and backups this plan destroys
// itself (their resources depend on the app, so they are planned first) are left out.
func (r *appResource) CheckDestroy(ctx context.Context, state tfsdk.State) diag.Diagnostics {
	client := r.configuredClient()
	var prior appModel
	if client == nil || stateGet(ctx, state, &prior).HasError() || !isSet(prior.ID) {
		return nil
	}
	id := prior.ID.ValueString()
	snapshots, errSnapshots := client.ListAppSnapshots(ctx, id, astra.ListOptions{})
	backups, errBackups := client.ListAppBackups(ctx, id, astra.ListOptions{})
	var ids []string
	for _, s := range snapshots {
		ids = append(ids, s.ID)
	}
	for _, b := range backups {
		ids = append(ids, b.ID)
	}
	destroyed := r.destroyedHere(ctx, ids)
	var snapshotNames []string
	for _, s := range snapshots {
		if !destroyed[s.ID] {
			snapshotNames = append(snapshotNames, s.Name+" ("+s.ID+")")
		}
	}
	inBucket := map[string][]string{}
	kept := 0
	for _, b := range backups {
		if !destroyed[b.ID] {
			inBucket[b.BucketID] = append(inBucket[b.BucketID], b.Name+" ("+b.ID+")")
			kept++
		}
	}
	if len(snapshotNames)+kept == 0 && errSnapshots == nil && errBackups == nil {
		return nil
	}
	var held []string
	switch {
	case errSnapshots != nil:
		held = append(held, "snapshots: unknown (listing them failed: "+errSnapshots.Error()+")")
	case len(snapshotNames) > 0:
		sort.Strings(snapshotNames)
		held = append(held, fmt.Sprintf("snapshots: %d (%s)", len(snapshotNames), strings.Join(snapshotNames, ", ")))
	}
	switch {
	case errBackups != nil:
		held = append(held, "backups: unknown (listing them failed: "+errBackups.Error()+")")
	case kept > 0:
		held = append(held, fmt.Sprintf("backups: %d (%s)", kept, backupsByBucket(ctx, client, inBucket)))
	}
	name := prior.Name.ValueString()
	var diags diag.Diagnostics
	diags.AddWarning("Destroying the app may delete its snapshots and backups",
		fmt.Sprintf("Destroying app %q (%s) unmanages it in Astra Control. Astra Control Center's documentation says "+
			"unmanaging an app deletes its snapshots and backups; NetApp's REST workflow (wf_unmanage_app) says they are "+
			"kept, and a kept backup then blocks the delete of its bucket (409, problem 83) until it is deleted.%s This "+
			"plan does not destroy them itself: they may have been taken by a protection policy, an action, a person or "+
			"another workspace. What the app has: %s.\n\n"+
			"To keep the app managed in Astra Control, with its snapshots and backups, take it out of the configuration "+
			"with a removed block instead of destroying it: removed { from = astra_app.<name> lifecycle { destroy = false "+
			"} }. A snapshot or backup that another workspace manages may be gone after this apply: there, `terraform "+
			"state rm` its resource.", name, id, backupsOptInSentence(prior.DeleteBackupsOnDestroy.ValueBool()), strings.Join(held, "; ")))
	return diags
}

// backupsOptInSentence says what this provider itself does with the app's backups on
// destroy (delete_backups_on_destroy), whichever reading the service follows.
func backupsOptInSentence(optIn bool) string {
	if optIn {
		return " With delete_backups_on_destroy = true, destroy deletes every backup of the app first, whatever the service does."
	}
	return " With delete_backups_on_destroy = false, destroy deletes none of them itself."
}

// backupsByBucket lists backups grouped by the bucket they sit in ("in bucket b (id): x
// (id), y (id)"), buckets sorted by ID. A bucket the listing does not name shows its ID.
func backupsByBucket(ctx context.Context, client *astra.Client, inBucket map[string][]string) string {
	names := map[string]string{}
	if buckets, err := client.ListBuckets(ctx, astra.ListOptions{}); err == nil {
		for _, b := range buckets {
			names[b.ID] = b.Name + " "
		}
	}
	ids := make([]string, 0, len(inBucket))
	for id := range inBucket {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	parts := make([]string, 0, len(ids))
	for _, id := range ids {
		sort.Strings(inBucket[id])
		parts = append(parts, "in bucket "+names[id]+"("+id+"): "+strings.Join(inBucket[id], ", "))
	}
	return strings.Join(parts, "; ")
}
