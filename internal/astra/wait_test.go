package astra

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// fastSchedule polls every millisecond or so.
func fastSchedule() Schedule {
	return Schedule{InitialDelay: time.Millisecond, Min: time.Millisecond, Max: 4 * time.Millisecond, Multiplier: 2, Jitter: 0.2, NotFoundGrace: 50 * time.Millisecond}
}

// states returns a fetch that yields the given clusters in turn (the last repeats) and counts calls.
func clusterStates(calls *int, states ...Cluster) func(context.Context) (*Cluster, error) {
	return func(context.Context) (*Cluster, error) {
		i := *calls
		*calls++
		if i >= len(states) {
			i = len(states) - 1
		}
		c := states[i]
		return &c, nil
	}
}

func TestWaitUntilRunning(t *testing.T) {
	calls := 0
	fetch := clusterStates(&calls,
		Cluster{ID: "c1", ClusterStatus: ClusterStatus{State: "pending"}}, Cluster{ID: "c1", ClusterStatus: ClusterStatus{State: "discovering"}}, Cluster{ID: "c1", ClusterStatus: ClusterStatus{State: "Running"}})
	got, err := Wait(context.Background(), fastSchedule(), fetch, ClusterRunning)
	if err != nil || got.State != "Running" || calls != 3 {
		t.Fatalf("got %+v after %d polls: %v", got, calls, err)
	}
}

func TestWaitStopsAtATerminalState(t *testing.T) {
	calls := 0
	fetch := clusterStates(&calls, Cluster{ID: "c1", ClusterStatus: ClusterStatus{State: "pending"}},
		Cluster{ID: "c1", ClusterStatus: ClusterStatus{State: "failed", StateUnready: []string{"kubeconfig rejected", "API server unreachable"}}})
	got, err := Wait(context.Background(), fastSchedule(), fetch, ClusterRunning)
	var terminal *TerminalStateError
	if !errors.As(err, &terminal) || calls != 2 || got == nil || got.State != "failed" {
		t.Fatalf("err %v after %d polls, got %+v", err, calls, got)
	}
	if want := "cluster c1 is failed: kubeconfig rejected; API server unreachable"; err.Error() != want {
		t.Fatalf("got %q, want %q", err.Error(), want)
	}
}

func TestWaitToleratesA404RightAfterCreate(t *testing.T) {
	calls := 0
	fetch := func(context.Context) (*Cluster, error) {
		calls++
		if calls <= 2 {
			return nil, &APIError{StatusCode: 404, Problem: 2}
		}
		return &Cluster{ID: "c1", ClusterStatus: ClusterStatus{State: "running"}}, nil
	}
	got, err := Wait(context.Background(), fastSchedule(), fetch, ClusterRunning)
	if err != nil || got.ID != "c1" || calls != 3 {
		t.Fatalf("got %+v after %d polls: %v", got, calls, err)
	}
}

func TestA404AfterTheObjectWasSeenEndsTheWait(t *testing.T) {
	calls := 0
	_, err := Wait(context.Background(), fastSchedule(), func(context.Context) (*Cluster, error) {
		calls++
		if calls == 1 {
			return &Cluster{ID: "c1", ClusterStatus: ClusterStatus{State: "pending"}}, nil
		}
		return nil, &APIError{StatusCode: 404, Problem: 2}
	}, ClusterRunning)
	if !IsNotFound(err) || calls != 2 {
		t.Fatalf("a vanished object is not a slow create: %v after %d polls", err, calls)
	}
}

func TestWaitGivesUpOnA404AfterTheGrace(t *testing.T) {
	s := fastSchedule()
	s.NotFoundGrace = 10 * time.Millisecond
	calls := 0
	start := time.Now()
	_, err := Wait(context.Background(), s, func(context.Context) (*Cluster, error) {
		calls++
		return nil, &APIError{StatusCode: 404, Problem: 2}
	}, ClusterRunning)
	if !IsNotFound(err) || calls < 2 || time.Since(start) < 10*time.Millisecond {
		t.Fatalf("err %v after %d polls in %v", err, calls, time.Since(start))
	}
	s.NotFoundGrace = 0
	calls = 0
	_, err = Wait(context.Background(), s, func(context.Context) (*Cluster, error) {
		calls++
		return nil, &APIError{StatusCode: 404}
	}, ClusterRunning)
	if !IsNotFound(err) || calls != 1 {
		t.Fatalf("without a grace a 404 ends the wait at once: %v after %d polls", err, calls)
	}
}

func TestWaitReturnsOtherFetchErrorsAtOnce(t *testing.T) {
	calls := 0
	boom := errors.New("boom")
	_, err := Wait(context.Background(), fastSchedule(), func(context.Context) (*Cluster, error) {
		calls++
		return nil, boom
	}, ClusterRunning)
	if !errors.Is(err, boom) || calls != 1 {
		t.Fatalf("err %v after %d polls", err, calls)
	}
}

func TestWaitEndsWithTheContext(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	calls := 0
	fetch := clusterStates(&calls, Cluster{ID: "c1", ClusterStatus: ClusterStatus{State: "pending", ManagedState: "managing"}})
	got, err := Wait(ctx, fastSchedule(), fetch, ClusterRunning)
	var timeout *WaitTimeoutError
	if !errors.As(err, &timeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v", err)
	}
	if want := "gave up waiting for cluster c1 (last seen: state pending, managedState managing): context deadline exceeded"; err.Error() != want {
		t.Fatalf("got %q\nwant %q", err.Error(), want)
	}
	if calls < 3 || got == nil || got.State != "pending" {
		t.Fatalf("%d polls, last %+v", calls, got)
	}
}

func TestWaitCancelledDuringTheInitialDelay(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s := fastSchedule()
	s.InitialDelay = time.Hour
	time.AfterFunc(5*time.Millisecond, cancel)
	calls := 0
	start := time.Now()
	_, err := Wait(ctx, s, clusterStates(&calls, Cluster{ClusterStatus: ClusterStatus{State: "running"}}), ClusterRunning)
	if !errors.Is(err, context.Canceled) || calls != 0 || time.Since(start) > time.Second {
		t.Fatalf("err %v, %d polls, %v", err, calls, time.Since(start))
	}
	if err.Error() != "gave up waiting for the object: context canceled" {
		t.Fatalf("got %q", err.Error())
	}
}

func TestWaitCancelledDuringAFetch(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	_, err := Wait(ctx, fastSchedule(), func(ctx context.Context) (*ManagedCluster, error) {
		cancel()
		return nil, ctx.Err()
	}, ManagedClusterReady)
	var timeout *WaitTimeoutError
	if !errors.As(err, &timeout) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
}

func TestScheduleDelays(t *testing.T) {
	s := Schedule{Min: 2 * time.Second, Max: 30 * time.Second, Multiplier: 1.5}
	want := []time.Duration{2 * time.Second, 3 * time.Second, 4500 * time.Millisecond, 6750 * time.Millisecond}
	for n, w := range want {
		if got := s.delay(n); got != w {
			t.Errorf("delay(%d) = %v, want %v", n, got, w)
		}
	}
	if got := s.delay(50); got != 30*time.Second {
		t.Errorf("delay(50) = %v, want the 30s cap", got)
	}
	s.Jitter, s.random = 0.2, func() float64 { return 0 }
	if got := s.delay(0); got != 1600*time.Millisecond {
		t.Errorf("jitter down: %v", got)
	}
	s.random = func() float64 { return 1 }
	if got := s.delay(0); got != 2400*time.Millisecond {
		t.Errorf("jitter up: %v", got)
	}
	if got := s.delay(50); got != 30*time.Second {
		t.Errorf("jitter never exceeds the cap: %v", got)
	}
	flat := Schedule{Min: time.Second, Multiplier: 0.5}
	if flat.delay(3) != time.Second {
		t.Errorf("a multiplier below 1 counts as 1: %v", flat.delay(3))
	}
	d := DefaultSchedule()
	if d.InitialDelay != 250*time.Millisecond || d.Min != 250*time.Millisecond || d.Max != 2*time.Second || d.Multiplier != 1.5 ||
		d.Jitter != 0.1 || d.NotFoundGrace != 30*time.Second {
		t.Errorf("DefaultSchedule = %+v", d)
	}
}

func TestReadyPredicates(t *testing.T) {
	cases := []struct {
		name    string
		check   func() (bool, error)
		done    bool
		wantErr string
	}{
		{"cluster running", func() (bool, error) { return ClusterRunning(&Cluster{ClusterStatus: ClusterStatus{State: "running"}}) }, true, ""},
		{"cluster pending", func() (bool, error) { return ClusterRunning(&Cluster{ClusterStatus: ClusterStatus{State: "pending"}}) }, false, ""},
		{"cluster removed is not terminal", func() (bool, error) { return ClusterRunning(&Cluster{ClusterStatus: ClusterStatus{State: "removed"}}) }, false, ""},
		{"cluster failed", func() (bool, error) {
			return ClusterRunning(&Cluster{ID: "c", ClusterStatus: ClusterStatus{State: "Failed"}})
		}, false, "cluster c is Failed"},
		{"managed and running", func() (bool, error) {
			return ManagedClusterReady(&ManagedCluster{ClusterStatus: ClusterStatus{State: "running", ManagedState: "managed"}})
		}, true, ""},
		{"managed, still pending", func() (bool, error) {
			return ManagedClusterReady(&ManagedCluster{ClusterStatus: ClusterStatus{State: "pending", ManagedState: "managed"}})
		}, false, ""},
		{"managing", func() (bool, error) {
			return ManagedClusterReady(&ManagedCluster{ClusterStatus: ClusterStatus{State: "running", ManagedState: "managing"}})
		}, false, ""},
		{"ineligible", func() (bool, error) {
			return ManagedClusterReady(&ManagedCluster{
				ID: "m",
				ClusterStatus: ClusterStatus{
					State:               "running",
					ManagedState:        "ineligible",
					ManagedStateUnready: []string{"no CSI driver"},
					ManagedStateDetails: []StateDetail{{Title: "Unsupported", Detail: "Kubernetes 1.19"}},
				},
			})
		}, false, "managed cluster m is ineligible: no CSI driver; Unsupported: Kubernetes 1.19"},
		{"managed but failed", func() (bool, error) {
			return ManagedClusterReady(&ManagedCluster{ID: "m", ClusterStatus: ClusterStatus{State: "failed", ManagedState: "managed", StateUnready: []string{"gone"}}})
		}, false, "managed cluster m is failed: gone"},
		{"unmanaged", func() (bool, error) {
			return ClusterUnmanaged(&Cluster{ClusterStatus: ClusterStatus{ManagedState: "unmanaged"}})
		}, true, ""},
		{"ineligible counts as unmanaged", func() (bool, error) {
			return ClusterUnmanaged(&Cluster{ClusterStatus: ClusterStatus{ManagedState: "ineligible"}})
		}, true, ""},
		{"still managed", func() (bool, error) {
			return ClusterUnmanaged(&Cluster{ClusterStatus: ClusterStatus{ManagedState: "Managed"}})
		}, false, ""},
		{"deleting", func() (bool, error) {
			return ClusterUnmanaged(&Cluster{ClusterStatus: ClusterStatus{ManagedState: "deleting"}})
		}, false, ""},
	}
	for _, c := range cases {
		done, err := c.check()
		if done != c.done || (c.wantErr == "") != (err == nil) || (err != nil && err.Error() != c.wantErr) {
			t.Errorf("%s: done %v err %v; want %v %q", c.name, done, err, c.done, c.wantErr)
		}
	}
}

func TestDescribeHandlesNil(t *testing.T) {
	var c *Cluster
	if what, state := c.Describe(); what != "cluster" || state != "" {
		t.Fatalf("%q %q", what, state)
	}
	if what, state := (&Cloud{ID: "x", State: "pending"}).Describe(); what != "cloud x" || !strings.Contains(state, "pending") {
		t.Fatalf("%q %q", what, state)
	}
}

// TestClusterRunningEndsOnRemovedWithReason: removed with a reason is terminal (waiting
// cannot help), removed without one and removed after a repair are not; a timeout
// describes the last state with its reasons.
func TestClusterRunningEndsOnRemovedWithReason(t *testing.T) {
	removed := &Cluster{ID: "c1", ClusterStatus: ClusterStatus{State: "removed", ManagedState: "unmanaged",
		StateUnready: []string{"The credential's kubeconfig belongs to a different cluster"}}}
	_, err := ClusterRunning(removed)
	var terminal *TerminalStateError
	if !errors.As(err, &terminal) || err.Error() != "cluster c1 is removed: The credential's kubeconfig belongs to a different cluster" {
		t.Errorf("ClusterRunning(removed) = %v, want a terminal error with the reason", err)
	}
	if done, err := ClusterRecollected(removed); done || err != nil {
		t.Errorf("ClusterRecollected(removed) = %v, %v, want not done and no error", done, err)
	}
	if done, err := ClusterRunning(&Cluster{ClusterStatus: ClusterStatus{State: "removed"}}); done || err != nil {
		t.Errorf("ClusterRunning(removed without a reason) = %v, %v, want not done and no error", done, err)
	}
	if _, state := removed.Describe(); state != "state removed, managedState unmanaged; stateUnready: The credential's kubeconfig belongs to a different cluster" {
		t.Errorf("Describe = %q", state)
	}
	mc := &ManagedCluster{ID: "m1", ClusterStatus: ClusterStatus{State: "pending", ManagedState: "managing",
		ManagedStateDetails: []StateDetail{{Title: "Installing", Detail: "Trident"}}}}
	if _, state := mc.Describe(); state != "state pending, managedState managing; managedStateDetails: Installing: Trident" {
		t.Errorf("Describe = %q", state)
	}
}

// TestDiscoverySchedule: under the default schedule, the wait for a discovery polls first
// at 1s and sees a 2-second discovery in 3 reads, within 0.35s, whichever way the jitter
// goes (5 reads under the default schedule itself); a schedule of milliseconds stays one.
func TestDiscoverySchedule(t *testing.T) {
	reads := func(s Schedule, transition time.Duration) (int, time.Duration) {
		at := s.InitialDelay
		for n := 0; ; n++ {
			if at >= transition {
				return n + 1, at - transition
			}
			at += s.next(n, at)
		}
	}
	for _, c := range []struct {
		name     string
		jitter   float64
		polls    int
		lateness time.Duration
	}{
		{"jitter down", 0, 3, 125 * time.Millisecond},
		{"no jitter", 0.5, 3, 250 * time.Millisecond},
		{"jitter up", 1, 3, 375 * time.Millisecond},
	} {
		d := DefaultSchedule().Discovery()
		d.random = func() float64 { return c.jitter }
		if d.InitialDelay != time.Second || d.Min != 500*time.Millisecond {
			t.Fatalf("Discovery() = %+v, want the first poll at 1s and the next 0.5s after", d)
		}
		polls, late := reads(d, 2*time.Second)
		if polls != c.polls || late != c.lateness {
			t.Errorf("%s: a 2s discovery is seen in %d reads, %v late; want %d, %v", c.name, polls, late, c.polls, c.lateness)
		}
		base := DefaultSchedule()
		base.random = d.random
		if polls, _ := reads(base, 2*time.Second); polls != 5 {
			t.Errorf("%s: the default schedule sees it in %d reads, want 5 (the comparison the doc makes)", c.name, polls)
		}
		if polls, late := reads(d, 300*time.Millisecond); polls != 1 || late != 700*time.Millisecond {
			t.Errorf("%s: a 0.3s discovery: %d reads, %v late; want the first read at 1s", c.name, polls, late)
		}
	}
	fast := Schedule{InitialDelay: time.Millisecond, Min: time.Millisecond}.Discovery()
	if fast.InitialDelay != 4*time.Millisecond || fast.Min != 2*time.Millisecond {
		t.Errorf("a test schedule's discovery: %+v", fast)
	}
	slow := Schedule{InitialDelay: 10 * time.Second, Min: 10 * time.Second}.Discovery()
	if slow.InitialDelay != 10*time.Second || slow.Min != 10*time.Second {
		t.Errorf("a 10s schedule's discovery: %+v, want it unchanged", slow)
	}
}
