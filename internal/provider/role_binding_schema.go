package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

const roleBindingSchemaVersion = 0

// roleBindingPutArgs: role and constraints change in place, with one PUT; the principal
// is set only on create.
var roleBindingPutArgs = []string{"role", "namespace_constraints"}

// roleBindingAttributes are astra_role_binding's attributes.
func roleBindingAttributes() map[string]schema.Attribute {
	principal := func(what, other string) schema.StringAttribute {
		return schema.StringAttribute{
			Optional: true,
			MarkdownDescription: fmt.Sprintf("ID of the %s the role is given to (exactly one of `user_id` and `group_id`). Changing "+
				"it replaces the binding (Astra Control sets the principal only on create).", what),
			Validators:    []validator.String{validate.UUID(), stringvalidator.ExactlyOneOf(path.MatchRoot(other))},
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
		}
	}
	return map[string]schema.Attribute{
		"id":       attrs.Kept(computedString("ID of the role binding in Astra Control.")),
		"user_id":  principal("user (`astra_user`)", "group_id"),
		"group_id": principal("LDAP group (`astra_group`)", "user_id"),
		"role": schema.StringAttribute{
			Required: true,
			MarkdownDescription: "The role: `viewer` (reads), `member` (also manages apps, clusters and their protection), " +
				"`admin` (also users, groups, bindings and LDAP) or `owner`." + updatedInPlace +
				" A role change is always an update, never a delete and re-create: deleting a local or Cloud Central " +
				"user's last binding deletes the user.",
			Validators: []validator.String{stringvalidator.OneOf(astra.Roles...)},
		},
		"namespace_constraints": schema.SetNestedAttribute{
			Optional: true,
			MarkdownDescription: "The namespaces the role is limited to, each with everything in it: a set, so the order " +
				"is not a change. Each entry has exactly one of `namespace_id` (Astra's namespace ID, from " +
				"`GET /topology/v1/namespaces`) and `kubernetes_labels` (`key=value`: every namespace with that label, on " +
				"every cluster). Left out or empty: every namespace (the service's `*`). Astra Control's UI offers " +
				"constraints for `member` and `viewer`." + updatedInPlace,
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"namespace_id": schema.StringAttribute{
					Optional: true, MarkdownDescription: "Astra's ID of one namespace.",
					Validators: []validator.String{validate.UUID(), stringvalidator.ExactlyOneOf(path.MatchRelative().AtParent().AtName("kubernetes_labels"))},
				},
				"kubernetes_labels": schema.StringAttribute{
					Optional: true, MarkdownDescription: "A Kubernetes label, `key=value` (for example `team=payments`): every namespace that has it.",
					Validators: []validator.String{labelConstraint{}},
				},
			}},
		},
		"metadata": attrs.MetadataSchema(roleBindingPutArgs...),
	}
}

// labelConstraint checks a kubernetes_labels value against the grammar (key=value, no quotes).
type labelConstraint struct{}

func (v labelConstraint) Description(ctx context.Context) string { return v.MarkdownDescription(ctx) }
func (labelConstraint) MarkdownDescription(context.Context) string {
	return "a Kubernetes label of the form key=value"
}

func (labelConstraint) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !isSet(req.ConfigValue) {
		return
	}
	if err := astra.CheckLabelConstraint(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid namespace label", err.Error()+
			". A role constraint by label names one label; give each label its own entry of namespace_constraints.")
	}
}
