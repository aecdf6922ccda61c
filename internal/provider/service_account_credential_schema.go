package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

// serviceAccountSecret is the JSON key file: service_account_json, or
// service_account_json_wo with its version.
var serviceAccountSecret = newSecretArgument("service_account_json", "service account key file",
	"Set `service_account_json` (for example `file(\"service-account.json\")`; stored in state, marked sensitive) or "+
		"`service_account_json_wo` with `service_account_json_wo_version` (Terraform 1.11 or later, OpenTofu 1.11 or "+
		"later: never stored).")

// serviceAccountCloudTypes are the values of cloud_type: the public clouds.
var serviceAccountCloudTypes = []string{astra.CloudTypeGCP, astra.CloudTypeAzure, astra.CloudTypeAWS}

// serviceAccountCredentialAttributes are astra_service_account_credential's attributes.
func serviceAccountCredentialAttributes() map[string]schema.Attribute {
	attributes := serviceAccountSecret.credentialAttributes("The service account's JSON key file, as the cloud provider "+
		"issued it (for example `file(\"service-account.json\")`). Checked at plan time: it must be a JSON object and, "+
		"for `gcp`, a key file with `type = \"service_account\"`, `client_email` and `private_key`. Sensitive: never "+
		"shown in plans, logs or errors, but stored in state. A change rotates the credential in place (one update). "+
		"At most one of `service_account_json` and `service_account_json_wo`; one of them is required to create a "+
		"credential. Astra Control never returns the key file, so an imported credential may leave both unset and "+
		"keeps the one Astra Control holds; set either one later to rotate it.", nil)
	attributes["cloud_type"] = schema.StringAttribute{
		Optional: true,
		Computed: true,
		MarkdownDescription: "The public cloud the service account belongs to: `gcp`, `azure` or `aws`, matched " +
			"case-insensitively (the credential is labelled `GCP`, `Azure` or `AWS`); the casing written here is kept. " +
			"Required to create a credential; an imported one reads it back. Changing the cloud forces a new resource " +
			"(Astra Control keeps the label it was created with); changing only its casing does not.",
		Validators: []validator.String{stringvalidator.OneOfCaseInsensitive(serviceAccountCloudTypes...)},
		PlanModifiers: []planmodifier.String{
			attrs.KeepUnlessChanged(),
			stringplanmodifier.RequiresReplaceIf(serviceAccountCloudChanged, "A different cloud forces a new resource; a change of case does not.",
				"A different cloud forces a new resource; a change of case does not."),
		},
	}
	return attributes
}

// serviceAccountCloudChanged: another cloud than the one in state (any casing) replaces the
// credential; none in state (an import without the label) is filled in, not a change.
func serviceAccountCloudChanged(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = !req.StateValue.IsNull() && !req.PlanValue.IsUnknown() &&
		!strings.EqualFold(req.StateValue.ValueString(), req.PlanValue.ValueString())
}
