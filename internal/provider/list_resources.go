package provider

import (
	"context"
	"iter"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

// List resources (Terraform 1.14+ `terraform query` with a .tfquery.hcl file) find existing
// objects to import: each result is the object's identity ({ id }), its name, and with
// include_resource its full state, as the resource would read it.

var (
	_ list.ListResourceWithConfigure = (*clusterListResource)(nil)
	_ list.ListResourceWithConfigure = (*managedClusterListResource)(nil)
	_ list.ListResourceWithConfigure = (*bucketListResource)(nil)
)

// clusterListConfig filters both lists; an unset filter matches everything.
type clusterListConfig struct {
	CloudID      types.String `tfsdk:"cloud_id"`
	ManagedState types.String `tfsdk:"managed_state"`
}

func clusterListSchema(what string) listschema.Schema {
	return listschema.Schema{
		MarkdownDescription: "Lists " + what + " of the account, to import with their identity (`terraform query`, Terraform 1.14 or later).",
		Attributes: map[string]listschema.Attribute{
			"cloud_id": listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only the clusters of this cloud.",
				Validators:          []validator.String{validate.UUID()},
			},
			"managed_state": listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only the clusters in this management state (`unmanaged`, `managed`, ...).",
			},
		},
	}
}

func (c clusterListConfig) matches(cloudID, managedState string) bool {
	return (!isSet(c.CloudID) || c.CloudID.ValueString() == cloudID) &&
		(!isSet(c.ManagedState) || c.ManagedState.ValueString() == managedState)
}

// listHolder is clientHolder with the Configure of a list resource.
type listHolder struct{ clientHolder }

// startList reads the configuration and the client; ok is false when the stream already
// carries the reason.
func startList[C any](ctx context.Context, h *listHolder, req list.ListRequest, stream *list.ListResultsStream) (C, *astra.Client, bool) {
	var cfg C
	var diags diag.Diagnostics
	diags.Append(req.Config.Get(ctx, &cfg)...)
	client := h.client(&diags)
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return cfg, nil, false
	}
	return cfg, client, true
}

// listResults streams one result per item, at most limit (0: no limit).
func listResults[T any](ctx context.Context, req list.ListRequest, items []T, result func(T, *list.ListResult) (keep bool)) iter.Seq[list.ListResult] {
	return func(push func(list.ListResult) bool) {
		var sent int64
		for _, item := range items {
			if req.Limit > 0 && sent >= req.Limit {
				return
			}
			r := req.NewListResult(ctx)
			if !result(item, &r) {
				continue
			}
			sent++
			if !push(r) {
				return
			}
		}
	}
}

// nullTimeouts is the `timeouts` of a listed object: unset, as after an import.
func nullTimeouts(ctx context.Context, req list.ListRequest, diags *diag.Diagnostics) timeouts.Value {
	t, d := req.ResourceSchema.TypeAtPath(ctx, path.Root("timeouts"))
	if diags.Append(d...); d.HasError() {
		return timeouts.Value{}
	}
	var attrTypes map[string]attr.Type
	if obj, ok := t.(attr.TypeWithAttributeTypes); ok {
		attrTypes = obj.AttributeTypes()
	}
	return timeouts.Value{Object: types.ObjectNull(attrTypes)}
}

// clusterListResource lists astra_cluster objects: the account's clusters.
type clusterListResource struct{ listHolder }

func newClusterListResource() list.ListResource { return &clusterListResource{} }

func (r *clusterListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_cluster"
}

func (r *clusterListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = clusterListSchema("the clusters (private and discovered in public clouds)")
}

func (r *clusterListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	cfg, client, ok := startList[clusterListConfig](ctx, &r.listHolder, req, stream)
	if !ok {
		return
	}
	clusters, err := client.ListClusters(ctx, cfg.CloudID.ValueString(), astra.ListOptions{})
	if err != nil {
		var diags diag.Diagnostics
		addAPIError(&diags, "Cannot list clusters", err, nil)
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = listResults(ctx, req, clusters, func(c astra.Cluster, r *list.ListResult) bool {
		if !cfg.matches(c.CloudID, c.ManagedState) {
			return false
		}
		r.DisplayName = c.Name
		r.Diagnostics.Append(r.Identity.Set(ctx, idIdentity{ID: types.StringValue(c.ID)})...)
		if req.IncludeResource {
			prior := clusterModel{Timeouts: nullTimeouts(ctx, req, &r.Diagnostics)}
			r.Diagnostics.Append(r.Resource.Set(ctx, clusterModelFrom(&c, prior))...)
		}
		return true
	})
}

// managedClusterListResource lists astra_managed_cluster objects: the managed clusters.
type managedClusterListResource struct{ listHolder }

func newManagedClusterListResource() list.ListResource { return &managedClusterListResource{} }

func (r *managedClusterListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_managed_cluster"
}

func (r *managedClusterListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = clusterListSchema("the managed clusters")
}

func (r *managedClusterListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	cfg, client, ok := startList[clusterListConfig](ctx, &r.listHolder, req, stream)
	if !ok {
		return
	}
	managed, err := client.ListManagedClusters(ctx, astra.ListOptions{})
	if err != nil {
		var diags diag.Diagnostics
		addAPIError(&diags, "Cannot list managed clusters", err, nil)
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = listResults(ctx, req, managed, func(m astra.ManagedCluster, r *list.ListResult) bool {
		if !isManaged(&m) || !cfg.matches(m.CloudID, m.ManagedState) {
			return false
		}
		r.DisplayName = m.Name
		r.Diagnostics.Append(r.Identity.Set(ctx, idIdentity{ID: types.StringValue(m.ID)})...)
		if req.IncludeResource {
			model := managedClusterModel{
				managedClusterValues: managedClusterFrom(&m),
				Timeouts:             nullTimeouts(ctx, req, &r.Diagnostics),
				WaitForRunning:       types.BoolValue(true),
			}
			r.Diagnostics.Append(r.Resource.Set(ctx, model)...)
		}
		return true
	})
}

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
