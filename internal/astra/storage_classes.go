package astra

import (
	"context"
	"encoding/json"
)

// StorageClass is a Kubernetes storage class as Astra sees it (application/astra-storageClass).
// It carries no back-reference to its cluster.
type StorageClass struct {
	Type                 string                     `json:"type"`
	Version              string                     `json:"version"`
	ID                   string                     `json:"id,omitempty"`
	Name                 string                     `json:"name,omitempty"`
	Provisioner          string                     `json:"provisioner,omitempty"`
	Available            string                     `json:"available,omitempty"`            // available, eligible, ineligible
	AllowVolumeExpansion string                     `json:"allowVolumeExpansion,omitempty"` // "true", "false", "unavailable"
	ReclaimPolicy        string                     `json:"reclaimPolicy,omitempty"`
	VolumeBindingMode    string                     `json:"volumeBindingMode,omitempty"`
	IsDefault            *Bool                      `json:"isDefault,omitempty"` // only ever "true"; absent otherwise
	Metadata             Metadata                   `json:"metadata,omitzero"`
	Extra                map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps unknown members in Extra.
func (s *StorageClass) UnmarshalJSON(b []byte) error {
	type plain StorageClass
	return decodeKeepingExtra(b, (*plain)(s), &s.Extra)
}

// MarshalJSON sends Extra back beside the known members.
func (s StorageClass) MarshalJSON() ([]byte, error) {
	type plain StorageClass
	return encodeWithExtra(plain(s), s.Extra)
}

const storageClassResource = "storageClass"

// storageClassPath appends /storageClasses, and /{id} when id is given, to an owner's path.
func storageClassPath(owner string, ownerErr error, id ...string) (string, error) {
	if ownerErr != nil {
		return "", ownerErr
	}
	path := owner + "/storageClasses"
	if len(id) == 0 {
		return path, nil
	}
	seg, err := segment("storage class", id[0])
	return path + "/" + seg, err
}

// ListStorageClasses lists a cluster's storage classes; cloudID "" uses /topology/v1/clusters/{id}.
func (c *Client) ListStorageClasses(ctx context.Context, cloudID, clusterID string) ([]StorageClass, error) {
	owner, err := clusterPath(cloudID, clusterID)
	path, err := storageClassPath(owner, err)
	if err != nil {
		return nil, err
	}
	return list[StorageClass](ctx, c, path, storageClassResource, ListOptions{})
}

// GetStorageClass reads one of a cluster's storage classes.
func (c *Client) GetStorageClass(ctx context.Context, cloudID, clusterID, id string) (*StorageClass, error) {
	owner, err := clusterPath(cloudID, clusterID)
	path, err := storageClassPath(owner, err, id)
	if err != nil {
		return nil, err
	}
	return getOne[StorageClass](ctx, c, path, storageClassResource)
}

// ListManagedClusterStorageClasses lists a managed cluster's storage classes.
func (c *Client) ListManagedClusterStorageClasses(ctx context.Context, clusterID string) ([]StorageClass, error) {
	owner, err := managedClusterPath(clusterID)
	path, err := storageClassPath(owner, err)
	if err != nil {
		return nil, err
	}
	return list[StorageClass](ctx, c, path, storageClassResource, ListOptions{})
}

// GetManagedClusterStorageClass reads one of a managed cluster's storage classes.
func (c *Client) GetManagedClusterStorageClass(ctx context.Context, clusterID, id string) (*StorageClass, error) {
	owner, err := managedClusterPath(clusterID)
	path, err := storageClassPath(owner, err, id)
	if err != nil {
		return nil, err
	}
	return getOne[StorageClass](ctx, c, path, storageClassResource)
}
