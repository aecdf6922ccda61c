package astra

import (
	"context"
	"encoding/json"
	"errors"
)

// ManagedCluster is the managed facet of a cluster (application/astra-managedCluster). It
// shares the cluster's ID; POSTing it starts management, DELETEing it stops management.
type ManagedCluster struct {
	Type    string `json:"type"`
	Version string `json:"version"`
	ID      string `json:"id,omitempty"`
	ClusterStatus
	DefaultBucketID string                     `json:"defaultBucketID,omitempty"`
	Metadata        Metadata                   `json:"metadata,omitzero"`
	Extra           map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps unknown members in Extra.
func (m *ManagedCluster) UnmarshalJSON(b []byte) error {
	type plain ManagedCluster
	return decodeKeepingExtra(b, (*plain)(m), &m.Extra)
}

// MarshalJSON sends Extra back beside the known members.
func (m ManagedCluster) MarshalJSON() ([]byte, error) {
	type plain ManagedCluster
	return encodeWithExtra(plain(m), m.Extra)
}

// ManagedClusterCreate is the POST body that starts managing cluster ID.
type ManagedClusterCreate struct {
	ID                         string
	TridentManagedStateDesired string
	DefaultStorageClass        string
	DefaultBucketID            string // managedCluster version >= 1.7 (cluster version 1.7)
	Labels                     []Label
}

type managedClusterPostBody struct {
	Type                       string    `json:"type"`
	Version                    string    `json:"version"`
	ID                         string    `json:"id"`
	TridentManagedStateDesired string    `json:"tridentManagedStateDesired,omitempty"`
	DefaultStorageClass        string    `json:"defaultStorageClass,omitempty"`
	DefaultBucketID            string    `json:"defaultBucketID,omitempty"`
	Metadata                   *Metadata `json:"metadata,omitempty"`
}

const (
	managedClustersPath    = "/topology/v1/managedClusters"
	managedClusterResource = "managedCluster"
)

func managedClusterPath(id string) (string, error) {
	seg, err := segment("managed cluster", id)
	return managedClustersPath + "/" + seg, err
}

// ListManagedClusters lists the managed clusters.
func (c *Client) ListManagedClusters(ctx context.Context, opts ListOptions) ([]ManagedCluster, error) {
	return list[ManagedCluster](ctx, c, managedClustersPath, managedClusterResource, opts)
}

// GetManagedClusterJSON is GetManagedCluster's answer as the service sent it.
func (c *Client) GetManagedClusterJSON(ctx context.Context, id string) (json.RawMessage, error) {
	path, err := managedClusterPath(id)
	if err != nil {
		return nil, err
	}
	return getSharedJSON(ctx, c, managedClustersPath, path, managedClusterResource, id)
}

// GetManagedCluster reads one managed cluster.
func (c *Client) GetManagedCluster(ctx context.Context, id string) (*ManagedCluster, error) {
	path, err := managedClusterPath(id)
	if err != nil {
		return nil, err
	}
	return getShared[ManagedCluster](ctx, c, managedClustersPath, path, managedClusterResource, id)
}

// CreateManagedCluster starts managing a cluster.
func (c *Client) CreateManagedCluster(ctx context.Context, in ManagedClusterCreate) (*ManagedCluster, error) {
	if in.ID == "" {
		return nil, errors.New("astra: managing a cluster needs its ID")
	}
	version := c.ManagedClusterVersion()
	body := managedClusterPostBody{
		Type: mediaType(managedClusterResource), Version: version, ID: in.ID,
		TridentManagedStateDesired: in.TridentManagedStateDesired, DefaultStorageClass: in.DefaultStorageClass,
		DefaultBucketID: in.DefaultBucketID, Metadata: metadataWithLabels(in.Labels),
	}
	m, err := members(body)
	if err != nil {
		return nil, err
	}
	if err := refuseNewerMembers(managedClusterResource, version, m, managedClusterPostGates); err != nil {
		return nil, err
	}
	defer c.share.wrote(in.ID)()
	return create(ctx, c, managedClustersPath, managedClusterResource, m, c.GetManagedCluster)
}

// UpdateManagedCluster PUTs the whole managed cluster back, as UpdateCluster does.
func (c *Client) UpdateManagedCluster(ctx context.Context, mc *ManagedCluster) (*ManagedCluster, error) {
	if mc == nil {
		return nil, errors.New("astra: no managed cluster to update")
	}
	path, err := managedClusterPath(mc.ID)
	if err != nil {
		return nil, err
	}
	version := c.ManagedClusterVersion()
	body := *mc
	body.Type, body.Version = mediaType(managedClusterResource), version
	m, err := members(body)
	if err != nil {
		return nil, err
	}
	dropNewerMembers(version, m, managedClusterPutGates)
	dropFalseAccHost(m)
	defer c.share.wrote(mc.ID)()
	return update(ctx, c, path, managedClusterResource, m, func(ctx context.Context) (*ManagedCluster, error) {
		return c.GetManagedCluster(ctx, mc.ID)
	})
}

// DeleteManagedCluster stops managing a cluster (the cluster record stays).
func (c *Client) DeleteManagedCluster(ctx context.Context, id string) error {
	path, err := managedClusterPath(id)
	if err != nil {
		return err
	}
	defer c.share.wrote(id)()
	return c.remove(ctx, path, managedClusterResource, nil)
}
