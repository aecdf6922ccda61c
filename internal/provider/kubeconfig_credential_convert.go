package provider

import (
	"errors"
	"strings"

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

// credentialKeyTypeKubeconfig is the keyType of the credentials this resource manages.
const credentialKeyTypeKubeconfig = "kubeconfig"

// errNotKubeconfigCredential is returned for a credential of another key type (an import
// of a service-account credential, say), which this resource cannot manage.
var errNotKubeconfigCredential = errors.New("not a kubeconfig credential")

// readFrom copies what the service reports. The kubeconfig itself is never returned by
// the service, so the kubeconfig arguments keep what the model already holds.
func (m *kubeconfigCredentialModel) readFrom(c *astra.Credential) error {
	if c.KeyType != "" && !strings.EqualFold(c.KeyType, credentialKeyTypeKubeconfig) {
		return errNotKubeconfigCredential
	}
	m.ID = types.StringValue(c.ID)
	m.Name = types.StringValue(c.Name)
	m.Valid = attrs.OptionalBool(c.Valid)
	m.Metadata = attrs.MetadataValue(c.Metadata)
	// Write-only values are never kept in state.
	m.KubeconfigWO = types.StringNull()
	return nil
}

// kubeconfigText is the kubeconfig a create or update sends: the `kubeconfig` argument from
// the plan, or the write-only `kubeconfig_wo`, which exists only in the configuration.
func kubeconfigText(plan, config kubeconfigCredentialModel) (string, bool) {
	if !plan.Kubeconfig.IsNull() && !plan.Kubeconfig.IsUnknown() {
		return plan.Kubeconfig.ValueString(), true
	}
	if !config.KubeconfigWO.IsNull() && !config.KubeconfigWO.IsUnknown() {
		return config.KubeconfigWO.ValueString(), true
	}
	return "", false
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
