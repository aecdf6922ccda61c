package gcgoal

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestForPlansLeavesAGOGCOfTheUsers(t *testing.T) {
	for _, tt := range []struct {
		env  map[string]string
		want int // 0: not set
	}{
		{env: map[string]string{}, want: planPercent},
		{env: map[string]string{"GOGC": "200"}},
		{env: map[string]string{"GOGC": "off"}},
		{env: map[string]string{"GOGC": ""}},
	} {
		got := 0
		forPlans(func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }, func(p int) int { got = p; return 100 })
		if got != tt.want {
			t.Errorf("GOGC %v: set %d, want %d", tt.env, got, tt.want)
		}
	}
}

func TestForAppliesRaisesTheGoalUnlessGOGCIsSet(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	forApplies(func(string) (string, bool) { return "100", true })
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC set: the goal became %d, want 100 (the user's, left alone)", got)
	}
	forApplies(func(string) (string, bool) { return "", false })
	// This test binary holds far less than 8 MiB live, so the headroom is above GOGC 100.
	if got := debug.SetGCPercent(100); got <= 100 {
		t.Errorf("GOGC unset: the goal is %d, want more than 100 (%d MiB of headroom)", got, applyHeadroom>>20)
	}
}

func TestApplyPercent(t *testing.T) {
	for _, tt := range []struct {
		live uint64
		want int
	}{
		{live: 0, want: 200},       // nothing live yet: the runtime's 4 MB minimum stands for it
		{live: 2 << 20, want: 200}, // below the minimum, the same
		{live: 4 << 20, want: 200}, // 8 MiB of headroom over 4
		{live: 5 << 20, want: 160},
		{live: 8 << 20, want: 100},
		{live: 10 << 20, want: 80}, // 8 MiB is 80% of 10: planPercent again
		{live: 64 << 20, want: 80}, // never below planPercent
	} {
		if got := applyPercent(tt.live); got != tt.want {
			t.Errorf("applyPercent(%d MiB) = %d, want %d", tt.live>>20, got, tt.want)
		}
	}
}

func TestAfterEachCollectionCallsBackEveryCycle(t *testing.T) {
	calls := make(chan struct{}, 16)
	afterEachCollection(func() {
		select {
		case calls <- struct{}{}:
		default:
		}
	})
	for cycle := 1; cycle <= 3; cycle++ {
		runtime.GC()
		select {
		case <-calls:
		case <-time.After(10 * time.Second):
			t.Fatalf("no callback after collection %d", cycle)
		}
	}
}
