package provider

import (
	"errors"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

// kubeconfigCredentialModel is astra_kubeconfig_credential as the framework decodes it.
type kubeconfigCredentialModel struct {
	ID                  types.String `tfsdk:"id"`
	Name                types.String `tfsdk:"name"`
	Kubeconfig          types.String `tfsdk:"kubeconfig"`
	KubeconfigWO        types.String `tfsdk:"kubeconfig_wo"`
	KubeconfigWOVersion types.String `tfsdk:"kubeconfig_wo_version"`
	Valid               types.Bool   `tfsdk:"valid"`
	Metadata            types.Object `tfsdk:"metadata"`
}

// kubeconfigCredentialAPIFields maps the API's field names in invalidFields to attributes.
var kubeconfigCredentialAPIFields = map[string]string{"name": "name", "keyStore": "kubeconfig", "keyStore.base64": "kubeconfig"}

// credentialKeyTypeKubeconfig is the keyType of the credentials this resource manages.
const credentialKeyTypeKubeconfig = "kubeconfig"

// errNotKubeconfigCredential is returned for a credential of another key type (an import
// of a service-account credential, say), which this resource cannot manage.
var errNotKubeconfigCredential = errors.New("not a kubeconfig credential")

// kubeconfigCredentialFrom converts what the service reports. The kubeconfig itself is
// never returned by the service, so the kubeconfig arguments keep what prior (the plan, or
// the state) holds.
func kubeconfigCredentialFrom(c *astra.Credential, prior kubeconfigCredentialModel) (kubeconfigCredentialModel, error) {
	if c.KeyType != "" && !strings.EqualFold(c.KeyType, credentialKeyTypeKubeconfig) {
		return prior, errNotKubeconfigCredential
	}
	out := prior
	out.ID = types.StringValue(c.ID)
	out.Name = types.StringValue(c.Name)
	out.Valid = attrs.OptionalBool(c.Valid)
	out.Metadata = attrs.MetadataValue(c.Metadata)
	// Write-only values are never kept in state.
	out.KubeconfigWO = types.StringNull()
	return out, nil
}

// kubeconfigText is the kubeconfig a create or update sends: the `kubeconfig` argument from
// the plan, or the write-only `kubeconfig_wo`, which exists only in the configuration.
func kubeconfigText(plan, config kubeconfigCredentialModel) (string, bool) {
	return secretText(plan.Kubeconfig, config.KubeconfigWO)
}

// mergeCredentialLabels keeps every label the service holds (it adds clusterID and
// clusterName once a cluster uses the credential) and adds those of the new body that
// are missing, so a rotation never drops what the service set.
func mergeCredentialLabels(read, built []astra.Label) []astra.Label {
	out := append([]astra.Label{}, read...)
	have := make(map[string]bool, len(read))
	for _, l := range read {
		have[l.Name] = true
	}
	for _, l := range built {
		if !have[l.Name] {
			out = append(out, l)
		}
	}
	return out
}

// kubeconfigCredentialCreateRequest is the body for the kubeconfig of the plan or the
// configuration: the POST body, and the PUT body of a rotation (the API replaces the whole
// credential).
func kubeconfigCredentialCreateRequest(plan, cfg kubeconfigCredentialModel, diags *diag.Diagnostics) (astra.CredentialCreate, bool) {
	text, ok := kubeconfigText(plan, cfg)
	if !ok {
		kubeconfigSecret.noSecret(diags)
		return astra.CredentialCreate{}, false
	}
	// The body holds the kubeconfig as JSON, base64-encoded, as the API requires. Errors
	// name what is wrong, never the content.
	body, err := astra.KubeconfigCredential(plan.Name.ValueString(), []byte(text))
	if err != nil {
		diags.AddAttributeError(kubeconfigSecret.failedAttr(plan.Kubeconfig), "Invalid kubeconfig", err.Error())
		return astra.CredentialCreate{}, false
	}
	return body, true
}
