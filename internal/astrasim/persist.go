package astrasim

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// stateFormat versions the state file.
const stateFormat = 1

type stateFile struct {
	Format int    `json:"format"`
	State  *state `json:"state"`
}

// Snapshot returns canonical JSON (keys sorted, indented) of every object the account
// holds, after applying due transitions. Bookkeeping that changes without a lasting
// change (modification timestamps and modifiers, the ID counter, the version a managed
// facet was last written at) is left out, so "apply then destroy" compares equal to the
// snapshot taken before apply.
func (s *Sim) Snapshot() ([]byte, error) {
	s.mu.Lock()
	s.advance(s.opts.Now())
	raw, err := json.Marshal(s.st)
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	var view map[string]any
	if err := json.Unmarshal(raw, &view); err != nil {
		return nil, err
	}
	delete(view, "nextID")
	delete(view, "scheduleClock") // the schedule clock moves with every request
	delete(view, "scheduleCursors")
	for _, family := range []string{"clouds", "clusters", "credentials", "storageClasses", "buckets", "apps", "schedules",
		"snapshots", "backups", "hookSources", "executionHooks"} {
		objs, _ := view[family].(map[string]any)
		for _, o := range objs {
			obj, _ := o.(map[string]any)
			delete(obj, "mcVersion")
			if m, ok := obj["metadata"].(map[string]any); ok {
				delete(m, "modificationTimestamp")
				delete(m, "modifiedBy")
			}
		}
	}
	stripIdentityBookkeeping(view) // identity.go's families (issue 47)
	return json.MarshalIndent(view, "", "  ")
}

// SaveState writes the whole state to path atomically (a temporary file in the same
// directory, then a rename), readable only by its owner. It holds no secrets: of a
// kubeconfig only the cluster name and server URL are kept.
func (s *Sim) SaveState(path string) error {
	s.mu.Lock()
	s.advance(s.opts.Now())
	data, err := json.MarshalIndent(stateFile{Format: stateFormat, State: s.st}, "", "  ")
	s.mu.Unlock()
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op after the rename
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// LoadState replaces the state with the one SaveState wrote to path. The file must be
// for the same account and API release.
func (s *Sim) LoadState(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var f stateFile
	if err := json.Unmarshal(data, &f); err != nil {
		return fmt.Errorf("reading state file %s: %w", path, err)
	}
	if f.Format != stateFormat || f.State == nil {
		return fmt.Errorf("state file %s: unsupported format %d", path, f.Format)
	}
	st := f.State
	if st.AccountID != s.opts.AccountID {
		return fmt.Errorf("state file %s belongs to account %s, not %s", path, st.AccountID, s.opts.AccountID)
	}
	if st.Release != s.opts.Release {
		return fmt.Errorf("state file %s was written by API release %s, not %s", path, st.Release, s.opts.Release)
	}
	if st.Clouds == nil {
		st.Clouds = map[string]*cloud{}
	}
	if st.Clusters == nil {
		st.Clusters = map[string]*cluster{}
	}
	if st.Credentials == nil {
		st.Credentials = map[string]*credential{}
	}
	if st.StorageClasses == nil {
		st.StorageClasses = map[string]*storageClass{}
	}
	if st.Buckets == nil {
		st.Buckets = map[string]*bucket{}
	}
	if st.Apps == nil {
		st.Apps = map[string]*app{}
	}
	if st.Schedules == nil {
		st.Schedules = map[string]*schedule{}
	}
	st.initDayTwo(s.opts.Now())
	if st.Identity == nil {
		s.seedIdentity(st) // a state file from before issue 47
	}
	st.Identity.fill()
	if st.Seeds.StorageClasses == nil {
		st.Seeds.StorageClasses = map[string][]string{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st = st
	return nil
}
