package provider

import (
	"context"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

var _ datasource.DataSourceWithConfigure = (*protectionPoliciesDataSource)(nil)

// newProtectionPoliciesDataSource is the astra_protection_policies data source: an app's
// policies, for reading them and for adopting them.
func newProtectionPoliciesDataSource() datasource.DataSource { return &protectionPoliciesDataSource{} }

type protectionPoliciesDataSource struct{ dataSourceClientHolder }

type protectionPoliciesModel struct {
	AppID    types.String `tfsdk:"app_id"`
	Policies types.List   `tfsdk:"policies"`
}

func (d *protectionPoliciesDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_protection_policies"
}

// protectionPolicyItemAttributes are the attributes of each listed policy: astra_protection_policy's, computed.
func protectionPolicyItemAttributes() map[string]schema.Attribute {
	return attrs.ComputedForDataSource(protectionPolicyAttributes())
}

func (d *protectionPoliciesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists an app's protection policies (its schedules), as `astra_protection_policy` holds them. " +
			"Use it to see how an app is protected, or to write the `import` blocks that adopt its policies " +
			"(`<app_id>/<id>`).",
		Attributes: map[string]schema.Attribute{
			"app_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "ID of the app whose policies are listed (an `astra_app`'s `id`).",
				Validators:          []validator.String{validate.UUID()},
			},
			"policies": computedList("The app's policies, sorted by name then ID.", protectionPolicyItemAttributes()),
		},
	}
}

func (d *protectionPoliciesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m protectionPoliciesModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	client := d.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	appID := m.AppID.ValueString()
	schedules, err := client.ListAppSchedules(ctx, appID)
	if astra.IsNotFound(err) {
		resp.Diagnostics.AddAttributeError(path.Root("app_id"), "Unknown app",
			"Astra Control has no app with ID \""+appID+"\". Set app_id to an astra_app's id (the astra_apps data source lists them).")
		return
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "Cannot list the app's protection policies", err, nil)
		return
	}
	items := make([]protectionPolicyModel, 0, len(schedules))
	for i := range schedules {
		items = append(items, protectionPolicyFrom(appID, &schedules[i]))
	}
	sort.SliceStable(items, func(i, j int) bool {
		if a, b := items[i].Name.ValueString(), items[j].Name.ValueString(); a != b {
			return a < b
		}
		return items[i].ID.ValueString() < items[j].ID.ValueString()
	})
	list, diags := objectList(ctx, protectionPolicyItemAttributes(), items)
	resp.Diagnostics.Append(diags...)
	m.Policies = list
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}
