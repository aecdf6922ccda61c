package astrasim

import (
	"strconv"
	"strings"
	"time"
)

// The schedule clock: protection policies fire on simulated time, which runs
// Options.ScheduleSpeed times faster than the simulator's clock (Options.Now), so an hourly
// policy can fire every real second in a test. Everything else (delays, timestamps) stays
// on the real clock: a snapshot a policy takes is stamped with the real time it was taken.

// scheduleClock anchors simulated time: at real time Real it was Sim. It is re-anchored at
// every evaluation, so a speed change (a restart with another -schedule-speed) applies from
// then on.
type scheduleClock struct {
	Real time.Time `json:"real"`
	Sim  time.Time `json:"sim"`
}

// simAt is the simulated time at real time t (t not before the anchor).
func (c scheduleClock) simAt(t time.Time, speed float64) time.Time {
	return c.Sim.Add(time.Duration(float64(t.Sub(c.Real)) * speed))
}

// realAt is the real time at simulated time at, the inverse of simAt.
func (c scheduleClock) realAt(at time.Time, speed float64) time.Time {
	return c.Real.Add(time.Duration(float64(at.Sub(c.Sim)) / speed))
}

// initDayTwo gives a new or loaded state its day-two collections and anchors the schedule
// clock at now. A loaded clock keeps its simulated time when that is ahead of now (an
// accelerated run goes on where it stopped); otherwise the downtime counts, and the
// firings missed meanwhile are taken at the next evaluation, as the service would have.
func (st *state) initDayTwo(now time.Time) {
	if st.Snapshots == nil {
		st.Snapshots = map[string]*appSnap{}
	}
	if st.Backups == nil {
		st.Backups = map[string]*appBackup{}
	}
	if st.HookSources == nil {
		st.HookSources = map[string]*hookSource{}
	}
	if st.Hooks == nil {
		st.Hooks = map[string]*execHook{}
	}
	if st.ScheduleCursors == nil {
		st.ScheduleCursors = map[string]time.Time{}
	}
	sim := st.Clock.Sim
	if sim.Before(now) {
		sim = now
	}
	st.Clock = scheduleClock{Real: now, Sim: sim}
}

// maxCatchUp bounds the firings one evaluation takes per policy: after a long pause (a
// restart after days, a fast clock) only the latest are taken. The simulator's assumption:
// the service's own catch-up is undocumented; retention keeps at most a few dozen anyway.
const maxCatchUp = 64

// scheduleTimes is a policy's timing, parsed from its string fields.
type scheduleTimes struct {
	granularity                     string
	minute, hour, weekday, monthDay int
	every                           time.Duration // custom: the rule's interval
	start                           time.Time     // custom: DTSTART, else the Unix epoch
}

// timesOf parses a stored policy (already validated, so errors cannot happen).
func timesOf(sc *schedule) scheduleTimes {
	n := func(s string) int { v, _ := strconv.Atoi(s); return v }
	t := scheduleTimes{granularity: sc.Granularity, minute: n(sc.Minute), hour: n(sc.Hour), weekday: n(sc.DayOfWeek) % 7,
		monthDay: n(sc.DayOfMonth), start: time.Unix(0, 0).UTC()}
	if sc.Granularity == "custom" {
		t.every, t.start = parseRecurrence(sc.RecurrenceRule)
	}
	return t
}

// parseRecurrence reads "[DTSTART:20220101T000000Z ]RRULE:FREQ=MINUTELY|HOURLY;INTERVAL=N".
// Without DTSTART the firings are aligned on the Unix epoch (the simulator's assumption).
func parseRecurrence(rule string) (time.Duration, time.Time) {
	start := time.Unix(0, 0).UTC()
	var every time.Duration
	for _, part := range strings.Fields(rule) {
		if v, ok := strings.CutPrefix(part, "DTSTART:"); ok {
			if t, err := time.Parse("20060102T150405Z", v); err == nil {
				start = t
			}
			continue
		}
		unit, n := time.Minute, 0
		for _, kv := range strings.Split(strings.TrimPrefix(part, "RRULE:"), ";") {
			k, v, _ := strings.Cut(kv, "=")
			switch {
			case k == "FREQ" && v == "HOURLY":
				unit = time.Hour
			case k == "INTERVAL":
				n, _ = strconv.Atoi(v)
			}
		}
		every = time.Duration(n) * unit
	}
	return every, start
}

// period is the longest time between two firings, for bounding a catch-up.
func (t scheduleTimes) period() time.Duration {
	switch t.granularity {
	case "hourly":
		return time.Hour
	case "daily":
		return 24 * time.Hour
	case "weekly":
		return 7 * 24 * time.Hour
	case "monthly":
		return 62 * 24 * time.Hour // a dayOfMonth of 31 skips the short months
	}
	return t.every
}

// next is the first firing strictly after after, in UTC; ok is false for a policy that
// never fires (a custom rule without an interval). A monthly policy on a day a month
// lacks (the 31st) does not fire that month, as cron would not: the simulator's
// assumption, the service's documents say nothing.
func (t scheduleTimes) next(after time.Time) (time.Time, bool) {
	after = after.UTC()
	day := time.Date(after.Year(), after.Month(), after.Day(), 0, 0, 0, 0, time.UTC)
	switch t.granularity {
	case "hourly":
		at := time.Date(after.Year(), after.Month(), after.Day(), after.Hour(), t.minute, 0, 0, time.UTC)
		if !at.After(after) {
			at = at.Add(time.Hour)
		}
		return at, true
	case "daily", "weekly":
		for i := 0; i <= 8; i++ {
			d := day.AddDate(0, 0, i)
			at := d.Add(time.Duration(t.hour)*time.Hour + time.Duration(t.minute)*time.Minute)
			if at.After(after) && (t.granularity == "daily" || int(d.Weekday()) == t.weekday) {
				return at, true
			}
		}
	case "monthly":
		first := time.Date(after.Year(), after.Month(), 1, 0, 0, 0, 0, time.UTC)
		for i := 0; i <= 12; i++ {
			m := first.AddDate(0, i, 0)
			at := time.Date(m.Year(), m.Month(), t.monthDay, t.hour, t.minute, 0, 0, time.UTC)
			if at.Month() == m.Month() && at.After(after) {
				return at, true
			}
		}
	case "custom":
		if t.every <= 0 {
			return time.Time{}, false
		}
		if after.Before(t.start) {
			return t.start, true
		}
		k := int64(after.Sub(t.start)/t.every) + 1
		return t.start.Add(time.Duration(k) * t.every), true
	}
	return time.Time{}, false
}
