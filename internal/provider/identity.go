package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
)

// Every resource is identified by its Astra ID: the identity (Terraform 1.12+, OpenTofu
// 1.12+) is { id }, which `import { identity = { id = "..." } }` names and the list
// resources return. An Astra ID never changes, so neither does an identity.

// identitySchema is the identity of every resource.
func identitySchema() identityschema.Schema {
	return identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"id": identityschema.StringAttribute{
				RequiredForImport: true,
				Description:       "The object's ID in Astra Control (a UUID).",
			},
		},
	}
}

// idIdentity is the identity's model.
type idIdentity struct {
	ID types.String `tfsdk:"id"`
}

// setIdentity records id as the identity, when the CLI keeps identities (identity is nil
// otherwise) and the ID is known.
func setIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, id types.String, diags *diag.Diagnostics) {
	if identity == nil || id.IsNull() || id.IsUnknown() {
		return
	}
	if identity.Schema != nil && len(identity.Schema.GetAttributes()) == 1 {
		if _, isString := identity.Schema.GetAttributes()["id"].(identityschema.StringAttribute); isString {
			// The framework's Set builds the schema's type and converts the model by
			// reflection at every write; the value it stores is this one (TestSetIdentity).
			identity.Raw = tftypes.NewValue(identityType, map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, id.ValueString())})
			return
		}
	}
	diags.Append(identity.Set(ctx, idIdentity{ID: id})...)
}

// identityType is the Terraform type of identitySchema.
var identityType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String}}

// stateID is the `id` attribute of a resource's state; null when the state is.
func stateID(ctx context.Context, state tfsdk.State, diags *diag.Diagnostics) types.String {
	var id types.String
	if state.Raw.IsNull() {
		return types.StringNull()
	}
	diags.Append(state.GetAttribute(ctx, path.Root("id"), &id)...)
	return id
}

// identifiedByID gives a resource its identity: each write and read records the `id` of the
// resulting state as the identity, and an import takes the ID from an identity as well as
// from a string. The resource's own methods stay free of identity code; the optional
// interfaces of the framework pass through to the resource when it implements them.
func identifiedByID(newResource func() resource.Resource) func() resource.Resource {
	return func() resource.Resource { return &identified{Resource: newResource()} }
}

type identified struct {
	resource.Resource
}

var (
	_ knownanswers.Wrapper                = (*identified)(nil)
	_ knownanswers.CreateReplayer         = (*identified)(nil)
	_ resource.ResourceWithIdentity       = (*identified)(nil)
	_ resource.ResourceWithConfigure      = (*identified)(nil)
	_ resource.ResourceWithImportState    = (*identified)(nil)
	_ resource.ResourceWithModifyPlan     = (*identified)(nil)
	_ resource.ResourceWithValidateConfig = (*identified)(nil)
	_ resource.ResourceWithUpgradeState   = (*identified)(nil)
)

func (r *identified) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identitySchema()
}

// Unwrap is the resource identified wraps, whose methods the known answers look for.
func (r *identified) Unwrap() resource.Resource { return r.Resource }

// ReplaysCreates: Create gives the outcome the known answers replay through the framework.
func (r *identified) ReplaysCreates() {}

// Create runs the resource's Create, or, when the known answers replay an outcome through
// the framework, gives that outcome (knownanswers.Replayed).
func (r *identified) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if knownanswers.Replayed(ctx, resp) {
		return
	}
	r.Resource.Create(ctx, req, resp)
	setIdentity(ctx, resp.Identity, stateID(ctx, resp.State, &resp.Diagnostics), &resp.Diagnostics)
}

// Read records the identity before reading, so an object found gone (removed from state)
// still has the identity the framework requires, even for state written before identities.
func (r *identified) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	setIdentity(ctx, resp.Identity, stateID(ctx, req.State, &resp.Diagnostics), &resp.Diagnostics)
	r.Resource.Read(ctx, req, resp)
	setIdentity(ctx, resp.Identity, stateID(ctx, resp.State, &resp.Diagnostics), &resp.Diagnostics)
}

func (r *identified) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	r.Resource.Update(ctx, req, resp)
	setIdentity(ctx, resp.Identity, stateID(ctx, resp.State, &resp.Diagnostics), &resp.Diagnostics)
}

// ImportState takes the ID from `terraform import`/an import block's id, or from an import
// block's identity (then the resource's own ImportState, which reads a string, is skipped).
func (r *identified) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if inner, ok := r.Resource.(resource.ResourceWithImportState); ok && req.ID != "" {
		inner.ImportState(ctx, req, resp)
		return
	}
	resource.ImportStatePassthroughWithIdentity(ctx, path.Root("id"), path.Root("id"), req, resp)
}

func (r *identified) Configure(ctx context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if inner, ok := r.Resource.(resource.ResourceWithConfigure); ok {
		inner.Configure(ctx, req, resp)
	}
}

// ModifyPlan runs the resource's plan checks (knownanswers.PlanChecker), or its own ModifyPlan.
func (r *identified) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if n, ok := r.Resource.(destroyNoter); ok {
		n.noteDestroy(ctx, req)
	}
	switch inner := r.Resource.(type) {
	case resource.ResourceWithModifyPlan:
		inner.ModifyPlan(ctx, req, resp)
	case knownanswers.PlanChecker:
		knownanswers.ModifyPlan(ctx, inner, req, resp)
	}
}

func (r *identified) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	if inner, ok := r.Resource.(resource.ResourceWithValidateConfig); ok {
		inner.ValidateConfig(ctx, req, resp)
	}
}

// UpgradeState: a resource without upgraders is at schema version 0, where the framework
// never asks for one.
func (r *identified) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	if inner, ok := r.Resource.(resource.ResourceWithUpgradeState); ok {
		return inner.UpgradeState(ctx)
	}
	return nil
}
