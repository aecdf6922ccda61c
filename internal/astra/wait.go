package astra

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"
)

// Schedule paces a Wait. Tests use millisecond schedules.
type Schedule struct {
	InitialDelay, Min, Max time.Duration
	Multiplier             float64       // growth of the delay per poll; <1 counts as 1
	Jitter                 float64       // 0..1, fraction of the delay randomised either way
	NotFoundGrace          time.Duration // how long a 404 is tolerated after a create
	// Stretch lets a long wait poll less: a delay is at least Stretch x the time waited so
	// far (so the lateness stays under that fraction), but never above Ceiling.
	Stretch float64
	Ceiling time.Duration
	random  func() float64
}

// DefaultSchedule first checks 250ms after the answer that started the wait, then backs
// off by 1.5x to at most 2s between polls, with 10% jitter (so a fleet's waits spread out),
// and tolerates 404s for 30s (a read right after a create can miss the new object). A
// transition of T is seen within 0.5s for T up to ~2.5s, within 2s up to 20s and within
// 10% of T beyond (30s at most), so a long wait costs few reads; concurrent waits share
// their reads (see share.go).
func DefaultSchedule() Schedule {
	return Schedule{InitialDelay: 250 * time.Millisecond, Min: 250 * time.Millisecond, Max: 2 * time.Second,
		Multiplier: 1.5, Jitter: 0.1, NotFoundGrace: 30 * time.Second, Stretch: 0.1, Ceiling: 30 * time.Second}
}

// Discovery paces the wait for a cluster Astra Control is discovering (a POST it did not
// answer as running): Astra connects to the cluster's API server and takes its inventory
// ("the cluster enters Discovering state and then changes to Healthy", ACC docs), work of
// seconds, not of the quarter second a default wait starts with. So the first poll comes 4x
// later and the next ones 2x apart, growing as the default's: under the default schedule,
// at 1s, 1.5s and 2.25s (10% jitter after the first), so a 2-second discovery is seen
// within 0.4s in 3 reads where the default took 5, and one under a second at 1s. A
// schedule of milliseconds (tests) stays one, and a slower one (10s, the anchors') as it is.
func (s Schedule) Discovery() Schedule {
	s.InitialDelay = max(s.InitialDelay, min(4*s.InitialDelay, time.Second))
	s.Min = max(s.Min, min(2*s.Min, 500*time.Millisecond))
	return s
}

// next is the wait before poll n+1, after waiting elapsed in all.
func (s Schedule) next(n int, elapsed time.Duration) time.Duration {
	d := s.delay(n)
	if stretched := time.Duration(float64(elapsed) * s.Stretch); stretched > d {
		d = min(stretched, max(s.Ceiling, d))
	}
	return d
}

// delay returns the n-th wait between polls (n from 0).
func (s Schedule) delay(n int) time.Duration {
	mult := math.Max(s.Multiplier, 1)
	d := float64(s.Min) * math.Pow(mult, float64(n))
	if s.Max > 0 && (d > float64(s.Max) || math.IsInf(d, 0)) {
		d = float64(s.Max)
	}
	if j := math.Min(math.Max(s.Jitter, 0), 1); j > 0 {
		random := rand.Float64
		if s.random != nil {
			random = s.random
		}
		d *= 1 + j*(2*random()-1)
	}
	if s.Max > 0 && d > float64(s.Max) {
		d = float64(s.Max)
	}
	return time.Duration(math.Max(d, 0))
}

// Describer is implemented by objects a Wait can describe in its errors ("cluster 1234",
// "state pending, managedState managed").
type Describer interface {
	Describe() (what, state string)
}

// TerminalStateError says the object reached a state it will not leave by waiting.
type TerminalStateError struct {
	What, State string
	Reasons     []string
}

func (e *TerminalStateError) Error() string {
	msg := fmt.Sprintf("%s is %s", e.What, e.State)
	if len(e.Reasons) > 0 {
		msg += ": " + strings.Join(e.Reasons, "; ")
	}
	return msg
}

// WaitTimeoutError says the context ended before the object was ready.
type WaitTimeoutError struct {
	What      string
	LastState string
	Err       error // the context's error
}

func (e *WaitTimeoutError) Error() string {
	msg := "gave up waiting for " + e.What
	if e.LastState != "" {
		msg += " (last seen: " + e.LastState + ")"
	}
	return msg + ": " + e.Err.Error()
}

func (e *WaitTimeoutError) Unwrap() error { return e.Err }

// Wait polls fetch until ready reports done, ready returns an error (terminal: returned at
// once, with the object), fetch fails (returned at once, except 404s before the object was
// first seen and within the schedule's NotFoundGrace), or ctx ends (a *WaitTimeoutError wrapping ctx.Err() that describes the
// last object seen, when it implements Describer).
func Wait[T any](ctx context.Context, s Schedule, fetch func(context.Context) (T, error), ready func(T) (bool, error)) (T, error) {
	var none T
	return wait(ctx, s, none, false, fetch, ready)
}

// wait is Wait starting from last (known: an answer already in hand, which a timeout before
// the first poll then describes; 404s stay tolerated until a poll has seen the object, as a
// read right after a create can miss it).
func wait[T any](ctx context.Context, s Schedule, last T, known bool, fetch func(context.Context) (T, error), ready func(T) (bool, error)) (T, error) {
	lastState := ""
	seen := false
	start := time.Now()
	timeout := func() (T, error) {
		what := "the object"
		if seen || known {
			if d, ok := any(last).(Describer); ok {
				what, lastState = d.Describe()
			}
		}
		return last, &WaitTimeoutError{What: what, LastState: lastState, Err: ctx.Err()}
	}
	if err := sleep(ctx, s.InitialDelay); err != nil {
		return timeout()
	}
	// Each poll must see the object as it is now: a shared read answers it only with a
	// request made after the poll asked (see share.go), though concurrent waits share those.
	fetchCtx := withFresh(ctx)
	for n := 0; ; n++ {
		v, err := fetch(fetchCtx)
		switch {
		case err != nil && ctx.Err() != nil:
			return timeout()
		case err != nil && IsNotFound(err) && !seen && time.Since(start) < s.NotFoundGrace:
			lastState = "not found yet"
		case err != nil:
			return last, err
		default:
			last, seen, lastState = v, true, ""
			done, err := ready(v)
			if err != nil || done {
				return v, err
			}
		}
		if err := sleep(ctx, s.next(n, time.Since(start))); err != nil {
			return timeout()
		}
	}
}

// WaitFrom is Wait for an object the caller already holds, such as a create's answer: when
// that answer already decides (done, or a terminal state), nothing is polled.
func WaitFrom[T any](ctx context.Context, s Schedule, answer T, fetch func(context.Context) (T, error), ready func(T) (bool, error)) (T, error) {
	if done, err := ready(answer); done || err != nil {
		return answer, err
	}
	return wait(ctx, s, answer, true, fetch, ready)
}

// sleep waits d or until ctx ends, whichever is first.
func sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
