package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// addClusterExists reports a create refused because the cluster exists (409, problem 45),
// naming the existing cluster (one read of the cloud's clusters: by name, else by
// credential) and how to import it.
func addClusterExists(ctx context.Context, diags *diag.Diagnostics, client *astra.Client, cloudID string, body astra.ClusterCreate, err error) {
	var found *existing
	if c := existingCluster(ctx, client, cloudID, body); c != nil {
		found = &existing{what: fmt.Sprintf("the cluster %q (state %s, managedState %s) in cloud %s", c.Name, c.State, c.ManagedState, cloudID), id: c.ID}
	}
	addExists(diags, "Cluster already exists", "astra_cluster", found,
		"a cluster of the same name, or the same Kubernetes cluster under another name, is in cloud "+cloudID+
			": the astra_clusters data source lists them", err)
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
