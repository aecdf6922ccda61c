package provider

import (
	"errors"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

// serviceAccountCredentialModel is astra_service_account_credential as the framework decodes it.
type serviceAccountCredentialModel struct {
	ID                          types.String `tfsdk:"id"`
	Name                        types.String `tfsdk:"name"`
	CloudType                   types.String `tfsdk:"cloud_type"`
	ServiceAccountJSON          types.String `tfsdk:"service_account_json"`
	ServiceAccountJSONWO        types.String `tfsdk:"service_account_json_wo"`
	ServiceAccountJSONWOVersion types.String `tfsdk:"service_account_json_wo_version"`
	Metadata                    types.Object `tfsdk:"metadata"`
}

// serviceAccountCredentialAPIFields maps the API's field names in invalidFields to attributes.
var serviceAccountCredentialAPIFields = map[string]string{
	"name": "name", "keyStore": "service_account_json", "keyStore.base64": "service_account_json",
}

// errNotServiceAccountCredential is returned for a credential of another kind.
var errNotServiceAccountCredential = errors.New("not a service-account credential")

// serviceAccountCredentialFrom converts what the service reports: a generic credential
// whose credType label, when there is one, is service-account. cloud_type comes from the
// cloudName label, keeping the casing prior (the plan, or the state) has; the key file is
// never returned, so its arguments keep what prior holds.
func serviceAccountCredentialFrom(c *astra.Credential, prior serviceAccountCredentialModel) (serviceAccountCredentialModel, error) {
	credType := astra.LabelValue(c.Metadata.Labels, astra.LabelCredType)
	if (c.KeyType != "" && !strings.EqualFold(c.KeyType, astra.KeyTypeGeneric)) || (credType != "" && credType != astra.CredTypeServiceAccount) {
		return prior, errNotServiceAccountCredential
	}
	out := prior
	out.ID = types.StringValue(c.ID)
	out.Name = types.StringValue(c.Name)
	if cloud := astra.LabelValue(c.Metadata.Labels, astra.LabelCloudName); cloud != "" {
		out.CloudType = cloudTypeValue(cloud, prior.CloudType)
	} else if out.CloudType.IsUnknown() {
		out.CloudType = types.StringNull()
	}
	out.Metadata = attrs.MetadataValue(c.Metadata)
	out.ServiceAccountJSONWO = types.StringNull() // write-only values are never kept in state
	return out, nil
}

// serviceAccountCredentialCreateRequest is the body for the key file of the plan or the
// configuration: the POST body, and the PUT body of a rotation. The key file is checked
// again (a value unknown at plan time); the error names the argument, never the content.
func serviceAccountCredentialCreateRequest(plan, cfg serviceAccountCredentialModel, diags *diag.Diagnostics) (astra.CredentialCreate, bool) {
	text, ok := secretText(plan.ServiceAccountJSON, cfg.ServiceAccountJSONWO)
	if !ok {
		serviceAccountSecret.noSecret(diags)
		return astra.CredentialCreate{}, false
	}
	cloud := plan.CloudType.ValueString()
	if err := checkServiceAccountJSON(text, cloud); err != nil {
		attr := serviceAccountSecret.failedAttr(plan.ServiceAccountJSON)
		diags.AddAttributeError(attr, "Invalid service account key file", serviceAccountJSONError(attr.String(), err))
		return astra.CredentialCreate{}, false
	}
	return astra.ServiceAccountCredential(plan.Name.ValueString(), cloud, []byte(text)), true
}
