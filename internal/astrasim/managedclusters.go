package astrasim

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

func (s *Sim) listManagedClusters(q *request) *reply {
	var items []map[string]any
	for _, c := range s.st.sortedClusters((*cluster).managed) {
		items = append(items, s.renderManagedCluster(c))
	}
	return s.list(q, apispec.ManagedCluster, items)
}

func (s *Sim) getManagedCluster(q *request) *reply {
	c, p := s.lookupCluster(q)
	if p != nil {
		return fail(p)
	}
	return answer(http.StatusOK, apispec.ManagedCluster, apispec.GetResponse, s.mcVersion(c), s.renderManagedCluster(c))
}

// managedSettings applies defaultStorageClass, defaultBucketID and
// tridentManagedStateDesired from a managedCluster body, after checking them all.
func (s *Sim) managedSettings(c *cluster, b *body) *apiProblem {
	scID, hasSC := b.str("defaultStorageClass")
	if hasSC {
		sc := s.st.StorageClasses[scID]
		if sc == nil || sc.ClusterID != c.ID {
			return invalidFields(9, fieldReason{"defaultStorageClass", "the cluster has no storage class with this ID"})
		}
	}
	bucket, hasBucket := b.str("defaultBucketID")
	if hasBucket && bucket != "" && !containsString(c.ConnectorCapabilities, "neptuneV1") {
		return problem(171)
	}
	if p := s.unknownBucket(b); p != nil {
		return p
	}
	if hasSC {
		s.setDefaultStorageClass(c, scID)
	}
	if hasBucket {
		c.DefaultBucketID = bucket
	}
	if v, ok := b.str("tridentManagedStateDesired"); ok {
		c.TridentManagedStateDesired = v
		if c.ManagedState == "managed" && c.TridentVersion != "" {
			c.TridentManagedState = v
		}
	}
	if labels, ok := labelsOf(b); ok {
		c.Meta.Labels = mergeLabels(c.Meta.Labels, labels)
	}
	return nil
}

func containsString(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func (s *Sim) setDefaultStorageClass(c *cluster, scID string) {
	for _, sc := range s.st.storageClassesOf(c.ID) {
		sc.Default = sc.ID == scID
	}
	c.DefaultStorageClass = scID
}

// postManagedCluster starts managing a cluster: managing/pending, then managed/running
// with managedTimestamp (at once unless Delays.Manage).
func (s *Sim) postManagedCluster(q *request) *reply {
	b, p := s.readBody(q, apispec.ManagedCluster, apispec.PostRequest)
	if p != nil {
		return fail(p)
	}
	id, _ := b.str("id")
	c := s.st.Clusters[id]
	switch {
	case c == nil:
		return fail(invalidFields(9, fieldReason{"id", "no cluster has this ID"}))
	case c.Removing || c.ManagedState == "deleting":
		return fail(problem(164))
	case c.managed():
		return fail(invalidFields(10, fieldReason{"id", "the cluster is already managed"}))
	case c.ManagedState == "ineligible":
		return fail(invalidFields(9, fieldReason{"id", "the cluster isn't eligible for management: " + strings.Join(c.ManagedStateUnready, "; ")}))
	case c.ManagedState == "pending" && !c.Connector:
		return fail(problem(164))
	}
	if p := s.managedSettings(c, b); p != nil {
		return fail(p)
	}
	if c.Connector && len(c.Namespaces) == 0 {
		c.Namespaces = s.clusterNamespaces()
	}
	now := q.now
	c.MCVersion = b.version
	c.ManagedState, c.ManagedTimestamp, c.ManagedStateUnready = "managing", &now, []string{}
	if c.State == "running" {
		c.State = "pending"
	}
	touch(&c.Meta, q)
	s.schedule(c, transManaged, s.opts.Delays.Manage, now)
	return created(q, s.accountPath()+"/topology/v1/managedClusters/"+c.ID, apispec.ManagedCluster, c.MCVersion, s.renderManagedCluster(c))
}

func (s *Sim) putManagedCluster(q *request) *reply {
	c, p := s.lookupCluster(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderManagedCluster(c)); p != nil {
		return fail(p)
	}
	b, p := s.readBody(q, apispec.ManagedCluster, apispec.PutRequest)
	if p != nil {
		return fail(p)
	}
	if id, ok := b.str("id"); ok && id != c.ID {
		return fail(invalidFields(10, fieldReason{"id", "the id differs from the managed cluster's"}))
	}
	if name, ok := b.str("name"); ok {
		if reason := checkName(name); reason != "" {
			return fail(invalidFields(9, fieldReason{"name", reason}))
		}
		for _, other := range s.st.Clusters {
			if other.ID != c.ID && other.CloudID == c.CloudID && other.Name == name {
				return fail(problem(45))
			}
		}
	}
	if caps, ok := b.strings("connectorCapabilities"); ok { // lenient: the connector updates itself here
		if c.CredentialID != "" && hasRelay(caps) {
			return fail(problem(165))
		}
		c.ConnectorCapabilities = caps
	}
	if p := s.managedSettings(c, b); p != nil {
		return fail(p)
	}
	if name, ok := b.str("name"); ok {
		c.Name = name
	}
	if v, ok := b.str("privateRouteID"); ok {
		c.PrivateRouteID = v
	}
	c.MCVersion = b.version
	if s.opts.Lenient {
		c.Unknown = b.unknown
	}
	touch(&c.Meta, q)
	return s.updated(q, apispec.ManagedCluster, c.MCVersion, s.renderManagedCluster(c))
}

// deleteManagedCluster unmanages a cluster; a cluster with managed apps is refused.
func (s *Sim) deleteManagedCluster(q *request) *reply {
	c, p := s.lookupCluster(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderManagedCluster(c)); p != nil {
		return fail(p)
	}
	if c.inUse() {
		return fail(invalidFields(10, fieldReason{"inUse", fmt.Sprintf(
			"the cluster has %d managed application(s) (%s); unmanage them before unmanaging the cluster", c.ManagedApps+len(c.AppIDs), s.managedAppNames(c))}))
	}
	if c.ManagedState != "deleting" {
		c.ManagedState = "deleting"
		touch(&c.Meta, q)
		s.schedule(c, transUnmanaged, s.opts.Delays.Unmanage, q.now)
	}
	return noContent()
}
