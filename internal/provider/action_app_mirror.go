package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

// The actions astra_app_mirror_reverse and astra_app_mirror_resync (Terraform 1.14+): each
// decides its step from the relationship as read (mirrorStepFor), so an invocation after
// an interrupted one, or after the service already took the step, waits and sends nothing.

var (
	_ action.ActionWithConfigure = (*appMirrorReverseAction)(nil)
	_ action.ActionWithConfigure = (*appMirrorResyncAction)(nil)
)

// appMirrorActionTimeout: a reverse or resync ships a snapshot and re-establishes SnapMirror.
const appMirrorActionTimeout = time.Hour

type appMirrorReverseAction struct{ actionHolder }

type appMirrorResyncAction struct{ actionHolder }

func newAppMirrorReverseAction() action.Action { return &appMirrorReverseAction{} }

func newAppMirrorResyncAction() action.Action { return &appMirrorResyncAction{} }

type appMirrorReverseModel struct {
	MirrorID types.String `tfsdk:"mirror_id"`
	Timeout  types.String `tfsdk:"timeout"`
}

type appMirrorResyncModel struct {
	MirrorID    types.String `tfsdk:"mirror_id"`
	SourceAppID types.String `tfsdk:"source_app_id"`
	Timeout     types.String `tfsdk:"timeout"`
}

func mirrorIDAttribute(what string) schema.StringAttribute {
	return schema.StringAttribute{Required: true, Validators: []validator.String{validate.UUID()},
		MarkdownDescription: "ID of the relationship " + what + " (an `astra_app_mirror`'s `id`)."}
}

func (a *appMirrorReverseAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_app_mirror_reverse"
}

func (a *appMirrorResyncAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_app_mirror_resync"
}

func (a *appMirrorReverseAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reverses a replication relationship (a `PUT` of `/k8s/v1/appMirrors/{id}` naming the " +
			"current destination as the source) and waits until it is `established` the other way, reporting its state. " +
			"From `failedOver` (the usual case, after a failover): the failed-over app, with every write made to it since " +
			"the failover, becomes the source; the former source app is stopped (its volumes stay) and its data is " +
			"OVERWRITTEN with the failed-over app's. From `established` (a planned migration): the source's pods are " +
			"stopped, a last snapshot is shipped, and the former destination becomes the source; the former source's data " +
			"is overwritten from then on. The `astra_app_mirror` resource keeps its arguments: its plan stays quiet " +
			"(`current_source_app_id` shows the new direction; if its `desired_state` is `failed_over`, set it to " +
			"`established`, or the next plan fails over again the other way). Terraform 1.14 or later; under OpenTofu and " +
			"older Terraform, swap the resource's sides instead (its documentation says how). An interrupt or the " +
			"`timeout` ends the wait only: Astra Control goes on.",
		Attributes: map[string]schema.Attribute{
			"mirror_id": mirrorIDAttribute("to reverse"),
			"timeout":   actionTimeoutAttribute("the relationship to be established the other way", appMirrorActionTimeout),
		},
	}
}

func (a *appMirrorResyncAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Re-establishes a failed-over replication relationship from the side `source_app_id` names " +
			"(a `PUT` of `/k8s/v1/appMirrors/{id}` with `stateDesired: established`) and waits until it is `established`, " +
			"reporting its state. The app `source_app_id` names keeps its data and is replicated from; the OTHER app is " +
			"stopped and its data OVERWRITTEN: naming the original source discards every write made to the failed-over " +
			"app since the failover; naming the failed-over app keeps those writes and overwrites the original source " +
			"(a reverse resync, the first half of a fail-back). Only from `failedOver` (as NetApp's toolkit does). " +
			"Terraform 1.14 or later; under OpenTofu and older Terraform, set the resource's `desired_state` back to " +
			"`established` (a resync keeping the source's data) or swap its sides (keeping the failed-over app's). Then " +
			"set the resource's `desired_state` to `established`, or its next plan fails over again.",
		Attributes: map[string]schema.Attribute{
			"mirror_id": mirrorIDAttribute("to resync"),
			"source_app_id": schema.StringAttribute{Required: true, Validators: []validator.String{validate.UUID()},
				MarkdownDescription: "The app whose data is KEPT and replicated from: either app of the relationship. The " +
					"other app's data is overwritten."},
			"timeout": actionTimeoutAttribute("the relationship to be established", appMirrorActionTimeout),
		},
	}
}

func (a *appMirrorReverseAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m appMirrorReverseModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	client := a.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	invokeMirrorStep(ctx, &a.actionHolder, client, m.MirrorID.ValueString(), actionTimeout(m.Timeout, appMirrorActionTimeout),
		&progress{send: resp.SendProgress}, &resp.Diagnostics, func(mm *astra.AppMirror) (string, diag.Diagnostics) {
			if strings.EqualFold(mm.State, astra.MirrorEstablishing) {
				return "", nil // a reverse (or a resync) under way: wait for it, send nothing
			}
			return mm.DestinationAppID, nil
		})
}

func (a *appMirrorResyncAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m appMirrorResyncModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	client := a.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	keep := m.SourceAppID.ValueString()
	invokeMirrorStep(ctx, &a.actionHolder, client, m.MirrorID.ValueString(), actionTimeout(m.Timeout, appMirrorActionTimeout),
		&progress{send: resp.SendProgress}, &resp.Diagnostics, func(mm *astra.AppMirror) (string, diag.Diagnostics) {
			var diags diag.Diagnostics
			switch {
			case !mm.Involves(keep):
				diags.AddAttributeError(path.Root("source_app_id"), "Not an app of the relationship", fmt.Sprintf("App %s is "+
					"neither side of relationship %s (source %s, destination %s): name the app whose data to keep.",
					keep, mm.ID, mm.SourceAppID, mm.DestinationAppID))
			case strings.EqualFold(mm.State, astra.MirrorEstablished) && mm.SourceAppID == keep:
				// Already replicating from it: nothing to resync.
			case !strings.EqualFold(mm.State, astra.MirrorFailedOver) && !strings.EqualFold(mm.State, astra.MirrorEstablishing):
				diags.AddError("Nothing to resync", fmt.Sprintf("Relationship %s is %s: a resync starts from failedOver "+
					"(fail over first; to change the direction of an established relationship, use astra_app_mirror_reverse).",
					mm.ID, mm.State))
			}
			return keep, diags
		})
}

// invokeMirrorStep starts the step source asks of the relationship as read (the app to
// replicate from, "" to wait for what runs; startMirrorStep) and waits for established.
func invokeMirrorStep(ctx context.Context, h *actionHolder, client *astra.Client, id string, timeout time.Duration, p *progress,
	diags *diag.Diagnostics, source func(*astra.AppMirror) (string, diag.Diagnostics)) {
	m, step := startMirrorStep(ctx, client, id, func(m *astra.AppMirror) (mirrorStep, diag.Diagnostics) {
		want, problems := source(m)
		if problems.HasError() {
			return mirrorStep{}, problems
		}
		step := mirrorStepFor(m, want, mirrorWantEstablished)
		return step, step.refusal(m)
	}, diags)
	if m == nil {
		return
	}
	p.report(describeMirror(m))
	onward := fmt.Sprintf("Watch relationship %s with the astra_app_mirrors data source (or refresh its astra_app_mirror).", id)
	fetch := func(ctx context.Context) (*astra.AppMirror, error) { return client.GetAppMirror(ctx, id) }
	if got, ok := waitForAction(ctx, h.waitSchedule(), timeout, p, fetch, astra.AppMirrorIn(astra.MirrorEstablished),
		describeMirror, diags, mirrorStepSummary(step.kind)+" not finished", onward); ok {
		p.report(fmt.Sprintf("relationship %s established: app %s on cluster %s replicates to app %s on cluster %s",
			id, got.SourceAppID, got.SourceClusterID, got.DestinationAppID, got.DestinationClusterID))
	}
}

// describeMirror is a relationship's progress line, with its health details.
func describeMirror(m *astra.AppMirror) string {
	what, state := m.Describe()
	return what + ": " + state
}
