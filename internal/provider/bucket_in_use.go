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

// bucketUsers finds what uses bucket id. A listing that fails leaves its kind out: the error
// still carries the service's problem.
func bucketUsers(ctx context.Context, client *astra.Client, id string) (defaults, policies, backups []bucketUser) {
	if clouds, err := client.ListClouds(ctx, astra.ListOptions{}); err == nil {
		for _, c := range clouds {
			if c.DefaultBucketID == id {
				defaults = append(defaults, bucketUser{"astra_cloud", c.Name, c.ID})
			}
		}
	}
	if managed, err := client.ListManagedClusters(ctx, astra.ListOptions{}); err == nil {
		for _, m := range managed {
			if m.DefaultBucketID == id && isManaged(&m) {
				defaults = append(defaults, bucketUser{"astra_managed_cluster", m.Name, m.ID})
			}
		}
	}
	if apps, err := client.ListApps(ctx, astra.ListOptions{}); err == nil {
		for _, a := range apps {
			schedules, err := client.ListAppSchedules(ctx, a.ID)
			if err != nil {
				continue
			}
			for _, s := range schedules {
				if s.BucketID == id {
					policies = append(policies, bucketUser{"astra_protection_policy", a.Name + "/" + s.Name, a.ID + "/" + s.ID})
				}
			}
		}
	}
	if all, err := client.ListAllAppBackups(ctx, astra.ListOptions{}); err == nil {
		for _, b := range all {
			if b.BucketID == id {
				backups = append(backups, bucketUser{"backup", b.Name, b.ID})
			}
		}
	}
	for _, list := range [][]bucketUser{defaults, policies, backups} {
		sort.Slice(list, func(i, j int) bool { return list[i].kind+list[i].id < list[j].kind+list[j].id })
	}
	return defaults, policies, backups
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
	defaults, policies, backups := bucketUsers(ctx, client, id)
	var b strings.Builder
	b.WriteString("Astra Control refuses to forget bucket " + name + " (" + id + ").")
	if len(defaults)+len(policies)+len(backups) == 0 {
		b.WriteString(inUseByWhatServiceSays(err))
	}
	describeBucketUsers(&b, defaults, policies, backups)
	diags.AddError("Cannot delete a bucket that is in use", b.String()+"\n\n"+err.Error())
}

// CheckDestroy warns, at plan, that a bucket about to be destroyed is still in use
// (knownanswers.DestroyChecker): Astra Control would refuse the delete at apply, after the
// rest of the apply. Users this plan destroys are left out; it warns rather than refuses,
// because the users it names may still be moved by this same apply, before the bucket
// (Terraform orders them).
func (r *bucketResource) CheckDestroy(ctx context.Context, state tfsdk.State) diag.Diagnostics {
	client := r.configuredClient()
	var diags diag.Diagnostics
	var prior bucketModel
	if client == nil || stateGet(ctx, state, &prior).HasError() || !isSet(prior.ID) {
		return nil
	}
	defaults, policies, backups := bucketUsers(ctx, client, prior.ID.ValueString())
	kept := r.staying(ctx, defaults, policies, backups)
	defaults, policies, backups = kept[0], kept[1], kept[2]
	if len(defaults)+len(policies)+len(backups) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("Bucket " + prior.Name.ValueString() + " (" + prior.ID.ValueString() + ") is in use, and Astra Control " +
		"refuses to forget a bucket in use: unless this apply also destroys or moves what uses it, the destroy of the " +
		"bucket fails.")
	describeBucketUsers(&b, defaults, policies, backups)
	diags.AddWarning("The bucket to destroy is in use", b.String())
	return diags
}

// staying are the users this plan does not destroy before the bucket (see destroySet): a
// full destroy removes them all, and warns of nothing. A policy goes with its app.
func (r *bucketResource) staying(ctx context.Context, users ...[]bucketUser) [][]bucketUser {
	var ids []string
	for _, list := range users {
		for _, u := range list {
			ids = append(ids, strings.Split(u.id, "/")...) // a policy is app/schedule
		}
	}
	destroyed := r.destroyedHere(ctx, ids)
	kept := make([][]bucketUser, len(users))
	for i, list := range users {
		for _, u := range list {
			gone := false
			for _, id := range strings.Split(u.id, "/") {
				gone = gone || destroyed[id]
			}
			if !gone {
				kept[i] = append(kept[i], u)
			}
		}
	}
	return kept
}

func (r *bucketResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	knownanswers.ModifyDestroyPlan(ctx, r, req, resp)
}

// describeBucketUsers says what uses a bucket and what to change for each.
func describeBucketUsers(b *strings.Builder, defaults, policies, backups []bucketUser) {
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
		b.WriteString(". Set their bucket_id to another bucket, or destroy them, first.")
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
