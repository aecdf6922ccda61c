package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

var (
	_ datasource.DataSourceWithConfigure        = (*bucketDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*bucketDataSource)(nil)
)

// newBucketDataSource is the astra_bucket data source.
func newBucketDataSource() datasource.DataSource { return &bucketDataSource{} }

type bucketDataSource struct{ dataSourceClientHolder }

// bucketItemAttributes are a bucket's attributes in data sources: the resource's, computed.
func bucketItemAttributes() map[string]schema.Attribute {
	out := attrs.ComputedForDataSource(bucketAttributes())
	redescribe(out, bucketArgumentDescriptions)
	return out
}

// bucketArgumentDescriptions describe the arguments of astra_bucket as its data sources show them.
var bucketArgumentDescriptions = map[string]string{
	"name":            "Name of the bucket in Astra Control.",
	"bucket_provider": "The object store: `ontap-s3`, `storagegrid-s3`, `generic-s3`, `aws`, `gcp` or `azure` (the API's `provider`).",
	"credential_id":   "ID of the credential Astra Control opens the bucket with.",
	"s3":              "Where an S3 bucket is (`ontap-s3`, `storagegrid-s3`, `generic-s3`, `aws`): `server_url` and `bucket_name`; null for the other providers.",
	"gcp":             "Where a Google Cloud Storage bucket is: `bucket_name`; null for the other providers.",
	"azure":           "Where an Azure blob container is: `storage_account` and `bucket_name`; null for the other providers.",
}

func (d *bucketDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_bucket"
}

func (d *bucketDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attributes := bucketItemAttributes()
	attributes["id"] = lookupKey("ID of the bucket to read. Exactly one of `id` and `name` must be set.")
	attributes["name"] = lookupKey("Name of the bucket to read (exact match). Exactly one of `id` and `name` must be set.")
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one bucket by ID or by name, for example to set it as a cluster's default bucket. " +
			"It is an error when no bucket (or more than one) matches.",
		Attributes: attributes,
	}
}

func (d *bucketDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("name"))}
}

func (d *bucketDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg bucketValues
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	client := d.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	var bucket *astra.Bucket
	if isSet(cfg.ID) {
		bucket = bucketByID(ctx, client, cfg.ID.ValueString(), &resp.Diagnostics)
	} else {
		bucket = bucketByName(ctx, client, cfg.Name.ValueString(), &resp.Diagnostics)
	}
	if bucket == nil {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, bucketFrom(bucket))...)
}

func bucketByID(ctx context.Context, client *astra.Client, id string, diags *diag.Diagnostics) *astra.Bucket {
	bucket, err := client.GetBucket(ctx, id)
	switch {
	case astra.IsNotFound(err):
		diags.AddAttributeError(path.Root("id"), "Bucket not found", "Astra Control has no bucket with ID "+id+".")
	case err != nil:
		addAPIError(diags, "Cannot read the bucket", err, nil)
	}
	return bucket
}

func bucketByName(ctx context.Context, client *astra.Client, name string, diags *diag.Diagnostics) *astra.Bucket {
	buckets, err := client.ListBuckets(ctx, astra.ListOptions{})
	if err != nil {
		addAPIError(diags, "Cannot list buckets", err, nil)
		return nil
	}
	return oneNamed(buckets, name, "bucket", func(b astra.Bucket) (string, string) { return b.Name, b.ID }, diags)
}
