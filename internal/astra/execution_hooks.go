package astra

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// ExecutionHook is an app's execution hook (application/astra-executionHook): a hook source
// run before or after the app's snapshots, backups, restores (post only) and, from
// version 1.3, failovers (post only), on the containers MatchingCriteria match (all of
// them: the criteria are ANDed; none matches every container). MatchingContainers and
// MatchingImages are the service's answer of what matches now.
type ExecutionHook struct {
	Type               string                     `json:"type"`
	Version            string                     `json:"version"`
	ID                 string                     `json:"id,omitempty"`
	Name               string                     `json:"name,omitempty"`
	HookType           string                     `json:"hookType,omitempty"` // custom; netapp hooks are read only
	AppID              string                     `json:"appID,omitempty"`
	HookSourceID       string                     `json:"hookSourceID,omitempty"`
	Action             string                     `json:"action,omitempty"`
	Stage              string                     `json:"stage,omitempty"`
	Arguments          []string                   `json:"arguments,omitempty"`
	MatchingCriteria   []MatchingCriterion        `json:"matchingCriteria,omitempty"`
	MatchingContainers []MatchingContainer        `json:"matchingContainers,omitempty"`
	MatchingImages     []string                   `json:"matchingImages,omitempty"`
	Enabled            *Bool                      `json:"enabled,omitempty"`
	Description        string                     `json:"description,omitempty"`
	Metadata           Metadata                   `json:"metadata,omitzero"`
	Extra              map[string]json.RawMessage `json:"-"`
}

// MatchingCriterion selects containers: Type is containerImage, containerName, podName,
// podLabel or namespaceName; Value an RE2 regular expression.
type MatchingCriterion struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

// MatchingContainer is a container a hook matches.
type MatchingContainer struct {
	PodName        string  `json:"podName,omitempty"`
	PodLabels      []Label `json:"podLabels,omitempty"`
	ContainerImage string  `json:"containerImage,omitempty"`
	ContainerName  string  `json:"containerName,omitempty"`
	NamespaceName  string  `json:"namespaceName,omitempty"`
}

// UnmarshalJSON keeps unknown members in Extra.
func (h *ExecutionHook) UnmarshalJSON(b []byte) error {
	type plain ExecutionHook
	return decodeKeepingExtra(b, (*plain)(h), &h.Extra)
}

// MarshalJSON sends Extra back beside the known members.
func (h ExecutionHook) MarshalJSON() ([]byte, error) {
	type plain ExecutionHook
	return encodeWithExtra(plain(h), h.Extra)
}

// Hook actions and stages as the published schema spells them.
const (
	HookActionSnapshot = "snapshot"
	HookActionBackup   = "backup"
	HookActionRestore  = "restore"
	HookActionFailover = "failover" // executionHook 1.3 (23.07) and later
	HookStagePre       = "pre"
	HookStagePost      = "post"
	hookTypeCustom     = "custom"
)

// ExecutionHookCreate is a hook POST. Enabled nil means enabled (the service's default).
type ExecutionHookCreate struct {
	Name, AppID, HookSourceID, Action, Stage, Description string
	Arguments                                             []string
	MatchingCriteria                                      []MatchingCriterion
	Enabled                                               *Bool
	Labels                                                []Label
}

type executionHookPostBody struct {
	Type             string              `json:"type"`
	Version          string              `json:"version"`
	Name             string              `json:"name"`
	HookType         string              `json:"hookType"`
	AppID            string              `json:"appID"`
	HookSourceID     string              `json:"hookSourceID"`
	Action           string              `json:"action"`
	Stage            string              `json:"stage"`
	Arguments        []string            `json:"arguments"`
	MatchingCriteria []MatchingCriterion `json:"matchingCriteria"`
	Enabled          *Bool               `json:"enabled,omitempty"`
	Description      string              `json:"description,omitempty"`
	Metadata         *Metadata           `json:"metadata,omitempty"`
}

const (
	executionHooksPath    = "/core/v1/executionHooks"
	executionHookResource = "executionHook"
)

func executionHookPath(id string) (string, error) {
	seg, err := segment("execution hook", id)
	return executionHooksPath + "/" + seg, err
}

func appExecutionHooksPath(appID string) (string, error) {
	seg, err := segment("app", appID)
	return "/k8s/v1/apps/" + seg + "/executionHooks", err
}

// ListExecutionHooks lists every execution hook of the account.
func (c *Client) ListExecutionHooks(ctx context.Context, opts ListOptions) ([]ExecutionHook, error) {
	return list[ExecutionHook](ctx, c, executionHooksPath, executionHookResource, opts)
}

// ListAppExecutionHooks lists an app's execution hooks.
func (c *Client) ListAppExecutionHooks(ctx context.Context, appID string, opts ListOptions) ([]ExecutionHook, error) {
	path, err := appExecutionHooksPath(appID)
	if err != nil {
		return nil, err
	}
	return list[ExecutionHook](ctx, c, path, executionHookResource, opts)
}

// GetExecutionHook reads one hook by its ID alone (/core/v1/executionHooks/{id}): the item
// operations use the account-wide path, as NetApp's toolkit deletes hooks, so a hook's ID
// is all a caller needs.
func (c *Client) GetExecutionHook(ctx context.Context, id string) (*ExecutionHook, error) {
	path, err := executionHookPath(id)
	if err != nil {
		return nil, err
	}
	return getOne[ExecutionHook](ctx, c, path, executionHookResource)
}

// CreateExecutionHook adds a custom hook to an app, on the app's path
// (/k8s/v1/apps/{app_id}/executionHooks), the one NetApp's toolkit ("create hook") posts
// to, at the release's execution hook version. Failover hooks need version 1.3.
func (c *Client) CreateExecutionHook(ctx context.Context, in ExecutionHookCreate) (*ExecutionHook, error) {
	if in.Name == "" || in.AppID == "" || in.HookSourceID == "" || in.Action == "" || in.Stage == "" {
		return nil, errors.New("astra: an execution hook needs a name, an app, a hook source, an action and a stage")
	}
	version := c.ExecutionHookVersion()
	if err := checkHookAction(version, in.Action); err != nil {
		return nil, err
	}
	path, err := appExecutionHooksPath(in.AppID)
	if err != nil {
		return nil, err
	}
	body := executionHookPostBody{Type: mediaType(executionHookResource), Version: version, Name: in.Name, HookType: hookTypeCustom,
		AppID: in.AppID, HookSourceID: in.HookSourceID, Action: in.Action, Stage: in.Stage, Arguments: nonNil(in.Arguments),
		MatchingCriteria: nonNilCriteria(in.MatchingCriteria), Enabled: in.Enabled, Description: in.Description,
		Metadata: metadataWithLabels(in.Labels)}
	return create(ctx, c, path, executionHookResource, body, c.GetExecutionHook)
}

// UpdateExecutionHook PUTs the hook back as read, with type and version set, on the
// account-wide path. The service's matchingContainers and matchingImages are left out (the
// PUT schema has neither); arguments and matchingCriteria are always sent, so emptying
// them empties them; the app and the hook type cannot change.
func (c *Client) UpdateExecutionHook(ctx context.Context, h *ExecutionHook) (*ExecutionHook, error) {
	if h == nil {
		return nil, errors.New("astra: no execution hook to update")
	}
	version := c.ExecutionHookVersion()
	if err := checkHookAction(version, h.Action); err != nil {
		return nil, err
	}
	path, err := executionHookPath(h.ID)
	if err != nil {
		return nil, err
	}
	body := *h
	body.Type, body.Version, body.MatchingContainers, body.MatchingImages = mediaType(executionHookResource), version, nil, nil
	m, err := members(body)
	if err != nil {
		return nil, err
	}
	// An ill-typed one kept in Extra must not travel back either.
	delete(m, "matchingContainers")
	delete(m, "matchingImages")
	// Lists are sent even when empty: a PUT without them would keep the old ones.
	m["arguments"], _ = json.Marshal(nonNil(h.Arguments))
	m["matchingCriteria"], _ = json.Marshal(nonNilCriteria(h.MatchingCriteria))
	return update(ctx, c, path, executionHookResource, m, func(ctx context.Context) (*ExecutionHook, error) {
		return c.GetExecutionHook(ctx, h.ID)
	})
}

// DeleteExecutionHook deletes a hook.
func (c *Client) DeleteExecutionHook(ctx context.Context, id string) error {
	path, err := executionHookPath(id)
	if err != nil {
		return err
	}
	return c.remove(ctx, path, executionHookResource, nil)
}

// FindExecutionHook finds the app's hook named name (a lost POST's answer). Hook names are
// unique in the account; the app narrows the search.
func (c *Client) FindExecutionHook(ctx context.Context, appID, name string) (*ExecutionHook, error) {
	if name == "" {
		return nil, errors.New("astra: an execution hook search needs a name")
	}
	listFn := func(opts ListOptions) ([]ExecutionHook, error) { return c.ListAppExecutionHooks(ctx, appID, opts) }
	return findOne(listFn, nameFilter(name), func(h *ExecutionHook) bool { return h.Name == name }, "execution hook")
}

// checkHookAction refuses a failover hook at a version before 1.3, which has no such action.
func checkHookAction(version, action string) error {
	if action == HookActionFailover && !versionAtLeast(version, "1.3") {
		return fmt.Errorf("astra: execution hook version %s has no failover action (added in 1.3, release 23.07); "+
			"raise the provider's api_version to 1.5 or later", version)
	}
	return nil
}

func nonNilCriteria(c []MatchingCriterion) []MatchingCriterion {
	if c == nil {
		return []MatchingCriterion{}
	}
	return c
}
