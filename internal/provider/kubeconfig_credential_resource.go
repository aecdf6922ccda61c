package provider

import (
	"context"
	"encoding/base64"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
	"github.com/astra-control/terraform-provider-astra/internal/kubeconfig"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

var (
	_ resource.ResourceWithConfigure      = (*kubeconfigCredentialResource)(nil)
	_ resource.ResourceWithImportState    = (*kubeconfigCredentialResource)(nil)
	_ resource.ResourceWithValidateConfig = (*kubeconfigCredentialResource)(nil)
	_ knownanswers.PlanChecker            = (*kubeconfigCredentialResource)(nil)
)

type kubeconfigCredentialResource struct {
	credentialResource[kubeconfigCredentialModel]
}

// newKubeconfigCredentialResource is astra_kubeconfig_credential.
func newKubeconfigCredentialResource() resource.Resource {
	return &kubeconfigCredentialResource{newCredentialResource(kubeconfigCredentialSpec)}
}

func (r *kubeconfigCredentialResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_kubeconfig_credential"
}

func (r *kubeconfigCredentialResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: kubeconfigCredentialSchemaVersion,
		MarkdownDescription: "A kubeconfig credential (`POST /core/v1/credentials`, key type `kubeconfig`): what Astra Control " +
			"uses to reach a private cluster added with `astra_cluster`. The kubeconfig is checked at plan time (YAML or JSON, " +
			"exactly one cluster and one context), converted to JSON and base64-encoded as the API requires. " +
			"Changing it rotates the credential in place. Set the kubeconfig either with `kubeconfig` (sensitive: hidden in " +
			"plans and logs, but stored in state) or with the write-only `kubeconfig_wo` (Terraform 1.11 or later, OpenTofu 1.11 or later: never stored).",
		Attributes: kubeconfigCredentialAttributes(),
	}
}

// ValidateConfig checks kubeconfig_wo, which attribute validators of an old CLI's plan never see.
func (r *kubeconfigCredentialResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	kubeconfigSecret.validateWriteOnly(ctx, req, resp, "Invalid kubeconfig", validate.CheckKubeconfig)
}

// kubeconfigCredentialSpec: the kind, converters and plan rules. A new credential needs a
// name and a kubeconfig, and a rename sends the kubeconfig again (a PUT replaces the whole
// credential).
var kubeconfigCredentialSpec = credentialSpec[kubeconfigCredentialModel]{
	kind:   credentialKind{typeName: "astra_kubeconfig_credential", kind: "a kubeconfig credential", accepts: `credentials of key type "kubeconfig"`},
	what:   "kubeconfig credential",
	rules:  credentialPlanRules{secret: kubeconfigSecret, requiredToCreate: []string{"name"}},
	fields: kubeconfigCredentialAPIFields, body: kubeconfigCredentialCreateRequest, from: kubeconfigCredentialFrom,
	id:      func(m kubeconfigCredentialModel) string { return m.ID.ValueString() },
	written: recordKubeconfigServer,
}

// CheckPlan is the credential rules plus the warning of a rotation to a kubeconfig for
// another API server, which would leave every cluster using the credential removed.
func (r *kubeconfigCredentialResource) CheckPlan(ctx context.Context, req knownanswers.PlanRequest) diag.Diagnostics {
	diags := r.credentialResource.CheckPlan(ctx, req)
	if diags.HasError() || req.State.Raw.IsNull() {
		return diags
	}
	var cfg, prior kubeconfigCredentialModel
	diags.Append(configGet(ctx, req.Config, &cfg)...)
	diags.Append(stateGet(ctx, req.State, &prior)...)
	if diags.HasError() || (cfg.Kubeconfig.IsNull() && cfg.KubeconfigWO.IsNull()) {
		return diags
	}
	// The same text as in state names the same server: no parse (a fleet's steady plan
	// would otherwise parse every kubeconfig twice).
	if text, ok := kubeconfigText(cfg, cfg); ok && !(isSet(prior.Kubeconfig) && prior.Kubeconfig.ValueString() == text) {
		warnServerChange(ctx, r.configuredClient(), prior.ID.ValueString(), prior.Name.ValueString(),
			priorKubeconfigServer(ctx, prior, req.Private), text, &diags)
	}
	return diags
}

// existingKubeconfigCredential is the credential a 409/44 refers to, a credential that
// already reaches the kubeconfig's cluster: the one the service labelled with that
// cluster's name, when exactly one is; nil otherwise.
func existingKubeconfigCredential(ctx context.Context, client *astra.Client, body astra.CredentialCreate) *existing {
	doc, err := base64.StdEncoding.DecodeString(body.KeyStore["base64"])
	if err != nil {
		return nil
	}
	_, info, err := kubeconfig.Parse(doc)
	if err != nil {
		return nil
	}
	creds, err := client.ListCredentials(ctx, astra.ListOptions{})
	if err != nil {
		return nil
	}
	var found []astra.Credential
	for _, c := range creds {
		for _, l := range c.Metadata.Labels {
			if l.Name == astra.ReadOnlyLabelPrefix+"clusterName" && l.Value == info.ClusterName {
				found = append(found, c)
			}
		}
	}
	if len(found) != 1 {
		return nil
	}
	return &existing{what: fmt.Sprintf("the credential %q, which already reaches the cluster %q", found[0].Name, info.ClusterName), id: found[0].ID}
}
