package astra

import (
	"context"
	"encoding/json"
	"errors"
)

// AppSnapshot is a snapshot of an app (application/astra-appSnap), taken on demand or by a
// protection policy (ScheduleID set).
type AppSnapshot struct {
	Type             string                     `json:"type"`
	Version          string                     `json:"version"`
	ID               string                     `json:"id,omitempty"`
	Name             string                     `json:"name,omitempty"`
	BucketID         string                     `json:"bucketID,omitempty"` // appSnap 1.3 (24.02)
	ScheduleID       string                     `json:"scheduleID,omitempty"`
	SnapshotAppAsset string                     `json:"snapshotAppAsset,omitempty"`
	State            string                     `json:"state,omitempty"`
	StateUnready     []string                   `json:"stateUnready,omitempty"`
	StateDetails     []StateDetail              `json:"stateDetails,omitempty"`
	HookState        string                     `json:"hookState,omitempty"`
	HookStateDetails []StateDetail              `json:"hookStateDetails,omitempty"`
	Metadata         Metadata                   `json:"metadata,omitzero"`
	Extra            map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps unknown members in Extra.
func (s *AppSnapshot) UnmarshalJSON(b []byte) error {
	type plain AppSnapshot
	return decodeKeepingExtra(b, (*plain)(s), &s.Extra)
}

// MarshalJSON sends Extra back beside the known members.
func (s AppSnapshot) MarshalJSON() ([]byte, error) {
	type plain AppSnapshot
	return encodeWithExtra(plain(s), s.Extra)
}

// AppSnapshotCreate is a snapshot POST. Name is optional (the service names the
// snapshot) but a caller that may have to find the snapshot after a lost answer should
// give one. BucketID needs appSnap 1.3 (release 24.02) and a cluster with the neptuneV1
// capability. There are no labels: the POST schema's metadata is the full one, whose
// timestamps and creator a client cannot send.
type AppSnapshotCreate struct {
	Name     string
	BucketID string
}

type appSnapPostBody struct {
	Type     string `json:"type"`
	Version  string `json:"version"`
	Name     string `json:"name,omitempty"`
	BucketID string `json:"bucketID,omitempty"`
}

// appSnapPostGates: what each snapshot version first published in a POST body.
var appSnapPostGates = []memberGate{{"bucketID", "1.3"}}

const appSnapResource = "appSnap"

func appSnapsPath(appID string) (string, error) {
	seg, err := segment("app", appID)
	return "/k8s/v1/apps/" + seg + "/appSnaps", err
}

func appSnapPath(appID, id string) (string, error) {
	p, err := appSnapsPath(appID)
	if err != nil {
		return "", err
	}
	seg, err := segment("snapshot", id)
	return p + "/" + seg, err
}

// ListAppSnapshots lists an app's snapshots.
func (c *Client) ListAppSnapshots(ctx context.Context, appID string, opts ListOptions) ([]AppSnapshot, error) {
	path, err := appSnapsPath(appID)
	if err != nil {
		return nil, err
	}
	return list[AppSnapshot](ctx, c, path, appSnapResource, opts)
}

// GetAppSnapshot reads one of an app's snapshots.
func (c *Client) GetAppSnapshot(ctx context.Context, appID, id string) (*AppSnapshot, error) {
	path, err := appSnapPath(appID, id)
	if err != nil {
		return nil, err
	}
	return getOne[AppSnapshot](ctx, c, path, appSnapResource)
}

// CreateAppSnapshot takes a snapshot of an app, at the release's snapshot version. The
// answer is the new snapshot, usually still running: wait with AppSnapshotCompleted.
func (c *Client) CreateAppSnapshot(ctx context.Context, appID string, in AppSnapshotCreate) (*AppSnapshot, error) {
	path, err := appSnapsPath(appID)
	if err != nil {
		return nil, err
	}
	body := appSnapPostBody{Type: mediaType(appSnapResource), Version: c.AppSnapVersion(), Name: in.Name, BucketID: in.BucketID}
	m, err := members(body)
	if err != nil {
		return nil, err
	}
	if err := refuseNewerMembers(appSnapResource, body.Version, m, appSnapPostGates); err != nil {
		return nil, err
	}
	return create(ctx, c, path, appSnapResource, body, func(ctx context.Context, id string) (*AppSnapshot, error) {
		return c.GetAppSnapshot(ctx, appID, id)
	})
}

// DeleteAppSnapshot deletes a snapshot. The service refuses one still running or one a
// running backup is taken from (RunInProgress reports both).
func (c *Client) DeleteAppSnapshot(ctx context.Context, appID, id string) error {
	path, err := appSnapPath(appID, id)
	if err != nil {
		return err
	}
	return c.remove(ctx, path, appSnapResource, nil)
}

// FindAppSnapshot finds the app's snapshot named name (a lost POST's answer). Snapshot
// collections take no filter, so the whole collection is listed.
func (c *Client) FindAppSnapshot(ctx context.Context, appID, name string) (*AppSnapshot, error) {
	if name == "" {
		return nil, errors.New("astra: a snapshot search needs a name")
	}
	listFn := func(opts ListOptions) ([]AppSnapshot, error) { return c.ListAppSnapshots(ctx, appID, opts) }
	return findOne(listFn, nil, func(s *AppSnapshot) bool { return s.Name == name }, "snapshot")
}

// AppSnapshotCompleted is done when state is completed; failed is terminal, with the
// service's reasons (stateUnready, then stateDetails).
func AppSnapshotCompleted(s *AppSnapshot) (bool, error) {
	return runCompleted("snapshot "+s.ID, s.State, s.StateUnready, s.StateDetails)
}

// Describe names the snapshot and its states for wait errors.
func (s *AppSnapshot) Describe() (what, state string) {
	if s == nil {
		return "snapshot", ""
	}
	return "snapshot " + s.ID, states("state", s.State, "hookState", s.HookState) + reasons("stateUnready", s.StateUnready)
}

// runCompleted is the ready rule snapshots and backups share.
func runCompleted(what, state string, unready []string, details []StateDetail) (bool, error) {
	switch {
	case is(state, "completed"):
		return true, nil
	case is(state, "failed"):
		var why []string
		seen := map[string]bool{}
		for _, r := range unready {
			if !seen[r] {
				seen[r] = true
				why = append(why, r)
			}
		}
		for _, d := range details {
			// A detail that only repeats a stateUnready reason adds nothing.
			if text := detailText(d); !seen[d.Detail] && !seen[text] {
				seen[text] = true
				why = append(why, text)
			}
		}
		return false, &TerminalStateError{What: what, State: "failed", Reasons: why}
	}
	return false, nil
}
