package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

var _ list.ListResourceWithConfigure = (*protectionPolicyListResource)(nil)

// protectionPolicyListResource lists astra_protection_policy objects: one app's policies,
// or every app's (one listing of the apps, then one of each app's schedules).
type protectionPolicyListResource struct{ listHolder }

func newProtectionPolicyListResource() list.ListResource { return &protectionPolicyListResource{} }

type protectionPolicyListConfig struct {
	AppID types.String `tfsdk:"app_id"`
}

func (r *protectionPolicyListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_protection_policy"
}

func (r *protectionPolicyListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists protection policies, to import with their identity `{ app_id, id }`.",
		Attributes: map[string]listschema.Attribute{
			"app_id": listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only the policies of this app; every app's when unset.",
				Validators:          []validator.String{validate.UUID()},
			},
		},
	}
}

// appSchedule is a schedule with the app it protects.
type appSchedule struct {
	appID    string
	schedule astra.AppSchedule
}

func (r *protectionPolicyListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	cfg, client, ok := startList[protectionPolicyListConfig](ctx, &r.listHolder, req, stream)
	if !ok {
		return
	}
	var appIDs []string
	if isSet(cfg.AppID) {
		appIDs = []string{cfg.AppID.ValueString()}
	} else {
		apps, err := client.ListApps(ctx, astra.ListOptions{})
		if err != nil {
			stream.Results = list.ListResultsStreamDiagnostics(apiErrorDiagnostics("Cannot list apps", err))
			return
		}
		for _, a := range apps {
			appIDs = append(appIDs, a.ID)
		}
	}
	var all []appSchedule
	for _, appID := range appIDs {
		schedules, err := client.ListAppSchedules(ctx, appID)
		if err != nil {
			stream.Results = list.ListResultsStreamDiagnostics(apiErrorDiagnostics("Cannot list the protection policies of app "+appID, err))
			return
		}
		for _, s := range schedules {
			all = append(all, appSchedule{appID, s})
		}
	}
	stream.Results = listResults(ctx, req, all, func(p appSchedule, res *list.ListResult) bool {
		res.DisplayName = p.schedule.Name
		res.Diagnostics.Append(res.Identity.Set(ctx, policyIdentity{AppID: types.StringValue(p.appID), ID: types.StringValue(p.schedule.ID)})...)
		if req.IncludeResource {
			res.Diagnostics.Append(res.Resource.Set(ctx, protectionPolicyFrom(p.appID, &p.schedule))...)
		}
		return true
	})
}

// apiErrorDiagnostics is addAPIError's diagnostic on its own, for a stream's results.
func apiErrorDiagnostics(summary string, err error) diag.Diagnostics {
	var diags diag.Diagnostics
	addAPIError(&diags, summary, err, nil)
	return diags
}
