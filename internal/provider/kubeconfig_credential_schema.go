package provider

import (
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

// credentialRotatedBy are the arguments whose change sends a new kubeconfig (the write-only
// kubeconfig_wo is never in a plan: its version stands for it).
var credentialRotatedBy = []string{"kubeconfig", "kubeconfig_wo_version"}

// kubeconfigCredentialAttributes are astra_kubeconfig_credential's attributes.
func kubeconfigCredentialAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "Astra ID of the credential.",
			PlanModifiers:       []planmodifier.String{attrs.KeepUnlessChanged()},
		},
		"name": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "Name of the credential, 1 to 127 printable ASCII characters. Required to create a " +
				"credential; an imported credential may leave it out and keeps its name. Updated in place (which " +
				"needs the kubeconfig: the API replaces the whole credential).",
			Validators:    []validator.String{validate.ResourceName(127)},
			PlanModifiers: []planmodifier.String{attrs.KeepUnlessChanged()},
		},
		"kubeconfig": schema.StringAttribute{
			Optional:  true,
			Sensitive: true,
			MarkdownDescription: "The kubeconfig, as YAML or JSON text (for example `file(\"kubeconfig.yaml\")`), with exactly one " +
				"cluster and one context. Sensitive: never shown in plans, logs or errors, but stored in state. A change " +
				"rotates the credential in place. At most one of `kubeconfig` and `kubeconfig_wo`; one of them is required " +
				"to create a credential. Astra Control never returns a kubeconfig, so an import (and " +
				"`-generate-config-out`) cannot fill it in: an imported credential may leave both unset and keeps the " +
				"kubeconfig Astra Control holds; set either one later to rotate it (one update).",
			Validators: []validator.String{
				validate.Kubeconfig(),
				stringvalidator.ConflictsWith(path.MatchRoot("kubeconfig_wo")),
			},
		},
		"kubeconfig_wo": schema.StringAttribute{
			Optional:  true,
			Sensitive: true,
			WriteOnly: true,
			MarkdownDescription: "Write-only variant of `kubeconfig`: sent to Astra Control but never stored in state or plan. " +
				"Needs Terraform 1.11 or later (older CLIs: use `kubeconfig`). Requires `kubeconfig_wo_version`: since the " +
				"value is not stored, only a change of that version rotates the credential.",
			Validators: []validator.String{
				stringvalidator.AlsoRequires(path.MatchRoot("kubeconfig_wo_version")),
			},
		},
		"kubeconfig_wo_version": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "Any value that changes whenever `kubeconfig_wo` changes (a counter, a date, or a hash of " +
				"the file); a change rotates the credential in place with the current `kubeconfig_wo`.",
			Validators: []validator.String{
				stringvalidator.AlsoRequires(path.MatchRoot("kubeconfig_wo")),
			},
		},
		"valid": schema.BoolAttribute{
			Computed:            true,
			MarkdownDescription: "Whether Astra Control considers the credential valid.",
			// Only a new kubeconfig can change what the service thinks of it.
			PlanModifiers: []planmodifier.Bool{attrs.KeepUnlessChanged(credentialRotatedBy...)},
		},
		"metadata": attrs.MetadataSchema(append([]string{"name"}, credentialRotatedBy...)...),
	}
}
