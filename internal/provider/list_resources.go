package provider

import (
	"context"
	"iter"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// List resources (Terraform 1.14+ `terraform query` with a .tfquery.hcl file) find existing
// objects to import: each result is the object's identity ({ id }), its name, and with
// include_resource its full state, as the resource would read it.

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
