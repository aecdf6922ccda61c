package provider

import (
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

// userModel is the astra_user resource.
type userModel struct {
	ID                types.String `tfsdk:"id"`
	Email             types.String `tfsdk:"email"`
	FirstName         types.String `tfsdk:"first_name"`
	LastName          types.String `tfsdk:"last_name"`
	AuthProvider      types.String `tfsdk:"auth_provider"`
	AuthID            types.String `tfsdk:"auth_id"`
	PasswordWO        types.String `tfsdk:"password_wo"`
	PasswordWOVersion types.String `tfsdk:"password_wo_version"`
	TemporaryPassword types.Bool   `tfsdk:"temporary_password"`
	State             types.String `tfsdk:"state"`
	Metadata          types.Object `tfsdk:"metadata"`
}

// userAPIFields maps the API's field names in invalidFields to attributes.
var userAPIFields = map[string]string{"email": "email", "firstName": "first_name", "lastName": "last_name",
	"authProvider": "auth_provider", "authID": "auth_id"}

// userFrom converts the service's user for state; the password arguments (never read back)
// come from prior. An LDAP DN is kept as prior spells it when the service changed its case.
func userFrom(u *astra.User, prior userModel) userModel {
	m := userModel{
		ID: types.StringValue(u.ID), Email: types.StringValue(u.Email),
		FirstName: attrs.OptionalString(u.FirstName), LastName: attrs.OptionalString(u.LastName),
		AuthProvider: attrs.OptionalString(u.AuthProvider), AuthID: attrs.OptionalString(u.AuthID),
		PasswordWO: types.StringNull(), PasswordWOVersion: prior.PasswordWOVersion, TemporaryPassword: prior.TemporaryPassword,
		State: attrs.OptionalString(u.State), Metadata: attrs.MetadataValue(u.Metadata),
	}
	if isSet(prior.Email) && strings.EqualFold(prior.Email.ValueString(), u.Email) {
		m.Email = prior.Email
	}
	if isSet(prior.AuthID) && astra.SameDN(prior.AuthID.ValueString(), u.AuthID) {
		m.AuthID = prior.AuthID
	}
	if m.TemporaryPassword.IsNull() || m.TemporaryPassword.IsUnknown() {
		m.TemporaryPassword = types.BoolValue(false)
	}
	return m
}

// applyUserPlan sets, on the user as just read, what the plan changes (planForFreshCopy).
func applyUserPlan(u *astra.User, plan userModel) {
	if !plan.FirstName.IsUnknown() {
		u.FirstName = attrs.StringOrEmpty(plan.FirstName)
	}
	if !plan.LastName.IsUnknown() {
		u.LastName = attrs.StringOrEmpty(plan.LastName)
	}
}
