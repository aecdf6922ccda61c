package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

var (
	_ resource.ResourceWithConfigure   = (*roleBindingResource)(nil)
	_ resource.ResourceWithImportState = (*roleBindingResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*roleBindingResource)(nil)
)

type roleBindingResource struct{ clientHolder }

// newRoleBindingResource is astra_role_binding.
func newRoleBindingResource() resource.Resource { return &roleBindingResource{} }

func (r *roleBindingResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_role_binding"
}

func (r *roleBindingResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: roleBindingSchemaVersion,
		MarkdownDescription: "A role given to a user or an LDAP group (`POST /core/v1/roleBindings`), optionally limited to " +
			"namespaces by ID or by Kubernetes label. Role and constraints change in place (one PUT of the binding as just " +
			"read, with If-Match), never by a delete and re-create. Deleting the last binding of a local or Cloud Central " +
			"user deletes that user too (research notes §4.14): the plan warns, and refuses outright to remove the last " +
			"binding of the user whose API token the provider uses, which would lock this configuration out. Imports by ID.",
		Attributes: roleBindingAttributes(),
	}
}

// ModifyPlan checks a plan that removes a binding (a destroy, or the replacement a new
// principal makes): the provider's own user losing its last binding is refused; another
// user losing its last one is warned about, since Astra Control deletes it too.
func (r *roleBindingResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() {
		return
	}
	var prior roleBindingModel
	resp.Diagnostics.Append(stateGet(ctx, req.State, &prior)...)
	if resp.Diagnostics.HasError() || !isSet(prior.UserID) {
		return
	}
	if !req.Plan.Raw.IsNull() {
		var plan roleBindingModel
		resp.Diagnostics.Append(planGet(ctx, req.Plan, &plan)...)
		if resp.Diagnostics.HasError() || plan.UserID.Equal(prior.UserID) {
			return // the binding stays with its user
		}
	}
	client := r.configuredClient()
	if client == nil {
		return
	}
	r.checkRemoval(ctx, client, prior, &resp.Diagnostics)
}

// checkRemoval is ModifyPlan's check of the removal of binding prior of a user.
func (r *roleBindingResource) checkRemoval(ctx context.Context, client *astra.Client, prior roleBindingModel, diags *diag.Diagnostics) {
	userID, bindingID := prior.UserID.ValueString(), prior.ID.ValueString()
	bindings, err := client.ListRoleBindings(ctx, astra.ListOptions{})
	if err != nil {
		diags.AddWarning("Cannot check the user's other role bindings", "Listing the role bindings failed, so the plan cannot "+
			"tell whether this is user "+userID+"'s last binding (Astra Control deletes a local or Cloud Central user with "+
			"its last binding): "+err.Error())
		return
	}
	for _, b := range bindings {
		if b.ID != bindingID && strings.EqualFold(b.User(), userID) {
			return // another binding keeps the user
		}
	}
	if own, ok := client.TokenUserID(); ok && strings.EqualFold(own, userID) {
		diags.AddError("Removing the provider's own last role binding",
			fmt.Sprintf("This plan removes role binding %s, the last one of user %s, the user whose API token this "+
				"provider uses (api_token or ASTRA_API_TOKEN). Without a binding the user has no role, and Astra Control "+
				"deletes a local or Cloud Central user together with its last binding and the user's tokens: every later "+
				"plan and apply of this configuration would be refused (401/403), locking the configuration out of the "+
				"account. Give the user another binding first (a second astra_role_binding, applied before this one is "+
				"removed), or run this change with the token of another admin or the owner.", bindingID, userID))
		return
	}
	if r.destroyedHere(ctx, []string{userID})[userID] {
		return // the user goes in this plan anyway
	}
	u, err := client.GetUser(ctx, userID)
	if err != nil || u.AuthProvider == astra.AuthProviderLDAP {
		return // gone already, or an LDAP user, whom Astra Control keeps
	}
	diags.AddWarning("The user goes with its last role binding",
		fmt.Sprintf("Role binding %s is the last one of user %q (%s). Astra Control deletes a %s user together with its "+
			"last role binding, with its API tokens. If the configuration still declares the astra_user, the next plan "+
			"shows it gone and proposes to create it again; to change a role, update the binding's role in place instead.",
			bindingID, u.Email, userID, u.AuthProvider))
}

func (r *roleBindingResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, client, ok := fromPlan[roleBindingModel](ctx, &r.clientHolder, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	body := astra.RoleBindingCreate{UserID: plan.UserID.ValueString(), GroupID: plan.GroupID.ValueString(),
		Role: plan.Role.ValueString(), Constraints: constraintsToAPI(plan.NamespaceConstraints)}
	sent := time.Now()
	b, err := client.CreateRoleBinding(ctx, body)
	b = createdOrAdopted(ctx, &resp.Diagnostics, "role binding of "+body.UserID+body.GroupID, "Cannot create the role binding", roleBindingAPIFields, b, err,
		lostCreate[astra.RoleBinding]{sent: sent, claims: r.claims(), stamp: roleBindingStamp, settle: client.RequestTimeout(),
			find: func(ctx context.Context) (*astra.RoleBinding, error) { return client.FindRoleBinding(ctx, body) }})
	if b == nil {
		return
	}
	r.record(ctx, plan, b, &resp.State, &resp.Diagnostics)
}

func (r *roleBindingResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, client, ok := fromState[roleBindingModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	id := state.ID.ValueString()
	b := readOrForget(ctx, resp, "astra_role_binding", id, "the role binding",
		func() (*astra.RoleBinding, error) { return client.GetRoleBinding(ctx, id) }, nil)
	if b == nil {
		return
	}
	r.record(ctx, state, b, &resp.State, &resp.Diagnostics)
}

// Update changes role and constraints in place: one PUT of the fresh copy with If-Match.
func (r *roleBindingResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, client, ok := fromPlan[roleBindingModel](ctx, &r.clientHolder, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	inPlace(ctx, req, resp, roleBindingPutArgs, func(change roleBindingModel) bool {
		id := plan.ID.ValueString()
		b := updateFromFreshCopy(ctx, &resp.Diagnostics, client, "role binding", id, roleBindingAPIFields,
			func(ctx context.Context) (*astra.RoleBinding, error) { return client.GetRoleBinding(ctx, id) },
			func(b *astra.RoleBinding) { applyRoleBindingPlan(b, change) }, client.UpdateRoleBinding)
		if b == nil {
			return false
		}
		r.record(ctx, plan, b, &resp.State, &resp.Diagnostics)
		return true
	})
}

// Delete deletes the binding (and, for a local or Cloud Central user's last one, Astra
// Control deletes the user: the plan warned).
func (r *roleBindingResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, client, ok := fromState[roleBindingModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	if err := client.DeleteRoleBinding(ctx, state.ID.ValueString()); err != nil && !astra.IsNotFound(err) {
		addAPIError(&resp.Diagnostics, "Cannot delete the role binding", err, nil)
	}
}

func (r *roleBindingResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// record writes the binding to state; constraints no attribute can say are warned about
// (the next update replaces them with the configured ones).
func (r *roleBindingResource) record(ctx context.Context, prior roleBindingModel, b *astra.RoleBinding, state *tfsdk.State, diags *diag.Diagnostics) {
	m, unknown := roleBindingFrom(b, prior)
	if len(unknown) > 0 {
		diags.AddWarning("Role constraints the provider cannot show",
			fmt.Sprintf("Role binding %s holds constraints that are not one namespace by ID or by label: %s. They are left "+
				"out of namespace_constraints; an update of the binding replaces them with the configured constraints.",
				b.ID, strings.Join(unknown, ", ")))
	}
	diags.Append(setState(ctx, state, m)...)
}

func roleBindingStamp(b *astra.RoleBinding) objectStamp {
	return objectStamp{Kind: "role binding", ID: b.ID, Created: b.Metadata.CreationTimestamp}
}
