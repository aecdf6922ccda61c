package astrasim

import (
	"fmt"
	"strings"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// Clones and in-place restores (research notes §4.8).
//
// A clone is a POST of an app naming its source: sourceAppID (with sourceClusterID, "used
// in conjunction"), and optionally the snapshot or backup to clone from. The published
// descriptions say "only one of sourceAppID, backupID, or snapshotID", while NetApp's
// clients send sourceAppID beside a backupID or snapshotID; the simulator takes both forms
// and, with several, checks that they agree. The new app's namespaces are the source app's,
// each renamed by namespaceMapping (none: named after the clone, see cloneNamespaces); a
// destination namespace must not exist on the target cluster (the clone creates it). The
// new app is answered "provisioning", is "discovering" half way through Delays.Restore and
// "ready" at its end: NetApp's captured app answers (toolkit docs) list provisioning ->
// discovering and restoring -> discovering, never straight to ready, so a snapshot or
// backup chained right after a clone or restore is refused 409/112 meanwhile.
//
// An in-place restore is a PUT of the app naming one of its own snapshots or backups, with
// the header forceUpdate: true ("Flag that enables destructive overwrites"): the app goes
// "restoring", then "discovering" half way through Delays.Restore, and "ready" at its end. Without the header the PUT is refused, so
// that no ordinary update can restore an app by accident; the header without a snapshot or
// a backup is refused too (the spec: "only include this when requesting an in-place
// restore").
//
// A restore or a clone fails when one is queued with FailNext{Kind: FailRestore}: the app
// ends "failed" with the reasons as stateDetails.

// mapping is one entry of namespaceMapping or storageClassMapping.
type mapping struct {
	Source      string `json:"source"`
	Destination string `json:"destination"`
}

// App transition kinds of clones and restores.
const (
	transAppCloned   = "appCloned"   // provisioning -> discovering or failed
	transAppRestored = "appRestored" // restoring -> discovering or failed
)

// restoreDetailType is the type URI of a failed clone's or restore's stateDetails.
const restoreDetailType = "https://astra.netapp.io/stateDetails/restoreFailed"

// cloneMembers are the POST members that make a POST a clone.
var cloneMembers = []string{"sourceAppID", "snapshotID", "backupID"}

func isClone(b *body) bool {
	for _, f := range cloneMembers {
		if _, ok := b.fields[f]; ok {
			return true
		}
	}
	return false
}

func mappings(b *body, key string) []mapping {
	raw, _ := b.fields[key].([]any)
	out := make([]mapping, 0, len(raw))
	for _, item := range raw {
		m, _ := item.(map[string]any)
		src, _ := m["source"].(string)
		dst, _ := m["destination"].(string)
		out = append(out, mapping{src, dst})
	}
	return out
}

// cloneSource resolves what a clone copies: the source app, and the snapshot or backup
// (at most one) it is taken from.
func (s *Sim) cloneSource(b *body) (*app, *appSnap, *appBackup, *apiProblem) {
	appID, _ := b.str("sourceAppID")
	snapID, _ := b.str("snapshotID")
	backupID, _ := b.str("backupID")
	if snapID != "" && backupID != "" {
		return nil, nil, nil, invalidFields(9, fieldReason{"backupID", "a clone is taken from a snapshot or from a backup, not both"})
	}
	var src *app
	if appID != "" {
		if src = s.st.Apps[appID]; src == nil {
			return nil, nil, nil, invalidFields(9, fieldReason{"sourceAppID", "no app has this ID"})
		}
		clusterID, _ := b.str("sourceClusterID")
		if clusterID == "" {
			return nil, nil, nil, invalidFields(9, fieldReason{"sourceClusterID", "a clone of sourceAppID needs the source app's cluster"})
		}
		if clusterID != src.ClusterID {
			return nil, nil, nil, invalidFields(9, fieldReason{"sourceClusterID", "the source app is not on this cluster"})
		}
	}
	var sn *appSnap
	var bk *appBackup
	switch {
	case snapID != "":
		if sn = s.st.Snapshots[snapID]; sn == nil || (src != nil && sn.AppID != src.ID) {
			return nil, nil, nil, invalidFields(9, fieldReason{"snapshotID", "no snapshot of the source app has this ID"})
		}
		if sn.State != "completed" {
			return nil, nil, nil, cloneSourceNotReady(sn.State)
		}
		src = s.st.Apps[sn.AppID]
	case backupID != "":
		if bk = s.st.Backups[backupID]; bk == nil || (src != nil && bk.AppID != src.ID) {
			return nil, nil, nil, invalidFields(9, fieldReason{"backupID", "no backup of the source app has this ID"})
		}
		if bk.State != "completed" {
			return nil, nil, nil, cloneSourceNotReady(bk.State)
		}
		src = s.st.Apps[bk.AppID]
	}
	if src == nil {
		return nil, nil, nil, invalidFields(9, fieldReason{"sourceAppID", "the app the snapshot or backup was taken of is gone"})
	}
	return src, sn, bk, nil
}

// unexpectedState is problem 164 for a snapshot or a backup that has not completed, which
// an in-place restore refuses.
func unexpectedState(what, name, state string) *apiProblem {
	p := problem(164)
	p.Detail = fmt.Sprintf("The %s %s is %s: only a completed %s can be restored or cloned.", what, name, state, what)
	return p
}

// cloneSourceNotReady refuses a clone from a snapshot or backup that has not completed. The
// 24.02 spec lists 10, 148, 151, 155 and 161 for the clone POST (POST /k8s/v2/apps), not
// 164 (issue 43, item 6), and pins their details: one still being taken is 148 ("not
// possible because a snapshot is already in progress"; a backup takes one), one that failed
// or is being deleted 10.
func cloneSourceNotReady(state string) *apiProblem {
	if state == "failed" || state == "deleting" {
		return problem(10)
	}
	return problem(148)
}

// postClone creates an app as a clone of another (postApp hands it the body once the
// target cluster and the name are checked).
func (s *Sim) postClone(q *request, b *body, c *cluster, name string) *reply {
	if _, ok := b.fields["namespaceScopedResources"]; ok {
		return fail(invalidFields(9, fieldReason{"namespaceScopedResources", "a clone takes the source app's namespaces, renamed by namespaceMapping"}))
	}
	src, sn, bk, p := s.cloneSource(b)
	if p != nil {
		return fail(p)
	}
	if sn == nil && bk == nil {
		// A clone of a running app snapshots it first.
		if src.State != "ready" {
			return fail(problem(112))
		}
		if s.atRisk(src) {
			return fail(problem(161))
		}
	}
	ns, p := s.cloneNamespaces(src, c, mappings(b, "namespaceMapping"), name)
	if p != nil {
		return fail(p)
	}
	restored, p := cloneRestoreFilter(b, src, ns, sn != nil || bk != nil)
	if p != nil {
		return fail(p)
	}
	scMap := mappings(b, "storageClassMapping")
	for i, m := range scMap {
		if s.storageClassNamed(c.ID, m.Destination) == nil {
			return fail(invalidFields(156, fieldReason{fmt.Sprintf("storageClassMapping[%d].destination", i), "the target cluster has no storage class " + m.Destination}))
		}
	}
	a := &app{
		Seq: s.st.nextSeq(), Version: b.version, Name: name, ClusterID: c.ID, NamespaceScope: ns,
		ClusterScope: append([]gvkScope(nil), src.ClusterScope...), State: "provisioning",
		SourceAppID: src.ID, SourceClusterID: src.ClusterID, NamespaceMapping: mappings(b, "namespaceMapping"), StorageClassMapping: scMap,
		Meta: meta{Labels: []label{}, Created: q.now, Modified: q.now, CreatedBy: q.user.userID}, Restored: restored,
	}
	if sn != nil {
		a.SnapshotID = sn.ID
	}
	if bk != nil {
		a.BackupID = bk.ID
	}
	a.ID = derivedUUID4(s.opts.Seed, "object/"+itoa(a.Seq))
	if labels, ok := labelsOf(b); ok {
		a.Meta.Labels = mergeLabels(nil, labels)
	}
	a.FailWith = s.takeFailure(FailRestore, a)
	for _, r := range ns {
		c.Namespaces = append(c.Namespaces, r.Namespace) // the clone creates them
	}
	s.st.Apps[a.ID] = a
	c.AppIDs = append(c.AppIDs, a.ID)
	if s.clones == nil {
		s.clones = map[string]int{}
	}
	s.clones[name]++
	rendered := s.renderApp(a) // answered provisioning, even when the delay is zero
	s.scheduleApp(a, transAppCloned, s.opts.Delays.Restore/2, q.now)
	return created(q, s.appPath(a), apispec.App, a.Version, rendered)
}

// cloneNamespaces maps the source app's namespaces into the target cluster: each mapping
// names a namespace of the source app, each destination is new on the target cluster and
// named once. Without any mapping, the clone's namespace is named after the clone (NetApp's
// toolkit docs, clone: "if not specified, the namespace is the same value as
// cloneAppName", and actoolkit then sends no namespaceMapping); that names one namespace
// only, so a source of several needs a mapping (400/9, the conservative reading where the
// docs are silent). A namespace a partial mapping leaves out keeps its name (no source
// says otherwise).
func (s *Sim) cloneNamespaces(src *app, target *cluster, maps []mapping, cloneName string) ([]nsScope, *apiProblem) {
	if len(maps) == 0 {
		if len(src.NamespaceScope) != 1 {
			return nil, invalidFields(9, fieldReason{"namespaceMapping", "the source app spans several namespaces: " +
				"without namespaceMapping a clone's one namespace is named after the clone, so map each of them"})
		}
		maps = []mapping{{src.NamespaceScope[0].Namespace, cloneName}}
	}
	dest := map[string]string{}
	for i, m := range maps {
		field := fmt.Sprintf("namespaceMapping[%d]", i)
		if !src.hasNamespace(m.Source) {
			return nil, invalidFields(9, fieldReason{field + ".source", "the source app has no namespace " + m.Source})
		}
		if _, dup := dest[m.Source]; dup {
			return nil, invalidFields(9, fieldReason{field + ".source", "namespace " + m.Source + " is mapped twice"})
		}
		dest[m.Source] = m.Destination
	}
	out := make([]nsScope, 0, len(src.NamespaceScope))
	from := map[string]string{} // destination -> the source namespace that goes there
	for _, r := range src.NamespaceScope {
		to, mapped := dest[r.Namespace]
		if !mapped {
			to = r.Namespace
		}
		if other, taken := from[to]; taken && other != r.Namespace {
			return nil, invalidFields(9, fieldReason{"namespaceMapping", "namespaces " + other + " and " + r.Namespace + " both go to " + to})
		}
		if containsString(target.Namespaces, to) {
			reason := "namespace " + to + " exists on the target cluster: a clone creates its namespaces"
			if target.ID == src.ClusterID && (!mapped || to == r.Namespace) {
				reason = "a clone within the source app's cluster needs a different namespace: map " + r.Namespace + " in namespaceMapping"
			}
			return nil, invalidFields(9, fieldReason{"namespaceMapping", reason})
		}
		from[to] = r.Namespace
		out = append(out, nsScope{Namespace: to, LabelSelectors: append([]string(nil), r.LabelSelectors...)})
	}
	return out, nil
}

func (a *app) hasNamespace(ns string) bool {
	for _, r := range a.NamespaceScope {
		if r.Namespace == ns {
			return true
		}
	}
	return false
}

func (s *Sim) storageClassNamed(clusterID, name string) *storageClass {
	for _, sc := range s.st.StorageClasses {
		if sc.ClusterID == clusterID && sc.Name == name {
			return sc
		}
	}
	return nil
}

// restoreApp restores app a in place from one of its snapshots or backups (putApp hands it
// a PUT body naming one). The rest of the body changes nothing: a restore is only a restore.
func (s *Sim) restoreApp(q *request, a *app, b *body) *reply {
	restored := appAssets(a)
	var selected []string
	for _, x := range restored {
		selected = append(selected, x.String())
	}
	if raw, ok := b.fields["restoreFilter"].(map[string]any); ok {
		criteria, filters, p := readRestoreFilter(raw)
		if p != nil {
			return fail(p)
		}
		selected = selectAssets(restored, criteria, filters)
	}
	snapID, _ := b.str("snapshotID")
	backupID, _ := b.str("backupID")
	member := "snapshotID"
	if backupID != "" {
		member = "backupID"
	}
	if !forceUpdate(q) {
		return fail(invalidFields(9, fieldReason{member, "a PUT naming a snapshot or a backup restores the app in place, overwriting its resources and data: it needs the header forceUpdate: true"}))
	}
	if snapID != "" && backupID != "" {
		return fail(invalidFields(9, fieldReason{"backupID", "an app is restored from a snapshot or from a backup, not both"}))
	}
	if a.State != "ready" {
		return fail(problem(112))
	}
	if s.backupInProgress(a.ID) {
		return fail(problem(152))
	}
	if s.snapshotInProgress(a.ID) {
		return fail(problem(148))
	}
	if snapID != "" {
		sn := s.st.Snapshots[snapID]
		if sn == nil || sn.AppID != a.ID {
			return fail(invalidFields(9, fieldReason{"snapshotID", "no snapshot of this app has this ID"}))
		}
		if sn.State != "completed" {
			return fail(unexpectedState("snapshot", sn.Name, sn.State))
		}
		a.SnapshotID, a.BackupID = sn.ID, ""
	} else {
		bk := s.st.Backups[backupID]
		if bk == nil || bk.AppID != a.ID {
			return fail(invalidFields(9, fieldReason{"backupID", "no backup of this app has this ID"}))
		}
		if bk.State != "completed" {
			return fail(unexpectedState("backup", bk.Name, bk.State))
		}
		a.BackupID, a.SnapshotID = bk.ID, ""
	}
	a.State, a.StateDetails = "restoring", nil
	a.FailWith = s.takeFailure(FailRestore, a)
	a.Restores++
	a.Restored = append([]string{}, selected...)
	touch(&a.Meta, q)
	rendered := s.renderApp(a)
	s.scheduleApp(a, transAppRestored, s.opts.Delays.Restore/2, q.now)
	return s.updated(q, apispec.App, a.Version, rendered)
}

// forceUpdate: the request carries forceUpdate: true (the spec's only value).
func forceUpdate(q *request) bool {
	return strings.EqualFold(strings.TrimSpace(q.r.Header.Get("forceUpdate")), "true")
}

// finishRestore ends a clone's provisioning or a restore: discovering (ready for the rest
// of Delays.Restore), or failed with the injected reasons.
func (s *Sim) finishRestore(a *app, what string, at time.Time) {
	if len(a.FailWith) > 0 {
		a.State, a.StateDetails = "failed", nil
		for _, r := range a.FailWith {
			a.StateDetails = append(a.StateDetails, stateDetail{Type: restoreDetailType, Title: capitalized(what) + " failed", Detail: r})
		}
		a.FailWith = nil
		return
	}
	a.State, a.StateDetails = "discovering", nil
	s.runRestoreHooks(a, what)
	s.scheduleApp(a, transAppReady, s.opts.Delays.Restore-s.opts.Delays.Restore/2, at)
}

// Clones is how many clone POSTs the simulator accepted that named the new app name, since
// it started (a restart starts over, as request counts do): tests check that a clone is
// sent once per create, even when its answer was lost.
func (s *Sim) Clones(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.clones[name]
}

// Restores is how many in-place restores app id has had (tests: an ordinary update never
// restores an app).
func (s *Sim) Restores(id string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a := s.st.Apps[id]; a != nil {
		return a.Restores
	}
	return 0
}
