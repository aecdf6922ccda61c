package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// problemClusterExists is Astra Control's 409 "Cluster exists": the cloud already holds a
// cluster of that name, or the same Kubernetes cluster (API service ID) under another name.
const problemClusterExists = 45

// addClusterExists reports a create refused because the cluster exists, naming the existing
// cluster (one read of the cloud's clusters: by name, else by credential) and how to import it.
func addClusterExists(ctx context.Context, diags *diag.Diagnostics, client *astra.Client, cloudID string, body astra.ClusterCreate, err error) {
	existing := existingCluster(ctx, client, cloudID, body)
	if existing == nil {
		diags.AddError("Cluster already exists",
			"Astra Control already holds this cluster: a cluster of the same name, or the same Kubernetes cluster under "+
				"another name, is in cloud "+cloudID+". Find its ID (the astra_clusters data source lists them) and import it "+
				"instead of adding it again: `terraform import astra_cluster.<name> <id>`, or an import block "+
				"`import { to = astra_cluster.<name>\n  id = \"<id>\" }`.\n\n"+err.Error())
		return
	}
	diags.AddError("Cluster already exists",
		fmt.Sprintf("Astra Control already holds the cluster %q (ID %s, state %s, managedState %s) in cloud %s. To manage it "+
			"with Terraform, import it instead of adding it again:\n\n"+
			"  terraform import astra_cluster.<name> %[2]s\n\n"+
			"or, in the configuration (Terraform 1.5 or later, OpenTofu 1.6 or later):\n\n"+
			"  import {\n    to = astra_cluster.<name>\n    id = %[2]q\n  }\n\n"+
			"where <name> is this resource's name.\n\n%[6]s",
			existing.Name, existing.ID, existing.State, existing.ManagedState, cloudID, err.Error()))
}

// existingCluster is the cluster a 409/45 refers to, or nil when one read does not tell.
func existingCluster(ctx context.Context, client *astra.Client, cloudID string, body astra.ClusterCreate) *astra.Cluster {
	clusters, err := client.ListClusters(ctx, cloudID, astra.ListOptions{})
	if err != nil {
		return nil
	}
	for _, match := range []func(c *astra.Cluster) bool{
		func(c *astra.Cluster) bool { return body.Name != "" && c.Name == body.Name },
		func(c *astra.Cluster) bool { return body.CredentialID != "" && c.CredentialID == body.CredentialID },
	} {
		for i := range clusters {
			if match(&clusters[i]) {
				return &clusters[i]
			}
		}
	}
	return nil
}
