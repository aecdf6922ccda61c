package astrasim

import (
	"fmt"
	"slices"
	"strings"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// defaultBucket is the bucket a snapshot or backup goes to when none is named: the managed
// cluster's defaultBucketID, else its cloud's defaultBucketID. The order is the appSnap 1.3
// schema's ("If not specified, a default bucket on the cluster is used. If no default
// bucket is specified on the cluster, the corresponding cloud default bucket will be used").
func (s *Sim) defaultBucket(a *app) string {
	c := s.st.Clusters[a.ClusterID]
	if c == nil {
		return ""
	}
	if c.DefaultBucketID != "" && s.st.Buckets[c.DefaultBucketID] != nil {
		return c.DefaultBucketID
	}
	if cl := s.st.Clouds[c.CloudID]; cl != nil && cl.DefaultBucketID != "" && s.st.Buckets[cl.DefaultBucketID] != nil {
		return cl.DefaultBucketID
	}
	return ""
}

// backupBucket is where a backup goes when it names no bucket: the default bucket, else
// "a system-selected bucket" (appBackup schema: "If no buckets are available, an error
// will be returned on create"). Which one the service selects is unsaid: the simulator
// takes the oldest available bucket. "" when there is none.
func (s *Sim) backupBucket(a *app) string {
	if id := s.defaultBucket(a); id != "" {
		return id
	}
	for _, b := range s.st.sortedBuckets() {
		if b.State == "available" {
			return b.ID
		}
	}
	return ""
}

// noBucketProblem refuses a backup with nowhere to go: 400 problem 170 ("Default bucket
// not assigned"), the catalogue's closest match to the schema's "an error will be returned".
func noBucketProblem() *apiProblem {
	p := problem(170)
	p.Detail = "No bucketID was given, the app's cluster and cloud have no default bucket, and no bucket is available."
	return p
}

// snapshotBucketFor decides a snapshot's bucketID (appSnap 1.3, release 24.02; older
// versions have no such member, so their schema refuses it). Only a cluster with the
// neptuneV1 capability keeps snapshots in a bucket: naming one for another cluster is 400
// problem 177, as the spec lists; a bucket that does not exist, 400 problem 108. Without
// one, a neptuneV1 cluster's snapshot goes to the default bucket, and with none that is
// 400 problem 170 ("If the cloud default bucket is not available, an error will be
// returned on create"). Other clusters' snapshots have no bucket.
func (s *Sim) snapshotBucketFor(a *app, version, requested string) (string, *apiProblem) {
	c := s.st.Clusters[a.ClusterID]
	neptune := c != nil && slices.Contains(c.ConnectorCapabilities, "neptuneV1")
	if sc := s.responseSchema(apispec.AppSnap, version); sc == nil || sc.Properties["bucketID"] == nil {
		return "", nil
	}
	switch {
	case requested != "" && !neptune:
		return "", problem(177)
	case requested != "" && s.st.Buckets[requested] == nil:
		p := problem(108)
		p.Detail = "No bucket has the ID " + requested + " given as bucketID."
		return "", p
	case requested != "":
		return requested, nil
	case !neptune:
		return "", nil
	}
	if id := s.defaultBucket(a); id != "" {
		return id, nil
	}
	return "", noBucketProblem()
}

// bucketInUse refuses to forget a bucket that holds backups (or neptuneV1 snapshots) or
// that a protection policy backs up into: 409 problem 83 (research §4.7: "Deleting a bucket
// that holds backups or that a schedule uses is refused with 409/83"). The detail names
// what is in the way, so a client can show it.
func (s *Sim) bucketInUse(b *bucket) *apiProblem {
	var backups, snapshots, policies []string
	for _, bk := range s.st.backupsOf("") {
		if bk.BucketID == b.ID {
			backups = append(backups, s.nameInApp("backup", bk.Name, bk.ID, bk.AppID))
		}
	}
	for _, sn := range s.st.Snapshots {
		if sn.BucketID == b.ID {
			snapshots = append(snapshots, s.nameInApp("snapshot", sn.Name, sn.ID, sn.AppID))
		}
	}
	slices.Sort(snapshots)
	for _, sc := range s.st.Schedules {
		if sc.BucketID == b.ID {
			policies = append(policies, s.nameInApp("protection policy", sc.Name, sc.ID, sc.AppID))
		}
	}
	slices.Sort(policies)
	if len(backups)+len(snapshots)+len(policies) == 0 {
		return nil
	}
	var parts []string
	for _, group := range []struct {
		what  string
		names []string
	}{{"holds", backups}, {"holds", snapshots}, {"is the bucket of", policies}} {
		if len(group.names) > 0 {
			parts = append(parts, group.what+" "+listNames(group.names))
		}
	}
	p := problem(83)
	p.Detail = "The bucket " + b.Name + " (" + b.ID + ") " + strings.Join(parts, " and ") + "; delete those first."
	return p
}

// nameInApp names an object for a problem's detail: `backup "x" (id) of app "web"`.
func (s *Sim) nameInApp(what, name, id, appID string) string {
	out := fmt.Sprintf("%s %q (%s)", what, name, id)
	if a := s.st.Apps[appID]; a != nil {
		out += fmt.Sprintf(" of app %q", a.Name)
	}
	return out
}

// listNames joins names, at most 10 of them, with how many more there are.
func listNames(names []string) string {
	const most = 10
	if len(names) <= most {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:most], ", ") + fmt.Sprintf(" and %d more", len(names)-most)
}
