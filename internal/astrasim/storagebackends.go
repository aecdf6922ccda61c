package astrasim

import (
	"net/http"
	"slices"
	"sort"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// Storage backends (/topology/v1/storageBackends; research notes §4.13, SPEC-22.11…24.02
// storageBackend 1.0–1.3). Astra Control Center lists the ONTAP systems it found through
// a managed cluster's Trident ("discovered") and those it manages. The simulator models
// one ONTAP backend per managed cluster, managed and running, unless the cluster is named
// in Options.NonONTAPClusters (-non-ontap-cluster): such a cluster's storage is not ONTAP
// (cloud disks, say), so it has no entry here (the published backendType enum is "ontap"
// only) and cannot take part in replication. The published documents have no
// cluster-scoped backend path; the backend's cluster is the simulator's own bookkeeping.
//
// How a backend is added or managed through the API is unknown (§4.13: no POST field
// carries an address or a secret), so a POST records a managed backend that serves no
// cluster. DELETE follows the UI: a managed backend is unmanaged (back to "discovered"),
// a discovered one is removed for good; a backend a replication relationship needs is
// refused (409/10), the conservative reading.

// storageBackend is one backend record. ClusterID is "" for one a POST made.
type storageBackend struct {
	Seq             int    `json:"seq"`
	ID              string `json:"id"`
	Version         string `json:"version"`
	ClusterID       string `json:"clusterID,omitempty"`
	Name            string `json:"backendName"`
	CredentialsName string `json:"backendCredentialsName"`
	BackendVersion  string `json:"backendVersion"`
	ManagedState    string `json:"managedState"`
	State           string `json:"state"`
	Removed         bool   `json:"removed,omitempty"` // deleted for good: never rediscovered
	Meta            meta   `json:"metadata"`
}

// ontapVersion is what the seeded ONTAP systems run (a release with SnapMirror
// asynchronous, which replication needs).
const ontapVersion = "9.13.1"

// backendOf is the live backend record of a cluster, or nil.
func (st *state) backendOf(clusterID string) *storageBackend {
	for _, b := range st.Replication.Backends {
		if b.ClusterID == clusterID && !b.Removed {
			return b
		}
	}
	return nil
}

// isONTAP reports whether the options leave a cluster on ONTAP storage.
func (s *Sim) isONTAP(c *cluster) bool {
	return !slices.Contains(s.opts.NonONTAPClusters, c.ID) && !slices.Contains(s.opts.NonONTAPClusters, c.Name)
}

// syncBackends gives every managed ONTAP cluster its backend record the first time it is
// looked at. Records keep the cluster's sequence number (not a new one), so creating them
// lazily changes no other object's ID or order.
func (s *Sim) syncBackends(now time.Time) {
	st := s.st
	if st.Replication.Backends == nil {
		st.Replication.Backends = map[string]*storageBackend{}
	}
	for _, c := range st.sortedClusters(func(c *cluster) bool { return c.ManagedState == "managed" }) {
		id := derivedUUID4(s.opts.Seed, "storageBackend/"+c.ID)
		if _, seen := st.Replication.Backends[id]; seen || !s.isONTAP(c) {
			continue
		}
		st.Replication.Backends[id] = &storageBackend{
			Seq: c.Seq, ID: id, Version: s.newest[apispec.StorageBackend], ClusterID: c.ID,
			Name: shorten("ontap-"+c.Name, 63), CredentialsName: shorten("ontap-admin-"+c.Name, 63), BackendVersion: ontapVersion,
			ManagedState: "managed", State: "running",
			Meta: meta{Labels: []label{}, Created: now, Modified: now, CreatedBy: c.Meta.CreatedBy},
		}
	}
}

// backendReady says why a cluster cannot replicate for want of storage, or "".
func (s *Sim) backendReady(c *cluster) string {
	b := s.st.backendOf(c.ID)
	switch {
	case !s.isONTAP(c) || b == nil:
		return "Managed cluster " + c.Name + " has no ONTAP storage backend: SnapMirror replication needs ONTAP on both clusters."
	case b.ManagedState != "managed" || b.State != "running":
		return "The ONTAP storage backend " + b.Name + " of managed cluster " + c.Name + " is not managed by Astra Control."
	}
	return ""
}

func (st *state) sortedBackends() []*storageBackend {
	var out []*storageBackend
	for _, b := range st.Replication.Backends {
		if !b.Removed {
			out = append(out, b)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Seq != out[j].Seq {
			return out[i].Seq < out[j].Seq
		}
		return out[i].ID < out[j].ID
	})
	return out
}

func (s *Sim) renderBackend(b *storageBackend) map[string]any {
	m := map[string]any{
		"type": "application/astra-storageBackend", "version": b.Version, "id": b.ID,
		"backendName": b.Name, "backendType": "ontap", "backendVersion": b.BackendVersion,
		"backendCredentialsName": b.CredentialsName, "configVersion": "1",
		"state": b.State, "stateUnready": []any{}, "managedState": b.ManagedState, "managedStateUnready": []any{},
		"healthState": "normal", "healthStateUnready": []any{},
		"protectionState": "unknown", "protectionStateUnready": []any{}, // "unknown" for ONTAP (the spec)
		"capabilities": map[string]any{"flexClone": "true", "snapMirror": "true", "s3": "false"},
		"ontap":        map[string]any{"authenticationStyle": "basic"},
		"metadata":     renderMeta(b.Meta),
	}
	if b.ManagedState == "managed" {
		m["stateDesired"] = "running"
	}
	if b.ClusterID != "" {
		ip := "10.0." + itoa(b.Seq%250) + ".10" // a management LIF per system, stable
		m["ontap"] = map[string]any{"authenticationStyle": "basic", "backendManagementIP": ip, "managementIPs": strs([]string{ip})}
	}
	sc := s.responseSchema(apispec.StorageBackend, b.Version)
	ontap, _ := m["ontap"].(map[string]any)
	if ref := sc.Properties["ontap"]; ref != nil && ref.Value != nil {
		fitToSchema(ref.Value, ontap) // 1.2's ontap has no authenticationStyle
	}
	return fitToSchema(sc, m)
}

func (s *Sim) backendPath(b *storageBackend) string {
	return s.accountPath() + "/topology/v1/storageBackends/" + b.ID
}

func (s *Sim) listStorageBackends(q *request) *reply {
	s.syncBackends(q.now)
	var items []map[string]any
	for _, b := range s.st.sortedBackends() {
		items = append(items, s.renderBackend(b))
	}
	return s.list(q, apispec.StorageBackend, items)
}

func (s *Sim) lookupBackend(q *request) (*storageBackend, *apiProblem) {
	s.syncBackends(q.now)
	b := s.st.Replication.Backends[q.params["storageBackend_id"]]
	if b == nil || b.Removed {
		return nil, notFound(q)
	}
	return b, nil
}

func (s *Sim) getStorageBackend(q *request) *reply {
	b, p := s.lookupBackend(q)
	if p != nil {
		return fail(p)
	}
	return answer(http.StatusOK, apispec.StorageBackend, apispec.GetResponse, b.Version, s.renderBackend(b))
}

// backendNamed is the live backend named name other than except, or nil.
func (st *state) backendNamed(name, except string) *storageBackend {
	for _, b := range st.sortedBackends() {
		if b.Name == name && b.ID != except {
			return b
		}
	}
	return nil
}

func backendExists(b *storageBackend) *apiProblem {
	p := invalidFields(139, fieldReason{"backendName", "a storage backend named " + b.Name + " exists (" + b.ID + ")"})
	return p
}

func (s *Sim) postStorageBackend(q *request) *reply {
	s.syncBackends(q.now)
	b, p := s.readBody(q, apispec.StorageBackend, apispec.PostRequest)
	if p != nil {
		return fail(p)
	}
	name, _ := b.str("backendName")
	if name == "" {
		return fail(invalidFields(9, fieldReason{"backendName", "a storage backend needs a name"}))
	}
	if reason := checkName(name); reason != "" {
		return fail(invalidFields(9, fieldReason{"backendName", reason}))
	}
	if other := s.st.backendNamed(name, ""); other != nil {
		return fail(backendExists(other))
	}
	cred, _ := b.str("backendCredentialsName")
	if cred == "" {
		cred = name
	}
	version, _ := b.str("backendVersion")
	if version == "" {
		version = ontapVersion
	}
	rec := &storageBackend{Seq: s.st.nextSeq(), Version: b.version, Name: name, CredentialsName: cred, BackendVersion: version,
		ManagedState: "managed", State: "running", Meta: meta{Labels: []label{}, Created: q.now, Modified: q.now, CreatedBy: q.user.userID}}
	rec.ID = derivedUUID4(s.opts.Seed, "object/"+itoa(rec.Seq))
	if labels, ok := labelsOf(b); ok {
		rec.Meta.Labels = mergeLabels(nil, labels)
	}
	s.st.Replication.Backends[rec.ID] = rec
	return created(q, s.backendPath(rec), apispec.StorageBackend, rec.Version, s.renderBackend(rec))
}

// putStorageBackend renames a backend, rotates its credential name and replaces its user
// labels; its type cannot change (409/10). stateDesired accepts only "running" (the spec).
func (s *Sim) putStorageBackend(q *request) *reply {
	rec, p := s.lookupBackend(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderBackend(rec)); p != nil {
		return fail(p)
	}
	b, p := s.readBody(q, apispec.StorageBackend, apispec.PutRequest)
	if p != nil {
		return fail(p)
	}
	if id, ok := b.str("id"); ok && id != rec.ID {
		return fail(invalidFields(10, fieldReason{"id", "the id differs from the storage backend's"}))
	}
	if name, ok := b.str("backendName"); ok {
		if reason := checkName(name); reason != "" {
			return fail(invalidFields(9, fieldReason{"backendName", reason}))
		}
		if other := s.st.backendNamed(name, rec.ID); other != nil {
			return fail(backendExists(other))
		}
		rec.Name = name
	}
	if cred, ok := b.str("backendCredentialsName"); ok {
		rec.CredentialsName = cred
	}
	labels, _ := labelsOf(b)
	rec.Meta.Labels = mergeLabels(rec.Meta.Labels, labels)
	rec.Version = b.version
	touch(&rec.Meta, q)
	return s.updated(q, apispec.StorageBackend, rec.Version, s.renderBackend(rec))
}

func (s *Sim) deleteStorageBackend(q *request) *reply {
	rec, p := s.lookupBackend(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderBackend(rec)); p != nil {
		return fail(p)
	}
	if rec.ClusterID != "" {
		for _, m := range s.st.sortedMirrors() {
			if m.State != "deleting" && (m.SourceClusterID == rec.ClusterID || m.DestinationClusterID == rec.ClusterID) {
				return fail(invalidFields(10, fieldReason{"id", "the storage backend carries the replication relationship " + m.ID + "; delete it first"}))
			}
		}
	}
	if rec.ClusterID != "" && rec.ManagedState == "managed" {
		rec.ManagedState, rec.State = "unmanaged", "discovered"
		touch(&rec.Meta, q)
		return noContent()
	}
	rec.Removed = true
	return noContent()
}
