package astra

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
)

// AppBackup is a backup of an app into a bucket (application/astra-appBackup), taken on
// demand or by a protection policy (ScheduleID set). Progress is BytesDone of TotalBytes,
// PercentDone; all three are numbers the service may leave out.
type AppBackup struct {
	Type                    string                     `json:"type"`
	Version                 string                     `json:"version"`
	ID                      string                     `json:"id,omitempty"`
	Name                    string                     `json:"name,omitempty"`
	BucketID                string                     `json:"bucketID,omitempty"`
	SnapshotID              string                     `json:"snapshotID,omitempty"`
	ScheduleID              string                     `json:"scheduleID,omitempty"`
	State                   string                     `json:"state,omitempty"`
	StateUnready            []string                   `json:"stateUnready,omitempty"`
	StateDetails            []StateDetail              `json:"stateDetails,omitempty"`
	HookState               string                     `json:"hookState,omitempty"`
	HookStateDetails        []StateDetail              `json:"hookStateDetails,omitempty"`
	BackupCreationTimestamp string                     `json:"backupCreationTimestamp,omitempty"`
	TotalBytes              *float64                   `json:"totalBytes,omitempty"`
	BytesDone               *float64                   `json:"bytesDone,omitempty"`
	PercentDone             *float64                   `json:"percentDone,omitempty"`
	Metadata                Metadata                   `json:"metadata,omitzero"`
	Extra                   map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps unknown members in Extra.
func (b *AppBackup) UnmarshalJSON(data []byte) error {
	type plain AppBackup
	return decodeKeepingExtra(data, (*plain)(b), &b.Extra)
}

// MarshalJSON sends Extra back beside the known members.
func (b AppBackup) MarshalJSON() ([]byte, error) {
	type plain AppBackup
	return encodeWithExtra(plain(b), b.Extra)
}

// AppBackupCreate is a backup POST. Name is optional (the service names the backup) but
// a caller that may have to find it after a lost answer should give one. Without a
// BucketID the service picks the cluster's or cloud's default bucket, or one of its own;
// with a SnapshotID (a completed snapshot of the app) the backup is taken from it, else
// from a snapshot of its own. There are no labels: the POST schema's metadata is the full
// one, whose timestamps and creator a client cannot send.
type AppBackupCreate struct {
	Name, BucketID, SnapshotID string
}

type appBackupPostBody struct {
	Type       string `json:"type"`
	Version    string `json:"version"`
	Name       string `json:"name,omitempty"`
	BucketID   string `json:"bucketID,omitempty"`
	SnapshotID string `json:"snapshotID,omitempty"`
}

const (
	appBackupResource = "appBackup"
	allBackupsPath    = "/topology/v1/appBackups" // every app's backups, account-wide
)

func appBackupsPath(appID string) (string, error) {
	seg, err := segment("app", appID)
	return "/k8s/v1/apps/" + seg + "/appBackups", err
}

func appBackupPath(appID, id string) (string, error) {
	p, err := appBackupsPath(appID)
	if err != nil {
		return "", err
	}
	seg, err := segment("backup", id)
	return p + "/" + seg, err
}

// ListAppBackups lists an app's backups.
func (c *Client) ListAppBackups(ctx context.Context, appID string, opts ListOptions) ([]AppBackup, error) {
	path, err := appBackupsPath(appID)
	if err != nil {
		return nil, err
	}
	return list[AppBackup](ctx, c, path, appBackupResource, opts)
}

// ListAllAppBackups lists the backups of every app of the account (/topology/v1/appBackups).
func (c *Client) ListAllAppBackups(ctx context.Context, opts ListOptions) ([]AppBackup, error) {
	return list[AppBackup](ctx, c, allBackupsPath, appBackupResource, opts)
}

// GetAppBackup reads one of an app's backups.
func (c *Client) GetAppBackup(ctx context.Context, appID, id string) (*AppBackup, error) {
	path, err := appBackupPath(appID, id)
	if err != nil {
		return nil, err
	}
	return getOne[AppBackup](ctx, c, path, appBackupResource)
}

// GetAppBackupByID reads a backup without knowing its app (/topology/v1/appBackups/{id}),
// as an import by ID needs.
func (c *Client) GetAppBackupByID(ctx context.Context, id string) (*AppBackup, error) {
	seg, err := segment("backup", id)
	if err != nil {
		return nil, err
	}
	return getOne[AppBackup](ctx, c, allBackupsPath+"/"+seg, appBackupResource)
}

// DeleteAppBackupByID deletes a backup without knowing its app (/topology/v1/appBackups/{id}):
// the one path to a backup of an app Astra Control no longer manages. force as in
// DeleteAppBackup.
func (c *Client) DeleteAppBackupByID(ctx context.Context, id string, force bool) error {
	seg, err := segment("backup", id)
	if err != nil {
		return err
	}
	r := request{method: http.MethodDelete, path: allBackupsPath + "/" + seg, resource: appBackupResource}
	if force {
		r.header = http.Header{"Force-Delete": {"true"}}
	}
	_, err = c.do(ctx, r)
	return err
}

// CreateAppBackup takes a backup of an app, at the release's backup version. The answer is
// the new backup, usually still pending: wait with AppBackupCompleted.
func (c *Client) CreateAppBackup(ctx context.Context, appID string, in AppBackupCreate) (*AppBackup, error) {
	path, err := appBackupsPath(appID)
	if err != nil {
		return nil, err
	}
	body := appBackupPostBody{Type: mediaType(appBackupResource), Version: c.AppBackupVersion(), Name: in.Name,
		BucketID: in.BucketID, SnapshotID: in.SnapshotID}
	return create(ctx, c, path, appBackupResource, body, func(ctx context.Context, id string) (*AppBackup, error) {
		return c.GetAppBackup(ctx, appID, id)
	})
}

// DeleteAppBackup deletes a backup. A failed backup goes only with force, which sends the
// header Force-Delete: true (the automation docs' "Delete a backup" workflow); without it
// the service may refuse (ProblemBackupNotDeleted, or 128 as the 24.02 spec lists). A
// running backup is cancelled (ACC "Cancel backups"); a pending one cannot be (128).
func (c *Client) DeleteAppBackup(ctx context.Context, appID, id string, force bool) error {
	path, err := appBackupPath(appID, id)
	if err != nil {
		return err
	}
	var header http.Header
	if force {
		header = http.Header{"Force-Delete": {"true"}}
	}
	return c.remove(ctx, path, appBackupResource, header)
}

// FindAppBackup finds the app's backup named name (a lost POST's answer). Backup
// collections take no filter, so the whole collection is listed.
func (c *Client) FindAppBackup(ctx context.Context, appID, name string) (*AppBackup, error) {
	if name == "" {
		return nil, errors.New("astra: a backup search needs a name")
	}
	listFn := func(opts ListOptions) ([]AppBackup, error) { return c.ListAppBackups(ctx, appID, opts) }
	return findOne(listFn, nil, func(b *AppBackup) bool { return b.Name == name }, "backup")
}

// AppBackupCompleted is done when state is completed; failed is terminal, with the
// service's reasons (stateUnready, then stateDetails).
func AppBackupCompleted(b *AppBackup) (bool, error) {
	return runCompleted("backup "+b.ID, b.State, b.StateUnready, b.StateDetails)
}

// Describe names the backup, its states and its progress for wait errors.
func (b *AppBackup) Describe() (what, state string) {
	if b == nil {
		return "backup", ""
	}
	progress := ""
	if b.PercentDone != nil {
		progress = formatPercent(*b.PercentDone)
	}
	return "backup " + b.ID, states("state", b.State, "percentDone", progress, "hookState", b.HookState) +
		reasons("stateUnready", b.StateUnready)
}

func formatPercent(p float64) string {
	out, _ := json.Marshal(p)
	return string(out) + "%"
}
