package astrasim

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
	"net/http"
	"slices"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// appBackup is a backup of an app into a bucket (application/astra-appBackup), taken on
// demand (POST) or by a protection policy (ScheduleID set). Its run is in runs.go. It is
// served under its app (/k8s/v1/apps/{app_id}/appBackups) and account-wide
// (/topology/v1/appBackups).
type appBackup struct {
	Seq        int    `json:"seq"`
	ID         string `json:"id"`
	AppID      string `json:"appID"`
	Version    string `json:"version"`
	Name       string `json:"name"`
	BucketID   string `json:"bucketID"`
	SnapshotID string `json:"snapshotID,omitempty"` // taken from this snapshot; else it takes its own
	ScheduleID string `json:"scheduleID,omitempty"`
	TotalBytes int64  `json:"totalBytes"`
	run
	Meta meta `json:"metadata"`
}

func (b *appBackup) runOf() *run                  { return &b.run }
func (b *appBackup) what() string                 { return "backup" }
func (b *appBackup) order() int                   { return b.Seq }
func (b *appBackup) appID() string                { return b.AppID }
func (b *appBackup) delay(d Delays) time.Duration { return d.Backup }

// actions: a backup that takes its own snapshot runs the snapshot hooks too.
func (b *appBackup) actions() []string {
	if b.SnapshotID == "" {
		return []string{"backup", "snapshot"}
	}
	return []string{"backup"}
}

// blocked: a backup taken from a snapshot waits for it (only a policy's backup can be
// taken from a snapshot still in progress: its own, taken at the same firing) and fails
// when it failed or is gone.
func (b *appBackup) blocked(s *Sim) (time.Time, []string) {
	if b.SnapshotID == "" {
		return time.Time{}, nil
	}
	src := s.st.Snapshots[b.SnapshotID]
	switch {
	case src == nil:
		return time.Time{}, []string{"The snapshot the backup is taken from was deleted"}
	case src.State == "failed":
		return time.Time{}, []string{"The snapshot the backup is taken from failed"}
	case src.inProgress() && src.Pending != nil:
		return src.Pending.At, nil
	}
	return time.Time{}, nil
}

// failures: a backup cannot be written to a bucket that is not available, or whose object
// store the simulator cannot reach (Options.UnreachableBuckets).
func (b *appBackup) failures(s *Sim) []string {
	bk := s.st.Buckets[b.BucketID]
	if bk == nil {
		return []string{"The bucket of the backup was removed"}
	}
	name := bk.Params[bucketParamsKey[bk.Provider]]["bucketName"]
	if !s.st.bucketAvailable(bk.ID) || slices.Contains(s.opts.UnreachableBuckets, name) {
		return []string{"Bucket " + shorten(name, 64) + " is unreachable: the backup could not be written"}
	}
	return nil
}

func (b *appBackup) finished(s *Sim, _ time.Time) {
	if b.ScheduleID != "" {
		s.applyRetention(b.ScheduleID)
	}
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}

func (st *state) backupsOf(appID string) []*appBackup {
	var out []*appBackup
	for _, b := range st.Backups {
		if appID == "" || b.AppID == appID {
			out = append(out, b)
		}
	}
	sortBySeq(out, func(b *appBackup) int { return b.Seq })
	return out
}

func (s *Sim) backupPath(b *appBackup) string {
	return s.accountPath() + "/k8s/v1/apps/" + b.AppID + "/appBackups/" + b.ID
}

// renderBackup answers a backup as of now: bytesDone and percentDone grow linearly while
// it runs, and are 100% once completed; a failed one answers neither.
func (s *Sim) renderBackup(b *appBackup, now time.Time) map[string]any {
	m := map[string]any{
		"type": "application/astra-appBackup", "version": b.Version, "id": b.ID, "name": b.Name, "bucketID": b.BucketID,
		"backupCreationTimestamp": formatTime(b.Meta.Created), "totalBytes": b.TotalBytes, "metadata": renderMeta(b.Meta),
	}
	renderRun(&b.run, m)
	s.renderInFlight(&b.run, m)
	putIf(m, "snapshotID", b.SnapshotID)
	putIf(m, "scheduleID", b.ScheduleID)
	if done, ok := b.progress(now); ok {
		m["percentDone"] = math.Floor(done * 100)
		m["bytesDone"] = math.Floor(done * float64(b.TotalBytes))
	}
	return fitToSchema(s.responseSchema(apispec.AppBackup, b.Version), m)
}

// progress is the fraction written at now; ok is false for a failed backup.
func (b *appBackup) progress(now time.Time) (float64, bool) {
	switch {
	case b.State == "completed":
		return 1, true
	case b.State == "failed":
		return 0, false
	case b.State != "running" || b.RunningSince == nil || b.Pending == nil:
		return 0, true
	}
	total := b.Pending.At.Sub(*b.RunningSince)
	if total <= 0 {
		return 1, true
	}
	return math.Min(math.Max(float64(now.Sub(*b.RunningSince))/float64(total), 0), 1), true
}

// backupSize is a backup's totalBytes: a deterministic size per app, 100 MiB to 1 GiB.
func backupSize(appID string) int64 {
	h := sha256.Sum256([]byte(appID))
	return int64(100+binary.BigEndian.Uint16(h[:2])%924) << 20
}

func (s *Sim) listBackups(q *request) *reply {
	appID := q.params["app_id"]
	if _, scoped := q.params["app_id"]; scoped && s.st.Apps[appID] == nil {
		return fail(problem(2))
	}
	var items []map[string]any
	for _, b := range s.st.backupsOf(appID) {
		items = append(items, s.renderBackup(b, q.now))
	}
	return s.list(q, apispec.AppBackup, items)
}

// lookupBackup finds a backup; under an app's path it must be that app's.
func (s *Sim) lookupBackup(q *request) (*appBackup, *apiProblem) {
	b := s.st.Backups[q.params["appBackup_id"]]
	if appID, scoped := q.params["app_id"]; b == nil || (scoped && b.AppID != appID) {
		return nil, notFound(q)
	}
	return b, nil
}

func (s *Sim) getBackup(q *request) *reply {
	b, p := s.lookupBackup(q)
	if p != nil {
		return fail(p)
	}
	return answer(http.StatusOK, apispec.AppBackup, apispec.GetResponse, b.Version, s.renderBackup(b, q.now))
}

// postBackup takes a backup of a ready app. Its 409s are the four the 24.02 spec lists for
// this POST (10, 131, 143, 148), not the catalogue's 107, 111 and 112 (issue 43, item 6),
// with the details the spec pins: an app not ready, 409 problem 10; an app whose cluster cannot snapshot
// (atRisk), 409 problem 131 ("not eligible for backups"); a name one of the app's backups
// has, 409 problem 143; a backup of the app in progress or, for a backup that takes its own
// snapshot, a snapshot in progress, 409 problem 148 ("a snapshot is already in progress":
// a backup takes a snapshot; the simulator's assumption: one run of each kind at a time); a
// snapshotID that names no snapshot of the app, 400 problem 9, one still being taken, 409
// problem 148, one that failed, 409 problem 10; a bucketID that names no bucket, 400
// problem 108; no bucket to fall back on, 400 problem 170.
func (s *Sim) postBackup(q *request) *reply {
	a, p := s.lookupApp(q)
	if p != nil {
		return fail(p)
	}
	body, p := s.readBody(q, apispec.AppBackup, apispec.PostRequest)
	if p != nil {
		return fail(p)
	}
	if a.State != "ready" {
		return fail(problem(10))
	}
	if p := s.checkAppCanRun(a, 131); p != nil {
		return fail(p)
	}
	taken := func(name string) bool {
		for _, other := range s.st.backupsOf(a.ID) {
			if other.Name == name {
				return true
			}
		}
		return false
	}
	name, given := body.str("name")
	if !given {
		name = onDemandName(a, "backup", q.now, taken)
	} else if taken(name) {
		return fail(problem(143))
	}
	snapshotID, _ := body.str("snapshotID")
	if snapshotID != "" {
		sn := s.st.Snapshots[snapshotID]
		if sn == nil || sn.AppID != a.ID {
			return fail(invalidFields(9, fieldReason{"snapshotID", "no snapshot of this app has this ID"}))
		}
		if p := snapshotNotReady(sn); p != nil {
			return fail(p)
		}
	}
	if s.backupInProgress(a.ID) {
		return fail(problem(148))
	}
	if snapshotID == "" && s.snapshotInProgress(a.ID) {
		return fail(problem(148))
	}
	bucketID, _ := body.str("bucketID")
	if bucketID != "" && s.st.Buckets[bucketID] == nil {
		p := problem(108)
		p.Detail = "No bucket has the ID " + bucketID + " given as bucketID."
		return fail(p)
	}
	if bucketID == "" {
		if bucketID = s.backupBucket(a); bucketID == "" {
			return fail(noBucketProblem())
		}
	}
	b := s.takeBackup(a, body.version, name, bucketID, snapshotID, "", q.now, q.user.userID)
	labels, _ := labelsOf(body)
	b.Meta.Labels = append(mergeLabels(nil, labels), label{labelTriggerType, "backup"})
	return created(q, s.backupPath(b), apispec.AppBackup, b.Version, backupPostAnswer(s.renderBackup(b, q.now)))
}

// labelTriggerType is the read-only label an on-demand backup carries ("backup"), as in the
// POST answers NetApp's toolkit examples show.
const labelTriggerType = readOnlyPrefix + "triggerType"

func (s *Sim) backupInProgress(appID string) bool {
	for _, b := range s.st.backupsOf(appID) {
		if b.inProgress() {
			return true
		}
	}
	return false
}

// takeBackup creates a backup and starts its run; the next injected backup failure of the
// app (failnext.go) is its.
func (s *Sim) takeBackup(a *app, version, name, bucketID, snapshotID, scheduleID string, now time.Time, by string) *appBackup {
	b := &appBackup{Seq: s.st.nextSeq(), AppID: a.ID, Version: version, Name: name, BucketID: bucketID, SnapshotID: snapshotID,
		ScheduleID: scheduleID, TotalBytes: backupSize(a.ID), run: run{State: "pending"},
		Meta: meta{Labels: []label{}, Created: now, Modified: now, CreatedBy: orNull(by)}}
	b.ID = derivedUUID4(s.opts.Seed, "object/"+itoa(b.Seq))
	b.FailWith = s.takeFailure(FailBackup, a)
	s.st.Backups[b.ID] = b
	s.startRun(b, s.opts.Delays.Backup, now)
	return b
}

// deleteBackup deletes a backup. A running one is cancelled: Astra Control Center's "Cancel
// backups" section (NetAppDocs/astra-control-center, use/protect-apps.adoc: a backup in
// "Running" state can be cancelled, one in "Pending" state cannot) and problem 128's own
// text ("A pending backup can't be canceled"). The API has no other cancel operation: the
// spec lists 128, "Backup cancellation not allowed", on this DELETE, so the DELETE is the
// cancel. The cancelled backup goes as an ended one does (deleteRun: through "deleting"
// where the version lists it). Immutable buckets, whose running backups cannot be
// cancelled, are not modelled. A pending one is 409 problem 128, the one
// problem the 24.02 spec lists for this DELETE. A failed backup goes with or without the
// header Force-Delete: true: the automation docs' "Delete a backup" workflow lists the
// header as optional ("Used to force the deletion of a failed backup"), and NetApp's own
// client (astraSDK's destroyBackup) never sends it.
func (s *Sim) deleteBackup(q *request) *reply {
	b, p := s.lookupBackup(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderBackup(b, q.now)); p != nil {
		return fail(p)
	}
	if b.inProgress() && b.State != "running" {
		return fail(problem(128))
	}
	return s.deleteRun(b, q.now)
}

// snapshotNotReady refuses a backup from a snapshot that has not completed, with the
// problems the 24.02 spec lists for POST appBackups (whose schema pins their details): one
// still being taken is 148, one that failed (or is being deleted) 10.
func snapshotNotReady(sn *appSnap) *apiProblem {
	switch {
	case sn.State == "completed":
		return nil
	case sn.inProgress():
		return problem(148)
	}
	return problem(10)
}
