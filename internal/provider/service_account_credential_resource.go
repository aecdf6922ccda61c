package provider

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

var (
	_ resource.ResourceWithConfigure      = (*serviceAccountCredentialResource)(nil)
	_ resource.ResourceWithImportState    = (*serviceAccountCredentialResource)(nil)
	_ resource.ResourceWithValidateConfig = (*serviceAccountCredentialResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*serviceAccountCredentialResource)(nil)
)

type serviceAccountCredentialResource struct{ clientHolder }

// newServiceAccountCredentialResource is astra_service_account_credential.
func newServiceAccountCredentialResource() resource.Resource {
	return &serviceAccountCredentialResource{}
}

// serviceAccountCredentialPlanRules: a new credential needs a name, its cloud and the key
// file; a rename sends the key file again (a PUT replaces the whole credential).
var serviceAccountCredentialPlanRules = credentialPlanRules{
	typeName: "astra_service_account_credential", secret: serviceAccountSecret, requiredToCreate: []string{"name", "cloud_type"},
}

// serviceAccountCredentialKind is what the resource manages.
var serviceAccountCredentialKind = credentialKind{
	typeName: "astra_service_account_credential", kind: "a service-account credential",
	accepts: `credentials of key type "generic" labelled credType "service-account"`,
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

// ModifyPlan applies serviceAccountCredentialPlanRules. An imported credential may leave the key
// file out: it keeps the one Astra Control holds.
func (r *serviceAccountCredentialResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	serviceAccountCredentialPlanRules.modifyPlan(ctx, req, resp)
}

func (r *serviceAccountCredentialResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan serviceAccountCredentialModel
	client, body, ok := prepareCredential(ctx, &r.clientHolder, req.Plan, req.Config, &plan, serviceAccountCredentialCreateRequest, &resp.Diagnostics)
	if !ok {
		return
	}
	if cred := r.createCredential(ctx, client, body, "service-account credential", serviceAccountCredentialAPIFields, &resp.Diagnostics); cred != nil {
		r.recordAnswer(ctx, &plan, cred, &resp.State, &resp.Diagnostics)
	}
}

func (r *serviceAccountCredentialResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state serviceAccountCredentialModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if cred := r.readCredential(ctx, req, resp, "astra_service_account_credential", "service-account credential"); cred != nil {
		r.recordAnswer(ctx, &state, cred, &resp.State, &resp.Diagnostics)
	}
}

// Update rotates the key file, renames, or both, in one PUT.
func (r *serviceAccountCredentialResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if serviceAccountCredentialPlanRules.leftConfiguration(ctx, req, resp) {
		return
	}
	var plan serviceAccountCredentialModel
	client, body, ok := prepareCredential(ctx, &r.clientHolder, req.Plan, req.Config, &plan, serviceAccountCredentialCreateRequest, &resp.Diagnostics)
	if !ok {
		return
	}
	cred := rotateCredential(ctx, client, plan.ID.ValueString(), body, "service-account credential", serviceAccountCredentialAPIFields, &resp.Diagnostics)
	if cred == nil {
		return
	}
	r.recordAnswer(ctx, &plan, cred, &resp.State, &resp.Diagnostics)
	resp.Diagnostics.Append(recordPlanned(req.Plan, &resp.State)...)
}

func (r *serviceAccountCredentialResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	r.deleteCredential(ctx, req, resp, "service-account credential")
}

func (r *serviceAccountCredentialResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// recordAnswer writes the model converted from the service's answer to state; m holds the
// prior model (the plan, or the state) and then what was recorded.
func (r *serviceAccountCredentialResource) recordAnswer(ctx context.Context, m *serviceAccountCredentialModel, cred *astra.Credential, state *tfsdk.State, diags *diag.Diagnostics) {
	recordCredential(ctx, m, cred, serviceAccountCredentialFrom, serviceAccountCredentialKind, state, diags)
}
