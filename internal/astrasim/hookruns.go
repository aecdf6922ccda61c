package astrasim

import (
	"slices"
	"strings"
)

// hookFailedType is the type URI of a failed hook's hookStateDetails entry.
const hookFailedType = "https://astra.netapp.io/stateDetails/hookFailed"

// runHooks runs the app's enabled execution hooks of one stage for a job and returns one
// detail per hook that failed. From Astra Control Center's "Manage app execution hooks":
//   - the order is pre-backup, pre-snapshot, (the operation), post-snapshot, post-backup;
//     hooks of one kind run in no guaranteed order (here: creation order);
//   - a backup that takes its own snapshot runs the snapshot hooks too, one taken from an
//     existing snapshot only the backup hooks (its table, scenarios 10 and 11);
//   - a hook runs on the containers its matchingCriteria match; one that matches none is
//     not applicable and does not run;
//   - "all execution hook failures are soft failures": the other hooks and the operation go
//     on, and the operation reports hookState "failed" with the failed hooks listed.
//
// A hook fails when its hook source is named in Options.FailHookSources (or is gone), or
// times out (hooktimeout.go): then the snapshot or backup fails too, at its end.
func (s *Sim) runHooks(j job, stage string) []stateDetail {
	a := s.st.Apps[j.appID()]
	if a == nil {
		return nil
	}
	actions := slices.Clone(j.actions())
	if stage == "post" {
		slices.Reverse(actions)
	}
	var failed []stateDetail
	for _, action := range actions {
		ran := s.runHookSet(s.st.hooksOf(a.ID), appContainers(a), action, stage)
		for _, r := range ran {
			if r.failure != nil {
				failed = append(failed, *r.failure)
			}
			if r.timedOut {
				r := j.runOf()
				r.FailWith = append(r.FailWith, "An execution hook ran longer than "+s.hookTimeout().String()+": the "+j.what()+" timed out")
			}
		}
	}
	return failed
}

// hookRun is one hook that ran: failed (its stateDetail) or not, and whether it timed out.
type hookRun struct {
	hook     *execHook
	failure  *stateDetail
	timedOut bool
}

// runHookSet runs the enabled hooks of one action and stage on the containers they match;
// a hook that matches none is not applicable and does not run.
func (s *Sim) runHookSet(hooks []*execHook, containers []container, action, stage string) []hookRun {
	var out []hookRun
	for _, h := range hooks {
		if h.Enabled != "true" || h.Action != action || h.Stage != stage {
			continue
		}
		matched := matchingContainers(containers, h.Criteria)
		if len(matched) == 0 {
			continue
		}
		src := s.st.HookSources[h.HookSourceID]
		r := hookRun{hook: h}
		switch {
		case src != nil && s.hookTimesOut(src.Name):
			d := hookTimeoutFailure(h, src, matched, s.hookTimeout())
			r.failure, r.timedOut = &d, true
		case src == nil || slices.Contains(s.opts.FailHookSources, src.Name):
			d := hookFailure(h, src, matched)
			r.failure = &d
		}
		out = append(out, r)
	}
	return out
}

// hookFailure describes a failed hook: which, when, with what script, in which containers.
func hookFailure(h *execHook, src *hookSource, in []container) stateDetail {
	where := make([]string, 0, len(in))
	for _, c := range in {
		where = append(where, c.Namespace+"/"+c.Pod+"/"+c.Name)
	}
	script := "its hook source (deleted)"
	if src != nil {
		script = "script " + src.Name
	}
	detail := "Execution hook " + h.Name + " (" + h.Stage + "-" + h.Action + ", " + script + ") exited with status 1 in " +
		strings.Join(where, ", ")
	if len(detail) > 511 {
		detail = detail[:508] + "..."
	}
	return stateDetail{Type: hookFailedType, Title: "Execution hook failed", Detail: detail}
}
