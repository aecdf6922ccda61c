package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
)

var (
	_ resource.ResourceWithConfigure      = (*bucketResource)(nil)
	_ resource.ResourceWithImportState    = (*bucketResource)(nil)
	_ resource.ResourceWithValidateConfig = (*bucketResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*bucketResource)(nil)
	_ knownanswers.DestroyChecker         = (*bucketResource)(nil)
)

type bucketResource struct{ clientHolder }

// newBucketResource is astra_bucket.
func newBucketResource() resource.Resource { return &bucketResource{} }

func (r *bucketResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_bucket"
}

func (r *bucketResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: bucketSchemaVersion,
		MarkdownDescription: "An object-store bucket Astra Control writes backups to (`POST /topology/v1/buckets`): an " +
			"S3 bucket (ONTAP S3, StorageGRID, any S3 service, AWS), a Google Cloud Storage bucket or an Azure blob " +
			"container, opened with a credential. Set it as a cloud's or a managed cluster's `default_bucket_id`. " +
			"Create waits (see `wait_for_available`) until Astra Control reached the bucket; `failed` or `removed` " +
			"fails the apply with the service's reasons, the bucket kept in state as tainted. Destroy makes Astra " +
			"Control forget the bucket: the object store and the backups in it are left alone. Astra Control refuses " +
			"while the bucket is a default bucket; the error names who uses it.",
		Attributes: bucketResourceAttributes(ctx),
	}
}

// ValidateConfig requires exactly the nested location attribute bucket_provider takes.
func (r *bucketResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg bucketModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	addProblems(&resp.Diagnostics, bucketConfigProblems(cfg.BucketProvider, cfg.S3, cfg.GCP, cfg.Azure))
}

func (r *bucketResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, client, ok := fromPlan[bucketModel](ctx, &r.clientHolder, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, ok := timeoutOf(ctx, plan.Timeouts, creating, bucketTimeouts, &resp.Diagnostics)
	// Values unknown at plan time are known now: check them again.
	if addProblems(&resp.Diagnostics, bucketConfigProblems(plan.BucketProvider, plan.S3, plan.GCP, plan.Azure)); !ok || resp.Diagnostics.HasError() {
		return
	}
	body := bucketCreateRequest(plan.bucketValues)
	sent := time.Now()
	bucket, err := client.CreateBucket(ctx, body)
	if astra.IsConflict(err) && astra.ProblemNumber(err) == problemBucketExists {
		addExists(&resp.Diagnostics, "Bucket already exists", "astra_bucket", existingBucket(ctx, client, body),
			"the astra_buckets data source lists the account's buckets", err)
		return
	}
	bucket = createdOrAdopted(ctx, &resp.Diagnostics, "bucket "+body.Name, "Cannot create the bucket", bucketAPIFields, bucket, err,
		lostCreate[astra.Bucket]{sent: sent, claims: r.claims(), stamp: bucketStamp, settle: client.RequestTimeout(),
			find: func(ctx context.Context) (*astra.Bucket, error) { return client.FindBucket(ctx, body.Name) }})
	if bucket == nil {
		return
	}
	// Recorded before the wait, so a failed wait taints the bucket instead of orphaning it.
	r.recordAndWait(ctx, client, timeout, &plan, bucket, &resp.State, resp.Private, &resp.Diagnostics,
		"The bucket is recorded in state as tainted: the next apply makes Astra Control forget it and adds it again. "+
			"Fix the cause first (the credential, or the bucket's location).")
}

func (r *bucketResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, client, ok := fromState[bucketModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	id := state.ID.ValueString()
	bucket := readOrForget(ctx, resp, "astra_bucket", id, "the bucket",
		func() (*astra.Bucket, error) { return client.GetBucket(ctx, id) }, nil)
	if bucket == nil {
		return
	}
	if state.WaitForAvailable.IsNull() { // imported: the default, so the next plan is empty
		state.WaitForAvailable = types.BoolValue(true)
	}
	r.recordAnswer(ctx, &state, bucket, &resp.State, resp.Private, &resp.Diagnostics)
}

// Update is one PUT of the bucket as just read with the plan's name and credential: a
// fresh GET of the bucket itself (never a shared listing), the plan applied, the PUT, and
// the read its 204 calls for; a new credential is then waited for.
func (r *bucketResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, client, ok := fromPlan[bucketModel](ctx, &r.clientHolder, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, ok := timeoutOf(ctx, plan.Timeouts, updating, bucketTimeouts, &resp.Diagnostics)
	if !ok {
		return
	}
	inPlace(ctx, req, resp, bucketPutArgs, func(change bucketModel) bool {
		id := plan.ID.ValueString()
		bucket := updateFromFreshCopy(ctx, &resp.Diagnostics, client, "bucket", id, bucketAPIFields,
			func(ctx context.Context) (*astra.Bucket, error) { return client.GetBucket(ctx, id) },
			func(b *astra.Bucket) { applyBucketPlan(b, change.bucketValues) },
			client.UpdateBucket)
		if bucket == nil {
			return false
		}
		r.recordAndWait(ctx, client, timeout, &plan, bucket, &resp.State, resp.Private, &resp.Diagnostics,
			"The new settings are applied and recorded in state; the bucket has not reported available since.")
		return true
	})
}

func (r *bucketResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, client, ok := fromState[bucketModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, ok := timeoutOf(ctx, state.Timeouts, deleting, bucketTimeouts, &resp.Diagnostics)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	id := state.ID.ValueString()
	err := deleteBucket(ctx, r.waitSchedule(), client, id)
	switch {
	case err == nil || astra.IsNotFound(err):
	case bucketInUse(err):
		addBucketInUse(context.WithoutCancel(ctx), &resp.Diagnostics, client, id, state.Name.ValueString(), err)
	default:
		addAPIError(&resp.Diagnostics, "Cannot delete the bucket", err, nil)
	}
}

func (r *bucketResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// recordAnswer writes the model converted from the service's answer to state; the
// resource's own settings (timeouts, wait_for_available) stay as m holds them.
func (r *bucketResource) recordAnswer(ctx context.Context, m *bucketModel, answer *astra.Bucket, state *tfsdk.State,
	private privateKeys, diags *diag.Diagnostics) {
	m.bucketValues = bucketFrom(answer)
	diags.Append(setState(ctx, state, m)...)
	knownanswers.RecordAnswer(ctx, private, answer, *state, diags)
}

// ReadAnswer is the object Read converts (knownanswers.AnswerReader).
func (r *bucketResource) ReadAnswer(ctx context.Context, ids map[string]string) (any, bool) {
	return readWith(&r.clientHolder, func(c *astra.Client) (*astra.Bucket, error) { return c.GetBucket(ctx, ids["id"]) }, nil)
}

// recordAndWait records the service's answer in state, then waits until the bucket is
// available and records what it last saw.
func (r *bucketResource) recordAndWait(ctx context.Context, client *astra.Client, timeout time.Duration, m *bucketModel,
	answer *astra.Bucket, state *tfsdk.State, private privateKeys, diags *diag.Diagnostics, aftermath string) {
	if r.recordAnswer(ctx, m, answer, state, private, diags); diags.HasError() || !m.WaitForAvailable.ValueBool() {
		return
	}
	id := m.ID.ValueString()
	waitAndRecord(ctx, r.waitSchedule(), timeout, answer, func(ctx context.Context) (*astra.Bucket, error) { return client.GetBucket(ctx, id) },
		astra.BucketAvailable, func(b *astra.Bucket) { r.recordAnswer(ctx, m, b, state, private, diags) }, diags, "Bucket did not become available", aftermath)
}

func bucketStamp(b *astra.Bucket) objectStamp {
	return objectStamp{Kind: "bucket", ID: b.ID, Created: b.Metadata.CreationTimestamp}
}

// existingBucket is the bucket a 409/57 refers to: the account's bucket of the same
// provider and location; nil when one read does not tell.
func existingBucket(ctx context.Context, client *astra.Client, body astra.BucketCreate) *existing {
	buckets, err := client.ListBuckets(ctx, astra.ListOptions{})
	if err != nil {
		return nil
	}
	want, _ := json.Marshal(body.Parameters)
	for _, b := range buckets {
		if got, _ := json.Marshal(b.BucketParameters); b.Provider == body.Provider && string(got) == string(want) {
			return &existing{what: fmt.Sprintf("the bucket %q (%s, state %s) at the same location", b.Name, b.Provider, b.State), id: b.ID}
		}
	}
	return nil
}
