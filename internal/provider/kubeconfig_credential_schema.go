package provider

import (
	"maps"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

// kubeconfigSecret is the kubeconfig: kubeconfig, or kubeconfig_wo with its version.
var kubeconfigSecret = newSecretArgument("kubeconfig", "kubeconfig",
	"Set `kubeconfig` (for example `file(\"cluster.kubeconfig.yaml\")`; stored in state, "+
		"marked sensitive) or `kubeconfig_wo` with `kubeconfig_wo_version` (Terraform 1.11 or later, OpenTofu 1.11 or later: "+
		"never stored).")

// credentialRotatedBy are the arguments whose change sends a new kubeconfig.
var credentialRotatedBy = kubeconfigSecret.rotatedBy()

// kubeconfigCredentialAttributes are astra_kubeconfig_credential's attributes.
func kubeconfigCredentialAttributes() map[string]schema.Attribute {
	attributes := kubeconfigSecret.credentialAttributes("The kubeconfig, as YAML or JSON text (for example `file(\"kubeconfig.yaml\")`), with exactly one "+
		"cluster and one context. Sensitive: never shown in plans, logs or errors, but stored in state. A change "+
		"rotates the credential in place. At most one of `kubeconfig` and `kubeconfig_wo`; one of them is required "+
		"to create a credential. Astra Control never returns a kubeconfig, so an import (and "+
		"`-generate-config-out`) cannot fill it in: an imported credential may leave both unset and keeps the "+
		"kubeconfig Astra Control holds; set either one later to rotate it (one update).",
		[]validator.String{validate.Kubeconfig()})
	maps.Copy(attributes, map[string]schema.Attribute{
		"valid": schema.BoolAttribute{
			Computed:            true,
			MarkdownDescription: "Whether Astra Control considers the credential valid.",
			// Only a new kubeconfig can change what the service thinks of it.
			PlanModifiers: []planmodifier.Bool{attrs.KeepUnlessChanged(credentialRotatedBy...)},
		},
	})
	return attributes
}
