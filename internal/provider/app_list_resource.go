package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

var _ list.ListResourceWithConfigure = (*appListResource)(nil)

// appListResource lists astra_app objects: the account's apps, optionally of one cluster.
type appListResource struct{ listHolder }

func newAppListResource() list.ListResource { return &appListResource{} }

type appListConfig struct {
	ClusterID types.String `tfsdk:"cluster_id"`
}

func (r *appListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_app"
}

func (r *appListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists the apps of the account, to import with their identity.",
		Attributes: map[string]listschema.Attribute{
			"cluster_id": listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only the apps of this managed cluster.",
				Validators:          []validator.String{validate.UUID()},
			},
		},
	}
}

func (r *appListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	cfg, client, ok := startList[appListConfig](ctx, &r.listHolder, req, stream)
	if !ok {
		return
	}
	apps, err := client.ListApps(ctx, astra.ListOptions{})
	if err != nil {
		stream.Results = list.ListResultsStreamDiagnostics(apiErrorDiagnostics("Cannot list apps", err))
		return
	}
	stream.Results = listResults(ctx, req, apps, func(a astra.App, res *list.ListResult) bool {
		if isSet(cfg.ClusterID) && a.ClusterID != cfg.ClusterID.ValueString() {
			return false
		}
		res.DisplayName = a.Name
		res.Diagnostics.Append(res.Identity.Set(ctx, idIdentity{ID: types.StringValue(a.ID)})...)
		if req.IncludeResource {
			model := appModel{
				appValues:              appFrom(&a, appValues{Labels: types.MapNull(types.StringType)}),
				Source:                 types.ObjectNull(appSourceAttrTypes),
				Timeouts:               nullTimeouts(ctx, req, &res.Diagnostics),
				WaitForReady:           types.BoolValue(true),
				DeleteBackupsOnDestroy: types.BoolValue(false),
			}
			res.Diagnostics.Append(res.Resource.Set(ctx, model)...)
		}
		return true
	})
}
