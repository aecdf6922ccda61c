package provider

import (
	"context"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

var _ datasource.DataSourceWithConfigure = (*executionHooksDataSource)(nil)

// newExecutionHooksDataSource is the astra_execution_hooks data source: the custom hooks
// of the account or of one app, for reading them and for adopting them.
func newExecutionHooksDataSource() datasource.DataSource { return &executionHooksDataSource{} }

type executionHooksDataSource struct{ dataSourceClientHolder }

type executionHooksModel struct {
	AppID  types.String `tfsdk:"app_id"`
	Action types.String `tfsdk:"action"`
	Stage  types.String `tfsdk:"stage"`
	Hooks  types.List   `tfsdk:"hooks"`
}

func (d *executionHooksDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_execution_hooks"
}

func executionHookItemAttributes() map[string]schema.Attribute {
	return attrs.ComputedForDataSource(executionHookAttributes())
}

func (d *executionHooksDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists execution hooks, as `astra_execution_hook` holds them: an app's (`app_id`) or the " +
			"whole account's, optionally only one `action` or `stage`. Use it to see what runs around an app's " +
			"snapshots and backups, or to write the `import` blocks that adopt the hooks (by `id`). NetApp's own hooks " +
			"(`hookType` `netapp`, read only) are left out.",
		Attributes: map[string]schema.Attribute{
			"app_id": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only this app's hooks (an `astra_app`'s `id`); every app's when unset.",
				Validators:          []validator.String{validate.UUID()},
			},
			"action": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only hooks of this action: `snapshot`, `backup`, `restore` or `failover`.",
				Validators:          []validator.String{stringvalidator.OneOf("snapshot", "backup", "restore", "failover")},
			},
			"stage": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only hooks of this stage: `pre` or `post`.",
				Validators:          []validator.String{stringvalidator.OneOf("pre", "post")},
			},
			"hooks": computedList("The hooks, sorted by name then ID.", executionHookItemAttributes()),
		},
	}
}

func (d *executionHooksDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m executionHooksModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	client := d.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	var hooks []astra.ExecutionHook
	var err error
	if isSet(m.AppID) {
		hooks, err = client.ListAppExecutionHooks(ctx, m.AppID.ValueString(), astra.ListOptions{})
		if astra.IsNotFound(err) {
			resp.Diagnostics.AddAttributeError(path.Root("app_id"), "Unknown app",
				"Astra Control has no app with ID \""+m.AppID.ValueString()+"\". Set app_id to an astra_app's id (the astra_apps data source lists them).")
			return
		}
	} else {
		hooks, err = client.ListExecutionHooks(ctx, astra.ListOptions{})
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "Cannot list the execution hooks", err, nil)
		return
	}
	items := make([]executionHookModel, 0, len(hooks))
	for i := range hooks {
		h := &hooks[i]
		if h.HookType == "netapp" || (isSet(m.Action) && h.Action != m.Action.ValueString()) ||
			(isSet(m.Stage) && h.Stage != m.Stage.ValueString()) {
			continue
		}
		items = append(items, executionHookFrom(h, executionHookModel{}))
	}
	sort.SliceStable(items, func(i, j int) bool {
		if a, b := items[i].Name.ValueString(), items[j].Name.ValueString(); a != b {
			return a < b
		}
		return items[i].ID.ValueString() < items[j].ID.ValueString()
	})
	list, diags := objectList(ctx, executionHookItemAttributes(), items)
	resp.Diagnostics.Append(diags...)
	m.Hooks = list
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}
