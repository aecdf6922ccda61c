package astrasim

import "strconv"

// concurrentWriterLabel is the user label the concurrent-write fault sets: its value counts
// the writes, so a test can tell one write from two.
const concurrentWriterLabel = "concurrent-writer"

// nextBucket is the bucket after id in creation order (the first one after the last, or
// after none); id itself when it is the only bucket, "" when there is none.
func (st *state) nextBucket(id string) string {
	buckets := st.sortedBuckets()
	for i, b := range buckets {
		if b.ID == id {
			return buckets[(i+1)%len(buckets)].ID
		}
	}
	if len(buckets) == 0 {
		return id
	}
	return buckets[0].ID
}

// concurrentWrite is another client writing the object a request names, just before the
// request is evaluated (the concurrent-write fault): what a PUT built from an earlier GET
// would silently revert, and what If-Match turns into a 412. It changes a field that a
// Terraform configuration of the object does not set:
//   - a cluster (the Cluster API, whose user labels the configuration owns): its
//     tridentManagedStateDesired flips between "managed" and "unmanaged";
//   - a managed cluster (whose labels are the cluster's): the next of its storage classes
//     becomes the default one (with fewer than two, it is written as a cloud is);
//   - a cloud, a credential, a bucket, an app: the user label concurrent-writer is set to the
//     number of concurrent writes so far;
//   - a schedule: the user label concurrent-writer as above, and its backups move to the
//     next bucket of the account (by creation order), when there is another: a bucketID a
//     configuration may leave to the service;
//   - a hook source, an execution hook (on either path): the user label concurrent-writer.
//
// Each write moves modificationTimestamp. A request naming no object it knows writes nothing.
func (s *Sim) concurrentWrite(params map[string]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.opts.Now()
	s.advance(now)
	s.concurrentWrites++
	n := strconv.Itoa(s.concurrentWrites)
	// labelled is the write to an object whose user labels no configuration here sets.
	labelled := func(m *meta) {
		m.Labels = setLabel(m.Labels, concurrentWriterLabel, n)
		m.Modified = now
	}
	switch {
	case params["executionHook_id"] != "": // before app_id: the app-scoped path names both
		if h := s.st.Hooks[params["executionHook_id"]]; h != nil {
			labelled(&h.Meta)
		}
	case params["hookSource_id"] != "":
		if h := s.st.HookSources[params["hookSource_id"]]; h != nil {
			labelled(&h.Meta)
		}
	case params["schedule_id"] != "":
		if sc := s.st.Schedules[params["schedule_id"]]; sc != nil {
			labelled(&sc.Meta)
			sc.BucketID = s.st.nextBucket(sc.BucketID)
		}
	case params["appMirror_id"] != "": // before app_id, which the alias path also names
		if m := s.st.Replication.Mirrors[params["appMirror_id"]]; m != nil {
			labelled(&m.Meta)
		}
	case params["storageBackend_id"] != "":
		if b := s.st.Replication.Backends[params["storageBackend_id"]]; b != nil {
			labelled(&b.Meta)
		}
	case params["app_id"] != "":
		if a := s.st.Apps[params["app_id"]]; a != nil {
			labelled(&a.Meta)
		}
	case params["bucket_id"] != "":
		if b := s.st.Buckets[params["bucket_id"]]; b != nil {
			labelled(&b.Meta)
		}
	case params["managedCluster_id"] != "":
		if c := s.st.Clusters[params["managedCluster_id"]]; c != nil {
			if scs := s.st.storageClassesOf(c.ID); len(scs) > 1 {
				next := scs[0]
				for i, sc := range scs {
					if sc.ID == c.DefaultStorageClass {
						next = scs[(i+1)%len(scs)]
					}
				}
				s.setDefaultStorageClass(c, next.ID)
				c.Meta.Modified = now
			} else {
				labelled(&c.Meta)
			}
		}
	case params["cluster_id"] != "":
		if c := s.st.Clusters[params["cluster_id"]]; c != nil {
			if c.TridentManagedStateDesired == "managed" {
				c.TridentManagedStateDesired = "unmanaged"
			} else {
				c.TridentManagedStateDesired = "managed"
			}
			c.Meta.Modified = now
		}
	case params["credential_id"] != "":
		if c := s.st.Credentials[params["credential_id"]]; c != nil {
			labelled(&c.Meta)
		}
	case params["cloud_id"] != "":
		if c := s.st.Clouds[params["cloud_id"]]; c != nil {
			labelled(&c.Meta)
		}
	}
}
