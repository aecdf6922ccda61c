package astrasim

import (
	"net/http"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

func (s *Sim) listClusters(q *request) *reply {
	cloudID, perCloud := q.params["cloud_id"]
	if perCloud && s.st.Clouds[cloudID] == nil {
		return fail(problem(2))
	}
	var items []map[string]any
	for _, c := range s.st.sortedClusters(func(c *cluster) bool { return !perCloud || c.CloudID == cloudID }) {
		items = append(items, s.renderCluster(c))
	}
	return s.list(q, apispec.Cluster, items)
}

// lookupCluster finds the cluster a path names, through its cloud when the path has one
// and only if managed on the managedClusters paths.
func (s *Sim) lookupCluster(q *request) (*cluster, *apiProblem) {
	cloudID, perCloud := q.params["cloud_id"]
	if perCloud && s.st.Clouds[cloudID] == nil {
		return nil, notFound(q)
	}
	id, viaManaged := q.params["managedCluster_id"]
	if !viaManaged {
		id = q.params["cluster_id"]
	}
	c := s.st.Clusters[id]
	if c == nil || (perCloud && c.CloudID != cloudID) || (viaManaged && !c.managed()) {
		return nil, notFound(q)
	}
	return c, nil
}

func (s *Sim) getCluster(q *request) *reply {
	c, p := s.lookupCluster(q)
	if p != nil {
		return fail(p)
	}
	return answer(http.StatusOK, apispec.Cluster, apispec.GetResponse, c.Version, s.renderCluster(c))
}

// hasRelay: relayV1 (up to 1.6) and connectorV2 (1.7) are the relay-capable capabilities.
func hasRelay(caps []string) bool {
	for _, c := range caps {
		if c == "relayV1" || c == "connectorV2" {
			return true
		}
	}
	return false
}

// connectorRule is the credentialID rule of cluster 1.5+: a credential and a relay-capable
// connector exclude each other (165); without a credential, privateRouteID and a relay
// capability are required (9). A lenient body with connectorInstall "pending" (actoolkit's
// Arch 3.0 registration) needs neither.
func connectorRule(credID, routeID string, caps []string, connectorInstall string) *apiProblem {
	relay := hasRelay(caps)
	if credID != "" && relay {
		return problem(165)
	}
	if credID == "" && !(routeID != "" && relay) && connectorInstall != "pending" {
		return invalidFields(9, fieldReason{"credentialID", "credentialID is required unless privateRouteID and a relay-capable connectorCapabilities (relayV1, connectorV2) are given"})
	}
	return nil
}

// kubeconfigCredential checks that credID names a kubeconfig credential that reaches its cluster.
func (s *Sim) kubeconfigCredential(credID string) (*credential, *apiProblem) {
	cred := s.st.Credentials[credID]
	if cred == nil {
		return nil, invalidFields(9, fieldReason{"credentialID", "no credential has this ID"})
	}
	if cred.KeyType != "kubeconfig" || cred.Kube == nil {
		return nil, invalidFields(9, fieldReason{"credentialID", "the credential is not a kubeconfig credential"})
	}
	return cred, nil
}

// postCluster adds a cluster to a private cloud: with a kubeconfig credential it is
// discovered (running/unmanaged at once unless Delays.Discover); through a connector it
// waits in state pending until the connector manages it.
func (s *Sim) postCluster(q *request) *reply {
	cl := s.st.Clouds[q.params["cloud_id"]]
	if cl == nil {
		return fail(problem(2))
	}
	if cl.public() {
		return fail(problem(93))
	}
	b, p := s.readBody(q, apispec.Cluster, apispec.PostRequest)
	if p != nil {
		return fail(p)
	}
	if id, ok := b.str("cloudID"); ok && id != cl.ID {
		return fail(invalidFields(10, fieldReason{"cloudID", "the cloudID differs from the cloud in the request URI"}))
	}
	credID, _ := b.str("credentialID")
	routeID, _ := b.str("privateRouteID")
	caps, _ := b.strings("connectorCapabilities")
	install, _ := b.str("connectorInstall")
	if p := connectorRule(credID, routeID, caps, install); p != nil {
		return fail(p)
	}
	var kube *kubeInfo
	if credID != "" {
		cred, p := s.kubeconfigCredential(credID)
		if p != nil {
			return fail(p)
		}
		if cred.Valid == "false" || cred.Kube.unreachable() {
			return fail(problem(63))
		}
		kube = cred.Kube
	}
	name, hasName := b.str("name")
	if !hasName {
		if kube == nil {
			return fail(invalidFields(9, fieldReason{"name", "a cluster added without a credential needs a name"}))
		}
		name = kube.ClusterName
		if len(name) > 63 {
			name = name[:63]
		}
	}
	if reason := checkName(name); reason != "" {
		return fail(invalidFields(9, fieldReason{"name", reason}))
	}
	apiServiceID, _ := b.str("apiServiceID")
	if kube != nil {
		apiServiceID = kube.apiServiceID()
	}
	for _, other := range s.st.Clusters {
		if (apiServiceID != "" && other.APIServiceID == apiServiceID) || (other.CloudID == cl.ID && other.Name == name) {
			return fail(problem(45))
		}
	}
	kind, ok := b.str("clusterType")
	if !ok {
		kind = "kubernetes"
	}
	c := s.newCluster(s.st, s.newID(), cl, name, kind, q.now)
	c.Version, c.Meta.CreatedBy = b.version, q.user.userID
	if labels, ok := labelsOf(b); ok {
		c.Meta.Labels = append(c.Meta.Labels, mergeLabels(nil, labels)...)
	}
	c.CredentialID, c.PrivateRouteID, c.ConnectorCapabilities, c.APIServiceID = credID, routeID, caps, apiServiceID
	c.Unknown = b.unknown
	if v, _ := b.str("accHost"); v == "true" {
		c.AccHost = true
	}
	s.seedStorageClasses(s.st, c, q.now, q.user.userID)
	if kube != nil {
		if cred := s.st.Credentials[credID]; cred != nil {
			cred.Meta.Labels = setLabel(setLabel(cred.Meta.Labels, labelClusterID, c.ID), labelClusterName, c.Name)
		}
		if s.opts.Delays.Discover > 0 {
			c.State, c.ManagedState = "discovering", "pending"
			s.schedule(c, transDiscovered, s.opts.Delays.Discover, q.now)
		}
	} else {
		c.Connector = true
		c.State, c.ManagedState, c.Namespaces = "pending", "pending", []string{}
	}
	return created(q, s.accountPath()+"/topology/v1/clouds/"+cl.ID+"/clusters/"+c.ID, apispec.Cluster, c.Version, s.renderCluster(c))
}

// putCluster changes the fields a PUT carries; omitted fields keep their values.
func (s *Sim) putCluster(q *request) *reply {
	c, p := s.lookupCluster(q)
	if p != nil {
		return fail(p)
	}
	if s.st.Clouds[c.CloudID].public() {
		return fail(problem(67))
	}
	if p := s.checkIfMatch(q.r, s.renderCluster(c)); p != nil {
		return fail(p)
	}
	b, p := s.readBody(q, apispec.Cluster, apispec.PutRequest)
	if p != nil {
		return fail(p)
	}
	if id, ok := b.str("id"); ok && id != c.ID {
		return fail(invalidFields(10, fieldReason{"id", "the id differs from the cluster's"}))
	}
	if v, ok := b.str("apiServiceID"); ok && c.APIServiceID != "" && v != c.APIServiceID {
		return fail(invalidFields(10, fieldReason{"apiServiceID", "the apiServiceID of a cluster can't change"}))
	}
	name, hasName := b.str("name")
	if hasName {
		if reason := checkName(name); reason != "" {
			return fail(invalidFields(9, fieldReason{"name", reason}))
		}
		for _, other := range s.st.Clusters {
			if other.ID != c.ID && other.CloudID == c.CloudID && other.Name == name {
				return fail(problem(45))
			}
		}
	}
	credID, hasCred := b.str("credentialID")
	if !hasCred {
		credID = c.CredentialID
	} else if _, p := s.kubeconfigCredential(credID); p != nil {
		return fail(p)
	}
	caps, hasCaps := b.strings("connectorCapabilities")
	if !hasCaps {
		caps = c.ConnectorCapabilities
	}
	if credID != "" && hasRelay(caps) {
		return fail(problem(165))
	}

	if hasName {
		c.Name = name
	}
	if hasCaps {
		c.ConnectorCapabilities = caps
	}
	if v, ok := b.str("privateRouteID"); ok {
		c.PrivateRouteID = v
	}
	if v, ok := b.str("clusterType"); ok {
		c.ClusterType = v
	}
	if v, ok := b.str("accHost"); ok {
		c.AccHost = v == "true"
	}
	if v, ok := b.str("apiServiceID"); ok {
		c.APIServiceID = v
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
	c.Version = b.version
	if s.opts.Lenient {
		c.Unknown = b.unknown
	}
	touch(&c.Meta, q)
	if hasCred && credID != c.CredentialID {
		if old := s.st.Credentials[c.CredentialID]; old != nil {
			old.Meta.Labels = withoutLabels(old.Meta.Labels, labelClusterID, labelClusterName)
		}
		c.CredentialID = credID
	}
	if cred := s.st.Credentials[c.CredentialID]; cred != nil {
		cred.Meta.Labels = setLabel(setLabel(cred.Meta.Labels, labelClusterID, c.ID), labelClusterName, c.Name)
	}
	if hasCred {
		// A credentialID change triggers another attempt to collect the cluster.
		s.recheckCredential(c, q.now)
	}
	return s.updated(q, apispec.Cluster, c.Version, s.renderCluster(c))
}

// deleteCluster removes a private cluster that is not managed.
func (s *Sim) deleteCluster(q *request) *reply {
	c, p := s.lookupCluster(q)
	if p != nil {
		return fail(p)
	}
	if s.st.Clouds[c.CloudID].public() {
		return fail(problem(92))
	}
	if p := s.checkIfMatch(q.r, s.renderCluster(c)); p != nil {
		return fail(p)
	}
	if c.managed() {
		return fail(invalidFields(10, fieldReason{"managedState", "the cluster is managed; unmanage it first with DELETE /topology/v1/managedClusters/" + c.ID}))
	}
	if !c.Removing {
		c.Removing = true
		s.schedule(c, transRemoved, s.opts.Delays.Remove, q.now)
	}
	return noContent()
}
