package astrasim

import (
	"fmt"
	"time"
)

// The AppMirror state machine. The tables are the spec's (SPEC-22.11…24.02 appMirror
// `stateTransitions`, `stateAllowed`, `transferStateTransitions`, `healthStateTransitions`),
// answered as they are published. What each PUT does (research notes §4.12 "Operations";
// ACC-DOCS use/replicate_snapmirror.adoc; TK tkSrc/update.py):
//   - failover: stateDesired failedOver from established: failingOver, then failedOver
//     Delays.Failover later. It needs only the destination cluster: the source may be
//     unreachable (a disaster), the failover then shows the source's trouble as a detail.
//     The destination app is started (state ready) and gets copies of the source app's
//     schedules (ACC-DOCS); the source app keeps running.
//   - resync: stateDesired established from failedOver with the four IDs unchanged: the
//     source's data wins, the destination app is stopped (unavailable) and overwritten.
//   - reverse resync: the same from failedOver with source and destination swapped: the
//     failed-over copy becomes the source, the former source app is stopped and its changes
//     since the failover are overwritten.
//   - reverse (planned migration): the swapped body from established. The spec's table
//     lists neither established -> establishing nor established in stateAllowed of
//     established, but NetApp's captured answers (TK example, ACC-DOCS) show the reverse
//     passing through establishing: the simulator follows the captured answers.
//   - delete: a DELETE or stateDesired deleted, from any state.
// Each establishing ends Delays.Mirror later with both clusters reachable; until they are,
// the relationship stays establishing with healthState critical naming the cluster.
// There is no failed state: trouble is healthState critical with details (the spec).
// A PUT asking for the state the relationship is in or going to changes nothing (so a
// retried failover never fails over twice); any other stateDesired the table does not
// allow is 409 problem 10 naming stateDesired.

const (
	opCreate  = "create"
	opResync  = "resync"
	opReverse = "reverse"

	transMirrorEstablished = "mirrorEstablished" // establishing -> established
	transMirrorFailedOver  = "mirrorFailedOver"  // failingOver -> failedOver
	transMirrorGone        = "mirrorGone"        // deleting -> deleted and gone
)

type stateEdge struct {
	from string
	to   []string
}

var mirrorStateTransitions = []stateEdge{
	{"establishing", []string{"established", "deleting"}},
	{"established", []string{"failingOver", "deleting"}},
	{"failingOver", []string{"failedOver", "deleting"}},
	{"failedOver", []string{"establishing", "deleting"}},
	{"deleting", []string{"deleted"}},
	{"deleted", []string{}},
}

var mirrorStateAllowed = map[string][]string{
	"establishing": {"established", "deleted"},
	"established":  {"failedOver", "deleted"},
	"failingOver":  {"failedOver", "deleted"},
	"failedOver":   {"established", "deleted"},
	"deleting":     {"deleted"},
	"deleted":      {"deleted"},
}

var transferStateTransitions = []stateEdge{
	{"transferring", []string{"idle"}},
	{"idle", []string{"transferring"}},
}

var healthStateTransitions = []stateEdge{
	{"indeterminate", []string{"normal", "warning", "critical"}},
	{"normal", []string{"indeterminate", "warning", "critical"}},
	{"warning", []string{"indeterminate", "normal", "critical"}},
	{"critical", []string{"indeterminate", "normal", "warning"}},
}

func renderTransitions(edges []stateEdge) []any {
	out := make([]any, 0, len(edges))
	for _, e := range edges {
		out = append(out, map[string]any{"from": e.from, "to": strs(e.to)})
	}
	return out
}

// destinationDetail marks a destination app: a copy kept by replication, not for use
// before a failover.
var destinationDetail = stateDetail{Type: "https://astra.netapp.io/stateDetails/replicationDestination",
	Title: "Replication destination", Detail: "The application is the destination of a replication relationship; it is available after a failover."}

// changeMirror applies a PUT's stateDesired and IDs.
func (s *Sim) changeMirror(q *request, m *appMirror, b *body) *apiProblem {
	swap, p := readSwap(m, b)
	if p != nil {
		return p
	}
	desired, given := b.str("stateDesired")
	switch {
	case !given && swap:
		return invalidFields(9, fieldReason{"stateDesired", "swapping source and destination (a reverse) needs stateDesired established"})
	case !given:
		return nil
	case desired == "deleted" && swap:
		return invalidFields(10, fieldReason{"sourceAppID", "a delete does not swap source and destination"})
	case desired == "deleted":
		s.startDelete(m, q.now)
		return nil
	case m.State == "deleting" || m.State == "deleted":
		return notAllowed(m, desired)
	case desired == "failedOver" && swap:
		return invalidFields(10, fieldReason{"sourceAppID", "a failover does not swap source and destination"})
	case desired == "failedOver":
		switch m.State {
		case "failingOver", "failedOver":
			return nil
		case "established":
			s.startFailover(m, q.now)
			return nil
		}
		return notAllowed(m, desired)
	}
	// desired == "established"
	switch {
	case m.State == "establishing" && !swap, m.State == "established" && !swap:
		return nil
	case m.State == "established", m.State == "failedOver":
		op := opResync
		if swap {
			op = opReverse
		}
		s.startEstablishing(m, op, swap, q.now)
		return nil
	}
	return notAllowed(m, desired)
}

func notAllowed(m *appMirror, desired string) *apiProblem {
	// The published problem pins its detail: the reason is in invalidFields.
	return invalidFields(10, fieldReason{"stateDesired", "a relationship in state " + m.State + " accepts stateDesired " + joinOr(mirrorStateAllowed[m.State]) + ", not " + desired})
}

func joinOr(list []string) string {
	out := ""
	for i, v := range list {
		switch {
		case i == 0:
		case i == len(list)-1:
			out += " or "
		default:
			out += ", "
		}
		out += v
	}
	return out
}

// readSwap compares the IDs a PUT sends with the relationship: all as they are (false),
// source and destination swapped (true), or anything else (409 problem 10): the spec lets
// them change only by swapping sourceAppID with destinationAppID.
func readSwap(m *appMirror, b *body) (bool, *apiProblem) {
	fields := []struct{ name, cur, other string }{
		{"sourceAppID", m.SourceAppID, m.DestinationAppID},
		{"destinationAppID", m.DestinationAppID, m.SourceAppID},
		{"sourceClusterID", m.SourceClusterID, m.DestinationClusterID},
		{"destinationClusterID", m.DestinationClusterID, m.SourceClusterID},
	}
	same, swapped := true, true
	var bad string
	for _, f := range fields {
		v, ok := b.str(f.name)
		if !ok {
			continue
		}
		if v != f.cur {
			same = false
			if bad == "" && v != f.other {
				bad = f.name
			}
		}
		if v != f.other {
			swapped = false
		}
	}
	if _, ok := b.str("sourceAppID"); !ok {
		swapped = false // a swap names the new source app
	}
	switch {
	case same:
		return false, nil
	case swapped && m.SourceAppID != m.DestinationAppID:
		return true, nil
	}
	if bad == "" {
		bad = "sourceAppID"
	}
	return false, invalidFields(10, fieldReason{bad, bad + " can change only by swapping the source and the destination (all four IDs swapped)"})
}

// startFailover breaks the replication: an unfinished transfer is abandoned.
func (s *Sim) startFailover(m *appMirror, now time.Time) {
	m.State, m.StateDesired, m.Op = "failingOver", "failedOver", ""
	if m.Transfer != nil && m.Transfer.End == nil {
		m.Transfer = m.LastGood
	}
	m.Pending = &transition{Kind: transMirrorFailedOver, At: now.Add(s.opts.Delays.Failover)}
}

// startEstablishing begins a resync or a reverse: swapped, the IDs (and the roles of the
// mapping) change at once, as the answers TK printed show. The new destination app stops
// (its data is about to be overwritten); the new source runs once it is established.
func (s *Sim) startEstablishing(m *appMirror, op string, swap bool, now time.Time) {
	if swap {
		m.SourceAppID, m.DestinationAppID = m.DestinationAppID, m.SourceAppID
		m.SourceClusterID, m.DestinationClusterID = m.DestinationClusterID, m.SourceClusterID
		for i := range m.NamespaceMapping {
			m.NamespaceMapping[i].Role = swapRole(m.NamespaceMapping[i].Role)
		}
		for i := range m.StorageClasses {
			m.StorageClasses[i].Role = swapRole(m.StorageClasses[i].Role)
		}
	}
	if da := s.st.Apps[m.DestinationAppID]; da != nil {
		da.State, da.StateDetails = "unavailable", []stateDetail{destinationDetail}
	}
	if m.Transfer != nil && m.Transfer.End == nil {
		m.Transfer = m.LastGood
	}
	m.State, m.StateDesired, m.Op = "establishing", "established", op
	m.Pending = &transition{Kind: transMirrorEstablished, At: now.Add(s.opts.Delays.Mirror)}
}

func swapRole(r string) string {
	switch r {
	case "source":
		return "destination"
	case "destination":
		return "source"
	}
	return r
}

// startDelete begins the clean-up: gone Delays.Delete later, at once when zero.
// A repeated delete changes nothing.
func (s *Sim) startDelete(m *appMirror, now time.Time) {
	if m.State == "deleting" {
		return
	}
	m.Op = ""
	if m.Transfer != nil && m.Transfer.End == nil {
		m.Transfer = m.LastGood
	}
	m.DeletedFrom = m.State
	m.State, m.StateDesired = "deleting", "deleted"
	if s.opts.Delays.Delete <= 0 {
		s.finishDelete(m)
		return
	}
	m.Pending = &transition{Kind: transMirrorGone, At: now.Add(s.opts.Delays.Delete)}
}

// finishDelete removes the relationship. What else goes is where the sources disagree
// (research notes §4.12): the spec says an established relationship's PVCs go (a failed
// over one keeps the destination's), ACC-DOCS "Delete" says the PVCs stay and an empty
// managed app is left on the destination. The default is the conservative reading, that
// nothing else is removed: both apps stay managed, a destination app never failed over
// becomes an ordinary (empty) app. Options.MirrorDeleteRemovesDestination
// (-mirror-delete-removes-destination) selects the spec's reading: a destination app that
// was not failed over is removed (unmanaged, with its snapshots and schedules). Replicating
// schedules stay in either case: they replicate nothing without a relationship (TK deletes
// them itself).
func (s *Sim) finishDelete(m *appMirror) {
	delete(s.st.Replication.Mirrors, m.ID)
	da := s.st.Apps[m.DestinationAppID]
	if da == nil {
		return
	}
	failedOver := m.DeletedFrom == "failedOver" || m.DeletedFrom == "failingOver"
	if s.opts.MirrorDeleteRemovesDestination && !failedOver {
		s.removeApp(da)
		return
	}
	if da.State != "ready" {
		da.State, da.StateDetails = "ready", nil
	}
}

// advanceMirrors applies the relationships' transitions and transfers due at now. A
// transition that needs a cluster that cannot be reached stays due and is tried again at
// the next evaluation.
func (s *Sim) advanceMirrors(now time.Time) {
	for _, m := range s.st.sortedMirrors() {
		if t := m.Transfer; t != nil && t.End == nil && len(t.Failures) == 0 && !t.Due.After(now) {
			s.finishTransfer(m, t.Due)
		}
		if m.Pending == nil || m.Pending.At.After(now) {
			continue
		}
		at := m.Pending.At
		switch m.Pending.Kind {
		case transMirrorEstablished:
			if s.unreachable(m.SourceClusterID) == "" && s.unreachable(m.DestinationClusterID) == "" {
				m.Pending = nil
				s.finishEstablishing(m, at)
			}
		case transMirrorFailedOver:
			if s.unreachable(m.DestinationClusterID) == "" {
				m.Pending = nil
				s.finishFailover(m, at)
			}
		case transMirrorGone:
			m.Pending = nil
			s.finishDelete(m)
		}
	}
}

// finishEstablishing: the baseline (or, after a resync or a reverse, the catch-up)
// snapshot has been replicated; the source app runs, the destination waits for a failover.
func (s *Sim) finishEstablishing(m *appMirror, at time.Time) {
	m.State, m.Op = "established", ""
	if sa := s.st.Apps[m.SourceAppID]; sa != nil && sa.State != "ready" {
		sa.State, sa.StateDetails = "ready", nil
		t := at
		sa.Collected = &t
	}
	if da := s.st.Apps[m.DestinationAppID]; da != nil {
		da.State, da.StateDetails = "unavailable", []stateDetail{destinationDetail}
	}
	start := at.Add(-s.opts.Delays.Mirror)
	done := at
	m.Transfers++
	m.Transfer = &transfer{SnapshotID: s.replicationSnapshotID(m), Start: start, Due: at, End: &done}
	m.LastGood = m.Transfer
}

// finishFailover starts the destination app from the last replicated snapshot and gives
// it the source app's schedules it lacks (by name), as ACC-DOCS says a failover does.
func (s *Sim) finishFailover(m *appMirror, at time.Time) {
	m.State = "failedOver"
	t := at
	m.FailedOver = &t
	da := s.st.Apps[m.DestinationAppID]
	if da == nil {
		return
	}
	da.State, da.StateDetails = "ready", nil
	collected := at
	da.Collected = &collected
	for _, sc := range s.st.schedulesOf(m.SourceAppID) {
		if s.scheduleNamed(da.ID, sc.Name) != nil {
			continue
		}
		cp := *sc
		cp.Seq = s.st.nextSeq()
		cp.ID = derivedUUID4(s.opts.Seed, "object/"+itoa(cp.Seq))
		cp.AppID = da.ID
		cp.Meta = meta{Labels: append([]label{}, sc.Meta.Labels...), Created: at, Modified: at, CreatedBy: sc.Meta.CreatedBy}
		s.st.Schedules[cp.ID] = &cp
	}
}

func (s *Sim) scheduleNamed(appID, name string) *schedule {
	for _, sc := range s.st.schedulesOf(appID) {
		if sc.Name == name {
			return sc
		}
	}
	return nil
}

// unreachable says why the simulator cannot reach a cluster, or "": the existing
// unreachable-cluster fault is a cluster whose credential no longer reaches it (its
// kubeconfig's server under ".invalid", state "removed") or one FailCluster failed.
func (s *Sim) unreachable(clusterID string) string {
	c := s.st.Clusters[clusterID]
	switch {
	case c == nil:
		return "The managed cluster " + clusterID + " no longer exists."
	case c.State == "removed" || c.State == "failed":
		return "Managed cluster " + c.Name + " can't be reached (state " + c.State + ")."
	}
	if reason := s.credentialProblem(c); reason != "" {
		return "Managed cluster " + c.Name + " can't be reached: " + reason + "."
	}
	return ""
}

// RestoreCluster ends a disaster FailCluster began: a failed cluster is running again, so
// a relationship held back by it (a resync, a reverse, a transfer) goes on.
func (s *Sim) RestoreCluster(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.advance(s.opts.Now())
	c := s.st.Clusters[id]
	if c == nil {
		return fmt.Errorf("no cluster %s", id)
	}
	if c.State != "failed" {
		return fmt.Errorf("cluster %s is %s, not failed", c.Name, c.State)
	}
	c.State, c.StateUnready = "running", []string{}
	return nil
}
