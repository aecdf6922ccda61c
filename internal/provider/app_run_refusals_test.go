package provider

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// TestRunRefusals lists every (operation, problem number) either reading gives for a
// condition — the catalogue's and the 24.02 spec's — and what the provider does with it:
// the same condition is handled the same whichever number names it (issue 43, item 6).
func TestRunRefusals(t *testing.T) {
	for _, tc := range []struct {
		op      runOp
		problem int
		want    refusal
		why     string
	}{
		{opPostBackup, 107, refusalWait, "a backup of the app is running (catalogue)"},
		{opPostBackup, 148, refusalWait, "a backup or snapshot of the app is running, or the snapshot given is (spec)"},
		{opPostBackup, 111, refusalWait, "the snapshot given is still being taken (catalogue)"},
		{opPostBackup, 112, refusalFail, "the app is not ready (catalogue)"},
		{opPostBackup, 10, refusalFail, "the app is not ready, or the snapshot given failed (spec)"},
		{opPostBackup, 131, refusalFail, "the cluster is not eligible for backups"},
		{opPostBackup, 143, refusalFail, "the name is taken (reported by createAppRun)"},
		{opPostSnapshot, 148, refusalWait, "a snapshot of the app is running"},
		{opPostSnapshot, 112, refusalFail, "the app is not ready"},
		{opDeleteBackup, 128, refusalReadBackup, "pending (wait) or, under the spec, failed (Force-Delete)"},
		{opDeleteBackup, 142, refusalReadBackup, "failed without Force-Delete (catalogue)"},
		{opDeleteBackup, 10, refusalFail, "not a run condition"},
		{opDeleteSnapshot, 148, refusalWait, "still being taken (catalogue)"},
		{opDeleteSnapshot, 144, refusalWait, "still being taken, or a backup is taken from it (spec)"},
		{opDeleteSnapshot, 10, refusalFail, "not a run condition"},
		{opPostClone, 164, refusalWait, "the source snapshot or backup is still being taken (catalogue)"},
		{opPostClone, 148, refusalWait, "the source snapshot or backup is still being taken (spec)"},
		{opPostClone, 10, refusalFail, "the source failed (spec)"},
		{opPostClone, 151, refusalFail, "the app is not eligible for a clone"},
		{opPostClone, 155, refusalFail, "not eligible for selective restore"},
		{opPostClone, 161, refusalFail, "no VolumeSnapshotClass"},
	} {
		t.Run(fmt.Sprintf("%s/%d", tc.op, tc.problem), func(t *testing.T) {
			err := fmt.Errorf("wrapped: %w", &astra.APIError{StatusCode: http.StatusConflict, Problem: tc.problem})
			if got := refusalOf(tc.op, err); got != tc.want {
				t.Errorf("%s: got %d, want %d", tc.why, got, tc.want)
			}
		})
	}
	// Only a 409 is a refusal: the same number on another status, or no API error, fails.
	if got := refusalOf(opPostClone, &astra.APIError{StatusCode: http.StatusBadRequest, Problem: 164}); got != refusalFail {
		t.Errorf("a 400 with 164: %d", got)
	}
	if got := refusalOf(opDeleteBackup, errors.New("connection reset")); got != refusalFail {
		t.Errorf("a transport error: %d", got)
	}
}
