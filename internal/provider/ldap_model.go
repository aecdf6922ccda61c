package provider

import (
	"net/url"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

// ldapModel is the astra_ldap resource: the account's LDAP setting.
type ldapModel struct {
	ID                    types.String   `tfsdk:"id"`
	URL                   types.String   `tfsdk:"url"`
	Port                  types.Int64    `tfsdk:"port"`
	Secure                types.Bool     `tfsdk:"secure"`
	BindDN                types.String   `tfsdk:"bind_dn"`
	BindPasswordWO        types.String   `tfsdk:"bind_password_wo"`
	BindPasswordWOVersion types.String   `tfsdk:"bind_password_wo_version"`
	BindCredentialID      types.String   `tfsdk:"bind_credential_id"`
	UserSearchBase        types.String   `tfsdk:"user_search_base"`
	UserSearchFilter      types.String   `tfsdk:"user_search_filter"`
	GroupSearchBase       types.String   `tfsdk:"group_search_base"`
	GroupSearchFilter     types.String   `tfsdk:"group_search_filter"`
	Enabled               types.Bool     `tfsdk:"enabled"`
	State                 types.String   `tfsdk:"state"`
	StateReasons          types.List     `tfsdk:"state_reasons"`
	Timeouts              timeouts.Value `tfsdk:"timeouts"`
}

// ldapBindCredentialName names the credential holding the bind account's password: one per
// account, found again by name, as NetApp's docs name theirs (ldapBindCredential-<user>).
const ldapBindCredentialName = "ldapBindCredential-terraform"

// ldapHost is the connectionHost of a url: a host name or address, with or without
// ldap:// or ldaps:// (whose port, if any, goes to port).
func ldapHost(raw string) string {
	if strings.Contains(raw, "://") {
		if u, err := url.Parse(raw); err == nil && u.Hostname() != "" {
			return u.Hostname()
		}
	}
	return strings.TrimSpace(raw)
}

// ldapConfigOf is the desiredConfig the plan asks for, over the config as it stands (what
// the plan leaves out, such as loginAttribute, stays as it is).
func ldapConfigOf(plan ldapModel, current astra.LDAPConfig, credentialID string) astra.LDAPConfig {
	c := current
	c.ConnectionHost = ldapHost(plan.URL.ValueString())
	c.Enabled = plan.Enabled.ValueBool()
	c.SecureMode = "LDAP"
	if plan.Secure.ValueBool() {
		c.SecureMode = "LDAPS"
	}
	c.Port = int(plan.Port.ValueInt64())
	if credentialID != "" {
		c.CredentialID = credentialID
	}
	c.UserBaseDN, c.GroupBaseDN = plan.UserSearchBase.ValueString(), plan.GroupSearchBase.ValueString()
	c.UserSearchFilter, c.GroupSearchCustomFilter = plan.UserSearchFilter.ValueString(), plan.GroupSearchFilter.ValueString()
	if c.LoginAttribute == "" {
		c.LoginAttribute = "mail"
	}
	return c
}

// ldapFrom converts the setting for state: the config Astra Control applies (desired, or
// current before any PUT), the state and its reasons; the password arguments and the URL's
// spelling come from prior.
func ldapFrom(s *astra.Setting, prior ldapModel) ldapModel {
	cfg := astra.LDAPConfigOf(s.CurrentConfig)
	if len(s.DesiredConfig) > 0 {
		cfg = astra.LDAPConfigOf(s.DesiredConfig)
	}
	m := prior
	m.ID, m.State, m.StateReasons = types.StringValue(s.ID), types.StringValue(s.State), attrs.StringList(s.StateUnready)
	m.URL = types.StringValue(cfg.ConnectionHost)
	if isSet(prior.URL) && ldapHost(prior.URL.ValueString()) == cfg.ConnectionHost {
		m.URL = prior.URL
	}
	m.Port, m.Secure, m.Enabled = types.Int64Value(int64(cfg.Port)), types.BoolValue(cfg.SecureMode == "LDAPS"), types.BoolValue(cfg.Enabled)
	m.BindCredentialID = attrs.OptionalString(cfg.CredentialID)
	m.UserSearchBase, m.UserSearchFilter = types.StringValue(cfg.UserBaseDN), types.StringValue(cfg.UserSearchFilter)
	m.GroupSearchBase, m.GroupSearchFilter = types.StringValue(cfg.GroupBaseDN), types.StringValue(cfg.GroupSearchCustomFilter)
	m.BindPasswordWO = types.StringNull()
	if m.BindDN.IsUnknown() {
		m.BindDN = types.StringNull()
	}
	return m
}
