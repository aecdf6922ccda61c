package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

// groupModel is the astra_group resource.
type groupModel struct {
	ID       types.String `tfsdk:"id"`
	AuthID   types.String `tfsdk:"auth_id"`
	Name     types.String `tfsdk:"name"`
	Metadata types.Object `tfsdk:"metadata"`
}

// groupAPIFields maps the API's field names in invalidFields to attributes.
var groupAPIFields = map[string]string{"authID": "auth_id", "name": "name"}

// groupFrom converts the service's group for state; the DN keeps prior's spelling when
// the service changed only its case (it lower-cases DNs).
func groupFrom(g *astra.Group, prior groupModel) groupModel {
	m := groupModel{ID: types.StringValue(g.ID), AuthID: types.StringValue(g.AuthID), Name: types.StringValue(g.Name),
		Metadata: attrs.MetadataValue(g.Metadata)}
	if isSet(prior.AuthID) && astra.SameDN(prior.AuthID.ValueString(), g.AuthID) {
		m.AuthID = prior.AuthID
	}
	return m
}

// applyGroupPlan sets, on the group as just read, what the plan changes (its name).
func applyGroupPlan(g *astra.Group, plan groupModel) {
	if !plan.Name.IsUnknown() && !plan.Name.IsNull() {
		g.Name = plan.Name.ValueString()
	}
}
