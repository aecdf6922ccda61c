package astrasim

import (
	"net/http"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// appSnap is a snapshot of an app (application/astra-appSnap), taken on demand (POST) or by
// a protection policy (ScheduleID set). Its run is in runs.go.
type appSnap struct {
	Seq        int    `json:"seq"`
	ID         string `json:"id"`
	AppID      string `json:"appID"`
	Version    string `json:"version"`
	Name       string `json:"name"`
	BucketID   string `json:"bucketID,omitempty"`   // appSnap 1.3, clusters with neptuneV1 only
	ScheduleID string `json:"scheduleID,omitempty"` // the policy that took it
	run
	Meta meta `json:"metadata"`
}

func (sn *appSnap) runOf() *run                  { return &sn.run }
func (sn *appSnap) what() string                 { return "snapshot" }
func (sn *appSnap) order() int                   { return sn.Seq }
func (sn *appSnap) appID() string                { return sn.AppID }
func (sn *appSnap) delay(d Delays) time.Duration { return d.Snapshot }
func (sn *appSnap) actions() []string            { return []string{"snapshot"} }
func (sn *appSnap) blocked(*Sim) (time.Time, []string) {
	return time.Time{}, nil
}
func (sn *appSnap) failures(*Sim) []string { return nil }
func (sn *appSnap) finished(s *Sim, _ time.Time) {
	if sn.ScheduleID != "" {
		s.applyRetention(sn.ScheduleID)
	}
}

func (st *state) snapshotsOf(appID string) []*appSnap {
	var out []*appSnap
	for _, sn := range st.Snapshots {
		if sn.AppID == appID {
			out = append(out, sn)
		}
	}
	sortBySeq(out, func(sn *appSnap) int { return sn.Seq })
	return out
}

func (s *Sim) snapshotPath(sn *appSnap) string {
	return s.accountPath() + "/k8s/v1/apps/" + sn.AppID + "/appSnaps/" + sn.ID
}

func (s *Sim) renderSnapshot(sn *appSnap) map[string]any {
	m := map[string]any{
		"type": "application/astra-appSnap", "version": sn.Version, "id": sn.ID, "name": sn.Name,
		"metadata": renderMeta(sn.Meta),
	}
	renderRun(&sn.run, m)
	s.renderInFlight(&sn.run, m)
	putIf(m, "bucketID", sn.BucketID)
	putIf(m, "scheduleID", sn.ScheduleID)
	if sn.State == "completed" {
		// "returned when the state of the application snapshot is completed"
		m["snapshotAppAsset"] = derivedUUID4(s.opts.Seed, "snapshotAppAsset/"+sn.ID)
	}
	return fitToSchema(s.responseSchema(apispec.AppSnap, sn.Version), m)
}

func (s *Sim) listSnapshots(q *request) *reply {
	a, p := s.lookupApp(q)
	if p != nil {
		return fail(problem(2))
	}
	var items []map[string]any
	for _, sn := range s.st.snapshotsOf(a.ID) {
		items = append(items, s.renderSnapshot(sn))
	}
	return s.list(q, apispec.AppSnap, items)
}

func (s *Sim) lookupSnapshot(q *request) (*appSnap, *apiProblem) {
	sn := s.st.Snapshots[q.params["appSnap_id"]]
	if sn == nil || sn.AppID != q.params["app_id"] {
		return nil, notFound(q)
	}
	return sn, nil
}

func (s *Sim) getSnapshot(q *request) *reply {
	sn, p := s.lookupSnapshot(q)
	if p != nil {
		return fail(p)
	}
	return answer(http.StatusOK, apispec.AppSnap, apispec.GetResponse, sn.Version, s.renderSnapshot(sn))
}

// postSnapshot takes a snapshot of a ready app. Refusals: an app not ready, 409 problem
// 112; an app whose cluster's default storage class cannot snapshot (protectionState
// atRisk), 409 problem 149 ("The application isn't eligible for snapshots"); a name one of
// the app's snapshots has, 409 problem 176; a snapshot of the app in progress, 409 problem
// 148 (the simulator's assumption: one at a time, the problem the spec lists); bucketID
// rules in snapshotBucketFor.
func (s *Sim) postSnapshot(q *request) *reply {
	a, p := s.lookupApp(q)
	if p != nil {
		return fail(p)
	}
	b, p := s.readBody(q, apispec.AppSnap, apispec.PostRequest)
	if p != nil {
		return fail(p)
	}
	if p := s.checkAppCanRun(a, 149); p != nil {
		return fail(p)
	}
	taken := func(name string) bool {
		for _, other := range s.st.snapshotsOf(a.ID) {
			if other.Name == name {
				return true
			}
		}
		return false
	}
	name, given := b.str("name")
	if !given {
		name = onDemandName(a, "snapshot", q.now, taken)
	} else if taken(name) {
		return fail(problem(176))
	}
	if s.snapshotInProgress(a.ID) {
		return fail(problem(148))
	}
	requested, _ := b.str("bucketID")
	bucketID, p := s.snapshotBucketFor(a, b.version, requested)
	if p != nil {
		return fail(p)
	}
	sn := s.takeSnapshot(a, b.version, name, bucketID, "", q.now, q.user.userID)
	if labels, ok := labelsOf(b); ok {
		sn.Meta.Labels = mergeLabels(nil, labels)
	}
	return created(q, s.snapshotPath(sn), apispec.AppSnap, sn.Version, s.renderSnapshot(sn))
}

// checkAppCanRun refuses a snapshot or backup of an app that is not ready (problem 112)
// or whose cluster cannot snapshot its volumes (atRisk: problem notSupported).
func (s *Sim) checkAppCanRun(a *app, notSupported int) *apiProblem {
	if a.State != "ready" {
		return problem(112)
	}
	if s.atRisk(a) {
		return problem(notSupported)
	}
	return nil
}

// atRisk: the app's cluster's default storage class cannot take volume snapshots.
func (s *Sim) atRisk(a *app) bool {
	c := s.st.Clusters[a.ClusterID]
	return c != nil && !canSnapshot(s.st.StorageClasses[c.DefaultStorageClass])
}

func (s *Sim) snapshotInProgress(appID string) bool {
	for _, sn := range s.st.snapshotsOf(appID) {
		if sn.inProgress() {
			return true
		}
	}
	return false
}

// takeSnapshot creates a snapshot and starts its run; the next injected snapshot failure
// of the app (failnext.go) is its.
func (s *Sim) takeSnapshot(a *app, version, name, bucketID, scheduleID string, now time.Time, by string) *appSnap {
	sn := &appSnap{Seq: s.st.nextSeq(), AppID: a.ID, Version: version, Name: name, BucketID: bucketID, ScheduleID: scheduleID,
		run: run{State: "discovering"}, Meta: meta{Labels: []label{}, Created: now, Modified: now, CreatedBy: orNull(by)}}
	sn.ID = derivedUUID4(s.opts.Seed, "object/"+itoa(sn.Seq))
	sn.FailWith = s.takeFailure(FailSnapshot, a)
	s.st.Snapshots[sn.ID] = sn
	s.startRun(sn, s.opts.Delays.Snapshot, now)
	return sn
}

// deleteSnapshot deletes a snapshot that has ended. One still being taken is refused (the
// simulator's assumption: the service documents no cancellation of snapshots) with 409
// problem 144, the one problem the 24.02 spec lists for this DELETE (issue 43, item 6; it
// was 148), with the detail the spec pins; one a backup in progress
// is being taken from is 409 problem 144 too ("The snapshot wasn't deleted because it is
// currently being used by a backup").
func (s *Sim) deleteSnapshot(q *request) *reply {
	sn, p := s.lookupSnapshot(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderSnapshot(sn)); p != nil {
		return fail(p)
	}
	if sn.inProgress() {
		return fail(problem(144))
	}
	if s.snapshotInUse(sn.ID) {
		return fail(problem(144))
	}
	return s.deleteRun(sn, q.now)
}

// snapshotInUse: a backup in progress is being taken from the snapshot.
func (s *Sim) snapshotInUse(id string) bool {
	for _, b := range s.st.Backups {
		if b.SnapshotID == id && b.inProgress() {
			return true
		}
	}
	return false
}
