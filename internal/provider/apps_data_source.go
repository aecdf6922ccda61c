package provider

import (
	"context"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

var _ datasource.DataSourceWithConfigure = (*appsDataSource)(nil)

// newAppsDataSource is the astra_apps data source.
func newAppsDataSource() datasource.DataSource { return &appsDataSource{} }

type appsDataSource struct{ dataSourceClientHolder }

type appsModel struct {
	ClusterID       types.String `tfsdk:"cluster_id"`
	Namespace       types.String `tfsdk:"namespace"`
	Name            types.String `tfsdk:"name"`
	ProtectionState types.String `tfsdk:"protection_state"`
	Apps            types.List   `tfsdk:"apps"`
}

func (d *appsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_apps"
}

// appItemAttributes are the attributes of each listed app: astra_app's, computed.
func appItemAttributes() map[string]schema.Attribute {
	return attrs.ComputedForDataSource(appAttributes())
}

func (d *appsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the apps Astra Control manages, optionally filtered; all filters must match. An empty " +
			"result is not an error. Use it to find unprotected apps (`protection_state = \"none\"`) or to adopt apps.",
		Attributes: map[string]schema.Attribute{
			"cluster_id": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only the apps of this managed cluster.",
				Validators:          []validator.String{validate.UUID()},
			},
			"namespace": schema.StringAttribute{Optional: true, MarkdownDescription: "Only the apps that span this namespace."},
			"name":      schema.StringAttribute{Optional: true, MarkdownDescription: "Only the apps with exactly this name."},
			"protection_state": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only the apps in this protection state: `none`, `protected`, `partial` or `atRisk`.",
				Validators:          []validator.String{stringvalidator.OneOf("none", "protected", "partial", "atRisk")},
			},
			"apps": computedList("The matching apps, sorted by name then ID.", appItemAttributes()),
		},
	}
}

func (d *appsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m appsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	client := d.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	apps, err := client.ListApps(ctx, astra.ListOptions{})
	if err != nil {
		addAPIError(&resp.Diagnostics, "Cannot list apps", err, nil)
		return
	}
	var items []appValues
	for i := range apps {
		if appMatches(&apps[i], m) {
			items = append(items, appFrom(&apps[i], appValues{Labels: types.MapUnknown(types.StringType)}))
		}
	}
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if a.Name.ValueString() != b.Name.ValueString() {
			return a.Name.ValueString() < b.Name.ValueString()
		}
		return a.ID.ValueString() < b.ID.ValueString()
	})
	list, diags := objectList(ctx, appItemAttributes(), items)
	resp.Diagnostics.Append(diags...)
	m.Apps = list
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// appMatches applies the filters (on the answer: the namespace filter has no API field).
func appMatches(a *astra.App, m appsModel) bool {
	if isSet(m.ClusterID) && a.ClusterID != m.ClusterID.ValueString() ||
		isSet(m.Name) && a.Name != m.Name.ValueString() ||
		isSet(m.ProtectionState) && a.ProtectionState != m.ProtectionState.ValueString() {
		return false
	}
	if !isSet(m.Namespace) {
		return true
	}
	for _, r := range a.NamespaceScopedResources {
		if r.Namespace == m.Namespace.ValueString() {
			return true
		}
	}
	return false
}
