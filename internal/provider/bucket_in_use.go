package provider

import (
	"context"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
)

// Problems of a bucket Astra Control will not forget: in use (83: backups in it, or a
// protection policy writing to it), a cloud's default (84) or a managed cluster's (175).
const (
	problemBucketInUse        = 83
	problemBucketCloudDefault = 84
	problemBucketIsDefault    = 175
)

// bucketInUse reports the service's refusal to forget a bucket that is a default bucket or
// in use.
func bucketInUse(err error) bool {
	if !astra.IsConflict(err) {
		return false
	}
	switch astra.ProblemNumber(err) {
	case problemBucketInUse, problemBucketCloudDefault, problemBucketIsDefault:
		return true
	}
	return false
}

// bucketUser is what keeps a bucket in use: a cloud or managed cluster whose default it is,
// a protection policy that backs up into it, or a backup it holds.
type bucketUser struct{ kind, name, id string }

// bucketUse is what uses a bucket, by kind, and the IDs of the managed apps (a backup
// listed account-wide does not name its app).
type bucketUse struct {
	defaults, policies, backups []bucketUser
	apps                        []string
}

func (u bucketUse) none() bool { return len(u.defaults)+len(u.policies)+len(u.backups) == 0 }

// bucketUsers finds what uses bucket id. A listing that fails leaves its kind out: the error
// still carries the service's problem.
func bucketUsers(ctx context.Context, client *astra.Client, id string) bucketUse {
	var use bucketUse
	if clouds, err := client.ListClouds(ctx, astra.ListOptions{}); err == nil {
		for _, c := range clouds {
			if c.DefaultBucketID == id {
				use.defaults = append(use.defaults, bucketUser{"astra_cloud", c.Name, c.ID})
			}
		}
	}
	if managed, err := client.ListManagedClusters(ctx, astra.ListOptions{}); err == nil {
		for _, m := range managed {
			if m.DefaultBucketID == id && isManaged(&m) {
				use.defaults = append(use.defaults, bucketUser{"astra_managed_cluster", m.Name, m.ID})
			}
		}
	}
	if apps, err := client.ListApps(ctx, astra.ListOptions{}); err == nil {
		for _, a := range apps {
			use.apps = append(use.apps, a.ID)
			schedules, err := client.ListAppSchedules(ctx, a.ID)
			if err != nil {
				continue
			}
			for _, s := range schedules {
				if s.BucketID == id {
					use.policies = append(use.policies, bucketUser{"astra_protection_policy", a.Name + "/" + s.Name, a.ID + "/" + s.ID})
				}
			}
		}
	}
	if all, err := client.ListAllAppBackups(ctx, astra.ListOptions{}); err == nil {
		for _, b := range all {
			if b.BucketID == id {
				use.backups = append(use.backups, bucketUser{"backup", b.Name, b.ID})
			}
		}
	}
	for _, list := range [][]bucketUser{use.defaults, use.policies, use.backups} {
		sort.Slice(list, func(i, j int) bool { return list[i].kind+list[i].id < list[j].kind+list[j].id })
	}
	return use
}

func listUsers(b *strings.Builder, users []bucketUser) {
	for i, u := range users {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(u.kind + " " + u.name + " (" + u.id + ")")
	}
}

// addBucketInUse explains a refused delete (problems 83, 84, 175): what uses the bucket, and
// what to change for each.
func addBucketInUse(ctx context.Context, diags *diag.Diagnostics, client *astra.Client, id, name string, err error) {
	use := bucketUsers(ctx, client, id)
	var b strings.Builder
	b.WriteString("Astra Control refuses to forget bucket " + name + " (" + id + ").")
	if use.none() {
		b.WriteString(inUseByWhatServiceSays(err))
	}
	describeBucketUsers(&b, use)
	diags.AddError("Cannot delete a bucket that is in use", b.String()+"\n\n"+err.Error())
}

// CheckDestroy refuses, at plan, to destroy a bucket that stays in use
// (knownanswers.DestroyChecker): Astra Control refuses to forget it (problems 83, 84, 175),
// and the apply would first delete everything ordered before the bucket, then fail. What
// this plan destroys does not count (stayingUsers), so a full destroy says nothing. Two users
// may or may not be gone when the bucket's DELETE comes, and are left to the apply: one this
// plan moves to another bucket (Terraform updates it before the bucket's destroy only under
// the bucket's create_before_destroy, which the provider is not told), and a backup of an app
// this plan unmanages without delete_backups_on_destroy (NetApp documents both fates; the
// app's destroy warning says so). Either way a refused destroy is said once: an error at
// plan, or the apply's refusal (addBucketInUse) with nothing before it.
func (r *bucketResource) CheckDestroy(ctx context.Context, state tfsdk.State) diag.Diagnostics {
	client := r.configuredClient()
	var prior bucketModel
	if client == nil || stateGet(ctx, state, &prior).HasError() || !isSet(prior.ID) {
		return nil
	}
	id := prior.ID.ValueString()
	staying := r.stayingUsers(ctx, client, bucketUsers(ctx, client, id))
	if staying.none() {
		return nil
	}
	var b strings.Builder
	b.WriteString("This plan destroys bucket " + prior.Name.ValueString() + " (" + id + "), and neither destroys nor " +
		"moves to another bucket what uses it. Astra Control refuses to forget a bucket in use, and the apply would " +
		"first delete what it orders before the bucket, then fail: nothing has been changed.")
	describeBucketUsers(&b, staying)
	b.WriteString("\n\nDestroy them in this apply, or move them to another bucket first (in this same apply only if " +
		"the bucket already has lifecycle { create_before_destroy = true }: otherwise Terraform destroys a removed " +
		"bucket before it updates what used it), then plan again; or keep the bucket in Astra Control and let " +
		"Terraform forget it: removed { from = astra_bucket.<name> lifecycle { destroy = false } }.")
	var diags diag.Diagnostics
	diags.AddError("Cannot destroy a bucket that stays in use", b.String())
	return diags
}

// stayingUsers are the users this plan neither destroys nor moves off the bucket (see
// destroySet): a policy goes with its app, a default with its managed cluster or cloud, and
// a backup of an app this plan unmanages is left out (gone under delete_backups_on_destroy,
// else uncertain: see CheckDestroy).
func (r *bucketResource) stayingUsers(ctx context.Context, client *astra.Client, use bucketUse) bucketUse {
	var ids []string
	for _, list := range [][]bucketUser{use.defaults, use.policies, use.backups} {
		for _, u := range list {
			ids = append(ids, strings.Split(u.id, "/")...) // a policy is app/schedule
		}
	}
	if len(use.backups) > 0 {
		ids = append(ids, use.apps...)
	}
	planned := r.plannedHere(ctx, ids)
	var kept bucketUse
	goes := func(u bucketUser) bool {
		for _, id := range strings.Split(u.id, "/") {
			if planned[id] != 0 {
				return true
			}
		}
		return false
	}
	for _, u := range use.defaults {
		if !goes(u) {
			kept.defaults = append(kept.defaults, u)
		}
	}
	for _, u := range use.policies {
		if !goes(u) {
			kept.policies = append(kept.policies, u)
		}
	}
	withApp := map[string]bool{} // backups of apps this plan unmanages
	for _, app := range use.apps {
		if planned[app]&noteDestroyed == 0 || len(use.backups) == 0 {
			continue
		}
		backups, err := client.ListAppBackups(ctx, app, astra.ListOptions{})
		if err != nil {
			return bucketUse{} // unsure which backups go: the apply's refusal, if any, says
		}
		for _, b := range backups {
			withApp[b.ID] = true
		}
	}
	for _, u := range use.backups {
		if !goes(u) && !withApp[u.id] {
			kept.backups = append(kept.backups, u)
		}
	}
	return kept
}

func (r *bucketResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	knownanswers.ModifyDestroyPlan(ctx, r, req, resp)
}

// describeBucketUsers says what uses a bucket and what to change for each.
func describeBucketUsers(b *strings.Builder, use bucketUse) {
	defaults, policies, backups := use.defaults, use.policies, use.backups
	if len(defaults) > 0 {
		b.WriteString(" It is the default bucket of ")
		listUsers(b, defaults)
		b.WriteString(": set their default_bucket_id to another bucket first, then destroy again. In one configuration, " +
			"give the bucket lifecycle { create_before_destroy = true }: Terraform then updates the users of a bucket " +
			"before it destroys the bucket (by default it destroys first), so one apply both moves the default and " +
			"removes the old bucket.")
	}
	if len(policies) > 0 {
		b.WriteString(" Protection policies back up into it: ")
		listUsers(b, policies)
		b.WriteString(". Set their bucket_id to another bucket, or destroy them, first: one apply that moves them and " +
			"removes the bucket needs lifecycle { create_before_destroy = true } on the bucket, applied before (Terraform " +
			"otherwise destroys a removed bucket before it updates what used it).")
	}
	if len(backups) > 0 {
		b.WriteString(" It holds backups: ")
		listUsers(b, backups)
		b.WriteString(". Astra Control keeps a bucket while it holds backups: delete them first (destroy their " +
			"astra_app_backup resources, or delete them in Astra Control, knowing that they are then gone), or keep the " +
			"bucket (a removed block with lifecycle { destroy = false } takes it out of the configuration and leaves it). " +
			"Astra Control's REST API keeps the backups of an app it unmanages: delete those with DELETE " +
			"/accounts/<account ID>/topology/v1/appBackups/<backup ID>, or set delete_backups_on_destroy = true on the " +
			"astra_app (and make the app depend on the bucket) so that destroying the app deletes them first.")
	}
}
