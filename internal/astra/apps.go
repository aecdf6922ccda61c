package astra

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
)

// AppVersion is the app resource version sent in bodies: 2.1, what actoolkit and
// astraSDK send, published by every release (22.11 has no other).
const AppVersion = "2.1"

// App is a managed cluster's application (application/astra-app).
type App struct {
	Type                            string                     `json:"type"`
	Version                         string                     `json:"version"`
	ID                              string                     `json:"id,omitempty"`
	Name                            string                     `json:"name,omitempty"`
	ClusterID                       string                     `json:"clusterID,omitempty"`
	ClusterName                     string                     `json:"clusterName,omitempty"`
	ClusterType                     string                     `json:"clusterType,omitempty"`
	NamespaceScopedResources        []NamespaceScope           `json:"namespaceScopedResources,omitempty"`
	ClusterScopedResources          []ClusterScope             `json:"clusterScopedResources,omitempty"`
	State                           string                     `json:"state,omitempty"`
	StateDetails                    []StateDetail              `json:"stateDetails,omitempty"`
	ProtectionState                 string                     `json:"protectionState,omitempty"`
	ProtectionStateDetails          []StateDetail              `json:"protectionStateDetails,omitempty"`
	Namespaces                      []string                   `json:"namespaces,omitempty"`
	AppDetectedType                 string                     `json:"appDetectedType,omitempty"`
	LastResourceCollectionTimestamp string                     `json:"lastResourceCollectionTimestamp,omitempty"`
	SourceAppID                     string                     `json:"sourceAppID,omitempty"` // a clone's source app
	Metadata                        Metadata                   `json:"metadata,omitzero"`
	Extra                           map[string]json.RawMessage `json:"-"`
}

// NamespaceScope is one namespace of an app; no selectors means the whole namespace.
type NamespaceScope struct {
	Namespace      string   `json:"namespace"`
	LabelSelectors []string `json:"labelSelectors"`
}

// MarshalJSON always sends labelSelectors, [] when there are none: the published schemas
// require it, while the service leaves it out of its answers when it is empty.
func (n NamespaceScope) MarshalJSON() ([]byte, error) {
	type plain NamespaceScope
	n.LabelSelectors = nonNil(n.LabelSelectors)
	return json.Marshal(plain(n))
}

// ClusterScope is one kind of cluster-scoped resource of an app.
type ClusterScope struct {
	GVK            GVK      `json:"GVK"`
	LabelSelectors []string `json:"labelSelectors,omitempty"`
}

// GVK names a Kubernetes resource kind.
type GVK struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
}

// UnmarshalJSON keeps unknown members in Extra.
func (a *App) UnmarshalJSON(b []byte) error {
	type plain App
	return decodeKeepingExtra(b, (*plain)(a), &a.Extra)
}

// MarshalJSON sends Extra back beside the known members.
func (a App) MarshalJSON() ([]byte, error) {
	type plain App
	return encodeWithExtra(plain(a), a.Extra)
}

// AppCreate is the POST body that manages an app, as actoolkit's "manage app" sends it.
type AppCreate struct {
	Name                     string
	ClusterID                string
	NamespaceScopedResources []NamespaceScope
	ClusterScopedResources   []ClusterScope
	Labels                   []Label
}

type appPostBody struct {
	Type                     string           `json:"type"`
	Version                  string           `json:"version"`
	Name                     string           `json:"name"`
	ClusterID                string           `json:"clusterID"`
	NamespaceScopedResources []NamespaceScope `json:"namespaceScopedResources"`
	ClusterScopedResources   []ClusterScope   `json:"clusterScopedResources,omitempty"`
	Metadata                 *Metadata        `json:"metadata,omitempty"`
}

const (
	appsPath    = "/k8s/v2/apps"
	appResource = "app"
)

func appPath(id string) (string, error) {
	seg, err := segment("app", id)
	return appsPath + "/" + seg, err
}

// ListApps lists the account's apps.
func (c *Client) ListApps(ctx context.Context, opts ListOptions) ([]App, error) {
	return list[App](ctx, c, appsPath, appResource, opts)
}

// GetApp reads one app.
func (c *Client) GetApp(ctx context.Context, id string) (*App, error) {
	path, err := appPath(id)
	if err != nil {
		return nil, err
	}
	return getOne[App](ctx, c, path, appResource)
}

// CreateApp manages an app on a managed cluster. Selectors are always sent as a list
// (empty: the whole namespace), as the GET schema requires them back.
func (c *Client) CreateApp(ctx context.Context, in AppCreate) (*App, error) {
	if in.ClusterID == "" || in.Name == "" || len(in.NamespaceScopedResources) == 0 {
		return nil, errors.New("astra: an app needs a name, a cluster and at least one namespace")
	}
	ns := make([]NamespaceScope, len(in.NamespaceScopedResources))
	for i, r := range in.NamespaceScopedResources {
		ns[i] = NamespaceScope{Namespace: r.Namespace, LabelSelectors: nonNil(r.LabelSelectors)}
	}
	body := appPostBody{
		Type: mediaType(appResource), Version: AppVersion, Name: in.Name, ClusterID: in.ClusterID,
		NamespaceScopedResources: ns, ClusterScopedResources: in.ClusterScopedResources, Metadata: metadataWithLabels(in.Labels),
	}
	return create(ctx, c, appsPath, appResource, body, c.GetApp)
}

// appPutDropped are the members of an app an update never sends back: links (not in the
// PUT schema) and the ones that turn a PUT into an in-place restore (snapshotID, backupID,
// restoreFilter: research notes §4.8), which an app cloned from a snapshot or a backup may
// still carry in its GET.
var appPutDropped = []string{"links", "snapshotID", "backupID", "restoreFilter"}

// UpdateApp PUTs app, a fresh GET with the planned change applied, whole: a PUT replaces
// the entire stored object, so every member read goes back (unknown ones too) and nothing
// another writer set is lost. It never restores the app (appPutDropped).
func (c *Client) UpdateApp(ctx context.Context, app *App) (*App, error) {
	if app == nil {
		return nil, errors.New("astra: no app to update")
	}
	path, err := appPath(app.ID)
	if err != nil {
		return nil, err
	}
	body := *app
	body.Type, body.Version = mediaType(appResource), AppVersion
	m, err := members(body)
	if err != nil {
		return nil, err
	}
	for _, name := range appPutDropped {
		delete(m, name)
	}
	if _, ok := m["storageClassMapping"]; ok {
		// A clone's record of its storage class mapping, read back: app 2.1 has no such
		// member, and only a release with 2.2 answers it.
		m["version"] = json.RawMessage(`"2.2"`)
	}
	return update(ctx, c, path, appResource, m, func(ctx context.Context) (*App, error) { return c.GetApp(ctx, app.ID) })
}

// Mapping renames a namespace or a storage class in a clone (source to destination).
type Mapping struct {
	Source      string `json:"source"`
	Destination string `json:"destination"`
}

// AppClone is the POST body that creates an app as a clone of another (research notes
// §4.8): the source app on its cluster, taken live or from one of its snapshots or backups
// (at most one), into ClusterID, its namespaces renamed by NamespaceMapping (each
// destination must not exist; a clone within the source's cluster must map them all).
type AppClone struct {
	Name                string
	ClusterID           string
	SourceAppID         string
	SourceClusterID     string
	SnapshotID          string
	BackupID            string
	NamespaceMapping    []Mapping
	StorageClassMapping []Mapping
	Labels              []Label
}

type appClonePostBody struct {
	Type                string    `json:"type"`
	Version             string    `json:"version"`
	Name                string    `json:"name"`
	ClusterID           string    `json:"clusterID"`
	SourceAppID         string    `json:"sourceAppID"`
	SourceClusterID     string    `json:"sourceClusterID"`
	SnapshotID          string    `json:"snapshotID,omitempty"`
	BackupID            string    `json:"backupID,omitempty"`
	NamespaceMapping    []Mapping `json:"namespaceMapping,omitempty"`
	StorageClassMapping []Mapping `json:"storageClassMapping,omitempty"`
	Metadata            *Metadata `json:"metadata,omitempty"`
}

// appCloneVersion is 2.2 when the clone maps storage classes (the first version with
// storageClassMapping, release 23.05), else AppVersion.
func appCloneVersion(in AppClone) string {
	if len(in.StorageClassMapping) > 0 {
		return "2.2"
	}
	return AppVersion
}

// CloneApp creates an app as a clone. The answer is the new app, usually still
// provisioning: wait with AppReady. sourceAppID goes with the snapshot or backup, as
// NetApp's clients send it, so that the new app names its source either way.
func (c *Client) CloneApp(ctx context.Context, in AppClone) (*App, error) {
	switch {
	case in.ClusterID == "" || in.Name == "" || in.SourceAppID == "" || in.SourceClusterID == "":
		return nil, errors.New("astra: a clone needs a name, a target cluster, a source app and the source app's cluster")
	case in.SnapshotID != "" && in.BackupID != "":
		return nil, errors.New("astra: a clone is taken from a snapshot or from a backup, not both")
	case len(in.StorageClassMapping) > 0 && ReleaseFor(c.clusterVersion) == "22.11":
		return nil, errors.New("astra: a storage class mapping needs app version 2.2, which release 22.11 (cluster API 1.3) does not have")
	}
	body := appClonePostBody{
		Type: mediaType(appResource), Version: appCloneVersion(in), Name: in.Name, ClusterID: in.ClusterID,
		SourceAppID: in.SourceAppID, SourceClusterID: in.SourceClusterID, SnapshotID: in.SnapshotID, BackupID: in.BackupID,
		NamespaceMapping: in.NamespaceMapping, StorageClassMapping: in.StorageClassMapping, Metadata: metadataWithLabels(in.Labels),
	}
	return create(ctx, c, appsPath, appResource, body, c.GetApp)
}

// appRestoreBody is an in-place restore's PUT: only what names the restore, so that no
// other member of the app changes with it.
type appRestoreBody struct {
	Type       string `json:"type"`
	Version    string `json:"version"`
	SnapshotID string `json:"snapshotID,omitempty"`
	BackupID   string `json:"backupID,omitempty"`
	// Filter makes it a selective restore, sent at SelectiveRestoreAppVersion.
	Filter *RestoreFilter `json:"restoreFilter,omitempty"`
}

// RestoreApp restores an app in place from one of its snapshots or backups (exactly one
// of snapshotID, backupID): a PUT with the header forceUpdate: true, which overwrites the
// app's resources and data. The app goes restoring: wait with AppReady. This is the only
// call that sends forceUpdate or either member (UpdateApp drops them).
//
// The PUT is sent once: a second one would restore the app again, losing what was written
// in between (or be refused with 112 while the first runs). It is repeated only when the
// service certainly did not act (429, 503, 409/164, a connection never made); after a lost
// answer it returns an *UnknownOutcomeError, and the caller reads the app (RestoredFrom)
// instead of sending it again.
func (c *Client) RestoreApp(ctx context.Context, appID, snapshotID, backupID string) error {
	return c.RestoreAppSelectively(ctx, appID, snapshotID, backupID, nil)
}

// RestoreAppSelectively is RestoreApp restoring only what filter selects (nil: everything).
func (c *Client) RestoreAppSelectively(ctx context.Context, appID, snapshotID, backupID string, filter *RestoreFilter) error {
	if (snapshotID == "") == (backupID == "") {
		return errors.New("astra: an in-place restore names exactly one snapshot or backup")
	}
	path, err := appPath(appID)
	if err != nil {
		return err
	}
	body := appRestoreBody{Type: mediaType(appResource), Version: AppVersion, SnapshotID: snapshotID, BackupID: backupID, Filter: filter}
	if filter != nil {
		body.Version = SelectiveRestoreAppVersion
	}
	_, err = c.do(ctx, request{method: http.MethodPut, path: path, resource: appResource, body: body,
		header: http.Header{"forceUpdate": {"true"}}, once: true})
	return err
}

// RestoredFrom is the snapshot or backup the app names as what it was restored (or cloned)
// from: the snapshotID and backupID members of its GET, "" when it names none.
func (a *App) RestoredFrom() (snapshotID, backupID string) {
	str := func(name string) string {
		var v string
		if raw, ok := a.Extra[name]; ok && json.Unmarshal(raw, &v) == nil {
			return v
		}
		return ""
	}
	return str("snapshotID"), str("backupID")
}

// DeleteApp unmanages an app; its workloads stay on the cluster.
func (c *Client) DeleteApp(ctx context.Context, id string) error {
	path, err := appPath(id)
	if err != nil {
		return err
	}
	return c.remove(ctx, path, appResource, nil)
}

// AppReady is done when state is ready; failed is terminal, with stateDetails as reasons.
func AppReady(a *App) (bool, error) {
	switch {
	case is(a.State, "ready"):
		return true, nil
	case is(a.State, "failed"):
		reasons := make([]string, 0, len(a.StateDetails))
		for _, d := range a.StateDetails {
			reasons = append(reasons, detailText(d))
		}
		return false, &TerminalStateError{What: "app " + a.ID, State: a.State, Reasons: reasons}
	}
	return false, nil
}

// Describe names the app and its state for wait errors.
func (a *App) Describe() (what, state string) {
	if a == nil {
		return "app", ""
	}
	return "app " + a.ID, states("state", a.State)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
