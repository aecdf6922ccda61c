package astrasim

import (
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// run is what a snapshot and a backup share: the job that takes them. It starts in its
// first state (a snapshot "discovering", a backup "pending": what the service answered
// NetApp's toolkit in its captured examples), is "running" half way through its delay
// (Delays.Snapshot, Delays.Backup) and ends "completed" or "failed". The app's execution
// hooks run around it: the pre hooks when it starts, the post hooks when it ends.
type run struct {
	State        string        `json:"state"`
	StateUnready []string      `json:"stateUnready"`
	StateDetails []stateDetail `json:"stateDetails"`
	// HookDetails lists the hooks that failed; hookState is "failed" as soon as one has,
	// "success" once the run ended without any.
	HookDetails  []stateDetail `json:"hookStateDetails"`
	RunningSince *time.Time    `json:"runningSince,omitempty"`
	Ended        *time.Time    `json:"ended,omitempty"`
	Pending      *transition   `json:"pending,omitempty"`
	FailWith     []string      `json:"failWith,omitempty"` // injected (failnext.go): the reasons it fails with at its end
}

// Run transition kinds.
const (
	transRunStarted = "runStarted" // first state -> running
	transRunDone    = "runDone"    // running -> completed or failed
	transRunDeleted = "runDeleted" // deleting -> gone (Delays.Delete)
)

// inProgress: the run has not ended (one being deleted has).
func (r *run) inProgress() bool {
	return r.State != "completed" && r.State != "failed" && r.State != "deleting"
}

// deleteRun deletes an ended snapshot or backup: at once, or, with Delays.Delete and a
// version whose answer lists state "deleting" (appSnap 1.3 and appBackup 1.2 of 24.02),
// through that state until the record goes. Meanwhile its name stays taken and its bucket
// in use, as on a service that deletes in the background. A DELETE of one already being
// deleted is accepted again.
func (s *Sim) deleteRun(j job, now time.Time) *reply {
	r := j.runOf()
	if s.opts.Delays.Delete <= 0 || !s.answersDeleting(j) {
		s.forgetRun(j)
		return noContent()
	}
	if r.State != "deleting" {
		r.State = "deleting"
		r.Pending = &transition{Kind: transRunDeleted, At: now.Add(s.opts.Delays.Delete)}
	}
	return noContent()
}

// answersDeleting: the published answer of the job's version lists state "deleting".
func (s *Sim) answersDeleting(j job) bool {
	var sc *openapi3.Schema
	switch v := j.(type) {
	case *appSnap:
		sc = s.responseSchema(apispec.AppSnap, v.Version)
	case *appBackup:
		sc = s.responseSchema(apispec.AppBackup, v.Version)
	}
	if sc == nil || sc.Properties["state"] == nil || sc.Properties["state"].Value == nil {
		return false
	}
	return slices.Contains(sc.Properties["state"].Value.Enum, any("deleting"))
}

// forgetRun removes a snapshot's or a backup's record.
func (s *Sim) forgetRun(j job) {
	switch v := j.(type) {
	case *appSnap:
		delete(s.st.Snapshots, v.ID)
	case *appBackup:
		delete(s.st.Backups, v.ID)
	}
}

func (r *run) hookState() string {
	switch {
	case len(r.HookDetails) > 0:
		return "failed"
	case !r.inProgress():
		return "success"
	}
	return ""
}

// fail ends the run failed, with reasons (stateUnready) and one stateDetail per reason,
// titled "Snapshot failed" or "Backup failed".
func (r *run) fail(what string, reasons []string, at time.Time) {
	r.State, r.StateUnready, r.StateDetails = "failed", dedupe(reasons), nil
	for _, reason := range r.StateUnready {
		r.StateDetails = append(r.StateDetails, stateDetail{Type: runFailedType, Title: capitalized(what) + " failed", Detail: reason})
	}
	r.end(at)
}

// runFailedType is the type URI of a failed run's stateDetails.
const runFailedType = "https://astra.netapp.io/stateDetails/operationFailed"

func capitalized(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func (r *run) complete(at time.Time) {
	r.State, r.StateUnready, r.StateDetails = "completed", []string{}, []stateDetail{}
	r.end(at)
}

func (r *run) end(at time.Time) {
	t := at
	r.Ended, r.Pending = &t, nil
}

// renderRun adds the run's members to an object's rendering.
func renderRun(r *run, m map[string]any) {
	m["state"], m["stateUnready"], m["stateDetails"] = r.State, strs(r.StateUnready), renderDetails(r.StateDetails)
	if hs := r.hookState(); hs != "" {
		m["hookState"], m["hookStateDetails"] = hs, renderDetails(r.HookDetails)
	}
}

// startRun begins a new run at now: the pre hooks, then both transitions at once when the
// delay is zero, else the first one half way through it.
func (s *Sim) startRun(j job, delay time.Duration, now time.Time) {
	r := j.runOf()
	r.StateUnready, r.StateDetails, r.HookDetails = []string{}, []stateDetail{}, []stateDetail{}
	r.HookDetails = append(r.HookDetails, s.runHooks(j, "pre")...)
	if delay <= 0 {
		s.applyRun(j, transRunStarted, now)
		if r.Pending != nil && r.Pending.Kind == transRunDone {
			s.applyRun(j, transRunDone, now)
		}
		return
	}
	r.Pending = &transition{Kind: transRunStarted, At: now.Add(delay / 2)}
}

// job is a snapshot or a backup, as the run machinery sees it.
type job interface {
	runOf() *run
	what() string // "snapshot" or "backup"
	order() int   // creation order (the seq)
	appID() string
	delay(d Delays) time.Duration
	// actions are the hook actions the job runs, in pre order ("backup", then "snapshot").
	actions() []string
	// blocked says why the job cannot start yet (wait until the returned time) or must
	// fail (reasons); zero and nil: it may run.
	blocked(s *Sim) (wait time.Time, reasons []string)
	// failures are the reasons the job fails at its end, beyond the injected ones.
	failures(s *Sim) []string
	finished(s *Sim, at time.Time) // after it ended: retention of scheduled ones
}

// applyRun applies one run transition.
func (s *Sim) applyRun(j job, kind string, at time.Time) {
	r := j.runOf()
	switch kind {
	case transRunStarted:
		if !r.inProgress() {
			return
		}
		wait, reasons := j.blocked(s)
		switch {
		case len(reasons) > 0:
			s.endRun(j, reasons, at)
			return
		case !wait.IsZero():
			r.Pending = &transition{Kind: transRunStarted, At: wait}
			return
		}
		r.State = "running"
		t := at
		r.RunningSince = &t
		d := j.delay(s.opts.Delays)
		r.Pending = &transition{Kind: transRunDone, At: at.Add(d - d/2)}
	case transRunDeleted:
		r.Pending = nil
		if r.State == "deleting" {
			s.forgetRun(j)
		}
	case transRunDone:
		if r.inProgress() {
			s.endRun(j, append(append([]string(nil), r.FailWith...), j.failures(s)...), at)
		}
	}
}

// endRun runs the post hooks and ends the run: failed with reasons, completed without.
// Post hooks run either way: Astra Control runs them even when the operation did not
// complete (its documentation: a post hook "cannot assume that the backup was completed").
func (s *Sim) endRun(j job, reasons []string, at time.Time) {
	r := j.runOf()
	before := len(r.FailWith)
	r.HookDetails = append(r.HookDetails, s.runHooks(j, "post")...)
	reasons = append(reasons, r.FailWith[before:]...) // a post hook that timed out (hooktimeout.go)
	if len(reasons) > 0 {
		r.fail(j.what(), reasons, at)
	} else {
		r.complete(at)
	}
	j.finished(s, at)
}

// dueRuns lists the snapshots and backups with a transition due at now, oldest first.
func (s *Sim) dueRuns(now time.Time) []job {
	var out []job
	for _, sn := range s.st.Snapshots {
		if sn.Pending != nil && !sn.Pending.At.After(now) {
			out = append(out, sn)
		}
	}
	for _, b := range s.st.Backups {
		if b.Pending != nil && !b.Pending.At.After(now) {
			out = append(out, b)
		}
	}
	sort.Slice(out, func(i, k int) bool {
		a, b := out[i].runOf().Pending.At, out[k].runOf().Pending.At
		if !a.Equal(b) {
			return a.Before(b)
		}
		return out[i].order() < out[k].order()
	})
	return out
}

// renderInFlight answers "ready" for a run still in progress under Options.InFlightReady
// (NetApp's toolkit docs show snapshots and backups "ready" while in flight).
func (s *Sim) renderInFlight(r *run, m map[string]any) {
	if s.opts.InFlightReady && r.inProgress() {
		m["state"] = inFlightReadyState
	}
}

// inFlightReadyState is what Options.InFlightReady answers for a run in progress.
const inFlightReadyState = "ready"
