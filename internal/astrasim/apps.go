package astrasim

import (
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
	"github.com/astra-control/terraform-provider-astra/internal/labelselector"
)

// app is a managed cluster's application: what a namespace (or a labelled part of one)
// becomes when Astra Control manages it.
type app struct {
	Seq            int           `json:"seq"`
	ID             string        `json:"id"`
	Version        string        `json:"version"`
	Name           string        `json:"name"`
	ClusterID      string        `json:"clusterID"`
	NamespaceScope []nsScope     `json:"namespaceScopedResources"`
	ClusterScope   []gvkScope    `json:"clusterScopedResources,omitempty"`
	State          string        `json:"state"`
	StateDetails   []stateDetail `json:"stateDetails,omitempty"`
	Collected      *time.Time    `json:"lastResourceCollectionTimestamp,omitempty"`
	Meta           meta          `json:"metadata"`
	Pending        *transition   `json:"pending,omitempty"`
	// A clone's origin (clones.go); SnapshotID and BackupID also name what the app was
	// last restored from in place.
	SourceAppID         string    `json:"sourceAppID,omitempty"`
	SourceClusterID     string    `json:"sourceClusterID,omitempty"`
	SnapshotID          string    `json:"snapshotID,omitempty"`
	BackupID            string    `json:"backupID,omitempty"`
	NamespaceMapping    []mapping `json:"namespaceMapping,omitempty"`
	StorageClassMapping []mapping `json:"storageClassMapping,omitempty"`
	FailWith            []string  `json:"failWith,omitempty"`     // injected: the clone or restore under way fails with these
	Restores            int       `json:"restores,omitempty"`     // in-place restores so far
	Restored            []string  `json:"restored,omitempty"`     // what the last in-place restore put back (restorefilter.go)
	RestoreHooks        []string  `json:"restoreHooks,omitempty"` // what its post-restore hooks did (hooktimeout.go)
}

type nsScope struct {
	Namespace      string   `json:"namespace"`
	LabelSelectors []string `json:"labelSelectors"`
}

type gvkScope struct {
	Group          string   `json:"group"`
	Version        string   `json:"version"`
	Kind           string   `json:"kind"`
	LabelSelectors []string `json:"labelSelectors"`
}

// App transition kinds. A new app is answered discovering (NetApp's toolkit docs show the
// POST answer so) and is ready Delays.App later; appDiscovering only moves a pending app of
// a state file written by an earlier simulator.
const (
	transAppDiscovering = "appDiscovering"
	transAppReady       = "appReady"
)

func (st *state) sortedApps(keep func(*app) bool) []*app {
	var out []*app
	for _, a := range st.Apps {
		if keep(a) {
			out = append(out, a)
		}
	}
	sortBySeq(out, func(a *app) int { return a.Seq })
	return out
}

func (st *state) schedulesOf(appID string) []*schedule {
	var out []*schedule
	for _, sc := range st.Schedules {
		if sc.AppID == appID {
			out = append(out, sc)
		}
	}
	sortBySeq(out, func(sc *schedule) int { return sc.Seq })
	return out
}

// bucketAvailable reports whether a policy's bucket is available; a policy whose bucket is
// not leaves its app "partial".
func (st *state) bucketAvailable(id string) bool {
	b := st.Buckets[id]
	return b != nil && b.State == "available"
}

// bucketExists reports whether a policy's bucketID names a bucket of the account (else
// problem 9 on POST and PUT).
func (st *state) bucketExists(id string) bool {
	return st.Buckets[id] != nil
}

// canSnapshot: CSI drivers take volume snapshots; in-tree and host-path provisioners
// (kubernetes.io/aws-ebs, rancher.io/local-path) cannot. The simulator's assumption: the
// service says no more than "the default storage class cannot snapshot".
func canSnapshot(sc *storageClass) bool {
	return sc != nil && strings.Contains(sc.Provisioner, "csi")
}

// protection derives an app's protectionState and its details (protectionstate.go).
func (s *Sim) protection(a *app) (string, []stateDetail) {
	return protectionOf(s.protectionFactsOf(a))
}

func renderDetails(ds []stateDetail) []any {
	out := make([]any, 0, len(ds))
	for _, d := range ds {
		out = append(out, map[string]any{"type": d.Type, "title": d.Title, "detail": d.Detail})
	}
	return out
}

func (s *Sim) appPath(a *app) string { return s.accountPath() + "/k8s/v2/apps/" + a.ID }

// renderApp answers an app as the service does (NetApp's toolkit docs): an empty
// labelSelectors is left out, although the published GET schema requires it, and namespaces
// is empty until the app's resources are discovered (a clone's, until it is provisioned).
func (s *Sim) renderApp(a *app) map[string]any {
	ns := make([]any, 0, len(a.NamespaceScope))
	names := make([]string, 0, len(a.NamespaceScope))
	for _, r := range a.NamespaceScope {
		entry := map[string]any{"namespace": r.Namespace}
		if len(r.LabelSelectors) > 0 {
			entry["labelSelectors"] = strs(r.LabelSelectors)
		}
		ns = append(ns, entry)
		if !containsString(names, r.Namespace) && a.State != "pending" && a.State != "discovering" && a.State != "provisioning" {
			names = append(names, r.Namespace)
		}
	}
	cs := make([]any, 0, len(a.ClusterScope))
	for _, r := range a.ClusterScope {
		cs = append(cs, map[string]any{"GVK": map[string]any{"group": r.Group, "version": r.Version, "kind": r.Kind}, "labelSelectors": strs(r.LabelSelectors)})
	}
	pstate, pdetails := s.protection(a)
	m := map[string]any{
		"type": "application/astra-app", "version": a.Version, "id": a.ID, "name": a.Name,
		"links":                    []any{map[string]any{"rel": "self", "href": s.appPath(a)}},
		"namespaceScopedResources": ns, "clusterScopedResources": cs, "state": a.State,
		"stateDetails": renderDetails(a.StateDetails), "protectionState": pstate,
		"protectionStateDetails": renderDetails(pdetails), "namespaces": strs(names),
		"clusterID": a.ClusterID, "metadata": renderMeta(a.Meta),
		"stateTransitions": []any{
			map[string]any{"from": "pending", "to": []any{"discovering", "failed"}},
			map[string]any{"from": "discovering", "to": []any{"ready", "failed"}},
			map[string]any{"from": "ready", "to": []any{"discovering", "restoring", "unavailable", "failed", "deleting"}},
			// NetApp's captured app answers (toolkit docs): a clone or a restore is discovered again.
			map[string]any{"from": "provisioning", "to": []any{"discovering", "failed"}},
			map[string]any{"from": "restoring", "to": []any{"discovering", "failed"}},
			map[string]any{"from": "unavailable", "to": []any{"ready", "discovering", "failed"}},
		},
	}
	if c := s.st.Clusters[a.ClusterID]; c != nil {
		m["clusterName"], m["clusterType"] = c.Name, c.ClusterType
		if !enumHas(s.responseSchema(apispec.App, a.Version).Properties["clusterType"], c.ClusterType) {
			m["clusterType"] = "kubernetes" // private clusters: the app's enum has no "private"
		}
	}
	if a.Collected != nil {
		m["lastResourceCollectionTimestamp"] = formatTime(*a.Collected)
	}
	putIf(m, "sourceAppID", a.SourceAppID)
	putIf(m, "snapshotID", a.SnapshotID)
	putIf(m, "backupID", a.BackupID)
	if a.SourceClusterID != "" && a.SourceClusterID != a.ClusterID {
		// "Only returned if the application was cloned from another cluster."
		m["sourceClusterID"] = a.SourceClusterID
		if c := s.st.Clusters[a.SourceClusterID]; c != nil {
			m["sourceClusterName"] = c.Name
		}
	}
	if len(a.NamespaceMapping) > 0 {
		m["namespaceMapping"] = renderMappings(a.NamespaceMapping)
	}
	if len(a.StorageClassMapping) > 0 {
		m["storageClassMapping"] = renderMappings(a.StorageClassMapping)
	}
	return fitToSchema(s.responseSchema(apispec.App, a.Version), m)
}

func (s *Sim) listApps(q *request) *reply {
	var items []map[string]any
	for _, a := range s.st.sortedApps(func(*app) bool { return true }) {
		items = append(items, s.renderApp(a))
	}
	return s.list(q, apispec.App, items)
}

func (s *Sim) lookupApp(q *request) (*app, *apiProblem) {
	a := s.st.Apps[q.params["app_id"]]
	if a == nil {
		return nil, notFound(q)
	}
	return a, nil
}

func (s *Sim) getApp(q *request) *reply {
	a, p := s.lookupApp(q)
	if p != nil {
		return fail(p)
	}
	return answer(http.StatusOK, apispec.App, apispec.GetResponse, a.Version, s.renderApp(a))
}

func renderMappings(ms []mapping) []any {
	out := make([]any, 0, len(ms))
	for _, m := range ms {
		out = append(out, map[string]any{"source": m.Source, "destination": m.Destination})
	}
	return out
}

// postApp manages an app on a managed cluster: answered discovering, ready Delays.App
// later (by the next request when it is zero). A name the cluster's apps already have is
// problem 121, a namespace the cluster does not have 122 (the catalogue's numbers). A body
// naming a source app, a snapshot or a backup is a clone (clones.go).
func (s *Sim) postApp(q *request) *reply {
	b, p := s.readBody(q, apispec.App, apispec.PostRequest)
	if p != nil {
		return fail(p)
	}
	clone := isClone(b)
	if !clone {
		for _, f := range []string{"sourceClusterID", "namespaceMapping", "storageClassMapping", "restoreFilter"} {
			if _, ok := b.fields[f]; ok {
				return fail(invalidFields(9, fieldReason{f, "only a clone (sourceAppID, snapshotID or backupID) takes " + f}))
			}
		}
	}
	clusterID, _ := b.str("clusterID")
	c := s.st.Clusters[clusterID]
	if c == nil || c.ManagedState != "managed" {
		return fail(invalidFields(9, fieldReason{"clusterID", "no managed cluster has this ID"}))
	}
	name, _ := b.str("name")
	if reason := checkName(name); reason != "" {
		return fail(invalidFields(9, fieldReason{"name", reason}))
	}
	if other := s.appNamed(c, name, ""); other != nil {
		return fail(appExists(other))
	}
	if clone {
		return s.postClone(q, b, c, name)
	}
	ns, p := s.namespaceScope(c, b)
	if p != nil {
		return fail(p)
	}
	cs, p := clusterScope(b)
	if p != nil {
		return fail(p)
	}
	now := q.now
	a := &app{
		Seq: s.st.nextSeq(), Version: b.version, Name: name, ClusterID: c.ID, NamespaceScope: ns, ClusterScope: cs,
		State: "discovering", Collected: &now, Pending: &transition{Kind: transAppReady, At: q.now.Add(s.opts.Delays.App)},
		Meta: meta{Labels: []label{}, Created: q.now, Modified: q.now, CreatedBy: q.user.userID},
	}
	a.ID = derivedUUID4(s.opts.Seed, "object/"+itoa(a.Seq))
	if labels, ok := labelsOf(b); ok {
		a.Meta.Labels = mergeLabels(nil, labels)
	}
	s.st.Apps[a.ID] = a
	c.AppIDs = append(c.AppIDs, a.ID)
	return created(q, s.appPath(a), apispec.App, a.Version, s.renderApp(a))
}

// appNamed is the app of cluster c named name, other than the one with ID except; nil if none.
func (s *Sim) appNamed(c *cluster, name, except string) *app {
	for _, id := range c.AppIDs {
		if a := s.st.Apps[id]; a.ID != except && a.Name == name {
			return a
		}
	}
	return nil
}

// appExists is problem 121 naming the app that has the name already.
func appExists(a *app) *apiProblem {
	p := invalidFields(121, fieldReason{"name", "the cluster already has an app named " + a.Name})
	p.Detail = "An application named " + a.Name + " (" + a.ID + ") already exists on the cluster."
	return p
}

// namespaceScope reads namespaceScopedResources: at least one, each namespace on the
// cluster, each selector a Kubernetes label selector.
func (s *Sim) namespaceScope(c *cluster, b *body) ([]nsScope, *apiProblem) {
	raw, _ := b.fields["namespaceScopedResources"].([]any)
	if len(raw) == 0 {
		return nil, invalidFields(9, fieldReason{"namespaceScopedResources", "an app needs at least one namespace"})
	}
	out := make([]nsScope, 0, len(raw))
	for i, item := range raw {
		m, _ := item.(map[string]any)
		ns, _ := m["namespace"].(string)
		field := fmt.Sprintf("namespaceScopedResources[%d]", i)
		if !containsString(c.Namespaces, ns) {
			return nil, invalidFields(122, fieldReason{field + ".namespace", "the cluster has no namespace " + ns})
		}
		sels, p := selectors(m, field)
		if p != nil {
			return nil, p
		}
		out = append(out, nsScope{Namespace: ns, LabelSelectors: sels})
	}
	return out, nil
}

func selectors(m map[string]any, field string) ([]string, *apiProblem) {
	raw, _ := m["labelSelectors"].([]any)
	out := make([]string, 0, len(raw))
	for j, v := range raw {
		sel, _ := v.(string)
		if err := labelselector.Validate(sel); err != nil {
			return nil, invalidFields(9, fieldReason{fmt.Sprintf("%s.labelSelectors[%d]", field, j), err.Error()})
		}
		out = append(out, sel)
	}
	return out, nil
}

// clusterScope reads clusterScopedResources; a GVK without a kind or a version is problem 147.
func clusterScope(b *body) ([]gvkScope, *apiProblem) {
	raw, _ := b.fields["clusterScopedResources"].([]any)
	var out []gvkScope
	for i, item := range raw {
		m, _ := item.(map[string]any)
		gvk, _ := m["GVK"].(map[string]any)
		g, _ := gvk["group"].(string)
		v, _ := gvk["version"].(string)
		k, _ := gvk["kind"].(string)
		if k == "" || v == "" {
			return nil, invalidFields(147, fieldReason{fmt.Sprintf("clusterScopedResources[%d].GVK", i), "kind and version must not be empty"})
		}
		sels, p := selectors(m, fmt.Sprintf("clusterScopedResources[%d]", i))
		if p != nil {
			return nil, p
		}
		out = append(out, gvkScope{Group: g, Version: v, Kind: k, LabelSelectors: sels})
	}
	return out, nil
}

// putApp replaces an app with the body (replaceOnPut says how). What can change in place
// is the name and the user labels (metadata.labels: left out, the user labels go). The
// simulator's assumptions, as the service documents nothing more: the cluster and the
// scope cannot change in place, so a body that sends them different is problem 10 (and
// clusterScopedResources left out is a change when the app has some); the members the
// service computes (state, protectionState, namespaces, ...) are its own, whatever a body
// says of them; a body naming a snapshot or a backup is an in-place restore (clones.go), and
// the forceUpdate header on any other PUT is refused.
func (s *Sim) putApp(q *request) *reply {
	a, p := s.lookupApp(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderApp(a)); p != nil {
		return fail(p)
	}
	b, p := s.readBody(q, apispec.App, apispec.PutRequest)
	if p != nil {
		return fail(p)
	}
	for _, f := range []string{"snapshotID", "backupID", "restoreFilter"} {
		if _, ok := b.fields[f]; ok {
			return s.restoreApp(q, a, b)
		}
	}
	if forceUpdate(q) {
		return fail(invalidParams(12, fieldReason{"forceUpdate", "the header enables destructive overwrites: only an in-place restore (a PUT naming a snapshot or a backup) sends it"}))
	}
	if id, ok := b.str("sourceAppID"); ok && id != a.SourceAppID {
		return fail(invalidFields(10, fieldReason{"sourceAppID", "the app the clone was made from cannot change"}))
	}
	if id, ok := b.str("id"); ok && id != a.ID {
		return fail(invalidFields(10, fieldReason{"id", "the id differs from the app's"}))
	}
	if id, ok := b.str("clusterID"); ok && id != a.ClusterID {
		return fail(invalidFields(10, fieldReason{"clusterID", "an app cannot move to another cluster"}))
	}
	c := s.st.Clusters[a.ClusterID]
	if _, ok := b.fields["namespaceScopedResources"]; ok {
		ns, p := s.namespaceScope(c, b)
		if p != nil {
			return fail(p)
		}
		if !sameNamespaceScope(ns, a.NamespaceScope) {
			return fail(invalidFields(10, fieldReason{"namespaceScopedResources", "an app's namespaces and selectors cannot change in place"}))
		}
	}
	cs, p := clusterScope(b)
	if p != nil {
		return fail(p)
	}
	if len(cs) != len(a.ClusterScope) || (len(cs) > 0 && !reflect.DeepEqual(cs, a.ClusterScope)) {
		return fail(invalidFields(10, fieldReason{"clusterScopedResources", "an app's cluster-scoped resources cannot change in place"}))
	}
	if name, ok := b.str("name"); ok {
		if reason := checkName(name); reason != "" {
			return fail(invalidFields(9, fieldReason{"name", reason}))
		}
		if other := s.appNamed(c, name, a.ID); other != nil {
			return fail(appExists(other))
		}
		a.Name = name
	}
	labels, _ := labelsOf(b)
	a.Meta.Labels = mergeLabels(a.Meta.Labels, labels)
	a.Version = b.version
	touch(&a.Meta, q)
	return s.updated(q, apispec.App, a.Version, s.renderApp(a))
}

// sameNamespaceScope compares two scopes as the service's answers order them: by position,
// each entry's selectors as a set.
func sameNamespaceScope(x, y []nsScope) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i].Namespace != y[i].Namespace || !sameStrings(x[i].LabelSelectors, y[i].LabelSelectors) {
			return false
		}
	}
	return true
}

func sameStrings(x, y []string) bool {
	if len(x) != len(y) {
		return false
	}
	for _, v := range x {
		if !containsString(y, v) {
			return false
		}
	}
	return true
}

// deleteApp unmanages an app (its workloads stay on the cluster) with its schedules and
// what unmanage.go says goes with it. An app still being discovered is problem 112.
func (s *Sim) deleteApp(q *request) *reply {
	a, p := s.lookupApp(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderApp(a)); p != nil {
		return fail(p)
	}
	if a.State == "pending" || a.State == "discovering" || a.State == "provisioning" || a.State == "restoring" {
		return fail(problem(112))
	}
	if p := s.unmanageBlocked(a); p != nil {
		return fail(p)
	}
	if m := s.st.mirrorOf(a.ID); m != nil { // 119: an active replication relationship (catalogue)
		return fail(invalidFields(119, fieldReason{"id", "the app takes part in the replication relationship " + m.ID + "; delete it first"}))
	}
	s.removeApp(a)
	return noContent()
}

// removeApp forgets an app with its schedules and what unmanage.go says goes with it.
func (s *Sim) removeApp(a *app) {
	s.forgetAppData(a)
	for _, sc := range s.st.schedulesOf(a.ID) {
		delete(s.st.Schedules, sc.ID)
	}
	if c := s.st.Clusters[a.ClusterID]; c != nil {
		c.AppIDs = withoutString(c.AppIDs, a.ID)
	}
	delete(s.st.Apps, a.ID)
}

func withoutString(list []string, v string) []string {
	out := []string{}
	for _, x := range list {
		if x != v {
			out = append(out, x)
		}
	}
	return out
}

// scheduleApp applies an app transition now when its delay is zero, else records it.
func (s *Sim) scheduleApp(a *app, kind string, delay time.Duration, now time.Time) {
	if delay <= 0 {
		a.Pending = nil
		s.applyAppTransition(a, kind, now)
		return
	}
	a.Pending = &transition{Kind: kind, At: now.Add(delay)}
}

func (s *Sim) applyAppTransition(a *app, kind string, at time.Time) {
	switch kind {
	case transAppDiscovering:
		if a.State == "pending" {
			a.State = "discovering"
			s.scheduleApp(a, transAppReady, s.opts.Delays.App-s.opts.Delays.App/2, at)
		}
	case transAppReady:
		if a.State == "discovering" {
			a.State, a.StateDetails = "ready", nil
			t := at
			a.Collected = &t
		}
	case transAppCloned:
		if a.State == "provisioning" {
			s.finishRestore(a, "clone", at)
		}
	case transAppRestored:
		if a.State == "restoring" {
			s.finishRestore(a, "restore", at)
		}
	}
}

// advanceApps applies the app transitions due at now (a transition may schedule the next).
func (s *Sim) advanceApps(now time.Time) {
	for _, a := range s.st.sortedApps(func(a *app) bool { return a.Pending != nil && !a.Pending.At.After(now) }) {
		for a.Pending != nil && !a.Pending.At.After(now) {
			kind, at := a.Pending.Kind, a.Pending.At
			a.Pending = nil
			s.applyAppTransition(a, kind, at)
		}
	}
}

// FailApp sends an app to state "failed" with stateDetails made of reasons (a default
// reason when none is given), as a failed discovery would.
func (s *Sim) FailApp(id string, reasons ...string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.advance(s.opts.Now())
	a := s.st.Apps[id]
	if a == nil {
		return fmt.Errorf("no app %s", id)
	}
	if len(reasons) == 0 {
		reasons = []string{"The application's resources could not be collected (injected by the simulator)"}
	}
	a.State, a.Pending, a.StateDetails = "failed", nil, nil
	for _, r := range reasons {
		if r == "" || len(r) > 511 {
			return fmt.Errorf("a reason must have 1 to 511 characters")
		}
		a.StateDetails = append(a.StateDetails, stateDetail{Type: "https://astra.netapp.io/stateDetails/appFailed", Title: "Application failed", Detail: r})
	}
	return nil
}

// managedAppNames names a cluster's managed apps for the problem that refuses to unmanage
// it: its apps, then those a test declared with SetManagedApps.
func (s *Sim) managedAppNames(c *cluster) string {
	names := make([]string, 0, len(c.AppIDs)+c.ManagedApps)
	for _, id := range c.AppIDs {
		names = append(names, s.st.Apps[id].Name)
	}
	for i := 1; i <= c.ManagedApps; i++ {
		names = append(names, fmt.Sprintf("%s-app-%d", c.Name, i))
	}
	return strings.Join(names, ", ")
}
