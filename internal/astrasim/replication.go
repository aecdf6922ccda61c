package astrasim

import (
	"fmt"
	"slices"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// Snapshot transfers and the health of a relationship (SPEC appMirror transferState,
// healthState; research notes §4.12). A schedule with replicate "true" on the source app
// of an established relationship starts a transfer at each firing, on the accelerated
// schedule clock (schedulerun.go): transferState "transferring" for Delays.Transfer, then
// "idle", and the completed transfer is the "Snapshot replication completed" stateDetail
// NetApp's captured answers show (type .../stateDetails/24, additionalDetails startTime,
// completionTime, snapshotID). Only one transfer runs at a time; a firing during one adds
// nothing. A failed attempt keeps transferState "transferring" ("also covers the transfers
// that have failed on previous attempts and are being continually retried", the spec)
// with the failure in transferStateDetails and healthState critical (ACC-DOCS: critical
// when the newest snapshot failed to replicate); the next firing retries it. Failures
// come from a cluster that cannot be reached, the one-off fault FailNext{Kind: "transfer"}
// (-fail-next-transfer) or Options.FailTransfers (-fail-transfers, every attempt).

// FailTransfer is the FailNext kind of a snapshot transfer of the app's relationship (the
// app being its source): the next attempt fails.
const FailTransfer = "transfer"

// stateDetails/24 is the type NetApp's captured answers give a completed replication.
const replicationCompleted = "https://astra.netapp.io/stateDetails/24"

// richDetail is a stateDetail with additionalDetails.
type richDetail struct {
	Type, Title, Detail string
	Additional          map[string]any
}

// renderStateDetails answers details; additionalDetails only where the schema of the
// relationship's version has it (appMirror 1.0 as 22.11 and 23.05 publish it has not).
func (s *Sim) renderStateDetails(version string, ds []richDetail) []any {
	additional := false
	if sc := s.responseSchema(apispec.AppMirror, version); sc != nil {
		if p := sc.Properties["stateDetails"]; p != nil && p.Value != nil && p.Value.Items != nil && p.Value.Items.Value != nil {
			_, additional = p.Value.Items.Value.Properties["additionalDetails"]
		}
	}
	out := make([]any, 0, len(ds))
	for _, d := range ds {
		m := map[string]any{"type": d.Type, "title": d.Title, "detail": shorten(d.Detail, 511)}
		if d.Additional != nil && additional {
			m["additionalDetails"] = d.Additional
		}
		out = append(out, m)
	}
	return out
}

func (s *Sim) replicationSnapshotID(m *appMirror) string {
	return derivedUUID4(s.opts.Seed, fmt.Sprintf("replication/%s/%d", m.ID, m.Transfers))
}

func (m *appMirror) transferState() string {
	if m.Transfer != nil && m.Transfer.End == nil {
		return "transferring"
	}
	return "idle"
}

func (m *appMirror) transferDetails() []richDetail {
	t := m.Transfer
	if t == nil || t.End != nil {
		return []richDetail{}
	}
	out := []richDetail{{Type: "https://astra.netapp.io/stateDetails/replicationInProgress", Title: "Snapshot replication in progress",
		Detail:     "Snapshot " + t.SnapshotID + " is being replicated to the destination cluster.",
		Additional: map[string]any{"startTime": formatTime(t.Start), "snapshotID": t.SnapshotID}}}
	for _, reason := range t.Failures {
		out = append(out, richDetail{Type: "https://astra.netapp.io/stateDetails/replicationFailed", Title: "Snapshot replication failed",
			Detail: reason, Additional: map[string]any{"snapshotID": t.SnapshotID}})
	}
	return out
}

// mirrorStateDetails: the last completed transfer, and why a transition is held back.
func (s *Sim) mirrorStateDetails(m *appMirror) []richDetail {
	out := []richDetail{}
	if g := m.LastGood; g != nil && g.End != nil {
		out = append(out, richDetail{Type: replicationCompleted, Title: "Snapshot replication completed",
			Detail:     "Snapshot " + g.SnapshotID + " was replicated to the destination cluster.",
			Additional: map[string]any{"startTime": formatTime(g.Start), "completionTime": formatTime(*g.End), "snapshotID": g.SnapshotID}})
	}
	return out
}

// mirrorHealth: critical while a needed cluster cannot be reached or the newest snapshot
// failed to replicate; warning while failing over or failed over (ACC-DOCS); else normal.
func (s *Sim) mirrorHealth(m *appMirror) (string, []richDetail) {
	var critical, warning []richDetail
	unreach := func(id string) {
		if reason := s.unreachable(id); reason != "" {
			critical = append(critical, richDetail{Type: "https://astra.netapp.io/stateDetails/clusterUnreachable", Title: "Cluster unreachable", Detail: reason})
		}
	}
	switch m.State {
	case "establishing", "established":
		unreach(m.SourceClusterID)
		unreach(m.DestinationClusterID)
	case "failingOver", "failedOver":
		unreach(m.DestinationClusterID)
		warning = append(warning, richDetail{Type: "https://astra.netapp.io/stateDetails/failedOver", Title: "Failed over",
			Detail: "Replication is stopped: the destination application " + m.DestinationAppID + " is the one to use."})
		if reason := s.unreachable(m.SourceClusterID); reason != "" {
			warning = append(warning, richDetail{Type: "https://astra.netapp.io/stateDetails/clusterUnreachable", Title: "Source cluster unreachable", Detail: reason})
		}
	}
	if t := m.Transfer; t != nil && t.End == nil && len(t.Failures) > 0 {
		critical = append(critical, richDetail{Type: "https://astra.netapp.io/stateDetails/replicationFailed", Title: "Snapshot replication failed",
			Detail: "The newest snapshot failed to replicate: " + t.Failures[len(t.Failures)-1]})
	}
	switch {
	case len(critical) > 0:
		return "critical", append(critical, warning...)
	case len(warning) > 0:
		return "warning", warning
	}
	return "normal", []richDetail{}
}

// replicateFiring is a replicating schedule's firing on its app (schedulerun.go): the
// relationship the app is the source of, established, transfers a new snapshot, or
// retries a failed transfer.
func (s *Sim) replicateFiring(sc *schedule, a *app, at time.Time) {
	if sc.Replicate != "true" {
		return
	}
	m := s.st.mirrorOf(a.ID)
	if m == nil || m.SourceAppID != a.ID || m.State != "established" {
		return
	}
	if t := m.Transfer; t != nil && t.End == nil {
		if len(t.Failures) > 0 {
			s.attemptTransfer(m, t, at)
		}
		return
	}
	m.Transfers++
	t := &transfer{SnapshotID: s.replicationSnapshotID(m), Start: at, Due: at.Add(s.opts.Delays.Transfer)}
	m.Transfer = t
}

// attemptTransfer retries a failed transfer from at.
func (s *Sim) attemptTransfer(m *appMirror, t *transfer, at time.Time) {
	t.Failures = nil
	t.Due = at.Add(s.opts.Delays.Transfer)
	if !t.Due.After(at) {
		s.finishTransfer(m, at)
	}
}

// finishTransfer ends an attempt: completed, or failed (then retried at the next firing).
func (s *Sim) finishTransfer(m *appMirror, at time.Time) {
	t := m.Transfer
	var reasons []string
	for _, id := range []string{m.SourceClusterID, m.DestinationClusterID} {
		if r := s.unreachable(id); r != "" {
			reasons = append(reasons, r)
		}
	}
	if a := s.st.Apps[m.SourceAppID]; a != nil && len(reasons) == 0 {
		reasons = s.takeFailure(FailTransfer, a)
		if reasons == nil && (slices.Contains(s.opts.FailTransfers, a.ID) || slices.Contains(s.opts.FailTransfers, a.Name)) {
			reasons = []string{"The SnapMirror update of " + a.Name + " failed (injected by the simulator)"}
		}
	}
	if len(reasons) > 0 {
		t.Failures = append(t.Failures, reasons...)
		return
	}
	end := at
	t.End = &end
	m.LastGood = t
}

// checkReplicate: a schedule with replicate "true" is for the source app of a replication
// relationship, in any state but deleting (actoolkit posts it right after the AppMirror
// POST, while it is establishing: research notes §4.15); anywhere else 409/153.
func (s *Sim) checkReplicate(a *app, b *body) *apiProblem {
	if v, _ := b.str("replicate"); v != "true" {
		return nil
	}
	if m := s.st.mirrorOf(a.ID); m != nil && m.SourceAppID == a.ID && m.State != "deleting" {
		return nil
	}
	p := invalidFields(153, fieldReason{"replicate", "the app is not the source of a replication relationship"})
	return p
}
