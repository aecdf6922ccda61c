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
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

var (
	_ resource.ResourceWithConfigure      = (*clusterResource)(nil)
	_ resource.ResourceWithValidateConfig = (*clusterResource)(nil)
	_ knownanswers.PlanChecker            = (*clusterResource)(nil)
	_ knownanswers.AnswerBytesReader      = (*clusterResource)(nil)
	_ resource.ResourceWithImportState    = (*clusterResource)(nil)
)

// clusterResource is astra_cluster: a Kubernetes cluster added to a cloud.
type clusterResource struct {
	clientHolder
}

// newClusterResource is astra_cluster.
func newClusterResource() resource.Resource { return &clusterResource{} }

func (r *clusterResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_cluster"
}

func (r *clusterResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attributes := clusterAttributes()
	attributes["timeouts"] = attrs.TimeoutsSchema(ctx, clusterTimeouts)
	resp.Schema = schema.Schema{
		Version: clusterSchemaVersion,
		MarkdownDescription: "A Kubernetes cluster added to a cloud of Astra Control (`POST /topology/v1/clouds/{cloud_id}/clusters`). " +
			"Create waits until the cluster is `running` (see `wait_for_running`); bring it under management with " +
			"`astra_managed_cluster`. A managed cluster cannot be destroyed: unmanage it first.",
		Attributes: attributes,
	}
}

// ValidateConfig applies what of the credential rule the configuration alone decides; it
// needs no provider configuration. Whether a route without a credential is allowed also
// depends on capabilities a configuration may leave to the cluster's current value, so
// ModifyPlan checks that part.
func (r *clusterResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	// Read without the framework's reflection over the whole model: a fleet's validation
	// then costs a fraction of a plan.
	var attributes map[string]tftypes.Value
	if err := req.Config.Raw.As(&attributes); err != nil {
		resp.Diagnostics.AddError("Cannot read the configuration", err.Error()+". This is a bug in the provider; please report it.")
		return
	}
	cfg, ok := clusterValuesFromRaw(attributes)
	if !ok {
		resp.Diagnostics.AddError("Cannot read the configuration", "The cluster's arguments have unexpected types. This is a bug in the provider; please report it.")
		return
	}
	addProblems(&resp.Diagnostics, clusterConfigProblems(cfg))
}

// CheckPlan (the resource's ModifyPlan, see knownanswers.PlanChecker) applies the credential rule to
// what the cluster will have (an argument left out keeps the current value, so the rule
// sees that), refuses arguments the provider's api_version does not have, which only a
// configured provider knows, and cloud_id and credential_id that name nothing
// (references.go). Without a usable client it skips the version and reference checks: the
// first API call reports what is missing. It reads the raw values, without the framework's
// reflection over the whole model.
func (r *clusterResource) CheckPlan(ctx context.Context, req knownanswers.PlanRequest) diag.Diagnostics {
	var diags diag.Diagnostics
	cfg, okConfig := clusterValuesFromTerraform(req.Config.Raw)
	prior := clusterValues{} // null on create
	okPrior := true
	if !req.State.Raw.IsNull() {
		prior, okPrior = clusterValuesFromTerraform(req.State.Raw)
	}
	if !okConfig || !okPrior {
		diags.AddError("Cannot read the plan", "The cluster's arguments have unexpected types. This is a bug in the provider; please report it.")
		return diags
	}
	if addProblems(&diags, clusterPlanProblems(cfg, prior, r.configuredClient())); diags.HasError() {
		return diags // refused already: the references are not worth a read
	}
	addProblems(&diags, clusterReferenceProblems(ctx, r.configuredClient(), r.seen(), cfg, prior))
	return diags
}

func (r *clusterResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, client, ok := fromPlan[clusterModel](ctx, &r.clientHolder, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, ok := timeoutOf(ctx, plan.Timeouts, creating, clusterTimeouts, &resp.Diagnostics)
	if !ok {
		return
	}
	opCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	cloudID := plan.CloudID.ValueString()
	body := clusterCreateRequest(plan.clusterValues)
	sent := time.Now()
	cluster, err := client.CreateCluster(opCtx, cloudID, body)
	err = client.ExplainVersion(ctx, err)
	if astra.IsConflict(err) && astra.ProblemNumber(err) == problemClusterExists {
		addClusterExists(ctx, &resp.Diagnostics, client, cloudID, body, err)
		return
	}
	// Look with the caller's context: the create's own deadline may be what cut the answer.
	cluster = createdOrAdopted(ctx, &resp.Diagnostics, "the cluster", "Cannot add the cluster", clusterAPIFields, cluster, err,
		lostCreate[astra.Cluster]{sent: sent, claims: r.claims(), stamp: clusterStamp, settle: client.RequestTimeout(),
			find: func(ctx context.Context) (*astra.Cluster, error) {
				return findCreatedCluster(ctx, client, cloudID, body)
			}})
	if cluster == nil {
		return
	}
	// The cluster exists: record it before waiting, so a failed wait taints it instead of
	// orphaning it.
	if !plan.WaitForRunning.ValueBool() {
		r.recordAnswer(ctx, plan, cluster, &resp.State, resp.Private, &resp.Diagnostics)
		return
	}
	r.recordAndWait(ctx, opCtx, client, timeout, plan, cluster, astra.ClusterRunning, &resp.State, resp.Private, &resp.Diagnostics,
		"Cluster did not reach running", taintedAftermath(cluster.ID, plan.clusterValues))
}

func (r *clusterResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, client, ok := fromState[clusterModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	id := state.ID.ValueString()
	// The cloud-less path needs only the ID, so an import needs nothing else.
	cluster := readOrForget(ctx, resp, "astra_cluster", id, "the cluster",
		func() (*astra.Cluster, error) { return client.GetCluster(ctx, "", id) }, nil)
	if cluster == nil {
		return
	}
	r.recordAnswer(ctx, state, cluster, &resp.State, resp.Private, &resp.Diagnostics)
	warnUnreachable(&resp.Diagnostics, "astra_cluster", cluster.Name, cluster.ID, cluster.ClusterStatus)
}

// Update changes what the plan changes on the object as read and PUTs all of it back, so
// fields set elsewhere (read-only labels, members the provider does not know, whatever
// another writer changed since the plan) survive (updateFromFreshCopy).
func (r *clusterResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, client, ok := fromPlan[clusterModel](ctx, &r.clientHolder, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	var prior clusterModel
	resp.Diagnostics.Append(stateGet(ctx, req.State, &prior)...)
	timeout, ok := timeoutOf(ctx, plan.Timeouts, updating, clusterTimeouts, &resp.Diagnostics)
	if !ok {
		return
	}
	inPlace(ctx, req, resp, clusterPutArgs, func(change clusterModel) bool {
		opCtx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		cloudID, id := prior.CloudID.ValueString(), prior.ID.ValueString()
		ready := astra.ClusterRunning
		updated := updateFromFreshCopy(opCtx, &resp.Diagnostics, client, "cluster", id, clusterAPIFields,
			func(ctx context.Context) (*astra.Cluster, error) { return client.GetCluster(ctx, cloudID, id) },
			func(c *astra.Cluster) {
				// A cluster removed before the change (a credential being repaired) stays removed
				// until the service collects it again: then only failed ends the wait early.
				ready = astra.ClusterRunning
				if isUnreachable(c.State) == "removed" {
					ready = astra.ClusterRecollected
				}
				applyClusterPlan(c, change.clusterValues)
			},
			func(ctx context.Context, c *astra.Cluster) (*astra.Cluster, error) {
				updated, err := client.UpdateCluster(ctx, cloudID, c)
				return updated, client.ExplainVersion(ctx, err)
			})
		if updated == nil {
			return false
		}
		// A new credential makes Astra Control collect the cluster again.
		if plan.CredentialID.Equal(prior.CredentialID) || !plan.WaitForRunning.ValueBool() {
			r.recordAnswer(ctx, plan, updated, &resp.State, resp.Private, &resp.Diagnostics)
		} else {
			r.recordAndWait(ctx, opCtx, client, timeout, plan, updated, ready, &resp.State, resp.Private, &resp.Diagnostics,
				"Cluster did not reach running after its credential changed",
				"The new settings are applied and recorded in state. Check that the credential's kubeconfig reaches this "+
					"cluster (its API server, `kubectl --kubeconfig FILE get --raw /version`), fix the credential or set "+
					"credential_id back, and apply again.")
		}
		return true
	})
}

// Delete removes the cluster record, which Astra Control allows only while unmanaged.
func (r *clusterResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, client, ok := fromState[clusterModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, ok := timeoutOf(ctx, state.Timeouts, deleting, clusterTimeouts, &resp.Diagnostics)
	if !ok {
		return
	}
	opCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	cloudID, id := state.CloudID.ValueString(), state.ID.ValueString()
	current, err := client.GetCluster(astra.OwnRead(opCtx), cloudID, id)
	if astra.IsNotFound(err) {
		return
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "Cannot read the cluster before removing it", err, nil)
		return
	}
	if unmanaged, _ := astra.ClusterUnmanaged(current); !unmanaged {
		addStillManaged(&resp.Diagnostics, current, "")
		return
	}
	err = client.DeleteCluster(opCtx, cloudID, id)
	switch {
	case astra.IsNotFound(err):
		return
	case astra.IsConflict(err):
		// Managed in the meantime (or the service's own view of it): the same advice applies.
		addStillManaged(&resp.Diagnostics, current, err.Error())
		return
	case err != nil:
		addAPIError(&resp.Diagnostics, "Cannot remove the cluster", err, nil)
		return
	}
	_, err = astra.Wait(opCtx, r.waitSchedule(), clusterGone(client, cloudID, id), func(c *astra.Cluster) (bool, error) { return c == nil, nil })
	if err != nil {
		addWaitError(&resp.Diagnostics, "Cluster not removed", err, timeout,
			"Astra Control accepted the removal; the cluster stays in state until it is gone. Apply or destroy again to check.")
	}
}

func (r *clusterResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// recordAnswer writes the model converted from the service's answer to state. The
// conversion starts from prior (the plan, or the state), so what the service reports as
// "nothing" keeps the configuration's spelling of it. The answer's digest goes to private
// state, so a later read of the same answer can keep the state (internal/knownanswers).
func (r *clusterResource) recordAnswer(ctx context.Context, prior clusterModel, answer *astra.Cluster, state *tfsdk.State,
	private privateKeys, diags *diag.Diagnostics) {
	diags.Append(setState(ctx, state, clusterModelFrom(answer, prior))...)
	// A removed or failed cluster is not noted: every refresh then reads it and warns.
	if isUnreachable(answer.State) == "" {
		knownanswers.RecordAnswer(ctx, private, answer, *state, diags)
	}
}

// ReadAnswer is the object Read converts (knownanswers.AnswerReader).
func (r *clusterResource) ReadAnswer(ctx context.Context, ids map[string]string) (any, bool) {
	return answerOfBytes(ctx, r, ids)
}

// ReadAnswerBytes is that object as the service sent it (knownanswers.AnswerBytesReader).
func (r *clusterResource) ReadAnswerBytes(ctx context.Context, ids map[string]string) ([]byte, bool) {
	return readBytesWith(&r.clientHolder, func(c *astra.Client) (json.RawMessage, error) { return c.GetClusterJSON(ctx, "", ids["id"]) })
}

// AnswerFrom decodes it (knownanswers.AnswerBytesReader).
func (r *clusterResource) AnswerFrom(_ context.Context, raw []byte) (any, bool) {
	return answerFrom[astra.Cluster](&r.clientHolder, raw, nil)
}

// recordAndWait records the service's answer in state, then waits until the cluster is
// running and records what it last saw. opCtx bounds the wait: the whole operation shares
// its deadline (timeout, named in the error).
func (r *clusterResource) recordAndWait(ctx, opCtx context.Context, client *astra.Client, timeout time.Duration, plan clusterModel,
	answer *astra.Cluster, ready func(*astra.Cluster) (bool, error), state *tfsdk.State, private privateKeys, diags *diag.Diagnostics,
	summary, aftermath string) {
	if r.recordAnswer(ctx, plan, answer, state, private, diags); diags.HasError() {
		return
	}
	final, err := r.waitRunning(opCtx, client, plan.CloudID.ValueString(), answer, ready)
	if final != answer && final != nil {
		r.recordAnswer(ctx, plan, final, state, private, diags)
	}
	if err != nil {
		addWaitError(diags, summary, err, timeout, aftermath)
	}
}

// waitRunning waits until the cluster is running. The service's answer often already says
// so (a kubeconfig cluster is discovered at once); then nothing is polled.
func (r *clusterResource) waitRunning(ctx context.Context, client *astra.Client, cloudID string, c *astra.Cluster,
	ready func(*astra.Cluster) (bool, error)) (*astra.Cluster, error) {
	return astra.WaitFrom(ctx, r.waitSchedule().Discovery(), c, func(ctx context.Context) (*astra.Cluster, error) {
		return client.GetCluster(ctx, cloudID, c.ID)
	}, ready)
}

// findCreatedCluster looks for the cluster a POST with a lost answer may have created, by
// the name and credential it was sent with; nil when nothing identifies it.
func findCreatedCluster(ctx context.Context, client *astra.Client, cloudID string, body astra.ClusterCreate) (*astra.Cluster, error) {
	match := astra.ClusterMatch{Name: body.Name, CredentialID: body.CredentialID}
	if match == (astra.ClusterMatch{}) {
		return nil, nil
	}
	return client.FindCluster(ctx, cloudID, match)
}

// taintedAftermath tells the user what a failed create wait leaves behind.
func taintedAftermath(id string, plan clusterValues) string {
	text := "The cluster " + id + " was added to Astra Control and is recorded in state, marked as tainted: the next apply " +
		"replaces it (removes it and adds it again). To keep it instead, run `terraform untaint` on this resource."
	if isSet(plan.PrivateRouteID) && !isSet(plan.CredentialID) {
		text += " A cluster registered through an Astra Connector stays pending until its connector runs: set " +
			"wait_for_running = false for it."
	}
	return text
}

// clusterGone reads a cluster for a removal wait: nil once it no longer exists.
func clusterGone(client *astra.Client, cloudID, id string) func(context.Context) (*astra.Cluster, error) {
	return func(ctx context.Context) (*astra.Cluster, error) {
		c, err := client.GetCluster(ctx, cloudID, id)
		if astra.IsNotFound(err) {
			return nil, nil
		}
		return c, err
	}
}

// addStillManaged explains why a managed cluster cannot be destroyed and what to do.
func addStillManaged(diags *diag.Diagnostics, c *astra.Cluster, serverSaid string) {
	detail := fmt.Sprintf("Astra Control manages the cluster %q (%s; managedState %s), and a managed cluster cannot be removed. "+
		"Unmanage it first: destroy or remove the astra_managed_cluster that manages it (or unmanage it in Astra Control), "+
		"then destroy this cluster again.", c.Name, c.ID, c.ManagedState)
	if serverSaid != "" {
		detail += "\n\n" + serverSaid
	}
	diags.AddError("Cluster is still managed", detail)
}

func clusterStamp(c *astra.Cluster) objectStamp {
	return objectStamp{Kind: "cluster", ID: c.ID, Created: c.Metadata.CreationTimestamp}
}
