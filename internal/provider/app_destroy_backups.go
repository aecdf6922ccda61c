package provider

import (
	"context"
	"errors"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// What unmanaging an app does with its backups depends on which of NetApp's documents the
// service follows: the REST workflow "Unmanage an app" keeps them (in their buckets, which
// then cannot be deleted, problem 83); Astra Control Center's unmanage page deletes them
// (and an app with a failed backup may refuse to go, problem 142). Destroy never deletes a
// backup the configuration did not declare unless delete_backups_on_destroy says so: it
// says which backups outlived the app and how to remove them.

// deleteBackupsOnDestroyAttribute is astra_app's opt-in to delete the app's backups first.
func deleteBackupsOnDestroyAttribute() schema.BoolAttribute {
	return schema.BoolAttribute{
		Optional: true,
		Computed: true,
		Default:  booldefault.StaticBool(false),
		MarkdownDescription: "Whether destroying the app first deletes all its backups (a failed one with `Force-Delete`), " +
			"waiting, within `timeouts.delete`, until none is left, as NetApp's cleanup scripts do before they unmanage " +
			"an app. Defaults to `false`: destroy then deletes no backup the configuration does not declare. Astra " +
			"Control's REST API keeps an unmanaged app's backups in their buckets (Astra Control Center's documentation " +
			"says they go with the app): destroy warns, naming each backup that outlived the app, and a bucket " +
			"holding them cannot be destroyed until they are deleted. Set it before the destroy (an apply records it; " +
			"changing it sends nothing to Astra Control).",
	}
}

// backupsOnDestroy is what the app's Delete does about its backups: deletes them first
// (opted in), or remembers them to say afterwards which ones the service kept.
type backupsOnDestroy struct {
	client *astra.Client
	appID  string
	before []astra.AppBackup
}

// prepare deletes the app's backups when opted in; else it lists them. False: the backups
// could not be deleted (the error is in diags) and the app must stay.
func (b *backupsOnDestroy) prepare(ctx context.Context, sched astra.Schedule, timeout time.Duration, optIn types.Bool, diags *diag.Diagnostics) bool {
	if !optIn.ValueBool() {
		b.before, _ = b.client.ListAppBackups(ctx, b.appID, astra.ListOptions{})
		return true
	}
	_, err := astra.Wait(ctx, sched, func(ctx context.Context) ([]astra.AppBackup, error) {
		left, err := b.client.ListAppBackups(ctx, b.appID, astra.ListOptions{})
		if astra.IsNotFound(err) { // the app is gone already: the unmanage below says so
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		for _, bk := range left {
			err := b.client.DeleteAppBackup(ctx, b.appID, bk.ID, bk.State == "failed")
			if err != nil && !astra.IsNotFound(err) && !astra.RunInProgress(err) {
				return nil, err
			}
		}
		return left, nil
	}, func(left []astra.AppBackup) (bool, error) { return len(left) == 0, nil })
	if err != nil {
		aftermath := "delete_backups_on_destroy is set: the app is unmanaged only once its backups are gone. The app " +
			"stays in state; destroy again, or set delete_backups_on_destroy = false and apply to keep the backups."
		var apiErr *astra.APIError
		if errors.As(err, &apiErr) {
			diags.AddError("Cannot delete the app's backups", "Astra Control refused to delete a backup of app "+b.appID+
				": "+apiErr.Error()+"\n\n"+aftermath)
			return false
		}
		addWaitError(diags, "Cannot delete the app's backups", err, timeout, aftermath)
		return false
	}
	return true
}

// warnKept warns, once the app is gone, about its backups the service kept.
func (b *backupsOnDestroy) warnKept(ctx context.Context, name string, diags *diag.Diagnostics) {
	if len(b.before) == 0 {
		return
	}
	all, err := b.client.ListAllAppBackups(ctx, astra.ListOptions{})
	if err != nil {
		return
	}
	was := map[string]bool{}
	for _, bk := range b.before {
		was[bk.ID] = true
	}
	var kept []string
	for _, bk := range all {
		if was[bk.ID] {
			kept = append(kept, bk.Name+" ("+bk.ID+") in bucket "+bk.BucketID)
		}
	}
	if len(kept) == 0 {
		return
	}
	sort.Strings(kept)
	diags.AddWarning("Astra Control kept the app's backups",
		"App "+name+" ("+b.appID+") is unmanaged, and Astra Control kept its backups: "+strings.Join(kept, ", ")+
			". They keep their buckets in use: a bucket holding backups cannot be deleted (problem 83). To delete them, "+
			"DELETE /accounts/<account ID>/topology/v1/appBackups/<backup ID> for each (a failed one with the header "+
			"Force-Delete: true); to have destroy delete an app's backups before it unmanages the app, set "+
			"delete_backups_on_destroy = true on the astra_app and apply before destroying.")
}

// unmanageRefusedHint adds, to a refused unmanage, the opt-in that deletes the backups in
// the way (Astra Control Center's reading: a failed backup keeps the app, problem 142).
func unmanageRefusedHint(err error, optIn types.Bool) string {
	if optIn.ValueBool() || astra.ProblemNumber(err) != astra.ProblemBackupNotDeleted {
		return ""
	}
	return " Astra Control does not unmanage an app while it holds a backup it cannot delete with it (a failed one): " +
		"set delete_backups_on_destroy = true and apply, then destroy again, and the app's backups are deleted " +
		"first (a failed one with Force-Delete)."
}
