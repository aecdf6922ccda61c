package astra

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// pollTimes lists when DefaultSchedule's polls happen (without request time), with the
// jitter at its worst for the question asked (always late, or always early).
func pollTimes(until time.Duration, jitter float64) []time.Duration {
	s := DefaultSchedule()
	s.random = func() float64 { return jitter }
	at := s.InitialDelay
	out := []time.Duration{at}
	for n := 0; at < until; n++ {
		at += s.next(n, at)
		out = append(out, at)
	}
	return out
}

// detect is when a transition of t is first seen and how many polls that took.
func detect(t time.Duration, jitter float64) (time.Duration, int) {
	for i, at := range pollTimes(t+time.Hour, jitter) {
		if at >= t {
			return at - t, i + 1
		}
	}
	return 0, 0
}

func TestDefaultScheduleDetectsShortAndLongTransitionsSoon(t *testing.T) {
	if first := pollTimes(0, 0.5)[0]; first != 250*time.Millisecond {
		t.Errorf("first poll after %v, want 250ms", first)
	}
	cases := []struct {
		transition  time.Duration
		maxOverhead time.Duration
		maxPolls    int
	}{
		{time.Second, 600 * time.Millisecond, 4},
		{2 * time.Second, 500 * time.Millisecond, 6},
		{20 * time.Second, 2200 * time.Millisecond, 16},
		{5 * time.Minute, 33 * time.Second, 45},
		{time.Hour, 30 * time.Second, 160},
	}
	for _, c := range cases {
		for _, jitter := range []float64{0, 0.5, 1} {
			overhead, polls := detect(c.transition, jitter)
			if overhead > c.maxOverhead || polls > c.maxPolls {
				t.Errorf("T=%v jitter %v: seen %v late after %d polls, want at most %v and %d",
					c.transition, jitter, overhead, polls, c.maxOverhead, c.maxPolls)
			}
		}
	}
}

// A 2s transition against the simulator, waited for with the default schedule: counted
// GETs (the run takes about 2.3s; the time itself is not asserted).
func TestDefaultScheduleSeesATwoSecondTransitionWithFewGETs(t *testing.T) {
	sim, url, stop, err := astrasim.Serve(astrasim.Options{Delays: astrasim.Delays{Discover: 2 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	c, err := New(Config{Endpoint: url, AccountID: sim.AccountID(), Token: astrasim.DefaultToken, ReadMaxAge: DefaultReadMaxAge})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	body, err := KubeconfigCredential("slow", astrasim.TestKubeconfig("slow", "https://slow.example.com:6443"))
	if err != nil {
		t.Fatal(err)
	}
	cred, err := c.CreateCredential(ctx, body)
	if err != nil {
		t.Fatal(err)
	}
	cloud := sim.Seeds().PrivateCloudID
	created, err := c.CreateCluster(ctx, cloud, ClusterCreate{CredentialID: cred.ID})
	if err != nil {
		t.Fatal(err)
	}
	if done, _ := ClusterRunning(created); done {
		t.Fatalf("the simulator answered %q at once; the test needs a transition", created.State)
	}
	sim.ResetCounts()
	final, err := WaitFrom(ctx, DefaultSchedule(), created, func(ctx context.Context) (*Cluster, error) {
		return c.GetCluster(ctx, cloud, created.ID)
	}, ClusterRunning)
	if err != nil || final.State != "running" {
		t.Fatalf("wait: %v", err)
	}
	gets := sim.Count("GET", "/topology/v1/clouds/{cloud_id}/clusters/{cluster_id}")
	if gets < 1 || gets > 6 || len(sim.Counts()) != 1 {
		t.Errorf("%d GETs (%v), want 1 to 6 and nothing else", gets, fmt.Sprint(sim.Counts()))
	}
}
