package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

var (
	_ datasource.DataSourceWithConfigure        = (*cloudDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*cloudDataSource)(nil)
)

// newCloudDataSource is the astra_cloud data source.
func newCloudDataSource() datasource.DataSource { return &cloudDataSource{} }

type cloudDataSource struct{ dataSourceClientHolder }

// cloudItemAttributes are a cloud's attributes in data sources: the resource's, computed.
func cloudItemAttributes(ctx context.Context) map[string]schema.Attribute {
	out := attrs.ComputedForDataSource(cloudAttributes(ctx), "timeouts")
	redescribe(out, cloudArgumentDescriptions)
	return out
}

// cloudArgumentDescriptions describe the arguments of astra_cloud as its data source shows them.
var cloudArgumentDescriptions = map[string]string{
	"name":              "Name of the cloud.",
	"cloud_type":        "Type of the cloud, always lowercase: `private`, `gcp`, `azure` or `aws`.",
	"credential_id":     "ID of the service-account credential Astra Control uses to discover the cloud's clusters (public clouds).",
	"default_bucket_id": "ID of the bucket backups of the cloud's clusters go to by default, if any.",
}

func (d *cloudDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_cloud"
}

func (d *cloudDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attributes := cloudItemAttributes(ctx)
	attributes["id"] = lookupKey("ID of the cloud to read. Exactly one of `id` and `name` must be set.")
	attributes["name"] = lookupKey("Name of the cloud to read (exact match). Exactly one of `id` and `name` must be set.")
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one cloud by ID or by name, for example the `private` cloud that kubeconfig clusters " +
			"are added to. It is an error when no cloud (or more than one) matches. `cloud_type` is always lowercase.",
		Attributes: attributes,
	}
}

func (d *cloudDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("name"))}
}

func (d *cloudDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg cloudValues
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	client := d.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	var cloud *astra.Cloud
	if isSet(cfg.ID) {
		cloud = cloudByID(ctx, client, cfg.ID.ValueString(), &resp.Diagnostics)
	} else {
		cloud = cloudByName(ctx, client, cfg.Name.ValueString(), &resp.Diagnostics)
	}
	if cloud == nil {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, cloudFrom(cloud, cloudValues{}))...)
}

func cloudByID(ctx context.Context, client *astra.Client, id string, diags *diag.Diagnostics) *astra.Cloud {
	cloud, err := client.GetCloud(ctx, id)
	switch {
	case astra.IsNotFound(err):
		diags.AddAttributeError(path.Root("id"), "Cloud not found", "Astra Control has no cloud with ID "+id+".")
	case err != nil:
		addAPIError(diags, "Cannot read the cloud", err, nil)
	}
	return cloud
}

func cloudByName(ctx context.Context, client *astra.Client, name string, diags *diag.Diagnostics) *astra.Cloud {
	clouds, err := client.ListClouds(ctx, astra.ListOptions{})
	if err != nil {
		addAPIError(diags, "Cannot list clouds", err, nil)
		return nil
	}
	return oneNamed(clouds, name, "cloud", cloudNameID, diags)
}

// cloudTypeMatches is the cloud_type filter: case-insensitive, as the service answers
// "GCP" where the schema says "gcp".
func cloudTypeMatches(filter types.String, c astra.Cloud) bool {
	return !isSet(filter) || strings.EqualFold(filter.ValueString(), c.CloudType)
}

// cloudNameID is a cloud's name and ID, for errors that say what exists.
func cloudNameID(c astra.Cloud) (string, string) { return c.Name, c.ID }
