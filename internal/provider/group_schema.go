package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

const groupSchemaVersion = 0

// groupPutArgs: the name is updated in place; the DN replaces the group.
var groupPutArgs = []string{"name"}

// groupAttributes are astra_group's attributes.
func groupAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": attrs.Kept(computedString("ID of the group in Astra Control.")),
		"auth_id": schema.StringAttribute{
			Required: true,
			MarkdownDescription: "The LDAP group's DN, for example `CN=Ops,OU=Groups,DC=example,DC=com` (up to 2,048 characters), " +
				"compared case-insensitively as Astra Control does: a change of case only plans nothing. Checked at plan " +
				"time against the directory Astra Control is bound to: a DN it lacks is an error (a warning while LDAP is " +
				"not yet valid, for example when `astra_ldap` is created in the same apply). Changing it replaces the " +
				"group, and Astra Control deletes the group's role bindings with it.",
			Validators:    []validator.String{stringvalidator.LengthBetween(3, 2048)},
			PlanModifiers: []planmodifier.String{sameDN{}, stringplanmodifier.RequiresReplace()},
		},
		"name": schema.StringAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "Name shown in Astra Control; left out, the service names the group after the DN's first " +
				"CN." + updatedInPlace,
			Validators:    []validator.String{stringvalidator.LengthBetween(1, 2048)},
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"metadata": attrs.MetadataSchema(groupPutArgs...),
	}
}

// sameDN plans the prior DN when the configured one differs only as Astra Control does not
// tell DNs apart (case, spaces after commas), so an imported group (whose DN the service
// lower-cased) plans no replacement.
type sameDN struct{}

var _ planmodifier.String = sameDN{}

func (s sameDN) Description(ctx context.Context) string { return s.MarkdownDescription(ctx) }

func (sameDN) MarkdownDescription(context.Context) string {
	return "Keeps the prior DN when the configured one differs only in case or spacing."
}

func (sameDN) PlanModifyString(_ context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.StateValue.IsNull() || !isSet(req.PlanValue) || req.PlanValue.Equal(req.StateValue) {
		return
	}
	if astra.SameDN(req.PlanValue.ValueString(), req.StateValue.ValueString()) {
		resp.PlanValue = req.StateValue
	}
}
