package astra

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
)

// GroupVersion is the group version from 23.07 (1.0 before; names and DNs up to 2048).
const GroupVersion = "1.1"

// Group is an LDAP group given access (application/astra-group, Astra Control Center).
type Group struct {
	Type         string                     `json:"type"`
	Version      string                     `json:"version"`
	ID           string                     `json:"id,omitempty"`
	Name         string                     `json:"name,omitempty"`
	AuthProvider string                     `json:"authProvider,omitempty"`
	AuthID       string                     `json:"authID,omitempty"`
	Metadata     Metadata                   `json:"metadata,omitzero"`
	Extra        map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps unknown members in Extra.
func (g *Group) UnmarshalJSON(b []byte) error {
	type plain Group
	return decodeKeepingExtra(b, (*plain)(g), &g.Extra)
}

// MarshalJSON sends Extra back beside the known members.
func (g Group) MarshalJSON() ([]byte, error) {
	type plain Group
	return encodeWithExtra(plain(g), g.Extra)
}

type groupPostBody struct {
	Type         string `json:"type"`
	Version      string `json:"version"`
	Name         string `json:"name,omitempty"`
	AuthProvider string `json:"authProvider"`
	AuthID       string `json:"authID"`
}

const (
	groupsPath    = "/core/v1/groups"
	groupResource = "group"
)

func groupPath(id string) (string, error) {
	seg, err := segment("group", id)
	return groupsPath + "/" + seg, err
}

// SameDN compares two LDAP DNs as the service does: case-insensitively (a 24.02-era
// answer came back lower-cased, research notes §4.14), ignoring spaces around the commas.
func SameDN(a, b string) bool { return normalDN(a) == normalDN(b) }

func normalDN(dn string) string {
	parts := strings.Split(dn, ",")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	return strings.ToLower(strings.Join(parts, ","))
}

// ListGroups lists the account's groups.
func (c *Client) ListGroups(ctx context.Context, opts ListOptions) ([]Group, error) {
	return list[Group](ctx, c, groupsPath, groupResource, opts)
}

// GetGroup reads one group.
func (c *Client) GetGroup(ctx context.Context, id string) (*Group, error) {
	path, err := groupPath(id)
	if err != nil {
		return nil, err
	}
	return getOne[Group](ctx, c, path, groupResource)
}

// CreateGroup gives an LDAP group (its DN) access; name "" lets the service name it after
// the DN's first CN.
func (c *Client) CreateGroup(ctx context.Context, name, dn string) (*Group, error) {
	if dn == "" {
		return nil, errors.New("astra: a group needs its DN (authID)")
	}
	body := groupPostBody{Type: mediaType(groupResource), Version: GroupVersion, Name: name, AuthProvider: AuthProviderLDAP, AuthID: dn}
	return create(ctx, c, groupsPath, groupResource, body, c.GetGroup)
}

// UpdateGroup PUTs the group back as read, with type and version set.
func (c *Client) UpdateGroup(ctx context.Context, g *Group) (*Group, error) {
	if g == nil {
		return nil, errors.New("astra: no group to update")
	}
	path, err := groupPath(g.ID)
	if err != nil {
		return nil, err
	}
	body := *g
	body.Type, body.Version = mediaType(groupResource), GroupVersion
	return update(ctx, c, path, groupResource, body, func(ctx context.Context) (*Group, error) { return c.GetGroup(ctx, g.ID) })
}

// DeleteGroup deletes a group and its role bindings.
func (c *Client) DeleteGroup(ctx context.Context, id string) error {
	path, err := groupPath(id)
	if err != nil {
		return err
	}
	return c.remove(ctx, path, groupResource, nil)
}

// FindGroup finds the group of a DN (compared as SameDN); nil when there is none.
func (c *Client) FindGroup(ctx context.Context, dn string) (*Group, error) {
	if dn == "" {
		return nil, errors.New("astra: a group search needs a DN")
	}
	listFn := func(opts ListOptions) ([]Group, error) { return c.ListGroups(ctx, opts) }
	return findOne(listFn, nil, func(g *Group) bool { return SameDN(g.AuthID, dn) }, "group")
}
