package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// Unmanaging an app that is busy. Astra Control refuses the DELETE while the app is not
// ready (112), in an unexpected state (164), taking a snapshot (148) or a backup (157):
// each of those ends by itself (a run finishes, on demand, scheduled or taken by another
// tool), so the DELETE is asked again until it is accepted or timeouts.delete ends. What is
// in the way is logged when it changes and named in the timeout's error, a run by its name
// and ID as the app's snapshots or backups list it.

// unmanageAttempt is one DELETE of the app as the wait sees it: accepted, or what Astra
// Control refused it for.
type unmanageAttempt struct {
	appID    string
	accepted bool
	blocker  string // e.g. `snapshot "nightly-x1" (ID) still running (problem 148)`
}

// Describe names what the wait is for and, as its last state, what was in the way.
func (a *unmanageAttempt) Describe() (what, state string) {
	if a == nil {
		return "the app to be unmanaged", ""
	}
	return "app " + a.appID + " to be unmanaged", a.blocker
}

// unmanageApp sends the app's DELETE until Astra Control accepts it (or the app is gone),
// within ctx; false when it added an error.
//
// refusedHint adds to the error of a refusal that does not pass by itself (what may lift it).
func unmanageApp(ctx context.Context, schedule astra.Schedule, client *astra.Client, id string, timeout time.Duration,
	refusedHint func(error) string, diags *diag.Diagnostics) bool {
	aftermath := "The app stays in state; destroy again once Astra Control accepts unmanaging it."
	logged := ""
	named := map[int]string{} // the last blocker named by its runs, per problem
	_, err := astra.Wait(ctx, schedule, func(ctx context.Context) (*unmanageAttempt, error) {
		err := client.DeleteApp(ctx, id)
		switch {
		case err == nil || astra.IsNotFound(err):
			return &unmanageAttempt{appID: id, accepted: true}, nil
		case !unmanageWaits(err):
			return nil, err
		}
		n := astra.ProblemNumber(err)
		blocker, byName := unmanageBlocker(ctx, client, id, n)
		switch {
		case byName:
			named[n] = blocker
		case named[n] != "":
			// The listing failed (the deadline may cut it) or caught no run just after one
			// ended: the run last named is still the best account of what is in the way.
			blocker = named[n]
		}
		if blocker != logged {
			logged = blocker
			tflog.Info(ctx, "Waiting to unmanage the app: Astra Control refuses while "+blocker,
				map[string]any{"app_id": id, "problem": astra.ProblemNumber(err), "timeout": timeout.String()})
		}
		return &unmanageAttempt{appID: id, blocker: blocker}, nil
	}, func(a *unmanageAttempt) (bool, error) { return a.accepted, nil })
	if err == nil {
		return true
	}
	var apiErr *astra.APIError
	if errors.As(err, &apiErr) { // refused for a reason that does not pass by itself
		diags.AddError("Cannot unmanage the app", "Astra Control refused to unmanage app "+id+": "+apiErr.Error()+refusedHint(err)+"\n\n"+aftermath)
		return false
	}
	addWaitError(diags, "Cannot unmanage the app", err, timeout, aftermath)
	return false
}

// unmanageWaits reports a refusal to unmanage that passes by itself: the app busy (112,
// 164) or a snapshot or backup of it running (148, 157).
func unmanageWaits(err error) bool {
	if !astra.IsConflict(err) {
		return false
	}
	switch astra.ProblemNumber(err) {
	case problemAppNotReady, problemUnexpectedAppState, astra.ProblemSnapshotInProgress, astra.ProblemAppBackupRunning:
		return true
	}
	return false
}

// unmanageBlocker says what the refusal with problem n waits for: the runs in progress by
// name and ID, read from the app's snapshots (148) or backups (157); when the list cannot
// be read or shows none running (one just ended), the kind of run. byName: runs were named.
func unmanageBlocker(ctx context.Context, client *astra.Client, appID string, n int) (blocker string, byName bool) {
	var kind string
	var running []string
	switch n {
	case problemAppNotReady:
		return "app not ready (problem 112)", false
	case problemUnexpectedAppState:
		return "app in an unexpected state (problem 164)", false
	case astra.ProblemSnapshotInProgress:
		kind = "snapshot"
		if snaps, err := client.ListAppSnapshots(ctx, appID, astra.ListOptions{}); err == nil {
			for _, s := range snaps {
				if runInProgress(s.State) {
					running = append(running, fmt.Sprintf("%s %q (%s)", kind, s.Name, s.ID))
				}
			}
		}
	default:
		kind = "backup"
		if backups, err := client.ListAppBackups(ctx, appID, astra.ListOptions{}); err == nil {
			for _, b := range backups {
				if runInProgress(b.State) {
					running = append(running, fmt.Sprintf("%s %q (%s)", kind, b.Name, b.ID))
				}
			}
		}
	}
	if len(running) == 0 {
		return fmt.Sprintf("a %s of the app still running (problem %d)", kind, n), false
	}
	return fmt.Sprintf("%s still running (problem %d)", strings.Join(running, ", "), n), true
}
