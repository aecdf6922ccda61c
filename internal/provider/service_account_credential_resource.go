package provider

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

var (
	_ resource.ResourceWithConfigure      = (*serviceAccountCredentialResource)(nil)
	_ resource.ResourceWithImportState    = (*serviceAccountCredentialResource)(nil)
	_ resource.ResourceWithValidateConfig = (*serviceAccountCredentialResource)(nil)
	_ knownanswers.PlanChecker            = (*serviceAccountCredentialResource)(nil)
)

type serviceAccountCredentialResource struct {
	credentialResource[serviceAccountCredentialModel]
}

// newServiceAccountCredentialResource is astra_service_account_credential.
func newServiceAccountCredentialResource() resource.Resource {
	return &serviceAccountCredentialResource{newCredentialResource(serviceAccountCredentialSpec)}
}

// serviceAccountCredentialSpec: the kind, converters and plan rules. A new credential
// needs a name, its cloud and the key file; a rename sends the key file again (a PUT
// replaces the whole credential).
var serviceAccountCredentialSpec = credentialSpec[serviceAccountCredentialModel]{
	kind: credentialKind{typeName: "astra_service_account_credential", kind: "a service-account credential",
		accepts: `credentials of key type "generic" labelled credType "service-account"`},
	what:   "service-account credential",
	rules:  credentialPlanRules{secret: serviceAccountSecret, requiredToCreate: []string{"name", "cloud_type"}},
	fields: serviceAccountCredentialAPIFields, body: serviceAccountCredentialCreateRequest, from: serviceAccountCredentialFrom,
	labels: []string{astra.LabelCredType, astra.LabelCloudName},
	id:     func(m serviceAccountCredentialModel) string { return m.ID.ValueString() },
}

func (r *serviceAccountCredentialResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_service_account_credential"
}

func (r *serviceAccountCredentialResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: serviceAccountCredentialSchemaVersion,
		MarkdownDescription: "A public cloud's service account (`POST /core/v1/credentials`, key type `generic`): what " +
			"an `astra_cloud` of type `gcp`, `azure` or `aws` uses to discover its clusters, and what a `gcp` bucket uses. " +
			"Sent as NetApp's clients send it: the key store holds the JSON key file base64-encoded, with the labels " +
			"`credType = service-account` and `cloudName` = `GCP`, `Azure` or `AWS`. The key file is checked at plan time " +
			"and never shown or logged. Changing it rotates the credential in place. Set it either with " +
			"`service_account_json` (sensitive: hidden in plans and logs, but stored in state) or with the write-only " +
			"`service_account_json_wo` (Terraform 1.11 or later: never stored). Astra Control never returns the key store.",
		Attributes: serviceAccountCredentialAttributes(),
	}
}

// ValidateConfig checks the key file at plan time, from either argument (the write-only one
// reaches no attribute validator of an old CLI's plan), against cloud_type when it is known
// (at apply otherwise).
func (r *serviceAccountCredentialResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg serviceAccountCredentialModel
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("cloud_type"), &cfg.CloudType)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("service_account_json"), &cfg.ServiceAccountJSON)...)
	if resp.Diagnostics.HasError() {
		return
	}
	cloud := cfg.CloudType.ValueString() // "" while unknown: the JSON alone is checked, the rest at apply

	if plain := cfg.ServiceAccountJSON; !plain.IsNull() && !plain.IsUnknown() {
		if err := checkServiceAccountJSON(plain.ValueString(), cloud); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("service_account_json"), "Invalid service account key file",
				serviceAccountJSONError("service_account_json", err))
		}
	}
	serviceAccountSecret.validateWriteOnly(ctx, req, resp, "Invalid service account key file", func(text string) error {
		if err := checkServiceAccountJSON(text, cloud); err != nil {
			return errors.New(serviceAccountJSONError("service_account_json_wo", err))
		}
		return nil
	})
}

// checkServiceAccountJSON is the plan-time check of a key file (validate.CheckServiceAccountJSON).
var checkServiceAccountJSON = validate.CheckServiceAccountJSON

// serviceAccountJSONError is the detail of a bad key file: the argument, what is wrong
// and the fix, never the content.
func serviceAccountJSONError(attr string, err error) string {
	return "The value of `" + attr + "` is not a usable service account key file: " + err.Error() + "."
}
