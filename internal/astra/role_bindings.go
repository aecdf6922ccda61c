package astra

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// RoleBindingVersion is the role binding version with roleConstraints (1.1).
const RoleBindingVersion = "1.1"

// Roles, least to most privileged (research notes §4.14).
const (
	RoleViewer = "viewer"
	RoleMember = "member"
	RoleAdmin  = "admin"
	RoleOwner  = "owner"
)

// Roles are the roles in order of privilege.
var Roles = []string{RoleViewer, RoleMember, RoleAdmin, RoleOwner}

// NilID is the nil UUID the service answers for the principal a binding does not name.
const NilID = "00000000-0000-0000-0000-000000000000"

// EveryNamespace is the constraint of a binding on every namespace (the service's default).
const EveryNamespace = "*"

// RoleBinding gives a user or a group a role (application/astra-roleBinding).
type RoleBinding struct {
	Type            string                     `json:"type"`
	Version         string                     `json:"version"`
	ID              string                     `json:"id,omitempty"`
	PrincipalType   string                     `json:"principalType,omitempty"`
	UserID          string                     `json:"userID,omitempty"`
	GroupID         string                     `json:"groupID,omitempty"`
	AccountID       string                     `json:"accountID,omitempty"`
	Role            string                     `json:"role"`
	RoleConstraints []string                   `json:"roleConstraints"`
	Metadata        Metadata                   `json:"metadata,omitzero"`
	Extra           map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps unknown members in Extra.
func (b *RoleBinding) UnmarshalJSON(data []byte) error {
	type plain RoleBinding
	return decodeKeepingExtra(data, (*plain)(b), &b.Extra)
}

// MarshalJSON sends Extra back beside the known members.
func (b RoleBinding) MarshalJSON() ([]byte, error) {
	type plain RoleBinding
	return encodeWithExtra(plain(b), b.Extra)
}

// User is the bound user's ID, "" for a group's binding.
func (b *RoleBinding) User() string { return principal(b.UserID) }

// Group is the bound group's ID, "" for a user's binding.
func (b *RoleBinding) Group() string { return principal(b.GroupID) }

func principal(id string) string {
	if id == NilID {
		return ""
	}
	return id
}

// RoleBindingCreate is a role binding POST: exactly one of UserID and GroupID; nil
// Constraints means every namespace.
type RoleBindingCreate struct {
	UserID, GroupID, Role string
	Constraints           []string
}

type roleBindingPostBody struct {
	Type            string   `json:"type"`
	Version         string   `json:"version"`
	UserID          string   `json:"userID,omitempty"`
	GroupID         string   `json:"groupID,omitempty"`
	AccountID       string   `json:"accountID"`
	Role            string   `json:"role"`
	RoleConstraints []string `json:"roleConstraints"`
}

const (
	roleBindingsPath    = "/core/v1/roleBindings"
	roleBindingResource = "roleBinding"
)

func roleBindingPath(id string) (string, error) {
	seg, err := segment("role binding", id)
	return roleBindingsPath + "/" + seg, err
}

// ListRoleBindings lists the account's role bindings (users' and groups').
func (c *Client) ListRoleBindings(ctx context.Context, opts ListOptions) ([]RoleBinding, error) {
	return list[RoleBinding](ctx, c, roleBindingsPath, roleBindingResource, opts)
}

// GetRoleBinding reads one role binding.
func (c *Client) GetRoleBinding(ctx context.Context, id string) (*RoleBinding, error) {
	path, err := roleBindingPath(id)
	if err != nil {
		return nil, err
	}
	return getOne[RoleBinding](ctx, c, path, roleBindingResource)
}

// CreateRoleBinding binds a role to a user or a group in the client's account.
func (c *Client) CreateRoleBinding(ctx context.Context, in RoleBindingCreate) (*RoleBinding, error) {
	if (in.UserID == "") == (in.GroupID == "") {
		return nil, errors.New("astra: a role binding names exactly one of a user and a group")
	}
	constraints := in.Constraints
	if constraints == nil {
		constraints = []string{EveryNamespace}
	}
	body := roleBindingPostBody{Type: mediaType(roleBindingResource), Version: RoleBindingVersion, UserID: in.UserID,
		GroupID: in.GroupID, AccountID: c.AccountID(), Role: in.Role, RoleConstraints: constraints}
	return create(ctx, c, roleBindingsPath, roleBindingResource, body, c.GetRoleBinding)
}

// UpdateRoleBinding PUTs the binding back as read (role and constraints changed), with type
// and version set. The principal cannot change; the nil UUID of the other one is left out.
func (c *Client) UpdateRoleBinding(ctx context.Context, b *RoleBinding) (*RoleBinding, error) {
	if b == nil {
		return nil, errors.New("astra: no role binding to update")
	}
	path, err := roleBindingPath(b.ID)
	if err != nil {
		return nil, err
	}
	body := *b
	body.Type, body.Version = mediaType(roleBindingResource), RoleBindingVersion
	body.UserID, body.GroupID = b.User(), b.Group()
	if body.RoleConstraints == nil {
		body.RoleConstraints = []string{} // "no scope": never left to mean "keep"
	}
	m, err := members(body)
	if err != nil {
		return nil, err
	}
	keepOnly(m, "type", "version", "id", "userID", "groupID", "accountID", "role", "roleConstraints", "metadata")
	return update(ctx, c, path, roleBindingResource, m, func(ctx context.Context) (*RoleBinding, error) { return c.GetRoleBinding(ctx, b.ID) })
}

// DeleteRoleBinding deletes a binding. The last binding of a local or Cloud Central user
// takes the user with it (research notes §4.14).
func (c *Client) DeleteRoleBinding(ctx context.Context, id string) error {
	path, err := roleBindingPath(id)
	if err != nil {
		return err
	}
	return c.remove(ctx, path, roleBindingResource, nil)
}

// Role constraints (research notes §4.14, the grammar NetApp's toolkit sends): one entry
// per namespace, by Astra namespace ID or by a Kubernetes label, each with its contents.

// NamespaceIDConstraint is the constraint on namespace id and everything in it.
func NamespaceIDConstraint(id string) string { return "namespaces:id='" + id + "'.*" }

// NamespaceLabelConstraint is the constraint on every namespace labelled label (key=value)
// and everything in them.
func NamespaceLabelConstraint(label string) string {
	return "namespaces:kubernetesLabels='" + label + "'.*"
}

var constraintForm = regexp.MustCompile(`^namespaces:(id|kubernetesLabels)='([^']+)'(\.\*)?$`)

// ParseConstraint splits a constraint into its kind ("id" or "kubernetesLabels") and value;
// ok is false for "*" and the other forms, which name no one namespace.
func ParseConstraint(c string) (kind, value string, ok bool) {
	m := constraintForm.FindStringSubmatch(c)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// CheckLabelConstraint refuses a label the grammar cannot carry: it must be key=value,
// without quotes.
func CheckLabelConstraint(label string) error {
	key, value, found := strings.Cut(label, "=")
	if !found || key == "" || strings.ContainsAny(label, "'\"") || strings.TrimSpace(key) != key || strings.TrimSpace(value) != value {
		return fmt.Errorf("%q is not a Kubernetes label selector of the form key=value (for example team=payments)", label)
	}
	return nil
}

// FindRoleBinding finds the binding a create of in made (a lost POST's answer): the one of
// the same principal, role and constraints; nil when there is none.
func (c *Client) FindRoleBinding(ctx context.Context, in RoleBindingCreate) (*RoleBinding, error) {
	want := in.Constraints
	if want == nil {
		want = []string{EveryNamespace}
	}
	listFn := func(opts ListOptions) ([]RoleBinding, error) { return c.ListRoleBindings(ctx, opts) }
	return findOne(listFn, nil, func(b *RoleBinding) bool {
		return strings.EqualFold(b.User(), in.UserID) && strings.EqualFold(b.Group(), in.GroupID) && b.Role == in.Role &&
			slices.Equal(slices.Sorted(slices.Values(b.RoleConstraints)), slices.Sorted(slices.Values(want)))
	}, "role binding")
}
