package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// What an update, the reverse action or the resync action asks of a relationship, decided
// from the relationship as just read, so that a step the service already took (an
// interrupted wait, a lost answer, a concurrent writer) is waited for and never sent twice.

type mirrorStepKind int

const (
	mirrorNothing  mirrorStepKind = iota
	mirrorWait                    // the service is already on its way: wait only
	mirrorFailover                // PUT stateDesired failedOver
	mirrorResync                  // PUT established, the same sides: the source's data kept
	mirrorReverse                 // PUT established, the sides swapped
)

// mirrorStep is one step and the state it ends in.
type mirrorStep struct {
	kind  mirrorStepKind
	until string
}

// mirrorStepFor is the step that takes m to wantSource replicating (or failed over, for
// desired failed_over).
func mirrorStepFor(m *astra.AppMirror, wantSource, desired string) mirrorStep {
	state := m.State
	is := func(s string) bool { return strings.EqualFold(state, s) }
	if wantSource != "" && wantSource != m.SourceAppID {
		if strings.EqualFold(m.StateDesired, astra.MirrorEstablished) && is(astra.MirrorEstablishing) {
			return mirrorStep{kind: mirrorWait, until: astra.MirrorEstablished}
		}
		return mirrorStep{kind: mirrorReverse, until: astra.MirrorEstablished}
	}
	if desired == mirrorWantFailedOver {
		switch {
		case is(astra.MirrorFailedOver):
			return mirrorStep{kind: mirrorNothing}
		case is(astra.MirrorFailingOver), strings.EqualFold(m.StateDesired, astra.MirrorFailedOver):
			return mirrorStep{kind: mirrorWait, until: astra.MirrorFailedOver}
		}
		return mirrorStep{kind: mirrorFailover, until: astra.MirrorFailedOver}
	}
	switch {
	case is(astra.MirrorEstablished):
		return mirrorStep{kind: mirrorNothing}
	case is(astra.MirrorEstablishing):
		return mirrorStep{kind: mirrorWait, until: astra.MirrorEstablished}
	}
	return mirrorStep{kind: mirrorResync, until: astra.MirrorEstablished}
}

// refusal explains a step the relationship's state does not allow (the spec's
// stateAllowed): a failover while establishing, a resync or reverse while failing over.
func (s mirrorStep) refusal(m *astra.AppMirror) diag.Diagnostics {
	var diags diag.Diagnostics
	state := m.State
	switch {
	case mirrorGone(m):
		diags.AddError("App mirror being deleted", fmt.Sprintf("The relationship %s is %s: it cannot change any more.", m.ID, state))
	case s.kind == mirrorFailover && !strings.EqualFold(state, astra.MirrorEstablished):
		diags.AddError("Cannot fail over yet", fmt.Sprintf("The relationship %s is %s; a failover starts only from "+
			"established. Apply again once it is established (its health: %s).", m.ID, state, m.HealthState))
	case (s.kind == mirrorResync || s.kind == mirrorReverse) && strings.EqualFold(state, astra.MirrorFailingOver):
		diags.AddError("Failover still running", fmt.Sprintf("The relationship %s is still failing over; a resync or a "+
			"reverse starts once it is failedOver. Apply again then.", m.ID))
	}
	return diags
}

// mirrorDecision is what a caller asks of the relationship as just read: the step, or
// diagnostics that refuse it.
type mirrorDecision func(*astra.AppMirror) (mirrorStep, diag.Diagnostics)

// startMirrorStep reads the relationship, decides the step from that copy and sends its
// PUT (none for a wait) with If-Match on the read's ETag (astra.UpdateConditionally): a
// writer that changes the relationship in between makes the service answer 412, and the
// step is decided again from a fresh copy, so a reverse someone else made is never failed
// over by mistake. A PUT whose answer was lost is checked by reading the relationship: it
// is reported only if the service shows nothing of it. Returns the relationship as last
// read and the step taken; nil when it added an error.
func startMirrorStep(ctx context.Context, client *astra.Client, id string, decide mirrorDecision, diags *diag.Diagnostics) (*astra.AppMirror, mirrorStep) {
	var (
		step     mirrorStep
		problems diag.Diagnostics
		change   astra.AppMirrorChange
	)
	got, err := astra.UpdateConditionally(ctx, client, "app mirror "+id,
		func(ctx context.Context) (*astra.AppMirror, error) { return client.GetAppMirror(ctx, id) },
		func(m *astra.AppMirror) {
			step, problems = decide(m)
			change = mirrorChange(m, step.kind)
		},
		func(ctx context.Context, m *astra.AppMirror) (*astra.AppMirror, error) {
			if problems.HasError() || step.kind == mirrorNothing || step.kind == mirrorWait {
				return m, nil
			}
			return client.ChangeAppMirror(ctx, id, change)
		})
	diags.Append(problems...)
	switch {
	case problems.HasError():
		return nil, step
	case err == nil:
		return got, step
	}
	var read *astra.ReadBeforeUpdateError
	if !errors.As(err, &read) {
		fresh, readErr := client.GetAppMirror(context.WithoutCancel(ctx), id)
		if readErr == nil && mirrorTook(fresh, change) {
			return fresh, step // the PUT acted though its answer was lost: wait, never send it again
		}
	}
	addUpdateError(diags, "app mirror", err, appMirrorAPIFields)
	return nil, step
}

// runMirrorStep starts the step (startMirrorStep) and waits for its end state within
// timeout. Returns the last answer read (nil when none).
func runMirrorStep(ctx context.Context, sched astra.Schedule, client *astra.Client, id string, decide mirrorDecision,
	timeout time.Duration, diags *diag.Diagnostics) *astra.AppMirror {
	m, step := startMirrorStep(ctx, client, id, decide, diags)
	if m == nil || step.kind == mirrorNothing {
		return m
	}
	if got := waitMirror(ctx, sched, client, id, step.until, timeout, mirrorStepSummary(step.kind)+" not finished", diags); got != nil {
		return got
	}
	return m
}

// mirrorChange is the PUT body of a step from m.
func mirrorChange(m *astra.AppMirror, kind mirrorStepKind) astra.AppMirrorChange {
	switch kind {
	case mirrorFailover:
		return astra.AppMirrorChange{StateDesired: astra.MirrorFailedOver}
	case mirrorReverse:
		return astra.AppMirrorChange{StateDesired: astra.MirrorEstablished, SourceAppID: m.DestinationAppID,
			SourceClusterID: m.DestinationClusterID, DestinationAppID: m.SourceAppID, DestinationClusterID: m.SourceClusterID}
	}
	return astra.AppMirrorChange{StateDesired: astra.MirrorEstablished, SourceAppID: m.SourceAppID,
		SourceClusterID: m.SourceClusterID, DestinationAppID: m.DestinationAppID, DestinationClusterID: m.DestinationClusterID}
}

// mirrorTook reports whether the relationship shows the change asked (after a lost answer).
func mirrorTook(m *astra.AppMirror, c astra.AppMirrorChange) bool {
	if m == nil || !strings.EqualFold(m.StateDesired, c.StateDesired) {
		return false
	}
	if c.SourceAppID != "" && m.SourceAppID != c.SourceAppID {
		return false
	}
	if strings.EqualFold(c.StateDesired, astra.MirrorEstablished) {
		// A resync was taken once the relationship left failedOver.
		return !strings.EqualFold(m.State, astra.MirrorFailedOver)
	}
	return true
}

func mirrorStepSummary(kind mirrorStepKind) string {
	switch kind {
	case mirrorFailover:
		return "Failover"
	case mirrorResync:
		return "Resync"
	case mirrorReverse:
		return "Reverse"
	}
	return "Replication change"
}
