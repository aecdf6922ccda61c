package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
)

var (
	_ resource.ResourceWithConfigure      = (*protectionPolicyResource)(nil)
	_ resource.ResourceWithImportState    = (*protectionPolicyResource)(nil)
	_ resource.ResourceWithValidateConfig = (*protectionPolicyResource)(nil)
	_ knownanswers.PlanChecker            = (*protectionPolicyResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*protectionPolicyResource)(nil)
	_ resource.ResourceWithIdentity       = (*protectionPolicyResource)(nil)
)

// A policy lives under its app (/k8s/v1/apps/{app_id}/schedules/{id}): its identity is
// { app_id, id } and it imports as "<app_id>/<id>".
type protectionPolicyResource struct{ clientHolder }

// newProtectionPolicyResource is astra_protection_policy.
func newProtectionPolicyResource() resource.Resource { return &protectionPolicyResource{} }

type policyIdentity struct {
	AppID types.String `tfsdk:"app_id"`
	ID    types.String `tfsdk:"id"`
}

func (r *protectionPolicyResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_protection_policy"
}

func (r *protectionPolicyResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"app_id": identityschema.StringAttribute{RequiredForImport: true, Description: "ID of the app the policy protects."},
		"id":     identityschema.StringAttribute{RequiredForImport: true, Description: "ID of the policy (the app's schedule)."},
	}}
}

func (r *protectionPolicyResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: protectionPolicySchemaVersion,
		MarkdownDescription: "When an app is snapshotted and backed up (`POST /k8s/v1/apps/{app_id}/schedules`): an " +
			"hourly, daily, weekly or monthly schedule with how many snapshots and backups it keeps. Every argument but " +
			"`app_id` is updated in place with one request. The granularity rules (an `hour` on an hourly policy, a weekly " +
			"policy without `day_of_week`, ...) are plan-time errors. The app's `protection_state` shows whether its " +
			"policies protect it. Imports as `<app_id>/<id>`.",
		Attributes: protectionPolicyAttributes(),
	}
}

// ValidateConfig applies the granularity rules.
func (r *protectionPolicyResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m protectionPolicyModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !isSet(m.Granularity) {
		return
	}
	for _, v := range m.timeValues() {
		if v.IsUnknown() {
			return
		}
	}
	addGranularityProblems(granularityProblems(m.Granularity.ValueString(), m.timeValues()), resp.Diagnostics.AddAttributeError)
	addGranularityProblems(customProblems(m.Granularity.ValueString(), m.IntervalMinutes), resp.Diagnostics.AddAttributeError)
}

// CheckPlan (the resource's ModifyPlan, see knownanswers.PlanChecker) checks, when bucket_id is known
// and changes, that the bucket exists.
func (r *protectionPolicyResource) CheckPlan(ctx context.Context, req knownanswers.PlanRequest) diag.Diagnostics {
	var diags diag.Diagnostics
	client := r.configuredClient()
	if client == nil {
		return nil
	}
	var plan protectionPolicyModel
	diags.Append(planGet(ctx, req.Plan, &plan)...)
	if !diags.HasError() {
		diags.Append(checkReplicatePlan(ctx, client, req, plan)...)
	}
	if diags.HasError() || !isSet(plan.BucketID) {
		return diags
	}
	if !req.State.Raw.IsNull() {
		var prior types.String
		diags.Append(req.State.GetAttribute(ctx, path.Root("bucket_id"), &prior)...)
		if prior.Equal(plan.BucketID) {
			return diags
		}
	}
	exists, err := bucketExists(ctx, client, plan.BucketID.ValueString())
	if err == nil && !exists {
		diags.AddAttributeError(path.Root("bucket_id"), "Unknown bucket",
			"Astra Control has no bucket with ID \""+plan.BucketID.ValueString()+"\". Set bucket_id to an astra_bucket's id "+
				"(the astra_buckets data source lists them), or remove it to let Astra Control choose.")
	}
	return diags
}

// ModifyPlan runs the plan checks (knownanswers.PlanChecker): the resource has its own
// identity, so no identified wrapper runs them.
func (r *protectionPolicyResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.noteDestroy(ctx, req)
	knownanswers.ModifyPlan(ctx, r, req, resp)
}

// bucketExists reports whether the account has the bucket: false only on a 404; another
// error leaves the check to the service at apply.
func bucketExists(ctx context.Context, client *astra.Client, id string) (bool, error) {
	_, err := client.GetBucket(ctx, id)
	if astra.IsNotFound(err) {
		return false, nil
	}
	return err == nil, err
}

func (r *protectionPolicyResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, client, ok := fromPlan[protectionPolicyModel](ctx, &r.clientHolder, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	appID := plan.AppID.ValueString()
	body := protectionPolicyRequest(plan)
	sent := time.Now()
	s, err := client.CreateAppSchedule(ctx, appID, body)
	s = createdOrAdopted(ctx, &resp.Diagnostics, "protection policy "+body.Name, "Cannot create the protection policy",
		protectionPolicyAPIFields, s, err,
		lostCreate[astra.AppSchedule]{sent: sent, claims: r.claims(), stamp: appScheduleStamp, settle: client.RequestTimeout(),
			find: func(ctx context.Context) (*astra.AppSchedule, error) {
				return findAppSchedule(ctx, client, appID, body)
			}})
	if s == nil {
		return
	}
	r.record(ctx, appID, s, &resp.State, resp.Identity, resp.Private, &resp.Diagnostics)
}

func (r *protectionPolicyResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, client, ok := fromState[protectionPolicyModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	appID, id := state.AppID.ValueString(), state.ID.ValueString()
	setPolicyIdentity(ctx, resp.Identity, appID, id, &resp.Diagnostics)
	s := readOrForget(ctx, resp, "astra_protection_policy", id, "the protection policy",
		func() (*astra.AppSchedule, error) { return client.GetAppSchedule(ctx, appID, id) }, nil)
	if s == nil {
		return
	}
	r.record(ctx, appID, s, &resp.State, resp.Identity, resp.Private, &resp.Diagnostics)
	warnBucketGone(ctx, client, s, &resp.Diagnostics)
}

// bucketGone reports whether Astra Control answers that bucket id (if any) does not exist.
// The bucket is read from the listing the refresh's other bucket reads share.
func bucketGone(ctx context.Context, client *astra.Client, id string) bool {
	if id == "" {
		return false
	}
	_, err := client.GetBucket(ctx, id)
	return astra.IsNotFound(err)
}

// warnBucketGone says, on refresh, that the bucket a policy backs up into is gone: the
// service keeps the policy, whose backups then fail, and nothing else in the plan shows it.
func warnBucketGone(ctx context.Context, client *astra.Client, s *astra.AppSchedule, diags *diag.Diagnostics) {
	if bucketGone(ctx, client, s.BucketID) {
		diags.AddAttributeWarning(path.Root("bucket_id"), "The policy's bucket is gone",
			fmt.Sprintf("Protection policy %s backs up into bucket %s, which Astra Control no longer has: its backups fail "+
				"until bucket_id names a bucket that exists. Set bucket_id to another bucket (an astra_bucket's id), or "+
				"remove it to back up into the cluster's default bucket, and apply.", s.Name, s.BucketID))
	}
}

// Update changes every argument but app_id and granularity in place: a fresh GET of the
// schedule, what the plan changes applied to it (an argument the plan leaves as it was,
// bucket_id left out of the configuration included, keeps whatever the schedule holds
// now), one PUT of the whole schedule, then a read (its PUT answer is an echo).
func (r *protectionPolicyResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, client, ok := fromPlan[protectionPolicyModel](ctx, &r.clientHolder, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	inPlace(ctx, req, resp, protectionPolicyPutArgs, func(change protectionPolicyModel) bool {
		appID, id := plan.AppID.ValueString(), plan.ID.ValueString()
		s := updateFromFreshCopy(ctx, &resp.Diagnostics, client, "protection policy", id, protectionPolicyAPIFields,
			func(ctx context.Context) (*astra.AppSchedule, error) { return client.GetAppSchedule(ctx, appID, id) },
			func(s *astra.AppSchedule) { applyProtectionPolicyPlan(s, change) },
			func(ctx context.Context, s *astra.AppSchedule) (*astra.AppSchedule, error) {
				return client.UpdateAppSchedule(ctx, appID, s)
			})
		if s == nil {
			return false
		}
		r.record(ctx, appID, s, &resp.State, resp.Identity, resp.Private, &resp.Diagnostics)
		return true
	})
}

func (r *protectionPolicyResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, client, ok := fromState[protectionPolicyModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	if err := client.DeleteAppSchedule(ctx, state.AppID.ValueString(), state.ID.ValueString()); err != nil && !astra.IsNotFound(err) {
		addAPIError(&resp.Diagnostics, "Cannot delete the protection policy", err, nil)
	}
}

// ImportState takes "<app_id>/<id>", or an identity { app_id, id }.
func (r *protectionPolicyResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importAppRun(ctx, r.configuredClient(), "astra_protection_policy", "policy", func(ctx context.Context, c *astra.Client, appID, id string) error {
		_, err := c.GetAppSchedule(ctx, appID, id)
		return err
	}, req, resp)
}

// record writes the service's answer to state, and the identity.
func (r *protectionPolicyResource) record(ctx context.Context, appID string, s *astra.AppSchedule, state *tfsdk.State,
	identity *tfsdk.ResourceIdentity, private privateKeys, diags *diag.Diagnostics) {
	diags.Append(setState(ctx, state, protectionPolicyFrom(appID, s))...)
	setPolicyIdentity(ctx, identity, appID, s.ID, diags)
	knownanswers.RecordAnswer(ctx, private, s, *state, diags)
}

// ReadAnswer is the object Read converts (knownanswers.AnswerReader): the schedule of the
// state's app, unless Read warns that its bucket is gone.
func (r *protectionPolicyResource) ReadAnswer(ctx context.Context, ids map[string]string) (any, bool) {
	return readWith(&r.clientHolder, func(c *astra.Client) (*astra.AppSchedule, error) {
		return c.GetAppSchedule(ctx, ids["app_id"], ids["id"])
	}, func(c *astra.Client, s *astra.AppSchedule) bool { return bucketGone(ctx, c, s.BucketID) })
}

func setPolicyIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, appID, id string, diags *diag.Diagnostics) {
	if identity == nil || appID == "" || id == "" {
		return
	}
	diags.Append(identity.Set(ctx, policyIdentity{AppID: types.StringValue(appID), ID: types.StringValue(id)})...)
}

// findAppSchedule finds the policy a POST with a lost answer may have made: the app's
// schedule of that name and granularity, nil if none.
func findAppSchedule(ctx context.Context, client *astra.Client, appID string, body astra.AppScheduleFields) (*astra.AppSchedule, error) {
	list, err := client.ListAppSchedules(ctx, appID)
	if err != nil {
		return nil, err
	}
	for i := range list {
		if list[i].Name == body.Name && list[i].Granularity == body.Granularity {
			return &list[i], nil
		}
	}
	return nil, nil
}

func appScheduleStamp(s *astra.AppSchedule) objectStamp {
	return objectStamp{Kind: "protection policy", ID: s.ID, Created: s.Metadata.CreationTimestamp}
}
