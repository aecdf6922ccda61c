package astra

import (
	"context"
	"encoding/json"
	"errors"
)

// Cluster is the unmanaged facet of a Kubernetes cluster (application/astra-cluster), under
// /topology/v1/clouds/{cloud}/clusters and the cloud-less alias /topology/v1/clusters.
type Cluster struct {
	Type    string `json:"type"`
	Version string `json:"version"`
	ID      string `json:"id,omitempty"`
	ClusterStatus
	ConnectorCapabilities []string                   `json:"connectorCapabilities,omitempty"`
	Metadata              Metadata                   `json:"metadata,omitzero"`
	Extra                 map[string]json.RawMessage `json:"-"`
}

// ClusterStatus is what both facets of a cluster (Cluster and ManagedCluster) report: its
// identity in Kubernetes and everything the service computes about it.
type ClusterStatus struct {
	Name                       string        `json:"name,omitempty"`
	State                      string        `json:"state,omitempty"`
	StateUnready               []string      `json:"stateUnready,omitempty"`
	ManagedState               string        `json:"managedState,omitempty"`
	ManagedStateUnready        []string      `json:"managedStateUnready,omitempty"`
	ManagedStateDetails        []StateDetail `json:"managedStateDetails,omitempty"`
	ManagedTimestamp           string        `json:"managedTimestamp,omitempty"`
	ProtectionState            string        `json:"protectionState,omitempty"`
	ProtectionStateDetails     []StateDetail `json:"protectionStateDetails,omitempty"`
	RestoreTargetSupported     *Bool         `json:"restoreTargetSupported,omitempty"`
	SnapshotSupported          *Bool         `json:"snapshotSupported,omitempty"`
	TridentVersion             string        `json:"tridentVersion,omitempty"`
	ACPVersion                 string        `json:"acpVersion,omitempty"`
	TridentManagedState        string        `json:"tridentManagedState,omitempty"`
	TridentManagedStateDesired string        `json:"tridentManagedStateDesired,omitempty"`
	TridentManagedStateDetails []StateDetail `json:"tridentManagedStateDetails,omitempty"`
	TridentManagedStateAllowed []string      `json:"tridentManagedStateAllowed,omitempty"`
	InUse                      *Bool         `json:"inUse,omitempty"`
	AccHost                    *Bool         `json:"accHost,omitempty"`
	IsMultizonal               *Bool         `json:"isMultizonal,omitempty"`
	ClusterType                string        `json:"clusterType,omitempty"`
	ClusterVersion             string        `json:"clusterVersion,omitempty"`
	ClusterVersionString       string        `json:"clusterVersionString,omitempty"`
	ClusterCreationTimestamp   string        `json:"clusterCreationTimestamp,omitempty"`
	Namespaces                 []string      `json:"namespaces,omitempty"`
	DefaultStorageClass        string        `json:"defaultStorageClass,omitempty"`
	CloudID                    string        `json:"cloudID,omitempty"`
	CredentialID               string        `json:"credentialID,omitempty"`
	Location                   string        `json:"location,omitempty"`
	PrivateRouteID             string        `json:"privateRouteID,omitempty"`
	APIServiceID               string        `json:"apiServiceID,omitempty"`
}

// UnmarshalJSON keeps unknown members in Extra.
func (c *Cluster) UnmarshalJSON(b []byte) error {
	type plain Cluster
	return decodeKeepingExtra(b, (*plain)(c), &c.Extra)
}

// MarshalJSON sends Extra back beside the known members.
func (c Cluster) MarshalJSON() ([]byte, error) {
	type plain Cluster
	return encodeWithExtra(plain(c), c.Extra)
}

// ClusterCreate is the POST body of a cluster, minus type and version, which the client
// sets from Config.ClusterVersion.
type ClusterCreate struct {
	Name                  string
	CredentialID          string
	PrivateRouteID        string   // version >= 1.4
	ConnectorCapabilities []string // version >= 1.5
	AccHost               *Bool    // sent only when true: the schema knows no "false"
	ClusterType           string   // only sent for version >= 1.7
	Labels                []Label  // sent as metadata.labels when non-empty
}

type clusterPostBody struct {
	Type                  string    `json:"type"`
	Version               string    `json:"version"`
	Name                  string    `json:"name,omitempty"`
	AccHost               *Bool     `json:"accHost,omitempty"`
	CredentialID          string    `json:"credentialID,omitempty"`
	PrivateRouteID        string    `json:"privateRouteID,omitempty"`
	ConnectorCapabilities []string  `json:"connectorCapabilities,omitempty"`
	ClusterType           string    `json:"clusterType,omitempty"`
	Metadata              *Metadata `json:"metadata,omitempty"`
}

const (
	topologyClustersPath = "/topology/v1/clusters"
	clusterResource      = "cluster"
)

// clustersPath is a cloud's cluster collection, or the cloud-less alias when cloudID is "".
func clustersPath(cloudID string) (string, error) {
	if cloudID == "" {
		return topologyClustersPath, nil
	}
	cloud, err := cloudPath(cloudID)
	return cloud + "/clusters", err
}

func clusterPath(cloudID, id string) (string, error) {
	collection, err := clustersPath(cloudID)
	if err != nil {
		return "", err
	}
	seg, err := segment("cluster", id)
	return collection + "/" + seg, err
}

// ListClusters lists a cloud's clusters, managed or not; cloudID "" lists every cloud's.
func (c *Client) ListClusters(ctx context.Context, cloudID string, opts ListOptions) ([]Cluster, error) {
	path, err := clustersPath(cloudID)
	if err != nil {
		return nil, err
	}
	return list[Cluster](ctx, c, path, clusterResource, opts)
}

// GetClusterJSON is GetCluster's answer as the service sent it.
func (c *Client) GetClusterJSON(ctx context.Context, cloudID, id string) (json.RawMessage, error) {
	path, err := clusterPath(cloudID, id)
	if err != nil {
		return nil, err
	}
	collection, _ := clustersPath(cloudID) // clusterPath checked cloudID
	return getSharedJSON(ctx, c, collection, path, clusterResource, id)
}

// GetCluster reads one cluster; cloudID "" uses the cloud-less alias.
func (c *Client) GetCluster(ctx context.Context, cloudID, id string) (*Cluster, error) {
	path, err := clusterPath(cloudID, id)
	if err != nil {
		return nil, err
	}
	collection, _ := clustersPath(cloudID) // clusterPath checked cloudID
	return getShared[Cluster](ctx, c, collection, path, clusterResource, id)
}

// CreateCluster adds a cluster to a cloud (there is no cloud-less POST). A body the
// configured version cannot express is refused before anything is sent.
func (c *Client) CreateCluster(ctx context.Context, cloudID string, in ClusterCreate) (*Cluster, error) {
	if cloudID == "" {
		return nil, errors.New("astra: adding a cluster needs a cloud ID")
	}
	path, err := clustersPath(cloudID)
	if err != nil {
		return nil, err
	}
	body, err := c.clusterPostBody(in)
	if err != nil {
		return nil, err
	}
	created, err := create(ctx, c, path, clusterResource, body, func(ctx context.Context, id string) (*Cluster, error) {
		return c.GetCluster(ctx, cloudID, id)
	})
	if created != nil {
		c.share.wrote(created.ID)
	}
	return created, err
}

func (c *Client) clusterPostBody(in ClusterCreate) (map[string]json.RawMessage, error) {
	version := c.clusterVersion
	body := clusterPostBody{
		Type: mediaType(clusterResource), Version: version, Name: in.Name, CredentialID: in.CredentialID,
		PrivateRouteID: in.PrivateRouteID, ConnectorCapabilities: in.ConnectorCapabilities,
		Metadata: metadataWithLabels(in.Labels),
	}
	if in.AccHost.Value() {
		body.AccHost = in.AccHost
	}
	if versionAtLeast(version, "1.7") {
		body.ClusterType = in.ClusterType
	}
	if in.CredentialID == "" && !versionAtLeast(version, "1.5") {
		return nil, errors.New("astra: cluster resource version " + version + " requires a credential ID (optional from 1.5, with a connector)")
	}
	m, err := members(body)
	if err != nil {
		return nil, err
	}
	return m, refuseNewerMembers(clusterResource, version, m, clusterPostGates)
}

// UpdateCluster PUTs the whole cluster back: every member read, unknown ones included, with
// type and version set to the configured version. Members that version does not define are
// left out. A 200 answer's body is returned; a 204 is followed by a read.
func (c *Client) UpdateCluster(ctx context.Context, cloudID string, cluster *Cluster) (*Cluster, error) {
	if cluster == nil {
		return nil, errors.New("astra: no cluster to update")
	}
	path, err := clusterPath(cloudID, cluster.ID)
	if err != nil {
		return nil, err
	}
	body := *cluster
	body.Type, body.Version = mediaType(clusterResource), c.clusterVersion
	m, err := members(body)
	if err != nil {
		return nil, err
	}
	dropNewerMembers(c.clusterVersion, m, clusterPutGates)
	dropFalseAccHost(m)
	defer c.share.wrote(cluster.ID)()
	return update(ctx, c, path, clusterResource, m, func(ctx context.Context) (*Cluster, error) {
		return c.GetCluster(ctx, cloudID, cluster.ID)
	})
}

// DeleteCluster removes a cluster record. Astra expects it unmanaged first.
func (c *Client) DeleteCluster(ctx context.Context, cloudID, id string) error {
	path, err := clusterPath(cloudID, id)
	if err != nil {
		return err
	}
	defer c.share.wrote(id)()
	return c.remove(ctx, path, clusterResource, nil)
}
