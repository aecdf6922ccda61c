package astra

import (
	"context"
	"encoding/json"
)

// Namespace is a namespace of a managed cluster as Astra discovered it
// (application/astra-namespace; read-only).
type Namespace struct {
	Type             string                     `json:"type"`
	Version          string                     `json:"version"`
	ID               string                     `json:"id,omitempty"`
	Name             string                     `json:"name,omitempty"`
	NamespaceState   string                     `json:"namespaceState,omitempty"` // discovered, removed
	KubernetesLabels []Label                    `json:"kubernetesLabels,omitempty"`
	ClusterID        string                     `json:"clusterID,omitempty"`
	SystemType       string                     `json:"systemType,omitempty"`
	Metadata         Metadata                   `json:"metadata,omitzero"`
	Extra            map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps unknown members in Extra.
func (n *Namespace) UnmarshalJSON(b []byte) error {
	type plain Namespace
	return decodeKeepingExtra(b, (*plain)(n), &n.Extra)
}

// MarshalJSON sends Extra back beside the known members.
func (n Namespace) MarshalJSON() ([]byte, error) {
	type plain Namespace
	return encodeWithExtra(plain(n), n.Extra)
}

const namespaceResource = "namespace"

// ListNamespaces lists a managed cluster's namespaces.
func (c *Client) ListNamespaces(ctx context.Context, clusterID string) ([]Namespace, error) {
	owner, err := managedClusterPath(clusterID)
	if err != nil {
		return nil, err
	}
	return list[Namespace](ctx, c, owner+"/namespaces", namespaceResource, ListOptions{})
}
