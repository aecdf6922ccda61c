package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

const ldapSchemaVersion = 0

// ldapTimeouts: applying a directory configuration takes the service a moment (it binds
// and searches); disabling is one PUT.
var ldapTimeouts = attrs.TimeoutDefaults{Create: 10 * time.Minute, Update: 10 * time.Minute, Delete: 5 * time.Minute}

// ldapBindPassword is the bind account's write-only password.
var ldapBindPassword = struct{ wo, woVersion string }{"bind_password_wo", "bind_password_wo_version"}

// ldapAttributes are astra_ldap's attributes.
func ldapAttributes(ctx context.Context) map[string]schema.Attribute {
	str := func(desc string, required bool, def string) schema.StringAttribute {
		a := schema.StringAttribute{Required: required, Optional: !required, MarkdownDescription: desc + updatedInPlace}
		if !required {
			a.Computed, a.Default = true, stringdefault.StaticString(def)
		}
		return a
	}
	return map[string]schema.Attribute{
		"id": attrs.Kept(computedString("ID of the account's LDAP setting (`astra.account.ldap`), which always exists.")),
		"url": str("The directory server: a host name or address (`ldap.example.com`), or an `ldap://` or `ldaps://` URL whose "+
			"host is taken. Astra Control (Center) speaks to Active Directory.", true, ""),
		"port": schema.Int64Attribute{
			Optional: true, Computed: true,
			MarkdownDescription: "The server's port; left out: 636 with `secure`, else 389." + updatedInPlace,
			Validators:          []validator.Int64{int64validator.Between(1, 65535)},
		},
		"secure": schema.BoolAttribute{
			Optional: true, Computed: true, Default: booldefault.StaticBool(true),
			MarkdownDescription: "LDAPS (default true); the server's certificate must be trusted by Astra Control " +
				"(its root CA uploaded as a certificate)." + updatedInPlace,
		},
		"bind_dn": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "The account Astra Control binds as, for example `svc-astra@example.com` or a DN. Required " +
				"to create the configuration; an imported one may leave it out (Astra Control keeps its bind credential, " +
				"which it never shows). A change sends it with `" + ldapBindPassword.wo + "`." + updatedInPlace,
			Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
		},
		ldapBindPassword.wo: schema.StringAttribute{
			Optional: true, Sensitive: true, WriteOnly: true,
			MarkdownDescription: "The bind account's password, write-only: sent to Astra Control (in the bind credential " +
				"`" + ldapBindCredentialName + "`) but never stored in state or plan, nor logged. Needs Terraform 1.11 or " +
				"later or OpenTofu 1.11 or later. Required to create the configuration and whenever `bind_dn` changes; " +
				"an imported configuration may leave it out (Astra Control keeps its credential). Requires `" +
				ldapBindPassword.woVersion + "`.",
			Validators: []validator.String{stringvalidator.AlsoRequires(path.MatchRoot(ldapBindPassword.woVersion))},
		},
		ldapBindPassword.woVersion: schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "Any value that changes whenever `" + ldapBindPassword.wo + "` changes; a change sends " +
				"the password again.",
			Validators: []validator.String{stringvalidator.AlsoRequires(path.MatchRoot(ldapBindPassword.wo))},
		},
		"bind_credential_id": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "ID of the credential holding the bind account (kept on destroy: LDAP is only disabled).",
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"user_search_base":    str("Where users are searched, for example `OU=users,DC=example,DC=com`.", true, ""),
		"user_search_filter":  str("The filter users must match; default `(objectClass=Person)`.", false, "(objectClass=Person)"),
		"group_search_base":   str("Where groups are searched, for example `OU=groups,DC=example,DC=com`.", true, ""),
		"group_search_filter": str("A custom filter groups must match; default none.", false, ""),
		"enabled": schema.BoolAttribute{
			Optional: true, Computed: true, Default: booldefault.StaticBool(true),
			MarkdownDescription: "Whether LDAP users and groups may log in (default true). Disabling keeps them and their " +
				"role bindings." + updatedInPlace,
		},
		"state": schema.StringAttribute{
			Computed: true,
			MarkdownDescription: "The setting's state: `valid` once Astra Control applied the configuration, `pending` " +
				"while it does, `error` when it could not (see `state_reasons`). An apply waits for `valid`.",
		},
		"state_reasons": schema.ListAttribute{ElementType: types.StringType, Computed: true, MarkdownDescription: "Why the state is not `valid`, as Astra Control says."},
		"timeouts":      attrs.TimeoutsSchema(ctx, ldapTimeouts),
	}
}
