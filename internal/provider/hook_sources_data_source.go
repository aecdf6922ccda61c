package provider

import (
	"context"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

var _ datasource.DataSourceWithConfigure = (*hookSourcesDataSource)(nil)

// newHookSourcesDataSource is the astra_hook_sources data source: the account's scripts,
// for reading them and for adopting them.
func newHookSourcesDataSource() datasource.DataSource { return &hookSourcesDataSource{} }

type hookSourcesDataSource struct{ dataSourceClientHolder }

type hookSourcesModel struct {
	Name        types.String `tfsdk:"name"`
	HookSources types.List   `tfsdk:"hook_sources"`
}

func (d *hookSourcesDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_hook_sources"
}

// hookSourceItemAttributes are each listed source's: astra_hook_source's, computed; the
// script as source (plain text), which is what an adopting configuration sets.
func hookSourceItemAttributes() map[string]schema.Attribute {
	out := attrs.ComputedForDataSource(hookSourceAttributes(), "source_base64")
	out["preloaded"] = schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the script is one NetApp " +
		"preloads into Astra Control (the hook source's `preloaded`): read only (a change is refused, problem 71), so " +
		"an adopting configuration leaves it out (`if !s.preloaded`)."}
	return out
}

func (d *hookSourcesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the account's hook sources (scripts), as `astra_hook_source` holds them, NetApp's " +
			"preloaded ones included. Use it to see which scripts exist, or to write the `import` blocks that adopt them " +
			"(by `id`). `source` is the script as plain text (sensitive, as in the resource); a private script Astra " +
			"Control does not show has a null `source` and `source_sha256`, and only `source_md5`.",
		Attributes: map[string]schema.Attribute{
			"name": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only the hook source of this name.",
			},
			"hook_sources": computedList("The hook sources, sorted by name then ID.", hookSourceItemAttributes()),
		},
	}
}

type hookSourceItem struct {
	ID           types.String `tfsdk:"id"`
	Name         types.String `tfsdk:"name"`
	Description  types.String `tfsdk:"description"`
	Source       types.String `tfsdk:"source"`
	SourceSHA256 types.String `tfsdk:"source_sha256"`
	SourceMD5    types.String `tfsdk:"source_md5"`
	Metadata     types.Object `tfsdk:"metadata"`
	Preloaded    types.Bool   `tfsdk:"preloaded"`
}

func (d *hookSourcesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m hookSourcesModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	client := d.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	sources, err := client.ListHookSources(ctx, astra.ListOptions{})
	if err != nil {
		addAPIError(&resp.Diagnostics, "Cannot list the hook sources", err, nil)
		return
	}
	items := make([]hookSourceItem, 0, len(sources))
	for i := range sources {
		if isSet(m.Name) && sources[i].Name != m.Name.ValueString() {
			continue
		}
		items = append(items, hookSourceItemFrom(&sources[i]))
	}
	sort.SliceStable(items, func(i, j int) bool {
		if a, b := items[i].Name.ValueString(), items[j].Name.ValueString(); a != b {
			return a < b
		}
		return items[i].ID.ValueString() < items[j].ID.ValueString()
	})
	list, diags := objectList(ctx, hookSourceItemAttributes(), items)
	resp.Diagnostics.Append(diags...)
	m.HookSources = list
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// hookSourceItemFrom is one script of the list, preloaded as the service marks it (NetApp's
// own scripts, which an adopting configuration filters out).
func hookSourceItemFrom(source *astra.HookSource) hookSourceItem {
	h := hookSourceFrom(source, hookSourceModel{SourceSHA256: types.StringNull()})
	return hookSourceItem{ID: h.ID, Name: h.Name, Description: h.Description, Source: h.Source,
		SourceSHA256: h.SourceSHA256, SourceMD5: h.SourceMD5, Metadata: h.Metadata,
		Preloaded: types.BoolValue(source.Preloaded.Value())}
}
