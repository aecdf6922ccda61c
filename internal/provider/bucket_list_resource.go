package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// The list resource of buckets (terraform query): see list_resources.go.

var _ list.ListResourceWithConfigure = (*bucketListResource)(nil)

// bucketListResource lists astra_bucket objects: the account's buckets.
type bucketListResource struct{ clientHolder }

// bucketListConfig filters the list; an unset filter matches everything.
type bucketListConfig struct {
	BucketProvider types.String `tfsdk:"bucket_provider"`
}

func newBucketListResource() list.ListResource { return &bucketListResource{} }

func (r *bucketListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_bucket"
}

func (r *bucketListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists the buckets of the account, to import with their identity.",
		Attributes: map[string]listschema.Attribute{
			"bucket_provider": listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only the buckets of this provider (`ontap-s3`, `generic-s3`, `gcp`, ...).",
			},
		},
	}
}

func (r *bucketListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg bucketListConfig
	var diags diag.Diagnostics
	diags.Append(req.Config.Get(ctx, &cfg)...)
	client := r.client(&diags)
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	buckets, err := client.ListBuckets(ctx, astra.ListOptions{})
	if err != nil {
		addAPIError(&diags, "Cannot list buckets", err, nil)
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = listResults(ctx, req, buckets, func(b astra.Bucket, r *list.ListResult) bool {
		if isSet(cfg.BucketProvider) && cfg.BucketProvider.ValueString() != b.Provider {
			return false
		}
		r.DisplayName = b.Name
		r.Diagnostics.Append(r.Identity.Set(ctx, idIdentity{ID: types.StringValue(b.ID)})...)
		if req.IncludeResource {
			model := bucketModel{bucketValues: bucketFrom(&b), Timeouts: nullTimeouts(ctx, req, &r.Diagnostics), WaitForAvailable: types.BoolValue(true)}
			r.Diagnostics.Append(r.Resource.Set(ctx, model)...)
		}
		return true
	})
}
