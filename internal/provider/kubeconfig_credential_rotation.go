package provider

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
	"github.com/astra-control/terraform-provider-astra/internal/kubeconfig"
)

// A rotation to a kubeconfig for another API server makes every cluster using the
// credential go `removed` (Astra Control tells clusters apart by their API service ID), and
// the apply itself succeeds. The plan warns instead, naming those clusters. Astra Control
// never returns a kubeconfig, so the API server the credential last sent is remembered in
// private state as a digest (nothing of the kubeconfig is stored there).

// serverKey is the private-state key of the digest of the API server last sent.
const serverKey = "kubeconfig_server"

// PrivateKeys are the keys the credential writes into private state besides the known
// answers' seal (knownanswers.PrivateKeyWriter).
func (r *kubeconfigCredentialResource) PrivateKeys() []string { return []string{serverKey} }

// kubeconfigServerDigest is the digest of a kubeconfig's API server URL, "" when the text is
// not a kubeconfig the provider accepts.
func kubeconfigServerDigest(text string) string {
	_, info, err := kubeconfig.Parse([]byte(text))
	if err != nil {
		return ""
	}
	return serverDigest(info.Server)
}

// serverDigest is how a kubeconfig's API server is noted: a digest of its URL.
func serverDigest(server string) string {
	sum := sha256.Sum256([]byte(strings.TrimRight(strings.TrimSpace(server), "/")))
	return hex.EncodeToString(sum[:])
}

// recordKubeconfigServer notes the API server of the kubeconfig just sent.
func recordKubeconfigServer(ctx context.Context, private privateKeys, body astra.CredentialCreate, diags *diag.Diagnostics) {
	doc, err := base64.StdEncoding.DecodeString(body.KeyStore["base64"])
	if private == nil || err != nil {
		return
	}
	// doc is what kubeconfig.Parse returned, so its Info is read as JSON.
	if info, err := kubeconfig.InfoOf(doc); err == nil {
		value, _ := json.Marshal(serverDigest(info.Server))
		diags.Append(private.SetKey(ctx, serverKey, value)...)
	}
}

// priorKubeconfigServer is the digest of the API server the credential last sent: from the
// kubeconfig in state, or else from private state (which the known plans give the plan
// checks as well); "" when unknown (an import).
func priorKubeconfigServer(ctx context.Context, prior kubeconfigCredentialModel, private knownanswers.PrivateState) string {
	if !prior.Kubeconfig.IsNull() && !prior.Kubeconfig.IsUnknown() {
		return kubeconfigServerDigest(prior.Kubeconfig.ValueString())
	}
	if private == nil {
		return ""
	}
	raw, _ := private.GetKey(ctx, serverKey)
	var d string
	if len(raw) == 0 || json.Unmarshal(raw, &d) != nil {
		return ""
	}
	return d
}

// warnServerChange warns when the planned kubeconfig points at another API server than the
// one the credential holds and clusters use the credential (one read lists them).
func warnServerChange(ctx context.Context, client *astra.Client, id, name, priorServer, newText string, diags *diag.Diagnostics) {
	if client == nil || priorServer == "" {
		return
	}
	if next := kubeconfigServerDigest(newText); next == "" || next == priorServer {
		return
	}
	clusters, err := client.ListClusters(ctx, "", astra.ListOptions{Filters: []astra.Filter{astra.Eq("credentialID", id)}})
	if err != nil || len(clusters) == 0 {
		return // the plan stays usable; the apply reports a failing service
	}
	names := make([]string, 0, len(clusters))
	for _, c := range clusters {
		if c.CredentialID != id {
			continue
		}
		entry := fmt.Sprintf("%q (%s", c.Name, c.ID)
		if c.APIServiceID != "" {
			entry += ", api_service_id " + c.APIServiceID
		}
		names = append(names, entry+")")
	}
	if len(names) == 0 {
		return
	}
	diags.AddAttributeWarning(path.Root("kubeconfig"), "Rotated kubeconfig points at another API server",
		fmt.Sprintf("The new kubeconfig of credential %q (%s) names another API server than the one it replaces. "+
			"Astra Control tells clusters apart by their API service ID: if the new kubeconfig belongs to another cluster, "+
			"every cluster using this credential goes `removed` after the apply. Clusters using it: %s.\n\n"+
			"If it is the same cluster at a new address, apply. Otherwise keep this credential's kubeconfig and add a "+
			"separate astra_kubeconfig_credential for the other cluster.", name, id, strings.Join(names, ", ")))
}
