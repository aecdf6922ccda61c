package astra

import "errors"

// Problem numbers the day-two calls branch on (https://astra.netapp.io/problems/N; the
// catalogue is in the research notes, Appendix A). The 24.02 OpenAPI document attaches
// other numbers to some of the same conditions (148 for 107 and 111 on POST appBackups, 128
// for 142 on a backup's DELETE, 144 for 148 on a snapshot's, 148 for 164 on a clone): the
// provider's runRefusals takes either for the same condition.
const (
	ProblemHookSourceInUse      = 72  // 403: an execution hook runs the hook source
	ProblemBucketInUse          = 83  // 409: the bucket holds backups or a policy backs up into it
	ProblemBackupInProgress     = 107 // 409: a backup of the app is running
	ProblemSnapshotNotReady     = 111 // 409: a backup's snapshot is not completed
	ProblemAppNotReady          = 112 // 409: the app is not ready
	ProblemBackupNotCancellable = 128 // 409: a pending backup cannot be cancelled (a running one can)
	ProblemBackupNotDeleted     = 142 // 409: e.g. a failed backup deleted without Force-Delete
	ProblemSnapshotUsedByBackup = 144 // 409: a running backup is taken from the snapshot
	ProblemSnapshotInProgress   = 148 // 409: a snapshot of the app is running
	ProblemAppBackupRunning     = 157 // 409: the app cannot be unmanaged during a backup
)

// RunInProgress reports a refusal that waiting can resolve: a snapshot or backup of the
// app is still running (problems 107, 128, 144, 148, 157). A caller deleting or unmanaging
// retries after the run ends; one creating waits for the other run first.
func RunInProgress(err error) bool {
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		return false
	}
	switch apiErr.Problem {
	case ProblemBackupInProgress, ProblemBackupNotCancellable, ProblemSnapshotUsedByBackup, ProblemSnapshotInProgress, ProblemAppBackupRunning:
		return true
	}
	return false
}
