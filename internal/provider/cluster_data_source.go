package provider

import (
	"context"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

var (
	_ datasource.DataSourceWithConfigure        = (*clusterDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*clusterDataSource)(nil)
)

// newClusterDataSource is the astra_cluster data source.
func newClusterDataSource() datasource.DataSource { return &clusterDataSource{} }

type clusterDataSource struct{ dataSourceClientHolder }

// clusterItemAttributes are a cluster's attributes in data sources: astra_cluster's, computed.
func clusterItemAttributes() map[string]schema.Attribute {
	out := attrs.ComputedForDataSource(clusterAttributes(), "wait_for_running")
	redescribe(out, clusterArgumentDescriptions)
	return out
}

// clusterArgumentDescriptions describe the arguments of astra_cluster as its data source shows them.
var clusterArgumentDescriptions = map[string]string{
	"cloud_id":               "ID of the cloud that holds the cluster.",
	"name":                   "Name of the cluster in Astra Control.",
	"credential_id":          "ID of the kubeconfig credential Astra Control uses to reach the cluster, if any.",
	"private_route_id":       "Location ID of the Astra Connector that reaches the cluster, if any.",
	"connector_capabilities": "Capabilities of the connector associated with the cluster, if any.",
	"acc_host":               "Whether this cluster hosts the Astra Control Center instance being accessed.",
	"cluster_type":           "Kind of cluster: `gke`, `aks`, `eks`, `rke`, `tanzu`, `openshift`, `anthos` or `kubernetes`.",
	"labels":                 "User labels on the cluster (the service's read-only labels left out).",
}

func (d *clusterDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_cluster"
}

func (d *clusterDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attributes := clusterItemAttributes()
	attributes["id"] = lookupKey("ID of the cluster to read. Set either `id`, or `cloud_id` and `name`.")
	attributes["cloud_id"] = lookupKey("ID of the cloud that holds the cluster. Required with `name`; optional with `id`.")
	attributes["name"] = lookupKey("Name of the cluster to read (exact match), within `cloud_id`.")
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one cluster known to Astra Control, managed or not, by ID or by cloud and name: for " +
			"example a GKE, AKS or EKS cluster Astra Control discovered in a public cloud, to manage it with " +
			"`astra_managed_cluster`. It is an error when no cluster (or more than one) matches.",
		Attributes: attributes,
	}
}

func (d *clusterDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("name")),
		datasourcevalidator.RequiredTogether(path.MatchRoot("cloud_id"), path.MatchRoot("name")),
	}
}

func (d *clusterDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg clusterValues
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	client := d.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	cloudID := attrs.StringOrEmpty(cfg.CloudID)
	var cluster *astra.Cluster
	if isSet(cfg.ID) {
		cluster = clusterByID(ctx, client, cloudID, cfg.ID.ValueString(), &resp.Diagnostics)
	} else {
		cluster = clusterByName(ctx, client, cloudID, cfg.Name.ValueString(), &resp.Diagnostics)
	}
	if cluster == nil {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, clusterFrom(cluster, clusterValues{}))...)
}

func clusterByID(ctx context.Context, client *astra.Client, cloudID, id string, diags *diag.Diagnostics) *astra.Cluster {
	cluster, err := client.GetCluster(ctx, cloudID, id)
	switch {
	case astra.IsNotFound(err):
		where := ""
		if cloudID != "" {
			where = " in cloud " + cloudID
		}
		diags.AddAttributeError(path.Root("id"), "Cluster not found", "Astra Control has no cluster with ID "+id+where+".")
	case err != nil:
		addAPIError(diags, "Cannot read the cluster", err, nil)
	}
	return cluster
}

func clusterByName(ctx context.Context, client *astra.Client, cloudID, name string, diags *diag.Diagnostics) *astra.Cluster {
	clusters, err := client.ListClusters(ctx, cloudID, astra.ListOptions{})
	if astra.IsNotFound(err) {
		diags.AddAttributeError(path.Root("cloud_id"), "Cloud not found", "Astra Control has no cloud with ID "+cloudID+".")
		return nil
	}
	if err != nil {
		addAPIError(diags, "Cannot list the cloud's clusters", err, nil)
		return nil
	}
	var matches []astra.Cluster
	for _, c := range clusters {
		if c.Name == name {
			matches = append(matches, c)
		}
	}
	switch len(matches) {
	case 1:
		return &matches[0]
	case 0:
		diags.AddAttributeError(path.Root("name"), "Cluster not found",
			"Cloud "+cloudID+" has no cluster named \""+name+"\". Its clusters: "+clusterNames(clusters)+".")
	default:
		diags.AddAttributeError(path.Root("name"), "More than one cluster matches",
			"Several clusters in cloud "+cloudID+" are named \""+name+"\": "+clusterNames(matches)+". Select one by id instead.")
	}
	return nil
}

// clusterNames lists "name (id)" of clusters, sorted, for errors that say what exists.
func clusterNames(clusters []astra.Cluster) string {
	if len(clusters) == 0 {
		return "none"
	}
	names := make([]string, 0, len(clusters))
	for _, c := range clusters {
		names = append(names, c.Name+" ("+c.ID+")")
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
