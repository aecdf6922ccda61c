package astra

import (
	"context"
	"encoding/json"
)

// StorageBackend is a storage backend Astra Control Center knows (application/astra-
// storageBackend, research notes §4.13), read only: no NetApp source documents the request
// that adds or manages one. Capabilities are string booleans (1.3).
type StorageBackend struct {
	Type                   string                      `json:"type"`
	Version                string                      `json:"version"`
	ID                     string                      `json:"id,omitempty"`
	BackendName            string                      `json:"backendName,omitempty"`
	BackendType            string                      `json:"backendType,omitempty"`
	BackendVersion         string                      `json:"backendVersion,omitempty"`
	BackendCredentialsName string                      `json:"backendCredentialsName,omitempty"`
	State                  string                      `json:"state,omitempty"`
	StateUnready           []string                    `json:"stateUnready,omitempty"`
	ManagedState           string                      `json:"managedState,omitempty"`
	HealthState            string                      `json:"healthState,omitempty"`
	Capabilities           *StorageBackendCapabilities `json:"capabilities,omitempty"`
	Ontap                  *StorageBackendOntap        `json:"ontap,omitempty"`
	Metadata               Metadata                    `json:"metadata,omitzero"`
	Extra                  map[string]json.RawMessage  `json:"-"`
}

// UnmarshalJSON keeps unknown members in Extra (real listings carry undocumented ones).
func (b *StorageBackend) UnmarshalJSON(data []byte) error {
	type plain StorageBackend
	return decodeKeepingExtra(data, (*plain)(b), &b.Extra)
}

// StorageBackendCapabilities says what the backend can do; SnapMirror is what replication needs.
type StorageBackendCapabilities struct {
	FlexClone  *Bool `json:"flexClone,omitempty"`
	SnapMirror *Bool `json:"snapMirror,omitempty"`
	S3         *Bool `json:"s3,omitempty"`
}

// StorageBackendOntap are an ONTAP backend's addresses, which match it to a cluster's
// Trident backends.
type StorageBackendOntap struct {
	AuthenticationStyle string   `json:"authenticationStyle,omitempty"`
	BackendManagementIP string   `json:"backendManagementIP,omitempty"`
	ManagementIPs       []string `json:"managementIPs,omitempty"`
}

const (
	storageBackendResource = "storageBackend"
	storageBackendsPath    = "/topology/v1/storageBackends"
)

// ListStorageBackends lists the account's storage backends.
func (c *Client) ListStorageBackends(ctx context.Context, opts ListOptions) ([]StorageBackend, error) {
	return list[StorageBackend](ctx, c, storageBackendsPath, storageBackendResource, opts)
}
