package astrasim

import (
	"testing"
	"time"
)

func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestNextFiring(t *testing.T) {
	cases := []struct {
		name  string
		sc    schedule
		after string
		want  string // "" never
	}{
		{"hourly later this hour", schedule{Granularity: "hourly", Minute: "15"}, "2024-03-01T12:05:00Z", "2024-03-01T12:15:00Z"},
		{"hourly at the minute itself: the next hour", schedule{Granularity: "hourly", Minute: "15"}, "2024-03-01T12:15:00Z", "2024-03-01T13:15:00Z"},
		{"hourly across midnight", schedule{Granularity: "hourly", Minute: "0"}, "2024-03-01T23:30:00Z", "2024-03-02T00:00:00Z"},
		{"daily today", schedule{Granularity: "daily", Hour: "14", Minute: "30"}, "2024-03-01T12:00:00Z", "2024-03-01T14:30:00Z"},
		{"daily tomorrow", schedule{Granularity: "daily", Hour: "2", Minute: "0"}, "2024-03-01T12:00:00Z", "2024-03-02T02:00:00Z"},
		{"daily across a month end", schedule{Granularity: "daily", Hour: "0", Minute: "5"}, "2024-02-29T23:00:00Z", "2024-03-01T00:05:00Z"},
		// 2024-03-01 is a Friday.
		{"weekly on Sunday (0)", schedule{Granularity: "weekly", DayOfWeek: "0", Hour: "4", Minute: "45"}, "2024-03-01T12:00:00Z", "2024-03-03T04:45:00Z"},
		{"weekly on Sunday (7)", schedule{Granularity: "weekly", DayOfWeek: "7", Hour: "4", Minute: "45"}, "2024-03-01T12:00:00Z", "2024-03-03T04:45:00Z"},
		{"weekly today, later", schedule{Granularity: "weekly", DayOfWeek: "5", Hour: "13", Minute: "0"}, "2024-03-01T12:00:00Z", "2024-03-01T13:00:00Z"},
		{"weekly today, passed: next week", schedule{Granularity: "weekly", DayOfWeek: "5", Hour: "11", Minute: "0"}, "2024-03-01T12:00:00Z", "2024-03-08T11:00:00Z"},
		{"monthly this month", schedule{Granularity: "monthly", DayOfMonth: "15", Hour: "3", Minute: "45"}, "2024-03-01T12:00:00Z", "2024-03-15T03:45:00Z"},
		{"monthly next month", schedule{Granularity: "monthly", DayOfMonth: "1", Hour: "3", Minute: "45"}, "2024-03-01T12:00:00Z", "2024-04-01T03:45:00Z"},
		{"monthly on the 31st skips April", schedule{Granularity: "monthly", DayOfMonth: "31", Hour: "0", Minute: "0"}, "2024-03-31T12:00:00Z", "2024-05-31T00:00:00Z"},
		{"monthly on the 30th skips February", schedule{Granularity: "monthly", DayOfMonth: "30", Hour: "0", Minute: "0"}, "2024-01-31T00:00:00Z", "2024-03-30T00:00:00Z"},
		{"monthly across a year end", schedule{Granularity: "monthly", DayOfMonth: "1", Hour: "0", Minute: "0"}, "2024-12-15T00:00:00Z", "2025-01-01T00:00:00Z"},
		{"custom every 30 minutes from DTSTART", schedule{Granularity: "custom", RecurrenceRule: "DTSTART:20220101T000700Z\nRRULE:FREQ=MINUTELY;INTERVAL=30"},
			"2024-03-01T12:10:00Z", "2024-03-01T12:37:00Z"},
		{"custom every 4 hours on the epoch", schedule{Granularity: "custom", RecurrenceRule: "RRULE:FREQ=HOURLY;INTERVAL=4"},
			"2024-03-01T12:00:00Z", "2024-03-01T16:00:00Z"},
		{"custom before DTSTART", schedule{Granularity: "custom", RecurrenceRule: "DTSTART:20250101T000000Z RRULE:FREQ=HOURLY;INTERVAL=1"},
			"2024-03-01T12:00:00Z", "2025-01-01T00:00:00Z"},
		{"custom without an interval never fires", schedule{Granularity: "custom", RecurrenceRule: "RRULE:FREQ=HOURLY"}, "2024-03-01T12:00:00Z", ""},
	}
	for _, c := range cases {
		got, ok := timesOf(&c.sc).next(utc(c.after))
		switch {
		case c.want == "" && ok:
			t.Errorf("%s: fires at %v, want never", c.name, got)
		case c.want != "" && (!ok || !got.Equal(utc(c.want))):
			t.Errorf("%s: next after %s = %v (%v), want %s", c.name, c.after, got, ok, c.want)
		}
	}
}

func TestSchedulePeriodBoundsTheCatchUp(t *testing.T) {
	for g, want := range map[string]time.Duration{"hourly": time.Hour, "daily": 24 * time.Hour, "weekly": 7 * 24 * time.Hour, "monthly": 62 * 24 * time.Hour} {
		if got := timesOf(&schedule{Granularity: g}).period(); got != want {
			t.Errorf("%s period %v, want %v", g, got, want)
		}
	}
	if got := timesOf(&schedule{Granularity: "custom", RecurrenceRule: "RRULE:FREQ=MINUTELY;INTERVAL=10"}).period(); got != 10*time.Minute {
		t.Errorf("custom period %v", got)
	}
}

func TestScheduleClockMapsBothWays(t *testing.T) {
	start := utc("2024-03-01T12:00:00Z")
	c := scheduleClock{Real: start, Sim: start}
	if got := c.simAt(start.Add(2*time.Second), 3600); !got.Equal(start.Add(2 * time.Hour)) {
		t.Errorf("2 real seconds at 3600x: %v", got)
	}
	if got := c.realAt(start.Add(3*time.Hour), 3600); !got.Equal(start.Add(3 * time.Second)) {
		t.Errorf("3 simulated hours at 3600x: %v", got)
	}
	if got := c.simAt(start.Add(time.Minute), 1); !got.Equal(start.Add(time.Minute)) {
		t.Errorf("real time: %v", got)
	}
}

// A loaded clock goes on from its simulated time when that is ahead (an accelerated run),
// and from now when behind (the downtime counts).
func TestInitDayTwoReanchorsTheClock(t *testing.T) {
	now := utc("2024-03-01T12:00:00Z")
	ahead := &state{Clock: scheduleClock{Real: now.Add(-time.Hour), Sim: now.Add(48 * time.Hour)}}
	ahead.initDayTwo(now)
	if !ahead.Clock.Real.Equal(now) || !ahead.Clock.Sim.Equal(now.Add(48*time.Hour)) || ahead.Snapshots == nil || ahead.ScheduleCursors == nil {
		t.Errorf("ahead: %+v", ahead.Clock)
	}
	behind := &state{Clock: scheduleClock{Real: now.Add(-time.Hour), Sim: now.Add(-time.Hour)}}
	behind.initDayTwo(now)
	if !behind.Clock.Sim.Equal(now) {
		t.Errorf("behind: %+v", behind.Clock)
	}
}
