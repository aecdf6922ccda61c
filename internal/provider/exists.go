package provider

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/kubeconfig"
)

// Problems of a create that Astra Control refused because the object exists already.
const (
	problemClusterExists    = 45  // the cloud holds a cluster of that name, or the same Kubernetes cluster
	problemKubeconfigExists = 44  // a credential already reaches the cluster this kubeconfig reaches
	problemBucketExists     = 57  // a bucket of the same provider, server and bucket name
	problemAppExists        = 121 // the cluster has an app of that name
)

// existing is the object a create was refused for, as one read found it.
type existing struct {
	what, id string // "the cluster \"prod\" (state running)", its ID
}

// addExists reports a create refused because the object exists: the existing object's ID
// and the import that adopts it, or, when no read told which it is, how to find it (hint).
// Terraform's resource name is unknown here: <name> stands for it.
func addExists(diags *diag.Diagnostics, summary, typeName string, found *existing, hint string, err error) {
	if found == nil {
		diags.AddError(summary, fmt.Sprintf("%s Find its ID (%s) and import it instead of creating it again: "+
			"`terraform import %s.<name> <id>`, or an import block `import { to = %s.<name>\n  id = \"<id>\" }`.\n\n%s",
			"Astra Control holds it already.", hint, typeName, typeName, err.Error()))
		return
	}
	diags.AddError(summary, fmt.Sprintf("Astra Control already holds %s, ID %s. To manage it with Terraform, import it "+
		"instead of creating it again:\n\n"+
		"  terraform import %s.<name> %s\n\n"+
		"or, in the configuration (Terraform 1.5 or later, OpenTofu 1.6 or later):\n\n"+
		"  import {\n    to = %s.<name>\n    id = %q\n  }\n\n"+
		"where <name> is this resource's name.\n\n%s",
		found.what, found.id, typeName, found.id, typeName, found.id, err.Error()))
}

// existingBucket is the bucket a 409/57 refers to: the account's bucket of the same
// provider and location; nil when one read does not tell.
func existingBucket(ctx context.Context, client *astra.Client, body astra.BucketCreate) *existing {
	buckets, err := client.ListBuckets(ctx, astra.ListOptions{})
	if err != nil {
		return nil
	}
	want, _ := json.Marshal(body.Parameters)
	for _, b := range buckets {
		if got, _ := json.Marshal(b.BucketParameters); b.Provider == body.Provider && string(got) == string(want) {
			return &existing{what: fmt.Sprintf("the bucket %q (%s, state %s) at the same location", b.Name, b.Provider, b.State), id: b.ID}
		}
	}
	return nil
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

// existingApp is the app a 409/121 refers to: the app of that name on the cluster.
func existingApp(ctx context.Context, client *astra.Client, body astra.AppCreate) *existing {
	a, err := findApp(ctx, client, body.ClusterID, body.Name)
	if err != nil || a == nil {
		return nil
	}
	return &existing{what: fmt.Sprintf("the app %q (state %s) on cluster %s", a.Name, a.State, body.ClusterID), id: a.ID}
}
