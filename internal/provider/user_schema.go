package provider

import (
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

const userSchemaVersion = 0

// emailForm is what an email looks like: something, @, a domain with a dot.
var emailForm = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)

// userPutArgs are sent with one PUT of the user; the password goes to its own credential.
var userPutArgs = []string{"first_name", "last_name"}

// userPassword is a local user's write-only password.
var userPassword = struct{ wo, woVersion string }{"password_wo", "password_wo_version"}

// userAttributes are astra_user's attributes.
func userAttributes() map[string]schema.Attribute {
	replaced := " Changing it replaces the user; Astra Control deletes a user's role bindings with it (the plan warns)."
	return map[string]schema.Attribute{
		"id": attrs.Kept(computedString("ID of the user in Astra Control.")),
		"email": schema.StringAttribute{
			Required:            true,
			MarkdownDescription: "The user's email, unique in the account (compared case-insensitively)." + replaced,
			Validators:          []validator.String{stringvalidator.LengthBetween(3, 255), stringvalidator.RegexMatches(emailForm, "must be an email address such as jdoe@example.com")},
			PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		"first_name": schema.StringAttribute{
			Optional: true, MarkdownDescription: "First name, at most 63 characters." + updatedInPlace,
			Validators: []validator.String{stringvalidator.LengthAtMost(63)},
		},
		"last_name": schema.StringAttribute{
			Optional: true, MarkdownDescription: "Last name, at most 63 characters." + updatedInPlace,
			Validators: []validator.String{stringvalidator.LengthAtMost(63)},
		},
		"auth_provider": schema.StringAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "How the user logs in: `local` (Astra Control Center, with `password_wo`), `ldap` (a person of " +
				"the directory, with `auth_id`) or `cloud-central` (Astra Control Service, invited by email). Left out: the " +
				"service's default (`local` on Center, `cloud-central` on Service)." + replaced,
			Validators:    []validator.String{stringvalidator.OneOf(astra.AuthProviderLocal, astra.AuthProviderLDAP, astra.AuthProviderCloudCentral)},
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplaceIfConfigured()},
		},
		"auth_id": schema.StringAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "The LDAP user's DN (for `auth_provider = \"ldap\"`), compared case-insensitively; for a " +
				"local user the service sets it to the email." + replaced,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown(), sameDN{}, stringplanmodifier.RequiresReplaceIfConfigured()},
		},
		userPassword.wo: schema.StringAttribute{
			Optional: true, Sensitive: true, WriteOnly: true,
			MarkdownDescription: "A local user's password, write-only: sent to Astra Control (as the user's `passwordHash` " +
				"credential) but never stored in state or plan, nor logged. Needs Terraform 1.11 or later or OpenTofu 1.11 " +
				"or later (Terraform 1.5 refuses it with an error). Requires `" + userPassword.woVersion + "`: only a change " +
				"of that version sends a new password. Only for `auth_provider = \"local\"`.",
			Validators: []validator.String{stringvalidator.AlsoRequires(path.MatchRoot(userPassword.woVersion)), stringvalidator.LengthAtLeast(1)},
		},
		userPassword.woVersion: schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "Any value that changes whenever `" + userPassword.wo + "` changes (a counter, a date); a " +
				"change sets the password again, in place.",
			Validators: []validator.String{stringvalidator.AlsoRequires(path.MatchRoot(userPassword.wo))},
		},
		"temporary_password": schema.BoolAttribute{
			Optional: true, Computed: true, Default: booldefault.StaticBool(false),
			MarkdownDescription: "Whether the user must change the password at the first login. Sent with the password " +
				"(so it takes effect when `" + userPassword.woVersion + "` changes). Default false.",
		},
		"state": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "The user's state: `active`, `pending` (an Astra Control Service user who has not accepted the invitation yet) or `suspended`.",
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"metadata": attrs.MetadataSchema(append(append([]string{}, userPutArgs...), userPassword.woVersion)...),
	}
}
