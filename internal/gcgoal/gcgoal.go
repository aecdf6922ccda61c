// Package gcgoal sets the provider process's garbage-collection goal (GOGC): one for a
// process that only plans and reads, whose peak memory the fleet benchmark holds to 1.5x a
// bare plugin, and a looser one for a process that applies, whose CPU is what the user
// waits for. A GOGC in the environment is the user's and is always left alone.
package gcgoal

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// planPercent is the goal of every process until it applies. A provider process lives for
// one CLI command, and what it allocates is mostly request data that dies with the request,
// so its heap peaks at the goal: what is live (about 3-4 MB in a 1000-cluster plan) times
// 1 + GOGC/100. At the default (100) that plan's provider peaked at 1.55x the memory of a
// bare plugin-go provider serving the same schemas; at 80, 1.50x. Lower goals were
// measured and not taken: at 60 the 1000-cluster plan peaks about 0.7 MiB lower for 5% more
// of the provider's CPU, and a 300-cluster plan, whose heap sits near the runtime's
// minimum, peaks no lower for 15% more.
const planPercent = 80

// applyHeadroom is how far the heap of a process that applies may grow past what is live
// before the next collection, while that is more than planPercent allows. A create
// allocates far more than it keeps: in a 300-cluster apply (OpenTofu), planPercent
// collected every 2.4 MB allocated, about a hundred times, and the provider used 2.9-3.1 s
// of CPU against the echo floor's 1.3-1.7 s. With 8 MiB it used 2.3-2.4 s and peaked at
// 35 MiB instead of 30 (the floor: 25); 16 MiB saved no more CPU and peaked at 42. The
// headroom costs at most this much memory, and nothing once what is live exceeds
// applyHeadroom*100/planPercent (10 MiB).
const applyHeadroom = 8 << 20

// ForPlans sets planPercent, unless GOGC is set. main calls it first thing.
func ForPlans() { forPlans(os.LookupEnv, debug.SetGCPercent) }

func forPlans(lookup func(string) (string, bool), set func(int) int) {
	if _, ok := lookup("GOGC"); !ok {
		set(planPercent)
	}
}

var applying sync.Once

// ForApplies gives the process applyHeadroom from now on, unless GOGC is set: the known
// answers' server calls it on each ApplyResourceChange, and only the first call acts.
func ForApplies() { applying.Do(func() { forApplies(os.LookupEnv) }) }

func forApplies(lookup func(string) (string, bool)) {
	if _, ok := lookup("GOGC"); ok {
		return
	}
	retune()
	afterEachCollection(retune)
}

// percent is the GOGC retune last set (the first call's goroutine, then the finalizers').
var percent atomic.Int64

// retune sets the percent that gives what is live applyHeadroom, or planPercent if more.
func retune() {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	if p := applyPercent(sample[0].Value.Uint64()); percent.Swap(int64(p)) != int64(p) {
		debug.SetGCPercent(p)
	}
}

// applyPercent is the GOGC that lets a heap of live bytes grow by applyHeadroom, no lower
// than planPercent; with nothing live yet, the runtime's minimum heap (4 MB) stands for it.
func applyPercent(live uint64) int {
	live = max(live, 4<<20)
	return max(planPercent, int(applyHeadroom*100/live))
}

// afterEachCollection calls f after every garbage collection, for the life of the process:
// a finalizer runs after the collection that found its object unreachable, and arms the
// next. (The object holds a pointer so that the runtime's tiny allocator, whose blocks
// may never be freed, does not take it.)
func afterEachCollection(f func()) {
	type marker struct{ _ *byte }
	var arm func()
	arm = func() {
		runtime.SetFinalizer(&marker{}, func(*marker) {
			f()
			arm()
		})
	}
	arm()
}
