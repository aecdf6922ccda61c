package provider

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// A managed cluster's default bucket: the bucket must exist, and Astra Control takes a
// default bucket only for a cluster with the neptuneV1 capability (problem 171), which the
// cluster's astra_cluster sets.

// problemDefaultBucketNeedsNeptune is Astra Control's refusal of a default bucket for a
// cluster without the neptuneV1 capability.
const problemDefaultBucketNeedsNeptune = 171

// neptuneFix is what a user does about problem 171.
const neptuneFix = `Astra Control takes a default bucket only for a cluster with the neptuneV1 capability: add ` +
	`connector_capabilities = ["neptuneV1"] to the cluster's astra_cluster (cluster API 1.5 or later) and apply ` +
	`that first, or remove default_bucket_id.`

// defaultBucketProblems checks a default_bucket_id the plan sets or changes: a bucket of the
// account (an error on a 404), on a cluster with the neptuneV1 capability. The cluster's
// capabilities are read as Astra Control holds them now; an apply that adds the capability
// to the cluster in the same run cannot be seen from here, so a missing one is a warning at
// plan (the apply's refusal then says the same, with the fix).
func defaultBucketProblems(ctx context.Context, client *astra.Client, seen *seenObjects, clusterID, bucket, prior types.String, diags *diag.Diagnostics) {
	if !isSet(bucket) || bucket.Equal(prior) {
		return
	}
	if problems := referenceProblems(ctx, seen, []reference{{attribute: "default_bucket_id", what: "bucket",
		listedBy: "astra_bucket resources, the astra_buckets data source and `GET /topology/v1/buckets`",
		get:      func(ctx context.Context, id string) error { _, err := client.GetBucket(ctx, id); return err }}},
		map[string]types.String{"default_bucket_id": bucket}, map[string]types.String{"default_bucket_id": prior}); len(problems) > 0 {
		addProblems(diags, problems)
		return
	}
	if !isSet(clusterID) {
		return
	}
	cluster, err := client.GetCluster(ctx, "", clusterID.ValueString())
	if err != nil || slices.Contains(cluster.ConnectorCapabilities, "neptuneV1") {
		return // unknown yet, or fine
	}
	diags.AddAttributeWarning(path.Root("default_bucket_id"), "The cluster lacks the neptuneV1 capability",
		"Cluster "+cluster.Name+" ("+cluster.ID+") has no neptuneV1 capability now, so Astra Control will refuse this "+
			"default bucket (problem 171) unless this apply adds it. "+neptuneFix)
}
