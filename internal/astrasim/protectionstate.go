package astrasim

import (
	"strconv"
	"time"
)

// protectionFacts are what an app's protectionState is derived from.
type protectionFacts struct {
	cannotSnapshot bool // the cluster's default storage class cannot snapshot
	backupPolicy   bool // an enabled policy with backupRetention > 0
	snapshotPolicy bool // an enabled policy with snapshotRetention > 0
	recentBackup   bool // a completed backup less than a week old (schedule clock)
	anyBackup      bool // a completed backup
	anySnapshot    bool // a completed snapshot
}

// freshBackup is how recent a backup must be for "fully protected".
const freshBackup = 7 * 24 * time.Hour

// Type URIs of protectionStateDetails.
const (
	protectionAtRiskType  = "https://astra.netapp.io/stateDetails/atRisk"
	protectionPartialType = "https://astra.netapp.io/stateDetails/partial"
)

// protectionOf is the rule of Astra Control's documentation (use/view-apps, research §4.7):
// atRisk first, when the default storage class cannot snapshot (whatever else holds);
// "fully protected" (protected) with an active backup schedule and a successful backup less
// than a week old ("you can't be fully protected until you have a recent backup");
// "partially protected" (partial) with an active backup or snapshot schedule, or any
// successful backup or snapshot; none otherwise. A snapshot-only policy never protects.
func protectionOf(f protectionFacts) (string, []stateDetail) {
	partial := func(detail string) (string, []stateDetail) {
		return "partial", []stateDetail{{Type: protectionPartialType, Title: "Partially protected", Detail: detail}}
	}
	switch {
	case f.cannotSnapshot:
		return "atRisk", []stateDetail{{Type: protectionAtRiskType, Title: "Storage class can't snapshot",
			Detail: "The cluster's default storage class doesn't support volume snapshots."}}
	case f.backupPolicy && f.recentBackup:
		return "protected", []stateDetail{}
	case f.backupPolicy:
		return partial("An enabled protection policy takes backups, but no backup completed in the last 7 days.")
	case f.snapshotPolicy:
		return partial("No enabled protection policy takes backups; snapshots alone don't fully protect an application.")
	case f.anyBackup || f.anySnapshot:
		return partial("The application has snapshots or backups, but no enabled protection policy takes backups.")
	}
	return "none", []stateDetail{}
}

// protectionFactsOf gathers an app's facts as of the last evaluation of the clock (the
// current request). A backup's age is measured on the schedule clock, so an accelerated
// clock ages backups as fast as it fires policies.
func (s *Sim) protectionFactsOf(a *app) protectionFacts {
	f := protectionFacts{cannotSnapshot: s.atRisk(a)}
	for _, sc := range s.st.schedulesOf(a.ID) {
		if sc.Enabled != "true" {
			continue
		}
		f.backupPolicy = f.backupPolicy || retention(sc.BackupRetention) > 0
		f.snapshotPolicy = f.snapshotPolicy || retention(sc.SnapshotRetention) > 0
	}
	now := s.st.Clock.Real
	for _, b := range s.st.backupsOf(a.ID) {
		if b.State != "completed" {
			continue
		}
		f.anyBackup = true
		age := time.Duration(float64(now.Sub(b.Meta.Created)) * s.opts.ScheduleSpeed)
		f.recentBackup = f.recentBackup || age < freshBackup
	}
	for _, sn := range s.st.snapshotsOf(a.ID) {
		f.anySnapshot = f.anySnapshot || sn.State == "completed"
	}
	return f
}

func retention(v string) int {
	n, _ := strconv.Atoi(v)
	return n
}
