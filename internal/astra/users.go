package astra

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
)

// Identity and access (research notes §4.14): users, their local passwords, groups, role
// bindings, tokens and the LDAP setting, all under /core/v1.

// UserVersion is the user resource version every release since 22.11 speaks (1.0 to 1.2).
const UserVersion = "1.2"

// Authentication providers of a user (SPEC user_1.2 authProvider).
const (
	AuthProviderLocal        = "local"         // Astra Control Center
	AuthProviderLDAP         = "ldap"          // Astra Control Center with LDAP
	AuthProviderCloudCentral = "cloud-central" // Astra Control Service
)

// User is an account's user (application/astra-user). The password of a local user is not
// a member: it is a passwordHash credential named by the user's ID (SetUserPassword).
type User struct {
	Type             string                     `json:"type"`
	Version          string                     `json:"version"`
	ID               string                     `json:"id,omitempty"`
	State            string                     `json:"state,omitempty"`
	IsEnabled        *Bool                      `json:"isEnabled,omitempty"`
	AuthID           string                     `json:"authID,omitempty"`
	AuthProvider     string                     `json:"authProvider,omitempty"`
	FirstName        string                     `json:"firstName"`
	LastName         string                     `json:"lastName"`
	Email            string                     `json:"email,omitempty"`
	SendWelcomeEmail *Bool                      `json:"sendWelcomeEmail,omitempty"`
	Metadata         Metadata                   `json:"metadata,omitzero"`
	Extra            map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps unknown members in Extra.
func (u *User) UnmarshalJSON(b []byte) error {
	type plain User
	return decodeKeepingExtra(b, (*plain)(u), &u.Extra)
}

// MarshalJSON sends Extra back beside the known members.
func (u User) MarshalJSON() ([]byte, error) {
	type plain User
	return encodeWithExtra(plain(u), u.Extra)
}

// UserCreate is a user POST.
type UserCreate struct {
	Email, FirstName, LastName, AuthProvider, AuthID string
}

type userPostBody struct {
	Type         string `json:"type"`
	Version      string `json:"version"`
	Email        string `json:"email"`
	FirstName    string `json:"firstName,omitempty"`
	LastName     string `json:"lastName,omitempty"`
	AuthProvider string `json:"authProvider,omitempty"`
	AuthID       string `json:"authID,omitempty"`
}

const (
	usersPath    = "/core/v1/users"
	userResource = "user"
)

func userPath(id string) (string, error) {
	seg, err := segment("user", id)
	return usersPath + "/" + seg, err
}

// ListUsers lists the account's users.
func (c *Client) ListUsers(ctx context.Context, opts ListOptions) ([]User, error) {
	return list[User](ctx, c, usersPath, userResource, opts)
}

// GetUser reads one user.
func (c *Client) GetUser(ctx context.Context, id string) (*User, error) {
	path, err := userPath(id)
	if err != nil {
		return nil, err
	}
	return getOne[User](ctx, c, path, userResource)
}

// CreateUser adds a user. A local user cannot log in before it has a role binding and a
// password (SetUserPassword).
func (c *Client) CreateUser(ctx context.Context, in UserCreate) (*User, error) {
	if in.Email == "" {
		return nil, errors.New("astra: a user needs an email")
	}
	body := userPostBody{Type: mediaType(userResource), Version: UserVersion, Email: in.Email, FirstName: in.FirstName,
		LastName: in.LastName, AuthProvider: in.AuthProvider, AuthID: in.AuthID}
	return create(ctx, c, usersPath, userResource, body, c.GetUser)
}

// UpdateUser PUTs the user back as read, with type and version set, less what the PUT
// schema does not take (members this client does not model, the timestamps the service
// keeps, empty strings where it wants an object or a value).
func (c *Client) UpdateUser(ctx context.Context, u *User) (*User, error) {
	if u == nil {
		return nil, errors.New("astra: no user to update")
	}
	path, err := userPath(u.ID)
	if err != nil {
		return nil, err
	}
	body := *u
	body.Type, body.Version = mediaType(userResource), UserVersion
	m, err := members(body)
	if err != nil {
		return nil, err
	}
	// The PUT schema allows no other members (additionalProperties false), and refuses the
	// empty companyName and postalAddress strings real answers carry (research notes §4.14).
	keepOnly(m, "type", "version", "id", "state", "isEnabled", "authID", "authProvider", "firstName", "lastName",
		"companyName", "email", "phone", "postalAddress", "sendWelcomeEmail", "metadata")
	for _, k := range []string{"companyName", "phone"} {
		if string(m[k]) == `""` {
			delete(m, k)
		}
	}
	if len(m["postalAddress"]) > 0 && m["postalAddress"][0] != '{' {
		delete(m, "postalAddress")
	}
	return update(ctx, c, path, userResource, m, func(ctx context.Context) (*User, error) { return c.GetUser(ctx, u.ID) })
}

// DeleteUser deletes a user, and with it its tokens and role bindings.
func (c *Client) DeleteUser(ctx context.Context, id string) error {
	path, err := userPath(id)
	if err != nil {
		return err
	}
	return c.remove(ctx, path, userResource, nil)
}

// FindUser finds the user with email (case-insensitive: emails are), for a lost POST's
// answer and for adoption. nil when there is none.
func (c *Client) FindUser(ctx context.Context, email string) (*User, error) {
	if email == "" {
		return nil, errors.New("astra: a user search needs an email")
	}
	listFn := func(opts ListOptions) ([]User, error) { return c.ListUsers(ctx, opts) }
	return findOne(listFn, nil, func(u *User) bool { return strings.EqualFold(u.Email, email) }, "user")
}

// KeyTypePasswordHash is the key type of a local user's password credential: named by the
// user's ID, keyStore {cleartext, change}, both base64 (SPEC credential keyType; research
// notes §4.14).
const KeyTypePasswordHash = "passwordHash"

// UserPassword is the credential that sets a local user's password; mustChange asks for a
// new password at the first login. Its String never shows the password.
func UserPassword(userID, password string, mustChange bool) CredentialCreate {
	change := "false"
	if mustChange {
		change = "true"
	}
	return CredentialCreate{
		Name:    userID,
		KeyType: KeyTypePasswordHash,
		KeyStore: map[string]string{
			"cleartext": base64.StdEncoding.EncodeToString([]byte(password)),
			"change":    base64.StdEncoding.EncodeToString([]byte(change)),
		},
	}
}

// SetUserPassword sets a local user's password: the passwordHash credential named by the
// user's ID is created, or, when one exists, replaced in one PUT.
func (c *Client) SetUserPassword(ctx context.Context, userID, password string, mustChange bool) error {
	body := UserPassword(userID, password, mustChange)
	existing, err := c.FindCredential(ctx, userID)
	if err != nil {
		return err
	}
	if existing == nil {
		_, err = c.CreateCredential(ctx, body)
		return err
	}
	_, err = c.UpdateCredential(ctx, existing.ID, body)
	return err
}

// keepOnly removes from m every member not in allowed: for a PUT whose schema allows no
// others, so a member a newer service answers is not sent back to be refused.
func keepOnly(m map[string]json.RawMessage, allowed ...string) {
	keep := map[string]bool{}
	for _, a := range allowed {
		keep[a] = true
	}
	for k := range m {
		if !keep[k] {
			delete(m, k)
		}
	}
}
