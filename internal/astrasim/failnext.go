package astrasim

import (
	"fmt"
	"strings"
)

// FailNext makes the next snapshot or backup of an app fail, however it is taken (a POST or
// a protection policy): the run goes through its states and ends "failed", with Reasons as
// stateUnready and stateDetails. Each FailNext applies once.
type FailNext struct {
	Kind    string   // "snapshot" or "backup"
	App     string   // the app's ID or name; the app may not exist yet
	Reasons []string // 1..127 characters each; none: a default reason
}

// The failure kinds.
const (
	FailSnapshot = "snapshot"
	FailBackup   = "backup"
	// FailRestore: the next in-place restore of the app, or the clone that creates an app
	// of that name, ends with the app failed.
	FailRestore = "restore"
)

func (f FailNext) validate() error {
	if f.Kind != FailSnapshot && f.Kind != FailBackup && f.Kind != FailRestore && f.Kind != FailTransfer {
		return fmt.Errorf("fail-next: the kind must be snapshot, backup, restore or transfer, not %q", f.Kind)
	}
	if strings.TrimSpace(f.App) == "" {
		return fmt.Errorf("fail-next: the app name or ID must not be empty")
	}
	for _, r := range f.Reasons {
		if r == "" || len(r) > 127 {
			return fmt.Errorf("fail-next: a reason must have 1 to 127 characters")
		}
	}
	return nil
}

// ParseFailNext reads the program's -fail-next-snapshot / -fail-next-backup value,
// APP[=REASON]: APP is an app name or ID (up to the first "="), REASON the failure reason.
func ParseFailNext(kind, spec string) (FailNext, error) {
	app, reason, hasReason := strings.Cut(spec, "=")
	f := FailNext{Kind: kind, App: app}
	if hasReason {
		f.Reasons = []string{reason}
	}
	return f, f.validate()
}

// FailNextRun queues a failure: the next snapshot or backup (kind) of the app with this ID
// or name fails with reasons.
func (s *Sim) FailNextRun(f FailNext) error {
	if err := f.validate(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failNext = append(s.failNext, f)
	return nil
}

// FailNextSnapshot makes the next snapshot of the app with this ID or name fail with
// reasons (a default reason when none is given), as FailApp fails an app.
func (s *Sim) FailNextSnapshot(app string, reasons ...string) error {
	return s.FailNextRun(FailNext{Kind: FailSnapshot, App: app, Reasons: reasons})
}

// FailNextRestore makes the next in-place restore of the app with this ID or name (or the
// clone creating an app of that name) fail with reasons.
func (s *Sim) FailNextRestore(app string, reasons ...string) error {
	return s.FailNextRun(FailNext{Kind: FailRestore, App: app, Reasons: reasons})
}

// FailNextBackup makes the next backup of the app with this ID or name fail with reasons.
func (s *Sim) FailNextBackup(app string, reasons ...string) error {
	return s.FailNextRun(FailNext{Kind: FailBackup, App: app, Reasons: reasons})
}

// takeFailure pops the first queued failure of kind for app and returns its reasons (nil:
// the run succeeds).
func (s *Sim) takeFailure(kind string, a *app) []string {
	for i, f := range s.failNext {
		if f.Kind != kind || (f.App != a.ID && f.App != a.Name) {
			continue
		}
		s.failNext = append(s.failNext[:i:i], s.failNext[i+1:]...)
		if len(f.Reasons) == 0 {
			return []string{"The " + kind + " of " + a.Name + " failed (injected by the simulator)"}
		}
		return f.Reasons
	}
	return nil
}
