package provider

import (
	"context"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

var _ datasource.DataSourceWithConfigure = (*storageBackendsDataSource)(nil)

// newStorageBackendsDataSource is astra_storage_backends: read only, as no NetApp source
// documents the request that adds or manages a backend (research notes §4.13).
func newStorageBackendsDataSource() datasource.DataSource { return &storageBackendsDataSource{} }

type storageBackendsDataSource struct{ dataSourceClientHolder }

type storageBackendsModel struct {
	ClusterID types.String `tfsdk:"cluster_id"`
	Backends  types.List   `tfsdk:"backends"`
}

type storageBackendItem struct {
	ID                  types.String `tfsdk:"id"`
	Name                types.String `tfsdk:"name"`
	BackendType         types.String `tfsdk:"backend_type"`
	BackendVersion      types.String `tfsdk:"backend_version"`
	State               types.String `tfsdk:"state"`
	ManagedState        types.String `tfsdk:"managed_state"`
	HealthState         types.String `tfsdk:"health_state"`
	SnapMirror          types.Bool   `tfsdk:"snapmirror"`
	ManagementIPs       types.List   `tfsdk:"management_ips"`
	BackendManagementIP types.String `tfsdk:"backend_management_ip"`
}

func (d *storageBackendsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_storage_backends"
}

func storageBackendItemAttributes() map[string]schema.Attribute {
	str := func(desc string) schema.Attribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	return map[string]schema.Attribute{
		"id":              str("ID of the backend in Astra Control."),
		"name":            str("Name of the backend (`backendName`)."),
		"backend_type":    str("`ontap` (the only type the API publishes)."),
		"backend_version": str("ONTAP version."),
		"state":           str("`running`, `discovered`, `unknown` or `failed`."),
		"managed_state":   str("`managed` (Astra Control manages it, as replication needs), `unmanaged` (discovered only) or `pending`."),
		"health_state":    str("Health the service reports."),
		"snapmirror": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the backend can replicate with " +
			"SnapMirror (`capabilities.snapMirror`, from the 23.05 release; null before)."},
		"management_ips":        schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Management addresses of the ONTAP system."},
		"backend_management_ip": str("The backend's management address."),
	}
}

func (d *storageBackendsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the storage backends (ONTAP systems) Astra Control Center knows " +
			"(`GET /topology/v1/storageBackends`). Replication (`astra_app_mirror`) needs an ONTAP backend that Astra " +
			"Control manages (`managed_state = \"managed\"`, `snapmirror = true`) under both clusters. Read only: no " +
			"NetApp source documents the request that adds or manages a backend, so there is no resource for one; add " +
			"and manage backends in Astra Control's UI.",
		Attributes: map[string]schema.Attribute{
			"cluster_id": schema.StringAttribute{Optional: true, Validators: []validator.String{validate.UUID()},
				MarkdownDescription: "A managed cluster (an `astra_managed_cluster`'s `id`), checked to exist. The API links " +
					"no backend to a cluster (research notes §4.13), so the list is the account's backends whatever the " +
					"cluster: match a backend to a cluster by its management address."},
			"backends": computedList("The backends, sorted by name then ID.", storageBackendItemAttributes()),
		},
	}
}

func (d *storageBackendsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m storageBackendsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	client := d.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if id := m.ClusterID.ValueString(); id != "" {
		if _, err := client.GetManagedCluster(ctx, id); astra.IsNotFound(err) {
			resp.Diagnostics.AddAttributeError(path.Root("cluster_id"), "Unknown managed cluster",
				"Astra Control manages no cluster with ID \""+id+"\". Set cluster_id to an astra_managed_cluster's id.")
			return
		} else if err != nil {
			addAPIError(&resp.Diagnostics, "Cannot read the managed cluster", err, nil)
			return
		}
	}
	backends, err := client.ListStorageBackends(ctx, astra.ListOptions{})
	if err != nil {
		addAPIError(&resp.Diagnostics, "Cannot list the storage backends", err, nil)
		return
	}
	items := make([]storageBackendItem, 0, len(backends))
	for _, b := range backends {
		it := storageBackendItem{ID: types.StringValue(b.ID), Name: attrs.OptionalString(b.BackendName),
			BackendType: attrs.OptionalString(strings.ToLower(b.BackendType)), BackendVersion: attrs.OptionalString(b.BackendVersion),
			State: attrs.OptionalString(strings.ToLower(b.State)), ManagedState: attrs.OptionalString(b.ManagedState),
			HealthState: attrs.OptionalString(b.HealthState), SnapMirror: types.BoolNull(),
			ManagementIPs: types.ListNull(types.StringType), BackendManagementIP: types.StringNull()}
		if b.Capabilities != nil {
			it.SnapMirror = attrs.OptionalBool(b.Capabilities.SnapMirror)
		}
		if b.Ontap != nil {
			it.ManagementIPs = attrs.StringList(b.Ontap.ManagementIPs)
			it.BackendManagementIP = attrs.OptionalString(b.Ontap.BackendManagementIP)
		}
		items = append(items, it)
	}
	sort.SliceStable(items, func(i, j int) bool {
		if a, b := items[i].Name.ValueString(), items[j].Name.ValueString(); a != b {
			return a < b
		}
		return items[i].ID.ValueString() < items[j].ID.ValueString()
	})
	list, diags := objectList(ctx, storageBackendItemAttributes(), items)
	resp.Diagnostics.Append(diags...)
	m.Backends = list
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}
