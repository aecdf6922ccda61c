package astra

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// AppMirror is an app replicated to another managed cluster (application/astra-appMirror,
// research notes §4.12): the service's state machine establishing → established →
// failingOver → failedOver (→ establishing on a resync or a reverse), and deleting →
// deleted. It has no failed state: trouble shows as healthState critical with details.
type AppMirror struct {
	Type                 string                     `json:"type"`
	Version              string                     `json:"version"`
	ID                   string                     `json:"id,omitempty"`
	SourceAppID          string                     `json:"sourceAppID,omitempty"`
	SourceClusterID      string                     `json:"sourceClusterID,omitempty"`
	DestinationAppID     string                     `json:"destinationAppID,omitempty"`
	DestinationClusterID string                     `json:"destinationClusterID,omitempty"`
	NamespaceMapping     []AppMirrorNamespaces      `json:"namespaceMapping,omitempty"`
	StorageClasses       []AppMirrorStorageClass    `json:"storageClasses,omitempty"`
	State                string                     `json:"state,omitempty"`
	StateDesired         string                     `json:"stateDesired,omitempty"`
	StateAllowed         []string                   `json:"stateAllowed,omitempty"`
	StateDetails         []StateDetail              `json:"stateDetails,omitempty"`
	TransferState        string                     `json:"transferState,omitempty"`
	TransferStateDetails []StateDetail              `json:"transferStateDetails,omitempty"`
	HealthState          string                     `json:"healthState,omitempty"`
	HealthStateDetails   []StateDetail              `json:"healthStateDetails,omitempty"`
	Metadata             Metadata                   `json:"metadata,omitzero"`
	Extra                map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps unknown members in Extra (a real failover answer carries
// "ReplicatedPVCs_": research notes §4.12).
func (m *AppMirror) UnmarshalJSON(data []byte) error {
	type plain AppMirror
	return decodeKeepingExtra(data, (*plain)(m), &m.Extra)
}

// AppMirrorNamespaces are one cluster's namespaces of a mirror, paired by position with the
// other cluster's.
type AppMirrorNamespaces struct {
	ClusterID  string   `json:"clusterID"`
	Namespaces []string `json:"namespaces"`
}

// AppMirrorStorageClass is the storage class a mirror uses on one cluster.
type AppMirrorStorageClass struct {
	ClusterID        string `json:"clusterID"`
	StorageClassName string `json:"storageClassName"`
}

// The mirror states and desired states of the spec.
const (
	MirrorEstablishing = "establishing"
	MirrorEstablished  = "established"
	MirrorFailingOver  = "failingOver"
	MirrorFailedOver   = "failedOver"
	MirrorDeleting     = "deleting"
	MirrorDeleted      = "deleted"
)

// AppMirrorCreate is a mirror POST: stateDesired is always established (the only create
// value the spec allows); the service makes the destination app and derives the source
// cluster from the source app, so neither is sent.
type AppMirrorCreate struct {
	SourceAppID, DestinationClusterID string
	NamespaceMapping                  []AppMirrorNamespaces
	StorageClasses                    []AppMirrorStorageClass
}

type appMirrorPostBody struct {
	Type                 string                  `json:"type"`
	Version              string                  `json:"version"`
	SourceAppID          string                  `json:"sourceAppID"`
	DestinationClusterID string                  `json:"destinationClusterID"`
	StateDesired         string                  `json:"stateDesired"`
	NamespaceMapping     []AppMirrorNamespaces   `json:"namespaceMapping,omitempty"`
	StorageClasses       []AppMirrorStorageClass `json:"storageClasses,omitempty"`
}

// AppMirrorChange is a mirror PUT: stateDesired, and for a resync or a reverse the four
// IDs of the direction wanted (the same ones: resync keeping the source's data; swapped:
// reverse, or resync from the failed-over copy). Empty IDs are left out (a failover).
type AppMirrorChange struct {
	StateDesired         string `json:"stateDesired"`
	SourceAppID          string `json:"sourceAppID,omitempty"`
	SourceClusterID      string `json:"sourceClusterID,omitempty"`
	DestinationAppID     string `json:"destinationAppID,omitempty"`
	DestinationClusterID string `json:"destinationClusterID,omitempty"`
}

type appMirrorPutBody struct {
	Type    string `json:"type"`
	Version string `json:"version"`
	AppMirrorChange
}

const (
	appMirrorResource = "appMirror"
	appMirrorsPath    = "/k8s/v1/appMirrors"
)

// AppMirrorVersionFor is the mirror version of the release: 1.0 in 22.11 and 23.05, 1.1
// from 23.07 (which adds only `role`, needed for same-cluster replication, never sent).
func AppMirrorVersionFor(clusterVersion string) string {
	switch ReleaseFor(clusterVersion) {
	case "22.11", "23.05":
		return "1.0"
	}
	return "1.1"
}

// AppMirrorVersion is the mirror version this client sends.
func (c *Client) AppMirrorVersion() string { return AppMirrorVersionFor(c.clusterVersion) }

// appMirrorPath is a mirror by the root path: a reverse changes sourceAppID, so the app
// scoped path may stop holding it (research notes §4.12).
func appMirrorPath(id string) (string, error) {
	seg, err := segment("app mirror", id)
	return appMirrorsPath + "/" + seg, err
}

// ListAppMirrors lists every mirror of the account.
func (c *Client) ListAppMirrors(ctx context.Context, opts ListOptions) ([]AppMirror, error) {
	return list[AppMirror](ctx, c, appMirrorsPath, appMirrorResource, opts)
}

// GetAppMirror reads one mirror.
func (c *Client) GetAppMirror(ctx context.Context, id string) (*AppMirror, error) {
	path, err := appMirrorPath(id)
	if err != nil {
		return nil, err
	}
	return getOne[AppMirror](ctx, c, path, appMirrorResource)
}

// CreateAppMirror starts replicating an app: the answer is the mirror, establishing; wait
// with AppMirrorIn(MirrorEstablished).
func (c *Client) CreateAppMirror(ctx context.Context, in AppMirrorCreate) (*AppMirror, error) {
	body := appMirrorPostBody{Type: mediaType(appMirrorResource), Version: c.AppMirrorVersion(), SourceAppID: in.SourceAppID,
		DestinationClusterID: in.DestinationClusterID, StateDesired: MirrorEstablished, NamespaceMapping: in.NamespaceMapping,
		StorageClasses: in.StorageClasses}
	return create(ctx, c, appMirrorsPath, appMirrorResource, body, c.GetAppMirror)
}

// ChangeAppMirror PUTs a failover, resync or reverse and reads the mirror back (a PUT is
// answered 204 per the spec, 200 with a partial body in practice: never taken as the object).
func (c *Client) ChangeAppMirror(ctx context.Context, id string, in AppMirrorChange) (*AppMirror, error) {
	path, err := appMirrorPath(id)
	if err != nil {
		return nil, err
	}
	body := appMirrorPutBody{Type: mediaType(appMirrorResource), Version: c.AppMirrorVersion(), AppMirrorChange: in}
	return update(ctx, c, path, appMirrorResource, body, func(ctx context.Context) (*AppMirror, error) { return c.GetAppMirror(ctx, id) })
}

// DeleteAppMirror deletes the relationship; the service cleans up afterwards (deleting,
// then 404).
func (c *Client) DeleteAppMirror(ctx context.Context, id string) error {
	path, err := appMirrorPath(id)
	if err != nil {
		return err
	}
	return c.remove(ctx, path, appMirrorResource, nil)
}

// FindAppMirror is the live mirror between sourceAppID and destinationClusterID, in either
// direction (a lost POST's answer: a mirror has no name); nil if none.
func (c *Client) FindAppMirror(ctx context.Context, sourceAppID, destinationClusterID string) (*AppMirror, error) {
	if sourceAppID == "" {
		return nil, errors.New("astra: an app mirror search needs the source app")
	}
	listFn := func(opts ListOptions) ([]AppMirror, error) { return c.ListAppMirrors(ctx, opts) }
	return findOne(listFn, nil, func(m *AppMirror) bool {
		return !strings.EqualFold(m.State, MirrorDeleted) && m.Involves(sourceAppID) &&
			(m.DestinationClusterID == destinationClusterID || m.SourceClusterID == destinationClusterID)
	}, "app mirror")
}

// Involves reports whether appID is either side of the mirror.
func (m *AppMirror) Involves(appID string) bool {
	return m.SourceAppID == appID || m.DestinationAppID == appID
}

// AppMirrorIn is a wait for the mirror to reach state. No state is terminal (the spec has
// no failed state, and a critical health may clear), so only the wait's bound ends it;
// the wait's error then describes the health details (Describe).
func AppMirrorIn(state string) func(*AppMirror) (bool, error) {
	return func(m *AppMirror) (bool, error) {
		return m != nil && strings.EqualFold(m.State, state), nil
	}
}

// Describe names the mirror, its states and the health details, for wait errors.
func (m *AppMirror) Describe() (what, state string) {
	if m == nil {
		return "app mirror", ""
	}
	out := states("state", m.State, "stateDesired", m.StateDesired, "transferState", m.TransferState, "healthState", m.HealthState)
	if titles := detailTitles(m.HealthStateDetails); len(titles) > 0 {
		out += reasons("healthStateDetails", titles)
	}
	if titles := detailTitles(m.TransferStateDetails); len(titles) > 0 && !strings.EqualFold(m.HealthState, "normal") {
		out += reasons("transferStateDetails", titles)
	}
	return "app mirror " + m.ID, out
}

// detailTitles are the details' titles, with their detail text when it says more.
func detailTitles(details []StateDetail) []string {
	var out []string
	for _, d := range details {
		s := d.Title
		if d.Detail != "" && d.Detail != d.Title {
			s += ": " + d.Detail
		}
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// LastTransfer is when the newest snapshot replicated (the completionTime of the latest
// stateDetails or transferStateDetails item that has one), zero when none says.
func (m *AppMirror) LastTransfer() time.Time {
	var last time.Time
	for _, list := range [][]StateDetail{m.StateDetails, m.TransferStateDetails} {
		for _, d := range list {
			var extra struct {
				CompletionTime string `json:"completionTime"`
			}
			raw := d.Extra["additionalDetails"]
			if len(raw) == 0 || json.Unmarshal(raw, &extra) != nil {
				continue
			}
			if t, err := time.Parse(time.RFC3339, extra.CompletionTime); err == nil && t.After(last) {
				last = t
			}
		}
	}
	return last
}
