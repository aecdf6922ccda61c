package astrasim

import (
	"strings"
	"time"
)

// Hook time limits and restore hooks (issue 43, item 11), from Astra Control Center's
// "Manage app execution hooks" (use/execution-hooks):
//   - "If an execution hook takes longer than 25 minutes to run, the hook will fail ...
//     Any affected snapshot will time out and be marked as failed." Scripts never run here,
//     so how long one takes is configured: Options.HookDurations names hook sources and how
//     long their scripts run; one over Options.HookTimeout (25 minutes unless set) fails,
//     with hookState "failed", and the snapshot or backup it ran for fails at its end (the
//     page names snapshots; the simulator takes a backup the same way, the conservative
//     reading). Hooks take no time on the simulator's clock: a timed-out hook fails the run
//     without delaying it.
//   - Restore hooks ("post-restore", action restore, stage post) run in every clone and
//     restore scenario of the page's "Determine whether a hook will run" table: the app's
//     own after an in-place restore, the source app's on the clone's containers after a
//     clone (the clone has no hooks of its own yet). Failures are soft: the clone or restore
//     goes on to ready. The API has no hookState on an app, so what ran is told only to
//     tests, by Sim.RestoreHooks.

// defaultHookTimeout is the documented limit of one hook's run.
const defaultHookTimeout = 25 * time.Minute

func (s *Sim) hookTimeout() time.Duration {
	if s.opts.HookTimeout > 0 {
		return s.opts.HookTimeout
	}
	return defaultHookTimeout
}

// hookTimesOut: the hook source's script runs longer than the limit.
func (s *Sim) hookTimesOut(source string) bool {
	d, ok := s.opts.HookDurations[source]
	return ok && d > s.hookTimeout()
}

// hookTimeoutFailure describes a hook that ran over the limit (the page: its event has the
// return code "N/A").
func hookTimeoutFailure(h *execHook, src *hookSource, in []container, limit time.Duration) stateDetail {
	where := make([]string, 0, len(in))
	for _, c := range in {
		where = append(where, c.Namespace+"/"+c.Pod+"/"+c.Name)
	}
	detail := "Execution hook " + h.Name + " (" + h.Stage + "-" + h.Action + ", script " + src.Name + ") timed out after " +
		limit.String() + " in " + strings.Join(where, ", ") + " (return code N/A)"
	if len(detail) > 511 {
		detail = detail[:508] + "..."
	}
	return stateDetail{Type: hookFailedType, Title: "Execution hook timed out", Detail: detail}
}

// runRestoreHooks runs the post-restore hooks after a clone or an in-place restore of a
// ended well: the app's own after a restore, the source app's after a clone, on a's
// containers; it records what ran on a.
func (s *Sim) runRestoreHooks(a *app, what string) {
	owner := a.ID
	if what == "clone" {
		owner = a.SourceAppID
	}
	a.RestoreHooks = nil
	for _, r := range s.runHookSet(s.st.hooksOf(owner), appContainers(a), "restore", "post") {
		line := r.hook.Name + ": success"
		if r.failure != nil {
			line = r.hook.Name + ": " + r.failure.Detail
		}
		a.RestoreHooks = append(a.RestoreHooks, line)
	}
}

// RestoreHooks is what the post-restore hooks of the app's last clone or in-place restore
// did, one line per hook that ran ("<hook>: success" or its failure); nil when none ran.
func (s *Sim) RestoreHooks(appID string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a := s.st.Apps[appID]; a != nil {
		return append([]string(nil), a.RestoreHooks...)
	}
	return nil
}
