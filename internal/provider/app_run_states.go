package provider

import (
	"fmt"
	"slices"
	"strings"
)

// listedRunStates are the states the 24.02 OpenAPI document lists for a snapshot (appSnap)
// and a backup (appBackup), with "removed", which older releases answer.
var listedRunStates = []string{"discovering", "pending", "running", "completed", "failed", "deleting", "removed"}

// unlistedRunState explains a wait that ended on a state the API does not list — NetApp's
// toolkit docs show snapshots and backups "ready" while in flight (issue 43, item 10): the
// provider takes it for "not finished yet", never for "completed", and waits within the
// timeout. "" for a listed state.
func unlistedRunState(kind, state string) string {
	s := strings.ToLower(strings.TrimSpace(state))
	if s == "" || slices.Contains(listedRunStates, s) {
		return ""
	}
	return fmt.Sprintf("Astra Control last reported the %s's state as %q, which its API does not list for a %s; "+
		"this provider takes it for \"not finished yet\" (only \"completed\" is done) and waited within the timeout. ", kind, state, kind)
}
