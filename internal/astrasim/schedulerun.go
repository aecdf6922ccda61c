package astrasim

import (
	"sort"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// Protection policies at work. Like every transition of the simulator, this happens when
// a request (or Snapshot, SaveState) observes the clock, under the state lock: no goroutine
// runs in the background. Each evaluation takes, in time order, every run transition due
// and every firing missed since the last evaluation (at most maxCatchUp per policy), so a
// firing's snapshot completes before the next firing looks at it.

// advanceProtection applies what is due at now: snapshot and backup transitions, and the
// firings of the protection policies up to the schedule clock's now.
func (s *Sim) advanceProtection(now time.Time) {
	speed := s.opts.ScheduleSpeed
	clock := s.st.Clock
	simNow := clock.Sim
	if now.After(clock.Real) && !s.opts.PausePolicies {
		simNow = clock.simAt(now, speed)
	}
	for {
		j := s.earliestRun(now)
		sc, at, realAt := s.earliestFiring(clock, simNow, now)
		switch {
		case j != nil && (sc == nil || !j.runOf().Pending.At.After(realAt)):
			p := j.runOf().Pending
			s.applyRun(j, p.Kind, p.At)
		case sc != nil:
			s.fire(sc, at, realAt)
		default:
			s.st.Clock = scheduleClock{Real: maxTime(now, clock.Real), Sim: simNow}
			for id := range s.st.ScheduleCursors {
				if s.st.Schedules[id] == nil {
					delete(s.st.ScheduleCursors, id)
				}
			}
			return
		}
	}
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// earliestRun is the snapshot or backup whose transition is due first (creation order
// breaks ties), or nil.
func (s *Sim) earliestRun(now time.Time) job {
	due := s.dueRuns(now)
	if len(due) == 0 {
		return nil
	}
	return due[0]
}

// earliestFiring is the policy that fires first up to simNow: its simulated firing time and
// the real time that maps to (never after now). A policy's cursor is where its last
// evaluation stopped; a new policy starts at the previous evaluation (it was created by a
// request after it).
func (s *Sim) earliestFiring(clock scheduleClock, simNow, now time.Time) (*schedule, time.Time, time.Time) {
	ids := make([]string, 0, len(s.st.Schedules))
	for id := range s.st.Schedules {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, k int) bool { return s.st.Schedules[ids[i]].Seq < s.st.Schedules[ids[k]].Seq })
	var best *schedule
	var bestAt time.Time
	for _, id := range ids {
		sc := s.st.Schedules[id]
		cursor, ok := s.st.ScheduleCursors[id]
		if !ok {
			cursor = clock.Sim
		}
		times := timesOf(sc)
		if p := times.period(); p > 0 && simNow.Sub(cursor) > maxCatchUp*p {
			cursor = simNow.Add(-maxCatchUp * p)
		}
		s.st.ScheduleCursors[id] = cursor
		at, ok := times.next(cursor)
		if !ok || at.After(simNow) {
			continue
		}
		if best == nil || at.Before(bestAt) {
			best, bestAt = sc, at
		}
	}
	if best == nil {
		return nil, time.Time{}, time.Time{}
	}
	realAt := clock.realAt(bestAt, s.opts.ScheduleSpeed)
	if realAt.After(now) {
		realAt = now
	}
	return best, bestAt, realAt
}

// fire is one firing of a policy at simulated time at (real time realAt). An enabled
// policy of a ready app that can snapshot takes a snapshot when snapshotRetention > 0 and
// a backup (from that snapshot, when one was taken) when backupRetention > 0, into the
// policy's bucket or the app's default (bucketuse.go). The simulator's assumptions: a
// firing skips what is already in progress for the app (one snapshot and one backup at a
// time, as for POSTs), and a backup with no bucket to go to is not taken. Disabled
// policies take nothing.
func (s *Sim) fire(sc *schedule, at, realAt time.Time) {
	s.st.ScheduleCursors[sc.ID] = at
	a := s.st.Apps[sc.AppID]
	if sc.Enabled != "true" || a == nil || a.State != "ready" || s.atRisk(a) {
		return
	}
	s.replicateFiring(sc, a, realAt) // replicate "true": a transfer (replication.go)
	snapshots, backups := retention(sc.SnapshotRetention), retention(sc.BackupRetention)
	var taken *appSnap
	if snapshots > 0 && !s.snapshotInProgress(a.ID) {
		version := s.newest[apispec.AppSnap]
		bucketID, _ := s.snapshotBucketFor(a, version, "")
		taken = s.takeSnapshot(a, version, scheduledName(s.opts.Seed, sc.Name, s.st.NextID+1), bucketID, sc.ID, realAt, "")
	}
	if backups > 0 && !s.backupInProgress(a.ID) {
		bucketID := sc.BucketID
		if bucketID == "" {
			bucketID = s.backupBucket(a)
		}
		if bucketID == "" {
			return
		}
		from := ""
		if taken != nil {
			from = taken.ID
		}
		s.takeBackup(a, s.newest[apispec.AppBackup], scheduledName(s.opts.Seed, sc.Name, s.st.NextID+1), bucketID, from, sc.ID, realAt, "")
	}
}

// applyRetention keeps a policy's newest snapshotRetention completed snapshots and
// backupRetention completed backups, deleting the oldest first. Failed runs are neither
// counted nor deleted (the simulator's assumption: a run of failures must never prune the
// last good backups; the user deletes failed ones), and a snapshot a backup in progress is
// being taken from waits for the next pass.
func (s *Sim) applyRetention(scheduleID string) {
	sc := s.st.Schedules[scheduleID]
	if sc == nil {
		return
	}
	keepSnapshots, keepBackups := retention(sc.SnapshotRetention), retention(sc.BackupRetention)
	var snaps []*appSnap
	for _, sn := range s.st.snapshotsOf(sc.AppID) {
		if sn.ScheduleID == sc.ID && sn.State == "completed" {
			snaps = append(snaps, sn)
		}
	}
	for i := 0; i < len(snaps)-keepSnapshots; i++ {
		if !s.snapshotInUse(snaps[i].ID) {
			delete(s.st.Snapshots, snaps[i].ID)
		}
	}
	var backups []*appBackup
	for _, b := range s.st.backupsOf(sc.AppID) {
		if b.ScheduleID == sc.ID && b.State == "completed" {
			backups = append(backups, b)
		}
	}
	for i := 0; i < len(backups)-keepBackups; i++ {
		delete(s.st.Backups, backups[i].ID)
	}
}
