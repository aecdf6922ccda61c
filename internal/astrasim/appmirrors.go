package astrasim

import (
	"net/http"
	"sort"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// App replication (AppMirror): /k8s/v1/appMirrors and its alias under
// /k8s/v1/apps/{app_id}/appMirrors (SPEC-22.11…24.02; research notes §4.12, §4.15).
// appmirror_states.go has the state machine, appmirror_checks.go the preconditions of a
// create, replication.go the snapshot transfers and replicating schedules.

// replication is the state of issue 46's objects (state.Replication).
type replication struct {
	Mirrors  map[string]*appMirror      `json:"appMirrors,omitempty"`
	Backends map[string]*storageBackend `json:"storageBackends,omitempty"`
}

// nsMapping is one namespaceMapping item: a cluster's namespaces, paired by position.
type nsMapping struct {
	ClusterID  string   `json:"clusterID"`
	Namespaces []string `json:"namespaces"`
	Role       string   `json:"role,omitempty"`
}

// scChoice is one storageClasses item.
type scChoice struct {
	ClusterID        string `json:"clusterID"`
	StorageClassName string `json:"storageClassName"`
	Role             string `json:"role,omitempty"`
}

// transfer is one snapshot replicated from the source to the destination.
type transfer struct {
	SnapshotID string     `json:"snapshotID"`
	Start      time.Time  `json:"startTime"`
	Due        time.Time  `json:"due"`                      // when it completes, if both clusters can be reached
	End        *time.Time `json:"completionTime,omitempty"` // nil while transferring
	Failures   []string   `json:"failures,omitempty"`       // reasons of the failed attempts so far (retried)
}

// appMirror is one replication relationship.
type appMirror struct {
	Seq                  int         `json:"seq"`
	ID                   string      `json:"id"`
	Version              string      `json:"version"`
	SourceAppID          string      `json:"sourceAppID"`
	SourceClusterID      string      `json:"sourceClusterID"`
	DestinationAppID     string      `json:"destinationAppID"`
	DestinationClusterID string      `json:"destinationClusterID"`
	NamespaceMapping     []nsMapping `json:"namespaceMapping,omitempty"`
	StorageClasses       []scChoice  `json:"storageClasses,omitempty"`
	State                string      `json:"state"`
	StateDesired         string      `json:"stateDesired"`
	// Op is what the current establishing does: create, resync or reverse (appmirror_states.go).
	Op         string      `json:"op,omitempty"`
	Pending    *transition `json:"pending,omitempty"`
	Transfer   *transfer   `json:"transfer,omitempty"`   // the current or most recent transfer
	LastGood   *transfer   `json:"lastGood,omitempty"`   // the most recent completed one
	FailedOver *time.Time  `json:"failedOver,omitempty"` // when the last failover completed
	Transfers  int         `json:"transfers,omitempty"`  // replication snapshots so far (their IDs derive from it)
	// DeletedFrom is the state a delete began in (what finishDelete keeps depends on it).
	DeletedFrom string `json:"deletedFrom,omitempty"`
	Meta        meta   `json:"metadata"`
}

func (st *state) sortedMirrors() []*appMirror {
	out := make([]*appMirror, 0, len(st.Replication.Mirrors))
	for _, m := range st.Replication.Mirrors {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out
}

// mirrorOf is the relationship an app is the source or the destination of, or nil.
func (st *state) mirrorOf(appID string) *appMirror {
	for _, m := range st.sortedMirrors() {
		if m.SourceAppID == appID || m.DestinationAppID == appID {
			return m
		}
	}
	return nil
}

func (s *Sim) mirrorPath(m *appMirror) string { return s.accountPath() + "/k8s/v1/appMirrors/" + m.ID }

// renderMirror answers a relationship at its version (1.0 has no role members).
func (s *Sim) renderMirror(m *appMirror) map[string]any {
	roles := m.Version != "1.0" // appMirror 1.1 added role
	ns := make([]any, 0, len(m.NamespaceMapping))
	for _, n := range m.NamespaceMapping {
		item := map[string]any{"clusterID": n.ClusterID, "namespaces": strs(n.Namespaces)}
		if roles {
			putIf(item, "role", n.Role)
		}
		ns = append(ns, item)
	}
	scs := make([]any, 0, len(m.StorageClasses))
	for _, c := range m.StorageClasses {
		item := map[string]any{"clusterID": c.ClusterID, "storageClassName": c.StorageClassName}
		if roles {
			putIf(item, "role", c.Role)
		}
		scs = append(scs, item)
	}
	health, healthDetails := s.mirrorHealth(m)
	out := map[string]any{
		"type": "application/astra-appMirror", "version": m.Version, "id": m.ID,
		"sourceAppID": m.SourceAppID, "sourceClusterID": m.SourceClusterID,
		"destinationAppID": m.DestinationAppID, "destinationClusterID": m.DestinationClusterID,
		"state": m.State, "stateDesired": m.StateDesired,
		"stateAllowed": strs(mirrorStateAllowed[m.State]), "stateTransitions": renderTransitions(mirrorStateTransitions),
		"stateDetails":  s.renderStateDetails(m.Version, s.mirrorStateDetails(m)),
		"transferState": m.transferState(), "transferStateTransitions": renderTransitions(transferStateTransitions),
		"transferStateDetails": s.renderStateDetails(m.Version, m.transferDetails()),
		"healthState":          health, "healthStateTransitions": renderTransitions(healthStateTransitions),
		"healthStateDetails": s.renderStateDetails(m.Version, healthDetails),
		"metadata":           renderMeta(m.Meta),
	}
	if len(ns) > 0 {
		out["namespaceMapping"] = ns
	}
	if len(scs) > 0 {
		out["storageClasses"] = scs
	}
	return fitToSchema(s.responseSchema(apispec.AppMirror, m.Version), out)
}

func (s *Sim) listMirrors(q *request) *reply {
	appID := q.params["app_id"]
	if appID != "" && s.st.Apps[appID] == nil {
		return fail(problem(2))
	}
	var items []map[string]any
	for _, m := range s.st.sortedMirrors() {
		// The alias lists the relationships the app takes part in, as source or destination
		// (a reverse swaps them; the research notes infer the alias may follow the source
		// only: a client reads by the root path).
		if appID == "" || m.SourceAppID == appID || m.DestinationAppID == appID {
			items = append(items, s.renderMirror(m))
		}
	}
	return s.list(q, apispec.AppMirror, items)
}

func (s *Sim) lookupMirror(q *request) (*appMirror, *apiProblem) {
	m := s.st.Replication.Mirrors[q.params["appMirror_id"]]
	if m == nil {
		return nil, notFound(q)
	}
	if appID := q.params["app_id"]; appID != "" && m.SourceAppID != appID && m.DestinationAppID != appID {
		return nil, notFound(q)
	}
	return m, nil
}

func (s *Sim) getMirror(q *request) *reply {
	m, p := s.lookupMirror(q)
	if p != nil {
		return fail(p)
	}
	return answer(http.StatusOK, apispec.AppMirror, apispec.GetResponse, m.Version, s.renderMirror(m))
}

// postMirror creates a relationship: the destination app is made at once (provisioning)
// in the mapped namespaces of the destination cluster, the relationship is answered
// "establishing" and is "established" Delays.Mirror later (at the next request when zero),
// once both clusters can be reached; the destination app is then "unavailable" until a
// failover (ACC-DOCS use/replicate_snapmirror.adoc: it is not for use before one).
func (s *Sim) postMirror(q *request) *reply {
	s.syncBackends(q.now)
	b, p := s.readBody(q, apispec.AppMirror, apispec.PostRequest)
	if p != nil {
		return fail(p)
	}
	plan, p := s.planMirror(q, b)
	if p != nil {
		return fail(p)
	}
	src := s.st.Apps[plan.sourceAppID]
	dst := s.st.Clusters[plan.destClusterID]
	for _, ns := range plan.destNamespaces {
		if !containsString(dst.Namespaces, ns) {
			dst.Namespaces = append(dst.Namespaces, ns) // the service creates a missing namespace (ACC-DOCS)
		}
	}
	scope := make([]nsScope, 0, len(src.NamespaceScope))
	for _, r := range src.NamespaceScope {
		scope = append(scope, nsScope{Namespace: plan.nsMap[r.Namespace], LabelSelectors: append([]string{}, r.LabelSelectors...)})
	}
	da := &app{Seq: s.st.nextSeq(), Version: src.Version, Name: plan.destAppName, ClusterID: dst.ID, NamespaceScope: scope,
		ClusterScope: append([]gvkScope(nil), src.ClusterScope...), State: "provisioning",
		Meta: meta{Labels: []label{}, Created: q.now, Modified: q.now, CreatedBy: q.user.userID}}
	da.ID = derivedUUID4(s.opts.Seed, "object/"+itoa(da.Seq))
	da.StateDetails = []stateDetail{destinationDetail}
	s.st.Apps[da.ID] = da
	dst.AppIDs = append(dst.AppIDs, da.ID)

	m := &appMirror{Seq: s.st.nextSeq(), Version: b.version, SourceAppID: src.ID, SourceClusterID: src.ClusterID,
		DestinationAppID: da.ID, DestinationClusterID: dst.ID, NamespaceMapping: plan.mapping, StorageClasses: plan.classes,
		State: "establishing", StateDesired: "established", Op: opCreate,
		Meta: meta{Labels: []label{}, Created: q.now, Modified: q.now, CreatedBy: q.user.userID}}
	m.ID = derivedUUID4(s.opts.Seed, "object/"+itoa(m.Seq))
	if labels, ok := labelsOf(b); ok {
		m.Meta.Labels = mergeLabels(nil, labels)
	}
	if s.st.Replication.Mirrors == nil {
		s.st.Replication.Mirrors = map[string]*appMirror{}
	}
	s.st.Replication.Mirrors[m.ID] = m
	m.Pending = &transition{Kind: transMirrorEstablished, At: q.now.Add(s.opts.Delays.Mirror)}
	return created(q, s.mirrorPath(m), apispec.AppMirror, m.Version, s.renderMirror(m))
}

// putMirror is a failover, a resync, a reverse or a delete (appmirror_states.go).
func (s *Sim) putMirror(q *request) *reply {
	m, p := s.lookupMirror(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderMirror(m)); p != nil {
		return fail(p)
	}
	b, p := s.readBody(q, apispec.AppMirror, apispec.PutRequest)
	if p != nil {
		return fail(p)
	}
	if id, ok := b.str("id"); ok && id != m.ID {
		return fail(invalidFields(10, fieldReason{"id", "the id differs from the relationship's"}))
	}
	if p := s.changeMirror(q, m, b); p != nil {
		return fail(p)
	}
	if labels, ok := labelsOf(b); ok {
		m.Meta.Labels = mergeLabels(m.Meta.Labels, labels)
	}
	m.Version = b.version
	touch(&m.Meta, q)
	if s.st.Replication.Mirrors[m.ID] == nil {
		return noContent() // gone at once (stateDesired deleted without a delete delay)
	}
	if s.opts.PutEcho {
		return s.updated(q, apispec.AppMirror, m.Version, s.renderMirror(m))
	}
	// 200 with the relationship whatever PutReturnsBody says: the spec documents 204, but
	// NetApp's actoolkit (astraSDK updateReplicationpolicy) fails on an empty answer and its
	// docs print 200 bodies for failover, reverse and resync (research notes §4.12, §4.15).
	return answer(http.StatusOK, apispec.AppMirror, apispec.GetResponse, m.Version, s.renderMirror(m))
}

// deleteMirror answers 204 and cleans up asynchronously: "deleting" until Delays.Delete
// has passed (gone at once when zero), then 404. What else goes: appmirror_states.go.
func (s *Sim) deleteMirror(q *request) *reply {
	m, p := s.lookupMirror(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderMirror(m)); p != nil {
		return fail(p)
	}
	s.startDelete(m, q.now)
	return noContent()
}
