package provider

import (
	"context"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

// The identity-and-access data sources: astra_users, astra_groups and astra_role_bindings
// list what the resources manage (to read it, or to write the import blocks that adopt it),
// astra_ldap_users and astra_ldap_groups search the directory Astra Control is bound to.
// One listing each; the optional arguments filter it.

// accessList is one of those data sources: its name, description, filter arguments (all
// optional strings), the list attribute and how it is read.
type accessList struct {
	dataSourceClientHolder
	typeName, description, listName, listDescription string
	filters                                          map[string]string // argument -> description
	item                                             func() map[string]schema.Attribute
	read                                             func(ctx context.Context, c *astra.Client, filters map[string]string) (any, error)
}

func (d *accessList) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + d.typeName
}

func (d *accessList) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attributes := map[string]schema.Attribute{d.listName: computedList(d.listDescription, d.item())}
	for name, desc := range d.filters {
		attributes[name] = schema.StringAttribute{Optional: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{MarkdownDescription: d.description, Attributes: attributes}
}

func (d *accessList) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	filters := map[string]string{}
	for name := range d.filters {
		var v types.String
		resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(name), &v)...)
		if isSet(v) {
			filters[name] = v.ValueString()
		}
	}
	client := d.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	items, err := d.read(ctx, client, filters)
	if err != nil {
		addAPIError(&resp.Diagnostics, "Cannot list "+strings.ReplaceAll(d.typeName, "_", " "), err, nil)
		return
	}
	resp.Diagnostics.Append(setAccessList(ctx, &resp.State, d.item(), d.listName, items)...)
	for name, value := range filters {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(name), value)...)
	}
}

// setAccessList writes items (a slice of item models) to the list attribute.
func setAccessList(ctx context.Context, state *tfsdk.State, item map[string]schema.Attribute, name string, items any) diag.Diagnostics {
	var list types.List
	var diags diag.Diagnostics
	switch v := items.(type) {
	case []userItem:
		list, diags = objectList(ctx, item, v)
	case []groupItem:
		list, diags = objectList(ctx, item, v)
	case []roleBindingItem:
		list, diags = objectList(ctx, item, v)
	case []ldapUserItem:
		list, diags = objectList(ctx, item, v)
	case []ldapGroupItem:
		list, diags = objectList(ctx, item, v)
	}
	diags.Append(state.SetAttribute(ctx, path.Root(name), list)...)
	return diags
}

type userItem struct {
	ID           types.String `tfsdk:"id"`
	Email        types.String `tfsdk:"email"`
	FirstName    types.String `tfsdk:"first_name"`
	LastName     types.String `tfsdk:"last_name"`
	AuthProvider types.String `tfsdk:"auth_provider"`
	AuthID       types.String `tfsdk:"auth_id"`
	State        types.String `tfsdk:"state"`
	Metadata     types.Object `tfsdk:"metadata"`
}

func userItemAttributes() map[string]schema.Attribute {
	return attrs.ComputedForDataSource(userAttributes(), userPassword.wo, userPassword.woVersion, "temporary_password")
}

type groupItem struct {
	ID       types.String `tfsdk:"id"`
	AuthID   types.String `tfsdk:"auth_id"`
	Name     types.String `tfsdk:"name"`
	Metadata types.Object `tfsdk:"metadata"`
}

type roleBindingItem struct {
	ID                   types.String `tfsdk:"id"`
	UserID               types.String `tfsdk:"user_id"`
	GroupID              types.String `tfsdk:"group_id"`
	Role                 types.String `tfsdk:"role"`
	NamespaceConstraints types.Set    `tfsdk:"namespace_constraints"`
	Metadata             types.Object `tfsdk:"metadata"`
}

type ldapUserItem struct {
	ID        types.String `tfsdk:"id"`
	Email     types.String `tfsdk:"email"`
	FirstName types.String `tfsdk:"first_name"`
	LastName  types.String `tfsdk:"last_name"`
	CN        types.String `tfsdk:"cn"`
	DN        types.String `tfsdk:"dn"`
}

type ldapGroupItem struct {
	ID types.String `tfsdk:"id"`
	CN types.String `tfsdk:"cn"`
	DN types.String `tfsdk:"dn"`
}

func computedStringAttrs(names map[string]string) map[string]schema.Attribute {
	out := map[string]schema.Attribute{}
	for name, desc := range names {
		out[name] = schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	return out
}

func newUsersDataSource() datasource.DataSource {
	return &accessList{typeName: "users", listName: "users",
		description: "Lists the account's users, as `astra_user` holds them (without passwords, which Astra Control never " +
			"shows): to read them, or to write the `import` blocks that adopt them.",
		listDescription: "The users, sorted by email.",
		filters: map[string]string{"email": "Only the user with this email (case-insensitive).",
			"auth_provider": "Only users of this provider: `local`, `ldap` or `cloud-central`."},
		item: userItemAttributes,
		read: func(ctx context.Context, c *astra.Client, f map[string]string) (any, error) {
			users, err := c.ListUsers(ctx, astra.ListOptions{})
			items := []userItem{}
			for i := range users {
				u := &users[i]
				if (f["email"] != "" && !strings.EqualFold(u.Email, f["email"])) || (f["auth_provider"] != "" && u.AuthProvider != f["auth_provider"]) {
					continue
				}
				m := userFrom(u, userModel{})
				items = append(items, userItem{ID: m.ID, Email: m.Email, FirstName: m.FirstName, LastName: m.LastName,
					AuthProvider: m.AuthProvider, AuthID: m.AuthID, State: m.State, Metadata: m.Metadata})
			}
			sort.Slice(items, func(i, j int) bool { return items[i].Email.ValueString() < items[j].Email.ValueString() })
			return items, err
		},
	}
}

func newGroupsDataSource() datasource.DataSource {
	return &accessList{typeName: "groups", listName: "groups",
		description:     "Lists the account's LDAP groups, as `astra_group` holds them.",
		listDescription: "The groups, sorted by DN.",
		filters:         map[string]string{"auth_id": "Only the group of this DN (case-insensitive)."},
		item:            func() map[string]schema.Attribute { return attrs.ComputedForDataSource(groupAttributes()) },
		read: func(ctx context.Context, c *astra.Client, f map[string]string) (any, error) {
			groups, err := c.ListGroups(ctx, astra.ListOptions{})
			items := []groupItem{}
			for i := range groups {
				if f["auth_id"] != "" && !astra.SameDN(groups[i].AuthID, f["auth_id"]) {
					continue
				}
				m := groupFrom(&groups[i], groupModel{})
				items = append(items, groupItem(m))
			}
			sort.Slice(items, func(i, j int) bool { return items[i].AuthID.ValueString() < items[j].AuthID.ValueString() })
			return items, err
		},
	}
}

func newRoleBindingsDataSource() datasource.DataSource {
	return &accessList{typeName: "role_bindings", listName: "role_bindings",
		description: "Lists the account's role bindings, as `astra_role_binding` holds them: who has which role, in which " +
			"namespaces.",
		listDescription: "The role bindings, sorted by ID.",
		filters:         map[string]string{"user_id": "Only the bindings of this user.", "group_id": "Only the bindings of this group.", "role": "Only bindings of this role."},
		item:            func() map[string]schema.Attribute { return attrs.ComputedForDataSource(roleBindingAttributes()) },
		read: func(ctx context.Context, c *astra.Client, f map[string]string) (any, error) {
			bindings, err := c.ListRoleBindings(ctx, astra.ListOptions{})
			items := []roleBindingItem{}
			for i := range bindings {
				b := &bindings[i]
				if (f["user_id"] != "" && !strings.EqualFold(b.User(), f["user_id"])) || (f["group_id"] != "" && !strings.EqualFold(b.Group(), f["group_id"])) ||
					(f["role"] != "" && b.Role != f["role"]) {
					continue
				}
				m, _ := roleBindingFrom(b, roleBindingModel{NamespaceConstraints: types.SetNull(constraintType)})
				items = append(items, roleBindingItem(m))
			}
			sort.Slice(items, func(i, j int) bool { return items[i].ID.ValueString() < items[j].ID.ValueString() })
			return items, err
		},
	}
}

func newLDAPUsersDataSource() datasource.DataSource {
	return &accessList{typeName: "ldap_users", listName: "users",
		description: "Searches the users of the LDAP directory Astra Control is bound to (`GET /core/v1/ldapUsers`): the " +
			"people an `astra_user` with `auth_provider = \"ldap\"` can name.",
		listDescription: "The directory's users, sorted by DN.",
		filters:         map[string]string{"email": "Only the person with this email (case-insensitive)."},
		item: func() map[string]schema.Attribute {
			return computedStringAttrs(map[string]string{"id": "Astra Control's ID of the entry.", "email": "Email.", "first_name": "First name.",
				"last_name": "Last name.", "cn": "Common name.", "dn": "Distinguished name: an `astra_user`'s `auth_id`."})
		},
		read: func(ctx context.Context, c *astra.Client, f map[string]string) (any, error) {
			users, err := c.ListLDAPUsers(ctx, astra.ListOptions{})
			items := []ldapUserItem{}
			for _, u := range users {
				if f["email"] != "" && !strings.EqualFold(u.Email, f["email"]) {
					continue
				}
				items = append(items, ldapUserItem{ID: types.StringValue(u.ID), Email: types.StringValue(u.Email), FirstName: types.StringValue(u.FirstName),
					LastName: types.StringValue(u.LastName), CN: types.StringValue(u.CN), DN: types.StringValue(u.DN)})
			}
			sort.Slice(items, func(i, j int) bool { return items[i].DN.ValueString() < items[j].DN.ValueString() })
			return items, err
		},
	}
}

func newLDAPGroupsDataSource() datasource.DataSource {
	return &accessList{typeName: "ldap_groups", listName: "groups",
		description: "Searches the groups of the LDAP directory Astra Control is bound to (`GET /core/v1/ldapGroups`): the " +
			"DNs an `astra_group` can name.",
		listDescription: "The directory's groups, sorted by DN.",
		filters:         map[string]string{"cn": "Only groups with this common name (case-insensitive)."},
		item: func() map[string]schema.Attribute {
			return computedStringAttrs(map[string]string{"id": "Astra Control's ID of the entry.", "cn": "Common name.", "dn": "Distinguished name: an `astra_group`'s `auth_id`."})
		},
		read: func(ctx context.Context, c *astra.Client, f map[string]string) (any, error) {
			groups, err := c.ListLDAPGroups(ctx, astra.ListOptions{})
			items := []ldapGroupItem{}
			for _, g := range groups {
				if f["cn"] != "" && !strings.EqualFold(g.CN, f["cn"]) {
					continue
				}
				items = append(items, ldapGroupItem{ID: types.StringValue(g.ID), CN: types.StringValue(g.CN), DN: types.StringValue(g.DN)})
			}
			sort.Slice(items, func(i, j int) bool { return items[i].DN.ValueString() < items[j].DN.ValueString() })
			return items, err
		},
	}
}
