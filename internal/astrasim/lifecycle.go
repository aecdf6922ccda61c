package astrasim

import (
	"fmt"
	"sort"
	"time"
)

// Transition kinds.
const (
	transDiscovered  = "discovered"  // discovering/pending -> running/unmanaged
	transManaged     = "managed"     // managing/pending -> managed/running
	transUnmanaged   = "unmanaged"   // deleting -> unmanaged
	transRemoved     = "removed"     // the record disappears
	transRecollected = "recollected" // removed -> running
	transCloudReady  = "cloudReady"  // a new cloud: pending -> running
	transBucketReady = "bucketReady" // a new bucket, or a new credential: pending -> available or failed
)

// schedule applies a transition now when its delay is zero, else records it for later.
func (s *Sim) schedule(c *cluster, kind string, delay time.Duration, now time.Time) {
	if delay <= 0 {
		c.Pending = nil
		s.applyTransition(c, kind, now)
		return
	}
	c.Pending = &transition{Kind: kind, At: now.Add(delay)}
}

// advance applies every transition due at now, oldest first.
func (s *Sim) advance(now time.Time) {
	type due struct {
		at      time.Time
		seq     int
		cluster *cluster
		cloud   *cloud
		bucket  *bucket
	}
	var list []due
	for _, c := range s.st.Clusters {
		if c.Pending != nil && !c.Pending.At.After(now) {
			list = append(list, due{c.Pending.At, c.Seq, c, nil, nil})
		}
	}
	for _, c := range s.st.Clouds {
		if c.Pending != nil && !c.Pending.At.After(now) {
			list = append(list, due{c.Pending.At, c.Seq, nil, c, nil})
		}
	}
	for _, b := range s.st.Buckets {
		if b.Pending != nil && !b.Pending.At.After(now) {
			list = append(list, due{b.Pending.At, b.Seq, nil, nil, b})
		}
	}
	sort.Slice(list, func(i, j int) bool {
		if !list[i].at.Equal(list[j].at) {
			return list[i].at.Before(list[j].at)
		}
		return list[i].seq < list[j].seq
	})
	for _, d := range list {
		if d.bucket != nil {
			d.bucket.Pending = nil
			s.bucketReached(d.bucket)
			continue
		}
		if d.cloud != nil {
			d.cloud.Pending = nil
			d.cloud.State = "running"
			continue
		}
		kind, at := d.cluster.Pending.Kind, d.cluster.Pending.At
		d.cluster.Pending = nil
		s.applyTransition(d.cluster, kind, at)
	}
	s.advanceApps(now)
	s.advanceProtection(now)
	s.advanceMirrors(now) // after the policies: a firing's transfer may be due (replication.go)
}

func (s *Sim) applyTransition(c *cluster, kind string, at time.Time) {
	switch kind {
	case transDiscovered:
		if c.State == "discovering" {
			c.State, c.StateUnready = "running", []string{}
		}
		if c.ManagedState == "pending" {
			c.ManagedState = "unmanaged"
		}
	case transManaged:
		if c.ManagedState != "managing" {
			return
		}
		c.ManagedState = "managed"
		t := at
		c.ManagedTimestamp = &t
		if c.State == "pending" {
			c.State, c.StateUnready = "running", []string{}
		}
		if c.TridentManagedStateDesired != "" && c.TridentVersion != "" {
			c.TridentManagedState = c.TridentManagedStateDesired
		}
	case transUnmanaged:
		c.ManagedState, c.ManagedTimestamp, c.MCVersion = "unmanaged", nil, ""
		c.ManagedStateUnready = []string{}
		c.DefaultBucketID = ""
		if c.TridentVersion != "" {
			c.TridentManagedState = "unmanaged"
		}
		c.TridentManagedStateDesired = ""
		if c.State == "pending" {
			c.State = "running"
		}
	case transRemoved:
		s.st.removeCluster(c)
	case transRecollected:
		if c.State == "removed" {
			c.State, c.StateUnready = "running", []string{}
		}
	}
}

// recheckCredential follows a credential change: a cluster that can no longer be reached
// is removed (state "removed", with the reason); one that can again is re-collected.
func (s *Sim) recheckCredential(c *cluster, now time.Time) {
	if c.State == "failed" || c.Removing {
		return
	}
	if reason := s.credentialProblem(c); reason != "" {
		c.State, c.StateUnready = "removed", []string{reason}
		if c.Pending != nil && c.Pending.Kind == transRecollected {
			c.Pending = nil
		}
		return
	}
	if c.State == "removed" {
		s.schedule(c, transRecollected, s.opts.Delays.Recollect, now)
	}
}

// FailCluster sends a cluster to state "failed" with stateUnready set to reasons (a
// default reason when none is given), as a permanent failure would.
func (s *Sim) FailCluster(id string, reasons ...string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.advance(s.opts.Now())
	c := s.st.Clusters[id]
	if c == nil {
		return fmt.Errorf("no cluster %s", id)
	}
	if len(reasons) == 0 {
		reasons = []string{"The cluster failed (injected by the simulator)"}
	}
	for _, r := range reasons {
		if r == "" || len(r) > 127 {
			return fmt.Errorf("a reason must have 1 to 127 characters")
		}
	}
	c.State, c.StateUnready = "failed", dedupe(reasons)
	return nil
}

// SetManagedApps records how many applications are managed on a cluster: while it is
// managed and n > 0, inUse is "true" and unmanaging it is refused.
func (s *Sim) SetManagedApps(clusterID string, n int) error {
	if n < 0 {
		return fmt.Errorf("the number of managed apps must not be negative")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.st.Clusters[clusterID]
	if c == nil {
		return fmt.Errorf("no cluster %s", clusterID)
	}
	c.ManagedApps = n
	return nil
}
