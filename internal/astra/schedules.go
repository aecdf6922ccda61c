package astra

import (
	"context"
	"encoding/json"
	"errors"
)

// ScheduleVersion is the schedule resource version sent in bodies: 1.2, what astraSDK's
// createProtectionpolicy sends, in every release's enum.
const ScheduleVersion = "1.2"

// AppSchedule is an app's protection policy (application/astra-schedule). Every number is a
// string, as the API has them; a field the granularity does not use is empty.
type AppSchedule struct {
	Type              string                     `json:"type"`
	Version           string                     `json:"version"`
	ID                string                     `json:"id,omitempty"`
	Name              string                     `json:"name,omitempty"`
	Enabled           *Bool                      `json:"enabled,omitempty"`
	Granularity       string                     `json:"granularity,omitempty"`
	Minute            string                     `json:"minute,omitempty"`
	Hour              string                     `json:"hour,omitempty"`
	DayOfWeek         string                     `json:"dayOfWeek,omitempty"`
	DayOfMonth        string                     `json:"dayOfMonth,omitempty"`
	RecurrenceRule    string                     `json:"recurrenceRule,omitempty"`
	SnapshotRetention string                     `json:"snapshotRetention,omitempty"`
	BackupRetention   string                     `json:"backupRetention,omitempty"`
	BucketID          string                     `json:"bucketID,omitempty"`
	Replicate         *Bool                      `json:"replicate,omitempty"`
	Metadata          Metadata                   `json:"metadata,omitzero"`
	Extra             map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps unknown members in Extra.
func (s *AppSchedule) UnmarshalJSON(b []byte) error {
	type plain AppSchedule
	return decodeKeepingExtra(b, (*plain)(s), &s.Extra)
}

// MarshalJSON sends Extra back beside the known members.
func (s AppSchedule) MarshalJSON() ([]byte, error) {
	type plain AppSchedule
	return encodeWithExtra(plain(s), s.Extra)
}

// AppScheduleFields are the members of a POST or PUT schedule body. Empty strings are left
// out, so a field the granularity does not use is never sent (the published schema allows
// leaving them out; actoolkit's "*" is outside its patterns).
type AppScheduleFields struct {
	Name              string `json:"name"`
	Enabled           *Bool  `json:"enabled,omitempty"`
	Granularity       string `json:"granularity"`
	Minute            string `json:"minute,omitempty"`
	Hour              string `json:"hour,omitempty"`
	DayOfWeek         string `json:"dayOfWeek,omitempty"`
	DayOfMonth        string `json:"dayOfMonth,omitempty"`
	SnapshotRetention string `json:"snapshotRetention"`
	BackupRetention   string `json:"backupRetention"`
	BucketID          string `json:"bucketID,omitempty"`
	// A custom schedule (replication, research notes §4.12): an RFC 5545 rule, FREQ=MINUTELY
	// with an INTERVAL; replicate "true" makes each of its snapshots replicate. Left out
	// unless set, so the bodies of other schedules stay as they were.
	RecurrenceRule string `json:"recurrenceRule,omitempty"`
	Replicate      *Bool  `json:"replicate,omitempty"`
}

type scheduleBody struct {
	Type    string `json:"type"`
	Version string `json:"version"`
	AppScheduleFields
}

const scheduleResource = "schedule"

// schedulesPath is an app's schedules, under /k8s/v1 (the app itself is under /k8s/v2).
func schedulesPath(appID string) (string, error) {
	seg, err := segment("app", appID)
	return "/k8s/v1/apps/" + seg + "/schedules", err
}

func schedulePath(appID, id string) (string, error) {
	p, err := schedulesPath(appID)
	if err != nil {
		return "", err
	}
	seg, err := segment("schedule", id)
	return p + "/" + seg, err
}

// ListAppSchedules lists an app's schedules.
func (c *Client) ListAppSchedules(ctx context.Context, appID string) ([]AppSchedule, error) {
	path, err := schedulesPath(appID)
	if err != nil {
		return nil, err
	}
	return list[AppSchedule](ctx, c, path, scheduleResource, ListOptions{})
}

// GetAppSchedule reads one of an app's schedules.
func (c *Client) GetAppSchedule(ctx context.Context, appID, id string) (*AppSchedule, error) {
	path, err := schedulePath(appID, id)
	if err != nil {
		return nil, err
	}
	return getOne[AppSchedule](ctx, c, path, scheduleResource)
}

// CreateAppSchedule adds a protection policy to an app.
func (c *Client) CreateAppSchedule(ctx context.Context, appID string, in AppScheduleFields) (*AppSchedule, error) {
	path, err := schedulesPath(appID)
	if err != nil {
		return nil, err
	}
	body := scheduleBody{Type: mediaType(scheduleResource), Version: ScheduleVersion, AppScheduleFields: in}
	return create(ctx, c, path, scheduleResource, body, func(ctx context.Context, id string) (*AppSchedule, error) {
		return c.GetAppSchedule(ctx, appID, id)
	})
}

// UpdateAppSchedule PUTs s, a fresh GET with the planned change applied, whole: a PUT
// replaces the entire stored schedule, so its labels, replicate, recurrenceRule and members
// the client does not know go back as read.
func (c *Client) UpdateAppSchedule(ctx context.Context, appID string, s *AppSchedule) (*AppSchedule, error) {
	if s == nil {
		return nil, errors.New("astra: no schedule to update")
	}
	path, err := schedulePath(appID, s.ID)
	if err != nil {
		return nil, err
	}
	body := *s
	body.Type, body.Version = mediaType(scheduleResource), ScheduleVersion
	return update(ctx, c, path, scheduleResource, body, func(ctx context.Context) (*AppSchedule, error) {
		return c.GetAppSchedule(ctx, appID, s.ID)
	})
}

// DeleteAppSchedule removes a protection policy.
func (c *Client) DeleteAppSchedule(ctx context.Context, appID, id string) error {
	path, err := schedulePath(appID, id)
	if err != nil {
		return err
	}
	return c.remove(ctx, path, scheduleResource, nil)
}
