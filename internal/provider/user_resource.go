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
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

var (
	_ resource.ResourceWithConfigure      = (*userResource)(nil)
	_ resource.ResourceWithImportState    = (*userResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*userResource)(nil)
	_ resource.ResourceWithValidateConfig = (*userResource)(nil)
)

type userResource struct{ clientHolder }

// newUserResource is astra_user.
func newUserResource() resource.Resource { return &userResource{} }

func (r *userResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_user"
}

func (r *userResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: userSchemaVersion,
		MarkdownDescription: "A user of the account (`POST /core/v1/users`): a local user of Astra Control Center with a " +
			"write-only password, a person of the LDAP directory, or an Astra Control Service (Cloud Central) user, who is " +
			"invited by email. A user has no role until an `astra_role_binding` gives it one; Astra Control deletes a local " +
			"or Cloud Central user together with its last role binding, so such a user lives as long as its bindings. " +
			"Names update in place; `email`, `auth_provider` and `auth_id` replace the user, and its bindings go with it " +
			"(the plan warns). Imports by ID.",
		Attributes: userAttributes(),
	}
}

// ValidateConfig refuses password_wo where the CLI cannot send write-only values, and on a
// user that is not local.
func (r *userResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var wo, provider types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(userPassword.wo), &wo)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("auth_provider"), &provider)...)
	if resp.Diagnostics.HasError() || wo.IsNull() {
		return
	}
	if !req.ClientCapabilities.WriteOnlyAttributesAllowed {
		writeOnlyNeedsNewerCLI(&resp.Diagnostics, userPassword.wo, "a local user's password has no stored variant (it would "+
			"be kept in state): upgrade the CLI, or set the password in Astra Control's web UI and leave "+userPassword.wo+" out.")
		return
	}
	if isSet(provider) && provider.ValueString() != astra.AuthProviderLocal {
		resp.Diagnostics.AddAttributeError(path.Root(userPassword.wo), "Password of a user who is not local",
			fmt.Sprintf("Only a local user (auth_provider = %q) has a password in Astra Control; a %q user logs in "+
				"elsewhere. Remove %s, or set auth_provider = %q.", astra.AuthProviderLocal, provider.ValueString(), userPassword.wo, astra.AuthProviderLocal))
	}
}

// ModifyPlan warns when the plan replaces the user: Astra Control deletes its role bindings
// with it, and Terraform re-creates only the bindings that refer to the user's id.
func (r *userResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || req.State.Raw.IsNull() {
		return
	}
	var plan, prior userModel
	resp.Diagnostics.Append(planGet(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(stateGet(ctx, req.State, &prior)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var changed []string
	for _, c := range []struct {
		name         string
		planned, was types.String
	}{{"email", plan.Email, prior.Email}, {"auth_provider", plan.AuthProvider, prior.AuthProvider}, {"auth_id", plan.AuthID, prior.AuthID}} {
		if isSet(c.planned) && !c.planned.Equal(c.was) {
			changed = append(changed, c.name)
		}
	}
	if len(changed) == 0 {
		return
	}
	resp.Diagnostics.AddAttributeWarning(path.Root(changed[0]), "Replacing the user removes its role bindings",
		fmt.Sprintf("A change of %v replaces the user %s (%s): Astra Control deletes the old user and, with it, every role "+
			"binding that names it and its API tokens. The astra_role_binding resources whose user_id refers to this "+
			"resource's id are re-created for the new user in the same apply; bindings made outside this configuration "+
			"are lost, and the user has no role between the two steps.", changed, prior.Email.ValueString(), prior.ID.ValueString()))
}

func (r *userResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, client, ok := fromPlan[userModel](ctx, &r.clientHolder, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	body := astra.UserCreate{Email: plan.Email.ValueString(), FirstName: plan.FirstName.ValueString(), LastName: plan.LastName.ValueString(),
		AuthProvider: plan.AuthProvider.ValueString(), AuthID: plan.AuthID.ValueString()}
	sent := time.Now()
	u, err := client.CreateUser(ctx, body)
	if astra.IsConflict(err) {
		if found, _ := client.FindUser(ctx, body.Email); found != nil {
			addExists(&resp.Diagnostics, "User already exists", "astra_user",
				&existing{what: fmt.Sprintf("the user %q", found.Email), id: found.ID}, "", err)
			return
		}
	}
	u = createdOrAdopted(ctx, &resp.Diagnostics, "user "+body.Email, "Cannot create the user", userAPIFields, u, err,
		lostCreate[astra.User]{sent: sent, claims: r.claims(), stamp: userStamp, settle: client.RequestTimeout(),
			find: func(ctx context.Context) (*astra.User, error) { return client.FindUser(ctx, body.Email) }})
	if u == nil {
		return
	}
	// The user exists from here: state holds it even when setting the password fails, so a
	// later apply sets the password rather than creating the user again.
	r.record(ctx, plan, u, &resp.State, &resp.Diagnostics)
	r.setPassword(ctx, client, u.ID, req.Config, plan, &resp.Diagnostics)
}

// setPassword sends the configured write-only password, if any, as the user's credential.
func (r *userResource) setPassword(ctx context.Context, client *astra.Client, userID string, config tfsdk.Config, plan userModel, diags *diag.Diagnostics) {
	var wo types.String
	diags.Append(config.GetAttribute(ctx, path.Root(userPassword.wo), &wo)...)
	if diags.HasError() || !isSet(wo) {
		return
	}
	if err := client.SetUserPassword(ctx, userID, wo.ValueString(), plan.TemporaryPassword.ValueBool()); err != nil {
		addAPIError(diags, "Cannot set the user's password", err, map[string]string{"keyStore": userPassword.wo, "cleartext": userPassword.wo})
	}
}

func (r *userResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, client, ok := fromState[userModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	id := state.ID.ValueString()
	u := readOrForget(ctx, resp, "astra_user", id, "the user", func() (*astra.User, error) { return client.GetUser(ctx, id) }, nil)
	if u == nil {
		return
	}
	r.record(ctx, state, u, &resp.State, &resp.Diagnostics)
}

// Update renames with one PUT of the fresh copy (If-Match), and sets the password again
// when its version changed.
func (r *userResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, client, ok := fromPlan[userModel](ctx, &r.clientHolder, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	id := plan.ID.ValueString()
	// Asked before inPlace, which records the plan over a state that shares req.State's values.
	rotated, d := attrsChanged(ctx, req, userPassword.woVersion)
	resp.Diagnostics.Append(d...)
	inPlace(ctx, req, resp, userPutArgs, func(change userModel) bool {
		u := updateFromFreshCopy(ctx, &resp.Diagnostics, client, "user", id, userAPIFields,
			func(ctx context.Context) (*astra.User, error) { return client.GetUser(ctx, id) },
			func(u *astra.User) { applyUserPlan(u, change) }, client.UpdateUser)
		if u == nil {
			return false
		}
		r.record(ctx, plan, u, &resp.State, &resp.Diagnostics)
		return true
	})
	if resp.Diagnostics.HasError() {
		return
	}
	if rotated {
		r.setPassword(ctx, client, id, req.Config, plan, &resp.Diagnostics)
	}
}

// Delete deletes the user; Astra Control deletes its role bindings and tokens with it.
func (r *userResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, client, ok := fromState[userModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	if err := client.DeleteUser(ctx, state.ID.ValueString()); err != nil && !astra.IsNotFound(err) {
		addAPIError(&resp.Diagnostics, "Cannot delete the user", err, nil)
	}
}

func (r *userResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

func (r *userResource) record(ctx context.Context, prior userModel, u *astra.User, state *tfsdk.State, diags *diag.Diagnostics) {
	diags.Append(setState(ctx, state, userFrom(u, prior))...)
}

// attrsChanged reports whether the plan changes name (planned differs from prior state).
func attrsChanged(ctx context.Context, req resource.UpdateRequest, name string) (bool, diag.Diagnostics) {
	var planned, prior types.String
	diags := req.Plan.GetAttribute(ctx, path.Root(name), &planned)
	diags.Append(req.State.GetAttribute(ctx, path.Root(name), &prior)...)
	return !planned.Equal(prior), diags
}

func userStamp(u *astra.User) objectStamp {
	return objectStamp{Kind: "user", ID: u.ID, Created: u.Metadata.CreationTimestamp}
}
