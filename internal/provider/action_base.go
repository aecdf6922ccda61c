package provider

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

// Actions (Terraform 1.14 and later): astra_app_snapshot, astra_app_backup and
// astra_app_restore. Each starts one operation in Astra Control and waits for its end,
// reporting progress. They go through the framework, never through the known answers: an
// invocation has no prior answer to reuse.
//
// The wait is bounded by the action's `timeout`. An interrupt (Ctrl-C: the CLI stops the
// provider, which cancels the invocation's context) or the timeout ends the wait only:
// Astra Control documents no cancellation of a snapshot, a backup or a restore, so the
// operation goes on, and the error says so and names the object to watch.

// actionHolder receives the provider's data in an action's Configure, as clientHolder
// does for resources.
type actionHolder struct{ clientHolder }

// Configure implements action.ActionWithConfigure.
func (h *actionHolder) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	h.configure(req.ProviderData, &resp.Diagnostics)
}

// actionTimeoutAttribute is every action's `timeout`.
func actionTimeoutAttribute(what string, def time.Duration) schema.StringAttribute {
	return schema.StringAttribute{
		Optional: true,
		MarkdownDescription: fmt.Sprintf("How long to wait for %s, as a Go duration (`90s`, `45m`, `2h`); default `%s`. "+
			"When it passes, or on an interrupt (Ctrl-C), the action stops waiting and fails; the operation itself goes on "+
			"in Astra Control, which cannot cancel it.", what, durationString(def)),
		Validators: []validator.String{validate.PositiveDuration()},
	}
}

func durationString(d time.Duration) string {
	if d%time.Hour == 0 {
		return fmt.Sprintf("%dh", d/time.Hour)
	}
	return fmt.Sprintf("%dm", d/time.Minute)
}

// actionTimeout reads `timeout`, def when null.
func actionTimeout(v types.String, def time.Duration) time.Duration {
	if !isSet(v) {
		return def
	}
	d, err := time.ParseDuration(v.ValueString())
	if err != nil || d <= 0 { // refused by the validator already
		return def
	}
	return d
}

// progress sends a progress event when the message differs from the last one sent: a
// poll that sees nothing new says nothing.
type progress struct {
	send func(action.InvokeProgressEvent)
	last string
}

func (p *progress) report(msg string) {
	if msg == p.last || p.send == nil {
		return
	}
	p.last = msg
	p.send(action.InvokeProgressEvent{Message: msg})
}

// waitForAction polls fetch until ready says done, reporting each new state, within
// timeout. What it adds on failure: the service's reasons for a terminal state; for a
// timeout or an interrupt, that the operation goes on (onward says where to watch it).
func waitForAction[T any](ctx context.Context, sched astra.Schedule, timeout time.Duration, p *progress,
	fetch func(context.Context) (T, error), ready func(T) (bool, error), describe func(T) string,
	diags *diag.Diagnostics, summary, onward string) (T, bool) {
	waitCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// Said before the wait: after an interrupt a CLI stops reading the action's events and
	// diagnostics (Terraform 1.16 shows neither), so this line is what tells the user.
	p.report(fmt.Sprintf("waiting up to %s; an interrupt (Ctrl-C) or the timeout stops the wait, never the operation, "+
		"which Astra Control goes on with", timeout))
	got, err := astra.Wait(waitCtx, sched, func(ctx context.Context) (T, error) {
		v, err := fetch(ctx)
		if err == nil {
			p.report(describe(v))
		}
		return v, err
	}, ready)
	if err == nil {
		return got, true
	}
	var terminal *astra.TerminalStateError
	var timedOut *astra.WaitTimeoutError
	switch {
	case errors.As(err, &terminal):
		diags.AddError(summary, fmt.Sprintf("Astra Control reports %s as %s: %s.", terminal.What, terminal.State, joinReasons(terminal.Reasons)))
	case errors.As(err, &timedOut) && ctx.Err() != nil:
		diags.AddError(summary, fmt.Sprintf("Interrupted: the action stopped waiting for %s (%s). Only the wait was cancelled, "+
			"not the operation: Astra Control goes on with it. %s", timedOut.What, lastSeen(timedOut.LastState), onward))
	case errors.As(err, &timedOut):
		diags.AddError(summary, fmt.Sprintf("Timed out after %s waiting for %s (%s). Only the wait ended, not the operation: "+
			"Astra Control goes on with it. Raise the action's timeout if it needs longer. %s", timeout, timedOut.What,
			lastSeen(timedOut.LastState), onward))
	default:
		diags.AddError(summary, fmt.Sprintf("Reading the object while waiting failed: %v. %s", err, onward))
	}
	return got, false
}

// appIDAttribute is every action's `app_id`.
func appIDAttribute(what string) schema.StringAttribute {
	return schema.StringAttribute{
		Required:            true,
		MarkdownDescription: "ID of the app " + what + " (an `astra_app`'s `id`).",
		Validators:          []validator.String{validate.UUID()},
	}
}
