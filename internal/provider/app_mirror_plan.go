package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

// ModifyPlan keeps failovers and reverses in place: the sides written as before plan
// nothing, whichever way the relationship replicates now; the sides swapped are a reverse;
// only another app or cluster replaces the relationship. Each change that moves data says
// in a warning which app becomes writable, or whose data is overwritten, on which cluster.
func (r *appMirrorResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var plan appMirrorModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if req.State.Raw.IsNull() {
		if plan.DesiredState.ValueString() == mirrorWantFailedOver {
			resp.Diagnostics.AddAttributeError(path.Root("desired_state"), "A new relationship starts established",
				"desired_state = \"failed_over\" is a failover of an established relationship: create the relationship with "+
					"desired_state = \"established\" (or left out), then change it to fail over.")
		}
		return
	}
	var prior appMirrorModel
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	if resp.Diagnostics.HasError() || !r.planSides(ctx, &plan, prior, resp) {
		return
	}
	r.warnDataMoves(plan, prior, &resp.Diagnostics)
	still := prior.State.ValueString()
	inFlight := strings.EqualFold(still, astra.MirrorEstablishing) || strings.EqualFold(still, astra.MirrorFailingOver)
	if inFlight {
		resp.Diagnostics.AddWarning("Replication change still running", fmt.Sprintf("The relationship %s is %s (a wait "+
			"that ended early, or a change made outside Terraform): the apply waits for it and sends nothing.",
			prior.ID.ValueString(), still))
	}
	if inFlight || !req.Plan.Raw.Equal(req.State.Raw) {
		planMirrorReadsUnknown(ctx, resp)
	}
}

// planMirrorReadsUnknown plans what the service reports as unknown: an update reads the
// relationship afterwards, and the values it reads may have moved on (a transfer ran).
func planMirrorReadsUnknown(ctx context.Context, resp *resource.ModifyPlanResponse) {
	for _, name := range []string{"state", "transfer_state", "health_state", "last_transfer_time"} {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(name), types.StringUnknown())...)
	}
	for _, name := range []string{"state_details", "transfer_state_details", "health_state_details"} {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(name), types.ListUnknown(attrs.StateDetailType))...)
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("metadata"), types.ObjectUnknown(attrs.MetadataAttrTypes))...)
}

// planSides plans the two sides; false when the plan is a replacement (nothing more to say).
func (r *appMirrorResource) planSides(ctx context.Context, plan *appMirrorModel, prior appMirrorModel, resp *resource.ModifyPlanResponse) bool {
	src, dst := plan.SourceAppID.ValueString(), plan.DestinationClusterID.ValueString()
	switch {
	case plan.SourceAppID.IsUnknown() || plan.DestinationClusterID.IsUnknown():
		// A side known only at apply is another app or cluster (one being replaced).
	case src == prior.SourceAppID.ValueString() && dst == prior.DestinationClusterID.ValueString():
		return true
	case src == prior.DestinationAppID.ValueString() && dst == prior.SourceClusterID.ValueString():
		// The sides swapped: a reverse in place. The computed sides swap as well, known.
		if plan.DesiredState.ValueString() != mirrorWantEstablished {
			resp.Diagnostics.AddAttributeError(path.Root("desired_state"), "A reverse ends established",
				"The configuration swaps the relationship's sides, a reverse, which ends replicating the other way: set "+
					"desired_state = \"established\" with it (fail over again afterwards in a separate apply).")
			return false
		}
		for name, v := range map[string]types.String{"destination_app_id": prior.SourceAppID,
			"source_cluster_id": prior.DestinationClusterID, "current_source_app_id": plan.SourceAppID} {
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(name), v)...)
		}
		return true
	}
	resp.RequiresReplace = append(resp.RequiresReplace, path.Root("source_app_id"), path.Root("destination_cluster_id"))
	return false
}

// warnDataMoves says what a failover, a resync or a reverse makes writable or overwrites.
func (r *appMirrorResource) warnDataMoves(plan, prior appMirrorModel, diags *diag.Diagnostics) {
	cur := currentSidesOf(prior.appMirrorValues)
	desired, was := plan.DesiredState.ValueString(), prior.DesiredState.ValueString()
	switch {
	case plan.SourceAppID.ValueString() != prior.SourceAppID.ValueString():
		if cur.sourceApp == plan.SourceAppID.ValueString() {
			return // already replicating that way (reversed by the action): nothing moves
		}
		to := mirrorSides{sourceApp: cur.destinationApp, sourceCluster: cur.destinationCluster,
			destinationApp: cur.sourceApp, destinationCluster: cur.sourceCluster}
		diags.AddWarning("This apply reverses the replication", fmt.Sprintf("After it, app %s on cluster %s is the "+
			"source and writable; app %s on cluster %s is stopped (its volumes stay) and OVERWRITTEN with the data of %s, "+
			"then receives its changes. Writes made to %s since it was last replicated are lost.",
			to.sourceApp, to.sourceCluster, to.destinationApp, to.destinationCluster, to.sourceApp, to.destinationApp))
	case desired == mirrorWantFailedOver && was != mirrorWantFailedOver:
		diags.AddWarning("This apply FAILS OVER the app", fmt.Sprintf("App %s on cluster %s is started from the last "+
			"replicated snapshot and becomes WRITABLE; replication from app %s on cluster %s stops (that app keeps "+
			"running: stop writes to it). Writes made to %s after its last replicated snapshot are not on %s.",
			cur.destinationApp, cur.destinationCluster, cur.sourceApp, cur.sourceCluster, cur.sourceApp, cur.destinationApp))
	case desired == mirrorWantEstablished && was == mirrorWantFailedOver:
		diags.AddWarning("This apply RESYNCS, overwriting the failed-over app", fmt.Sprintf("Replication from app %s on "+
			"cluster %s resumes: app %s on cluster %s is stopped and its data OVERWRITTEN with %s's. Every write made to %s "+
			"since the failover is lost. To keep them instead, reverse (the astra_app_mirror_reverse action, or swap the "+
			"sides in the configuration).", cur.sourceApp, cur.sourceCluster, cur.destinationApp, cur.destinationCluster,
			cur.sourceApp, cur.destinationApp))
	}
}

// currentSidesOf is the direction the relationship replicates now, from its state.
func currentSidesOf(v appMirrorValues) mirrorSides {
	sides := mirrorSides{sourceApp: v.SourceAppID.ValueString(), sourceCluster: v.SourceClusterID.ValueString(),
		destinationApp: v.DestinationAppID.ValueString(), destinationCluster: v.DestinationClusterID.ValueString()}
	if cur := v.CurrentSourceAppID.ValueString(); cur != "" && cur != sides.sourceApp {
		return mirrorSides{sourceApp: sides.destinationApp, sourceCluster: sides.destinationCluster,
			destinationApp: sides.sourceApp, destinationCluster: sides.sourceCluster, reversed: true}
	}
	return sides
}
