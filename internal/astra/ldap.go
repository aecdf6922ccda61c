package astra

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// SettingVersion is the setting version from 23.05.
const SettingVersion = "1.1"

// LDAPSettingName names the account's LDAP setting (research notes §4.14). It always
// exists: it is read and PUT, never created or deleted.
const LDAPSettingName = "astra.account.ldap"

// Setting is an account setting (application/astra-setting): the service applies
// desiredConfig and reports currentConfig, with state pending, valid or error.
type Setting struct {
	Type          string                     `json:"type"`
	Version       string                     `json:"version"`
	ID            string                     `json:"id,omitempty"`
	Name          string                     `json:"name,omitempty"`
	CurrentConfig map[string]any             `json:"currentConfig,omitempty"`
	DesiredConfig map[string]any             `json:"desiredConfig,omitempty"`
	ConfigSchema  json.RawMessage            `json:"configSchema,omitempty"`
	State         string                     `json:"state,omitempty"`
	StateUnready  []string                   `json:"stateUnready,omitempty"`
	Metadata      Metadata                   `json:"metadata,omitzero"`
	Extra         map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps unknown members in Extra.
func (s *Setting) UnmarshalJSON(b []byte) error {
	type plain Setting
	return decodeKeepingExtra(b, (*plain)(s), &s.Extra)
}

// MarshalJSON sends Extra back beside the known members.
func (s Setting) MarshalJSON() ([]byte, error) {
	type plain Setting
	return encodeWithExtra(plain(s), s.Extra)
}

// Setting states.
const (
	SettingValid   = "valid"
	SettingPending = "pending"
	SettingError   = "error"
)

const (
	settingsPath    = "/core/v1/settings"
	settingResource = "setting"
)

func settingPath(id string) (string, error) {
	seg, err := segment("setting", id)
	return settingsPath + "/" + seg, err
}

// GetSetting reads one setting.
func (c *Client) GetSetting(ctx context.Context, id string) (*Setting, error) {
	path, err := settingPath(id)
	if err != nil {
		return nil, err
	}
	return getOne[Setting](ctx, c, path, settingResource)
}

// LDAPSetting finds the account's LDAP setting by name, as NetApp's toolkit does.
func (c *Client) LDAPSetting(ctx context.Context) (*Setting, error) {
	listFn := func(opts ListOptions) ([]Setting, error) {
		return list[Setting](ctx, c, settingsPath, settingResource, opts)
	}
	s, err := findOne(listFn, nameFilter(LDAPSettingName), func(s *Setting) bool { return s.Name == LDAPSettingName }, "setting")
	if err == nil && s == nil {
		return nil, errors.New("astra: the account has no " + LDAPSettingName + " setting (LDAP needs Astra Control Center)")
	}
	if err != nil || s.ID == "" {
		return s, err
	}
	return c.GetSetting(ctx, s.ID) // the listing may leave out members (include=)
}

// UpdateSetting PUTs a setting's desiredConfig (only: the rest is the service's), then
// reads it back. The answer to the PUT is 204.
func (c *Client) UpdateSetting(ctx context.Context, s *Setting) (*Setting, error) {
	if s == nil {
		return nil, errors.New("astra: no setting to update")
	}
	path, err := settingPath(s.ID)
	if err != nil {
		return nil, err
	}
	body := struct {
		Type          string         `json:"type"`
		Version       string         `json:"version"`
		DesiredConfig map[string]any `json:"desiredConfig"`
	}{mediaType(settingResource), SettingVersion, s.DesiredConfig}
	return update(ctx, c, path, settingResource, body, func(ctx context.Context) (*Setting, error) { return c.GetSetting(ctx, s.ID) })
}

// LDAPConfig is the LDAP setting's desiredConfig as the configSchema served with the
// setting has it (research notes §4.14): port an integer, isEnabled a string.
type LDAPConfig struct {
	ConnectionHost, SecureMode, CredentialID, UserBaseDN, UserSearchFilter string
	LoginAttribute, GroupBaseDN, GroupSearchCustomFilter                   string
	Port                                                                   int
	Enabled                                                                bool
}

// LDAPVendor is the one directory Astra Control speaks to.
const LDAPVendor = "Active Directory"

// Config is the desiredConfig of c.
func (l LDAPConfig) Config() map[string]any {
	m := map[string]any{
		"connectionHost": l.ConnectionHost, "port": l.Port, "secureMode": l.SecureMode, "credentialId": l.CredentialID,
		"userBaseDN": l.UserBaseDN, "userSearchFilter": l.UserSearchFilter, "groupBaseDN": l.GroupBaseDN,
		"groupSearchCustomFilter": l.GroupSearchCustomFilter, "vendor": LDAPVendor, "isEnabled": fmt.Sprint(l.Enabled),
	}
	if l.LoginAttribute != "" {
		m["loginAttribute"] = l.LoginAttribute
	}
	return m
}

// LDAPConfigOf reads an LDAP setting's config (current or desired).
func LDAPConfigOf(m map[string]any) LDAPConfig {
	str := func(k string) string { v, _ := m[k].(string); return v }
	l := LDAPConfig{ConnectionHost: str("connectionHost"), SecureMode: str("secureMode"), CredentialID: str("credentialId"),
		UserBaseDN: str("userBaseDN"), UserSearchFilter: str("userSearchFilter"), LoginAttribute: str("loginAttribute"),
		GroupBaseDN: str("groupBaseDN"), GroupSearchCustomFilter: str("groupSearchCustomFilter"),
		Enabled: strings.EqualFold(fmt.Sprint(m["isEnabled"]), "true")}
	switch p := m["port"].(type) {
	case float64:
		l.Port = int(p)
	case string: // a client that sent it as a string
		_, _ = fmt.Sscan(p, &l.Port)
	}
	return l
}

// LDAPBindCredential is the credential holding LDAP's bind account, as NetApp's docs send
// it: keyType generic, keyStore {bindDn, password}, both base64.
func LDAPBindCredential(name, bindDN, password string) CredentialCreate {
	return CredentialCreate{
		Name:    name,
		KeyType: KeyTypeGeneric,
		KeyStore: map[string]string{
			"bindDn":   base64.StdEncoding.EncodeToString([]byte(bindDN)),
			"password": base64.StdEncoding.EncodeToString([]byte(password)),
		},
	}
}

// LDAPUser and LDAPGroup are entries of the directory Astra Control is bound to.
type LDAPUser struct {
	ID        string   `json:"id"`
	Email     string   `json:"email"`
	FirstName string   `json:"firstName"`
	LastName  string   `json:"lastName"`
	CN        string   `json:"cn"`
	DN        string   `json:"dn"`
	Metadata  Metadata `json:"metadata,omitzero"`
}

// LDAPGroup is a directory group.
type LDAPGroup struct {
	ID       string   `json:"id"`
	CN       string   `json:"cn"`
	DN       string   `json:"dn"`
	Metadata Metadata `json:"metadata,omitzero"`
}

// ListLDAPUsers searches the directory's users.
func (c *Client) ListLDAPUsers(ctx context.Context, opts ListOptions) ([]LDAPUser, error) {
	return list[LDAPUser](ctx, c, "/core/v1/ldapUsers", "ldapUser", opts)
}

// ListLDAPGroups searches the directory's groups.
func (c *Client) ListLDAPGroups(ctx context.Context, opts ListOptions) ([]LDAPGroup, error) {
	return list[LDAPGroup](ctx, c, "/core/v1/ldapGroups", "ldapGroup", opts)
}

// FindLDAPGroup finds a directory group by DN (SameDN); nil when the directory has none.
// NetApp's toolkit finds eq unreliable for DNs: the listing is filtered here.
func (c *Client) FindLDAPGroup(ctx context.Context, dn string) (*LDAPGroup, error) {
	groups, err := c.ListLDAPGroups(ctx, ListOptions{})
	if err != nil {
		return nil, err
	}
	for i := range groups {
		if SameDN(groups[i].DN, dn) {
			return &groups[i], nil
		}
	}
	return nil, nil
}

// Describe names the setting and its state for wait errors (Describer).
func (s *Setting) Describe() (string, string) { return "the LDAP setting", s.State }

// LDAPApplied is the ready test of a wait after a PUT of the LDAP setting: valid with the
// desired host and switch applied is done; error is terminal, with the service's reasons;
// pending waits.
func LDAPApplied(s *Setting) (bool, error) {
	switch s.State {
	case SettingError:
		return false, &TerminalStateError{What: "the LDAP setting", State: s.State, Reasons: s.StateUnready}
	case SettingValid:
		if len(s.DesiredConfig) == 0 {
			return true, nil
		}
		want, got := LDAPConfigOf(s.DesiredConfig), LDAPConfigOf(s.CurrentConfig)
		return want.ConnectionHost == got.ConnectionHost && want.Enabled == got.Enabled, nil
	}
	return false, nil
}
