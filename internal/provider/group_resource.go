package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

var (
	_ resource.ResourceWithConfigure   = (*groupResource)(nil)
	_ resource.ResourceWithImportState = (*groupResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*groupResource)(nil)
)

type groupResource struct{ clientHolder }

// newGroupResource is astra_group.
func newGroupResource() resource.Resource { return &groupResource{} }

func (r *groupResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_group"
}

func (r *groupResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: groupSchemaVersion,
		MarkdownDescription: "An LDAP group given access to the account (`POST /core/v1/groups`, Astra Control Center with " +
			"LDAP): its members get the role an `astra_role_binding` with `group_id` gives. The group is named by its DN, " +
			"checked at plan time against the directory. Members appear as users once they first log in. Destroy deletes " +
			"the group and its role bindings; the directory is untouched. Imports by ID.",
		Attributes: groupAttributes(),
	}
}

// ModifyPlan checks a new DN against the directory Astra Control is bound to.
func (r *groupResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var plan, prior groupModel
	resp.Diagnostics.Append(planGet(ctx, req.Plan, &plan)...)
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(stateGet(ctx, req.State, &prior)...)
	}
	if resp.Diagnostics.HasError() || !isSet(plan.AuthID) || plan.AuthID.Equal(prior.AuthID) {
		return
	}
	if client := r.configuredClient(); client != nil {
		checkDirectoryHas(ctx, client, plan.AuthID.ValueString(), &resp.Diagnostics)
	}
}

// checkDirectoryHas refuses a group DN the directory lacks, while LDAP is valid; while it is
// not (pending, in error, disabled, or configured in this very apply), it warns.
func checkDirectoryHas(ctx context.Context, client *astra.Client, dn string, diags *diag.Diagnostics) {
	at := path.Root("auth_id")
	setting, err := client.LDAPSetting(ctx)
	if err != nil {
		diags.AddAttributeWarning(at, "Cannot check the group's DN", "Reading the account's LDAP setting failed, so the DN "+
			"was not checked against the directory: "+err.Error())
		return
	}
	cfg := astra.LDAPConfigOf(setting.CurrentConfig)
	if setting.State != astra.SettingValid || !cfg.Enabled {
		diags.AddAttributeWarning(at, "LDAP is not ready: the group's DN is unchecked",
			fmt.Sprintf("The account's LDAP setting is %s (enabled: %v), so %q cannot be checked against the directory yet. "+
				"Astra Control accepts the group now; its members can log in once LDAP is valid and the DN exists.",
				setting.State, cfg.Enabled, dn))
		return
	}
	found, err := client.FindLDAPGroup(ctx, dn)
	switch {
	case err != nil:
		diags.AddAttributeWarning(at, "Cannot check the group's DN", "Searching the directory failed, so the DN was not checked: "+err.Error())
	case found == nil:
		diags.AddAttributeError(at, "No such group in the directory",
			fmt.Sprintf("The LDAP directory Astra Control is bound to has no group with the DN %q (DNs are compared "+
				"case-insensitively). Check the DN, and that it lies under the LDAP setting's group search base %q; the "+
				"astra_ldap_groups data source lists the groups Astra Control sees.", dn, cfg.GroupBaseDN))
	}
}

func (r *groupResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, client, ok := fromPlan[groupModel](ctx, &r.clientHolder, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	dn := plan.AuthID.ValueString()
	sent := time.Now()
	g, err := client.CreateGroup(ctx, plan.Name.ValueString(), dn)
	if astra.IsConflict(err) {
		if found, _ := client.FindGroup(ctx, dn); found != nil {
			addExists(&resp.Diagnostics, "Group already exists", "astra_group",
				&existing{what: fmt.Sprintf("the group %q (%s)", found.Name, found.AuthID), id: found.ID}, "", err)
			return
		}
	}
	g = createdOrAdopted(ctx, &resp.Diagnostics, "group "+dn, "Cannot create the group", groupAPIFields, g, err,
		lostCreate[astra.Group]{sent: sent, claims: r.claims(), stamp: groupStamp, settle: client.RequestTimeout(),
			find: func(ctx context.Context) (*astra.Group, error) { return client.FindGroup(ctx, dn) }})
	if g == nil {
		return
	}
	r.record(ctx, plan, g, &resp.State, &resp.Diagnostics)
}

func (r *groupResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, client, ok := fromState[groupModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	id := state.ID.ValueString()
	g := readOrForget(ctx, resp, "astra_group", id, "the group", func() (*astra.Group, error) { return client.GetGroup(ctx, id) }, nil)
	if g == nil {
		return
	}
	r.record(ctx, state, g, &resp.State, &resp.Diagnostics)
}

// Update renames the group: one PUT of the fresh copy.
func (r *groupResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, client, ok := fromPlan[groupModel](ctx, &r.clientHolder, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	inPlace(ctx, req, resp, groupPutArgs, func(change groupModel) bool {
		id := plan.ID.ValueString()
		g := updateFromFreshCopy(ctx, &resp.Diagnostics, client, "group", id, groupAPIFields,
			func(ctx context.Context) (*astra.Group, error) { return client.GetGroup(ctx, id) },
			func(g *astra.Group) { applyGroupPlan(g, change) }, client.UpdateGroup)
		if g == nil {
			return false
		}
		r.record(ctx, plan, g, &resp.State, &resp.Diagnostics)
		return true
	})
}

// Delete deletes the group; Astra Control deletes its role bindings with it. The group's
// delete lists no 404 (research notes §4.14): one already gone is no error.
func (r *groupResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, client, ok := fromState[groupModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	if err := client.DeleteGroup(ctx, state.ID.ValueString()); err != nil && !astra.IsNotFound(err) {
		addAPIError(&resp.Diagnostics, "Cannot delete the group", err, nil)
	}
}

func (r *groupResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

func (r *groupResource) record(ctx context.Context, prior groupModel, g *astra.Group, state *tfsdk.State, diags *diag.Diagnostics) {
	diags.Append(setState(ctx, state, groupFrom(g, prior))...)
}

func groupStamp(g *astra.Group) objectStamp {
	return objectStamp{Kind: "group", ID: g.ID, Created: g.Metadata.CreationTimestamp}
}
