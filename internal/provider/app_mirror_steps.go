package provider

import (
	"context"
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

// runMirrorStep sends the step's PUT (none for a wait) and waits for its end state. A PUT
// whose answer was lost is checked by reading the relationship: it is sent again only if
// the service shows nothing of it. Returns the last answer read (nil when none).
func runMirrorStep(ctx context.Context, sched astra.Schedule, client *astra.Client, m *astra.AppMirror, s mirrorStep,
	timeout time.Duration, diags *diag.Diagnostics) *astra.AppMirror {
	if s.kind == mirrorNothing {
		return m
	}
	if s.kind != mirrorWait {
		change := mirrorChange(m, s.kind)
		got, err := client.ChangeAppMirror(ctx, m.ID, change)
		if err != nil {
			fresh, readErr := client.GetAppMirror(context.WithoutCancel(ctx), m.ID)
			if readErr != nil || !mirrorTook(fresh, change) {
				addAPIError(diags, mirrorStepSummary(s.kind)+" not started", err, appMirrorAPIFields)
				return fresh
			}
			got = fresh // the PUT acted though its answer was lost: wait, never send it again
		}
		m = got
	}
	got := waitMirror(ctx, sched, client, m.ID, s.until, timeout, mirrorStepSummary(s.kind)+" not finished", diags)
	if got == nil {
		return m
	}
	return got
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
