package astra

import (
	"context"
	"crypto/md5"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
)

// HookSource is a script that execution hooks run (application/astra-hookSource, "scripts"
// in the web UI). Source is the script, base64-encoded; the service leaves it empty when
// Private is true, and SourceMD5Checksum then still tells scripts apart.
type HookSource struct {
	Type              string                     `json:"type"`
	Version           string                     `json:"version"`
	ID                string                     `json:"id,omitempty"`
	Name              string                     `json:"name,omitempty"`
	Private           *Bool                      `json:"private,omitempty"`
	Preloaded         *Bool                      `json:"preloaded,omitempty"` // NetApp's own: read only
	SourceType        string                     `json:"sourceType,omitempty"`
	Source            string                     `json:"source,omitempty"`
	SourceMD5Checksum string                     `json:"sourceMD5Checksum,omitempty"`
	Description       string                     `json:"description,omitempty"`
	Metadata          Metadata                   `json:"metadata,omitzero"`
	Extra             map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps unknown members in Extra.
func (h *HookSource) UnmarshalJSON(b []byte) error {
	type plain HookSource
	return decodeKeepingExtra(b, (*plain)(h), &h.Extra)
}

// MarshalJSON sends Extra back beside the known members.
func (h HookSource) MarshalJSON() ([]byte, error) {
	type plain HookSource
	return encodeWithExtra(plain(h), h.Extra)
}

// Script decodes Source.
func (h *HookSource) Script() (string, error) {
	script, err := base64.StdEncoding.DecodeString(h.Source)
	return string(script), err
}

// SourceTypeScript is the one hook source type: a shell script.
const SourceTypeScript = "script"

// EncodeScript is a script as a hook source's source member: base64, as actoolkit's
// "create script" sends it.
func EncodeScript(script string) string { return base64.StdEncoding.EncodeToString([]byte(script)) }

// HookSourceChecksum is the sourceMD5Checksum the service computes for a source member:
// the hex MD5 of the base64 text itself (the schema: "computed for the value of the source
// key"; a real answer in NetApp's toolkit documentation confirms it), so a configured
// script can be compared with a private source the service does not show.
func HookSourceChecksum(source string) string {
	sum := md5.Sum([]byte(source))
	return hex.EncodeToString(sum[:])
}

// HookSourceCreate is a hook source POST. Script is the plain text; the client encodes it.
// The service wants names unique, at most 128 KiB of base64, no binary data and no
// carriage returns.
type HookSourceCreate struct {
	Name, Script, Description string
	Labels                    []Label
}

type hookSourcePostBody struct {
	Type        string    `json:"type"`
	Version     string    `json:"version"`
	Name        string    `json:"name"`
	SourceType  string    `json:"sourceType"`
	Source      string    `json:"source"`
	Description string    `json:"description,omitempty"`
	Metadata    *Metadata `json:"metadata,omitempty"`
}

const (
	hookSourcesPath    = "/core/v1/hookSources"
	hookSourceResource = "hookSource"
)

func hookSourcePath(id string) (string, error) {
	seg, err := segment("hook source", id)
	return hookSourcesPath + "/" + seg, err
}

// ListHookSources lists the account's hook sources.
func (c *Client) ListHookSources(ctx context.Context, opts ListOptions) ([]HookSource, error) {
	return list[HookSource](ctx, c, hookSourcesPath, hookSourceResource, opts)
}

// GetHookSource reads one hook source.
func (c *Client) GetHookSource(ctx context.Context, id string) (*HookSource, error) {
	path, err := hookSourcePath(id)
	if err != nil {
		return nil, err
	}
	return getOne[HookSource](ctx, c, path, hookSourceResource)
}

// CreateHookSource uploads a script.
func (c *Client) CreateHookSource(ctx context.Context, in HookSourceCreate) (*HookSource, error) {
	if in.Name == "" {
		return nil, errors.New("astra: a hook source needs a name")
	}
	body := hookSourcePostBody{Type: mediaType(hookSourceResource), Version: HookSourceVersion, Name: in.Name,
		SourceType: SourceTypeScript, Source: EncodeScript(in.Script), Description: in.Description, Metadata: metadataWithLabels(in.Labels)}
	return create(ctx, c, hookSourcesPath, hookSourceResource, body, c.GetHookSource)
}

// UpdateHookSource PUTs the hook source back as read, with type and version set.
// sourceMD5Checksum is left out: the service computes it, and one read before Source was
// changed would contradict the new script.
func (c *Client) UpdateHookSource(ctx context.Context, h *HookSource) (*HookSource, error) {
	if h == nil {
		return nil, errors.New("astra: no hook source to update")
	}
	path, err := hookSourcePath(h.ID)
	if err != nil {
		return nil, err
	}
	body := *h
	body.Type, body.Version, body.SourceMD5Checksum = mediaType(hookSourceResource), HookSourceVersion, ""
	m, err := members(body)
	if err != nil {
		return nil, err
	}
	m["description"], _ = json.Marshal(h.Description) // sent even when empty, which clears it
	return update(ctx, c, path, hookSourceResource, m, func(ctx context.Context) (*HookSource, error) { return c.GetHookSource(ctx, h.ID) })
}

// DeleteHookSource deletes a hook source. One an execution hook runs is refused
// (ProblemHookSourceInUse).
func (c *Client) DeleteHookSource(ctx context.Context, id string) error {
	path, err := hookSourcePath(id)
	if err != nil {
		return err
	}
	return c.remove(ctx, path, hookSourceResource, nil)
}

// FindHookSource finds the hook source named name (a lost POST's answer).
func (c *Client) FindHookSource(ctx context.Context, name string) (*HookSource, error) {
	if name == "" {
		return nil, errors.New("astra: a hook source search needs a name")
	}
	listFn := func(opts ListOptions) ([]HookSource, error) { return c.ListHookSources(ctx, opts) }
	return findOne(listFn, nameFilter(name), func(h *HookSource) bool { return h.Name == name }, "hook source")
}
