package provider

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The CLI starts a provider process for each walk of a run: `apply` plans in one and applies
// in the next, which plans each create again before creating it. Nothing of the first
// plan reaches the second: private state does not (the apply's plan of a new object gets
// the prior state's, which is none: OpenTofu 1.12 and Terraform, node_resource_abstract_
// instance.go, plan()), nor does the planned value. So the objects the first plan's
// reference checks found are written to a file of the run, which the apply's process reads,
// and a create sends each check once per run (issue 48: a 2-second cluster create sent 9
// GETs where 5 did before the checks).
//
// The run is the CLI process, the parent of every provider process it starts: the file is
// named by its process ID and, where /proc tells, its start time and the boot, so a later
// process with the same ID is another run. A saved plan applied later is another run and
// checks again. Only an object found is written (a hash of the endpoint, account, kind and
// ID); a wrong ID is read, and refused, every time.

// cliMagicCookie is set in the environment of a provider process started by Terraform or
// OpenTofu (go-plugin's handshake). Without it the process was started otherwise (a test,
// a debugger) and serves the whole run itself, so its own objectReads suffice.
const cliMagicCookie = "TF_PLUGIN_MAGIC_COOKIE"

// runFileMaxAge bounds a run file's life where the run's start time is unknown, and sweeps
// the files of runs that ended without anyone removing them.
const runFileMaxAge = 24 * time.Hour

// runMemory is the file of the run this process belongs to.
type runMemory struct {
	dir, path string
	load      sync.Once
	mu        sync.Mutex
	found     map[string]bool // the file as first read, and what this process added since
	swept     bool
}

// openRunMemory is the run's file, or nil when this process was not started by a CLI, or
// has no user cache directory (the checks then read as before: once per process).
func openRunMemory() *runMemory {
	if os.Getenv(cliMagicCookie) == "" {
		return nil
	}
	run := runOf(os.Getppid())
	cache, err := os.UserCacheDir()
	if run == "" || err != nil {
		return nil
	}
	dir := filepath.Join(cache, "terraform-provider-astra", "runs")
	return &runMemory{dir: dir, path: filepath.Join(dir, run)}
}

// runOf names the run of CLI process pid: its ID, and on Linux its start time and the boot.
func runOf(pid int) string {
	if pid <= 1 { // orphaned: the CLI is gone
		return ""
	}
	name := strconv.Itoa(pid)
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return name
	}
	// The fields after the command's closing parenthesis; the start time is field 22.
	if i := bytes.LastIndexByte(stat, ')'); i > 0 {
		if f := strings.Fields(string(stat[i+1:])); len(f) > 19 {
			name += "-" + f[19]
		}
	}
	if boot, err := os.ReadFile("/proc/sys/kernel/random/boot_id"); err == nil && len(boot) >= 8 {
		name += "-" + string(boot[:8])
	}
	return name
}

// entry is how key is written: a hash, so the file holds no endpoint, account or ID.
func (m *runMemory) entry(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:16])
}

// has: an earlier process of the run, or this one, found the object of key.
func (m *runMemory) has(key string) bool {
	if m == nil {
		return false
	}
	m.load.Do(m.read)
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.found[m.entry(key)]
}

// read loads the run's file, unless it is older than a run lasts.
func (m *runMemory) read() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.found = map[string]bool{}
	f, err := os.Open(m.path)
	if err != nil {
		return
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || time.Since(info.ModTime()) > runFileMaxAge {
		return
	}
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		m.found[lines.Text()] = true
	}
}

// add records that this process found the object of key. A failure to write costs the
// run's next process a read, nothing else.
func (m *runMemory) add(key string) {
	if m == nil {
		return
	}
	m.load.Do(m.read)
	e := m.entry(key)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.found[e] {
		return
	}
	m.found[e] = true
	if !m.swept {
		m.swept = true
		m.sweep()
	}
	f, err := os.OpenFile(m.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	_, _ = f.WriteString(e + "\n") // one append: processes of one run may write at once
	_ = f.Close()
}

// sweep makes the directory and removes the files of runs that have ended: a process ID
// that now names another process (or none), or a file older than a run lasts.
func (m *runMemory) sweep() {
	if err := os.MkdirAll(m.dir, 0o700); err != nil {
		return
	}
	entries, err := os.ReadDir(m.dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || filepath.Join(m.dir, e.Name()) == m.path {
			continue
		}
		pid, _ := strconv.Atoi(strings.SplitN(e.Name(), "-", 2)[0])
		if time.Since(info.ModTime()) > runFileMaxAge || runOf(pid) != e.Name() {
			_ = os.Remove(filepath.Join(m.dir, e.Name()))
		}
	}
}
