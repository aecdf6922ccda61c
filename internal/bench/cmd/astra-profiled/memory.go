package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync/atomic"
	"time"
)

// watchMemory samples the Go heap every 50ms while the provider serves and writes, into
// dir, a heap profile whenever the heap in use passed its peak by a tenth (so the last one
// is taken near the peak), and at stop <pid>-mem.txt: the peaks and the process's VmHWM.
func watchMemory(dir string) (stop func()) {
	pid := os.Getpid()
	done, finished := make(chan struct{}), make(chan struct{})
	var peakInuse, peakSys, written uint64
	var goroutines atomic.Int64 // sampled every millisecond: a burst of requests lasts a few
	go func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
				if n := int64(runtime.NumGoroutine()); n > goroutines.Load() {
					goroutines.Store(n)
				}
			}
		}
	}()
	go func() {
		defer close(finished)
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			peakInuse, peakSys = max(peakInuse, m.HeapInuse), max(peakSys, m.Sys)
			if m.HeapInuse > written+written/10 {
				written = m.HeapInuse
				if f, err := os.Create(filepath.Join(dir, fmt.Sprintf("%d-heap.pprof", pid))); err == nil {
					_ = pprof.WriteHeapProfile(f)
					_ = f.Close()
				}
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		runtime.GC() // what is still held when the run is over
		if f, err := os.Create(filepath.Join(dir, fmt.Sprintf("%d-heap-end.pprof", pid))); err == nil {
			_ = pprof.WriteHeapProfile(f)
			_ = f.Close()
		}
		hwm := ""
		if status, err := os.ReadFile("/proc/self/status"); err == nil {
			for _, line := range strings.Split(string(status), "\n") {
				if strings.HasPrefix(line, "VmHWM:") {
					hwm = strings.TrimSpace(strings.TrimPrefix(line, "VmHWM:"))
				}
			}
		}
		report := fmt.Sprintf("peak heap in use %d KiB, peak Sys %d KiB, VmHWM %s, peak goroutines %d\n", peakInuse>>10, peakSys>>10, hwm, goroutines.Load())
		_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d-mem.txt", pid)), []byte(report), 0o644)
	}
}
