package astrasim

// POST answers carry what NetApp's captured answers carry, not the whole object a GET
// answers (issue 43, item 9), so a client that records a POST answer as the object is seen
// to miss what only a GET gives:
//   - a backup: type, version, id, name, bucketID, state "pending", stateUnready and
//     metadata, no totalBytes, progress or timestamps (the answers printed in NetApp's
//     toolkit examples, examples/gitlab/README.md and the create-backup cron hook,
//     docs/toolkit/create/README.md);
//   - an execution hook: no matchingContainers and no matchingImages (every hook POST answer
//     in docs/toolkit/create/README.md and docs/toolkit/copy/README.md); the containers a
//     hook matches are answered by a GET.

// backupPostMembers are the members of a backup's captured POST answer.
var backupPostMembers = []string{"type", "version", "id", "name", "bucketID", "state", "stateUnready", "metadata"}

// backupPostAnswer is a backup's POST answer: its GET answer cut to backupPostMembers.
func backupPostAnswer(full map[string]any) map[string]any {
	out := make(map[string]any, len(backupPostMembers))
	for _, k := range backupPostMembers {
		if v, ok := full[k]; ok {
			out[k] = v
		}
	}
	return out
}

// hookPostAnswer is an execution hook's POST answer: its GET answer without the
// containers and images it matches.
func hookPostAnswer(full map[string]any) map[string]any {
	delete(full, "matchingContainers")
	delete(full, "matchingImages")
	return full
}
