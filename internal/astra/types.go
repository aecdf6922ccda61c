package astra

import (
	"encoding/json"
	"strings"
)

// Label is one {name, value} metadata label. Read-only labels set by the service carry
// the prefix ReadOnlyLabelPrefix.
type Label struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// ReadOnlyLabelPrefix starts the names of labels that the service maintains.
const ReadOnlyLabelPrefix = "astra.netapp.io/labels/read-only/"

// Metadata is the metadata member every resource carries.
type Metadata struct {
	Labels                []Label `json:"labels,omitempty"`
	CreationTimestamp     string  `json:"creationTimestamp,omitempty"`
	ModificationTimestamp string  `json:"modificationTimestamp,omitempty"`
	CreatedBy             string  `json:"createdBy,omitempty"`
	ModifiedBy            string  `json:"modifiedBy,omitempty"`
}

// StateDetail explains a state (protectionStateDetails, managedStateDetails, ...). Members
// it does not model, such as additionalDetails, are kept in Extra.
type StateDetail struct {
	Type   string                     `json:"type"`
	Title  string                     `json:"title"`
	Detail string                     `json:"detail"`
	Extra  map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps unknown members in Extra.
func (d *StateDetail) UnmarshalJSON(b []byte) error {
	type plain StateDetail
	return decodeKeepingExtra(b, (*plain)(d), &d.Extra)
}

// MarshalJSON sends Extra back beside the known members.
func (d StateDetail) MarshalJSON() ([]byte, error) {
	type plain StateDetail
	return encodeWithExtra(plain(d), d.Extra)
}

// metadataWithLabels is the metadata of a create body: labels only, and only when there are any.
func metadataWithLabels(labels []Label) *Metadata {
	if len(labels) == 0 {
		return nil
	}
	return &Metadata{Labels: labels}
}

// userLabels drops the labels the service maintains itself.
func userLabels(labels []Label) []Label {
	var out []Label
	for _, l := range labels {
		if !strings.HasPrefix(l.Name, ReadOnlyLabelPrefix) {
			out = append(out, l)
		}
	}
	return out
}
