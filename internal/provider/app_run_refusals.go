package provider

import "github.com/astra-control/terraform-provider-astra/internal/astra"

// The 409s a snapshot's, a backup's and a clone's requests can meet, and what each means to
// this provider. Two readings give different numbers for the same condition (issue 43,
// item 6): the problem catalogue (107 "Backup in progress", 111 "Snapshot not ready", 128,
// 142, 148, 164 "Requested resource in unexpected state") and the 24.02 OpenAPI document,
// which attaches only 10/131/143/148 to POST appBackups, 128 to DELETE appBackups, 144 to
// DELETE appSnaps and 10/148/151/155/161 to the clone POST. Every number either reading
// allows for a condition is handled as that condition.

// runOp is a request whose 409s runRefusals classifies.
type runOp string

const (
	opPostSnapshot   runOp = "POST appSnaps"
	opPostBackup     runOp = "POST appBackups"
	opDeleteSnapshot runOp = "DELETE appSnaps"
	opDeleteBackup   runOp = "DELETE appBackups"
	opPostClone      runOp = "POST apps (clone)"
)

// refusal is what the provider does with a 409.
type refusal int

const (
	// refusalFail reports the refusal: waiting does not resolve it.
	refusalFail refusal = iota
	// refusalWait asks again within the timeout: a run (the object's own, another of the
	// app's, or the clone's source) is still in progress, and the refusal applied nothing.
	refusalWait
	// refusalReadBackup reads the backup: a failed one is deleted again with Force-Delete
	// (142, or 128, the only 409 the spec lists for this DELETE); otherwise it is
	// still pending and the DELETE is asked again (128: "A pending backup can't be canceled").
	refusalReadBackup
)

// runBusy are the "a run of the app is in progress" numbers of both readings (107, 128,
// 144, 148, 157: astra.RunInProgress), which every run request waits out.
var runBusy = map[int]refusal{
	astra.ProblemBackupInProgress: refusalWait, astra.ProblemBackupNotCancellable: refusalWait,
	astra.ProblemSnapshotUsedByBackup: refusalWait, astra.ProblemSnapshotInProgress: refusalWait,
	astra.ProblemAppBackupRunning: refusalWait,
}

// runRefusals maps (operation, problem number) to its handling; a number not listed fails.
var runRefusals = map[runOp]map[int]refusal{
	opPostSnapshot: runBusy,
	// 111 (catalogue) and 148 (spec): the snapshot the backup is taken from is still being
	// taken; 107 (catalogue) and 148 (spec): a backup of the app is running.
	opPostBackup:     with(runBusy, map[int]refusal{astra.ProblemSnapshotNotReady: refusalWait}),
	opDeleteSnapshot: runBusy, // 148 (catalogue) and 144 (spec): still being taken
	opDeleteBackup: with(runBusy, map[int]refusal{
		astra.ProblemBackupNotCancellable: refusalReadBackup, astra.ProblemBackupNotDeleted: refusalReadBackup}),
	// 164 (catalogue) and 148 (spec): the source snapshot or backup is still being taken.
	opPostClone: {problemUnexpectedAppState: refusalWait, astra.ProblemSnapshotInProgress: refusalWait},
}

func with(base, more map[int]refusal) map[int]refusal {
	out := make(map[int]refusal, len(base)+len(more))
	for n, r := range base {
		out[n] = r
	}
	for n, r := range more {
		out[n] = r
	}
	return out
}

// refusalOf classifies err for op: refusalFail for anything but a listed 409.
func refusalOf(op runOp, err error) refusal {
	if !astra.IsConflict(err) {
		return refusalFail
	}
	return runRefusals[op][astra.ProblemNumber(err)]
}
