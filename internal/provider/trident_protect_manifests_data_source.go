package provider

import (
	"context"
	"errors"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
	"github.com/astra-control/terraform-provider-astra/internal/tridentprotect"
)

var (
	_ datasource.DataSourceWithConfigure        = (*tridentProtectManifestsDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*tridentProtectManifestsDataSource)(nil)
)

// newTridentProtectManifestsDataSource is the astra_trident_protect_manifests data source.
func newTridentProtectManifestsDataSource() datasource.DataSource {
	return &tridentProtectManifestsDataSource{}
}

type tridentProtectManifestsDataSource struct{ dataSourceClientHolder }

type tridentProtectManifestsModel struct {
	AppID                   types.String  `tfsdk:"app_id"`
	ClusterID               types.String  `tfsdk:"cluster_id"`
	ProtectNamespace        types.String  `tfsdk:"protect_namespace"`
	DataMoverPasswordSecret types.String  `tfsdk:"data_mover_password_secret"`
	GCPProjectIDs           types.Map     `tfsdk:"gcp_project_ids"`
	AzureEndpoints          types.Map     `tfsdk:"azure_endpoints"`
	DefaultBucketID         types.String  `tfsdk:"default_bucket_id"`
	Manifests               types.List    `tfsdk:"manifests"`
	Objects                 types.Dynamic `tfsdk:"objects"`
	YAML                    types.String  `tfsdk:"yaml"`
	Secrets                 types.List    `tfsdk:"secrets"`
	Warnings                types.List    `tfsdk:"warnings"`
	TridentProtectRelease   types.String  `tfsdk:"trident_protect_release"`
}

func (d *tridentProtectManifestsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_trident_protect_manifests"
}

func (d *tridentProtectManifestsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Renders what Astra Control holds for an app (`app_id`), or for every app of a managed cluster " +
			"(`cluster_id`), as the NetApp Trident protect custom resources that take over its protection " +
			"(`protect.trident.netapp.io/v1`, following the Trident protect documentation of release " + tridentprotect.DocsRelease + "): " +
			"an `AppVault` per bucket, an `Application` per app, a `Schedule` per protection policy and an `ExecHook` per " +
			"execution hook, as objects for the Kubernetes provider's `kubernetes_manifest` and as YAML. It only reads " +
			"Astra Control. No credential value is read or rendered: each `AppVault` reads a Kubernetes Secret you create " +
			"(see `secrets`). What cannot be carried over as it is is in `warnings`, each also a warning of the plan; what " +
			"would make a resource Trident protect's custom resource definitions refuse is an error of the plan naming the " +
			"argument or the object to fix. `yaml`, `objects` and `manifests[].yaml` are sensitive: an `ExecHook` carries its " +
			"hook source's script, as sensitive as `astra_hook_source.source`.",
		Attributes: tridentProtectManifestsAttributes(),
	}
}

func tridentProtectManifestsAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"app_id": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "The app to render. Exactly one of `app_id` and `cluster_id` must be set.",
			Validators:          []validator.String{validate.UUID()},
		},
		"cluster_id": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "The managed cluster whose apps are all rendered. Exactly one of `app_id` and `cluster_id` must be set.",
			Validators:          []validator.String{validate.UUID()},
		},
		"protect_namespace": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "The namespace Trident protect is installed in, where the `AppVault`s and the Secrets they read go. " +
				"Default: `" + tridentprotect.DefaultProtectNamespace + "`.",
			Validators: []validator.String{validate.DNSLabel(63)},
		},
		"data_mover_password_secret": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "The name of a Secret (in `protect_namespace`) holding `KOPIA_PASSWORD` and `RESTIC_PASSWORD`, " +
				"the passwords of the backup repositories, which every `AppVault` then refers to. Unset: Trident protect's " +
				"default password. Choose before the first backup: a backup cannot be restored without its password.",
			Validators: []validator.String{validate.DNSLabel(63)},
		},
		"gcp_project_ids": schema.MapAttribute{
			Optional:    true,
			ElementType: types.StringType,
			MarkdownDescription: "The Google Cloud project of each Google Cloud Storage bucket, by Astra Control bucket ID: " +
				"Astra Control does not record it, and the `AppVault` requires it (`spec.providerConfig.gcp.projectID`): a " +
				"Google Cloud bucket the rendering uses without its project here is an error of the plan.",
		},
		"azure_endpoints": schema.MapAttribute{
			Optional:    true,
			ElementType: types.StringType,
			MarkdownDescription: "The storage endpoint suffix of an Azure bucket's cloud, by Astra Control bucket ID, for a " +
				"sovereign cloud (`core.usgovcloudapi.net`, `core.chinacloudapi.cn`, ...): the `AppVault` requires it " +
				"(`spec.providerConfig.azure.endpoint`) and Astra Control does not record it. Unset for a bucket: `" +
				tridentprotect.DefaultAzureEndpoint + "`, Azure's public cloud.",
		},
		"default_bucket_id": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "The bucket whose `AppVault` the `Schedule` of a policy that names no bucket uses (Astra Control " +
				"sends such a policy's backups to the default bucket). Unset: the managed cluster's default bucket, else its " +
				"cloud's; null when there is none.",
			Validators: []validator.String{validate.UUID()},
		},
		"manifests": computedList("Every resource rendered: `AppVault`s first, then each app's `Application`, `Schedule`s and "+
			"`ExecHook`s, in a stable order.", tridentProtectManifestAttributes()),
		"objects": schema.DynamicAttribute{
			Computed:  true,
			Sensitive: true,
			MarkdownDescription: "Every resource rendered as an object for `kubernetes_manifest`'s `manifest`, keyed by the " +
				"manifest's `key` (`kind.namespace.name`): `for_each = nonsensitive(toset(keys(data.astra_trident_protect_manifests.x.objects)))`. " +
				"Sensitive: it holds the hook scripts.",
		},
		"yaml": schema.StringAttribute{
			Computed:  true,
			Sensitive: true,
			MarkdownDescription: "Every resource rendered, as one YAML stream (each document starts with `---` and a comment " +
				"naming the Astra Control object it comes from). Sensitive: it holds the hook scripts; write it to a file " +
				"with `local_sensitive_file` or `terraform output -raw`, which print nothing.",
		},
		"secrets": computedList("The Secrets the resources read and you create, in `protect_namespace`: their names and keys, "+
			"never a value.", tridentProtectSecretAttributes()),
		"warnings": computedList("What could not be carried over as it is, each naming the Astra Control object: a resource "+
			"not rendered, or rendered with a difference to check.", tridentProtectWarningAttributes()),
		"trident_protect_release": computedString("The Trident protect release whose documentation the mapping follows (`" +
			tridentprotect.DocsRelease + "`)."),
	}
}

func tridentProtectManifestAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"key":         computedString("`kind.namespace.name`: unique in the rendering, and a valid file name."),
		"kind":        computedString("`AppVault`, `Application`, `Schedule` or `ExecHook`."),
		"name":        computedString("`metadata.name`."),
		"namespace":   computedString("`metadata.namespace`."),
		"source_kind": computedString("The kind of the Astra Control object rendered: `bucket`, `app`, `protection policy` or `execution hook`."),
		"source_id":   computedString("Its Astra Control ID."),
		"source_name": computedString("Its Astra Control name."),
		"yaml": schema.StringAttribute{
			Computed:            true,
			Sensitive:           true,
			MarkdownDescription: "This resource alone, as one YAML document (for `yamldecode`). Sensitive: an `ExecHook`'s holds its script.",
		},
	}
}

func tridentProtectSecretAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"name":            computedString("The Secret's name."),
		"namespace":       computedString("Its namespace: `protect_namespace`."),
		"keys":            computedStrings("The keys it must hold."),
		"purpose":         computedString("What goes in each key."),
		"bucket_id":       computedString("The Astra Control bucket whose `AppVault` reads it; null for the data mover password Secret."),
		"bucket_name":     computedString("That bucket's name."),
		"credential_id":   computedString("The Astra Control credential the bucket used, whose values (or their successors) go in the Secret."),
		"credential_name": computedString("That credential's name."),
	}
}

func tridentProtectWarningAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"object":  computedString("The Astra Control object, as `kind \"name\" (id)`."),
		"message": computedString("What differs, or why nothing is rendered for it."),
	}
}

func (d *tridentProtectManifestsDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{datasourcevalidator.ExactlyOneOf(path.MatchRoot("app_id"), path.MatchRoot("cluster_id"))}
}

func (d *tridentProtectManifestsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m tridentProtectManifestsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	client := d.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	projects, endpoints := map[string]string{}, map[string]string{}
	if isSet(m.GCPProjectIDs) {
		resp.Diagnostics.Append(m.GCPProjectIDs.ElementsAs(ctx, &projects, false)...)
	}
	if isSet(m.AzureEndpoints) {
		resp.Diagnostics.Append(m.AzureEndpoints.ElementsAs(ctx, &endpoints, false)...)
	}
	scope := tridentProtectScope{AppID: attrs.StringOrEmpty(m.AppID), ClusterID: attrs.StringOrEmpty(m.ClusterID),
		DefaultBucketID: attrs.StringOrEmpty(m.DefaultBucketID)}
	src, ok := readTridentProtectSource(ctx, client, scope, &resp.Diagnostics)
	if !ok || resp.Diagnostics.HasError() {
		return
	}
	if id := scope.DefaultBucketID; id != "" && len(src.Apps) > 0 && !slices.ContainsFunc(src.Buckets, func(b astra.Bucket) bool { return b.ID == id }) {
		resp.Diagnostics.AddAttributeError(path.Root("default_bucket_id"), "Bucket not found", "Astra Control has no bucket with ID "+id+".")
		return
	}
	src.GCPProjectIDs, src.AzureEndpoints = projects, endpoints
	estate := tridentProtectEstate(src)
	opts := tridentprotect.Options{ProtectNamespace: attrs.StringOrEmpty(m.ProtectNamespace),
		DataMoverPasswordSecret: attrs.StringOrEmpty(m.DataMoverPasswordSecret)}
	r, err := tridentprotect.Render(estate, opts)
	if err != nil {
		addRenderError(&resp.Diagnostics, err)
		return
	}
	for _, u := range []struct {
		arg, what, a string
		values       map[string]string
		ofKind       func(tridentprotect.Bucket) bool
	}{
		{"gcp_project_ids", "Google Cloud", "a", projects, func(b tridentprotect.Bucket) bool { return b.GCP != nil }},
		{"azure_endpoints", "Azure", "an", endpoints, func(b tridentprotect.Bucket) bool { return b.Azure != nil }},
	} {
		for _, id := range unusedBucketKeys(estate, u.values, u.ofKind) {
			resp.Diagnostics.AddAttributeWarning(path.Root(u.arg).AtMapKey(id), "No "+u.what+" bucket with this ID is rendered",
				u.arg+" names bucket "+id+", which is not "+u.a+" "+u.what+" bucket the rendered policies or the default bucket use; its value is not used.")
		}
	}
	for _, w := range warningsByObject(r.Warnings) {
		resp.Diagnostics.AddWarning("Trident protect: "+w.Object, w.Message)
	}
	resp.Diagnostics.Append(m.setRendering(ctx, src.DefaultBucketID, r)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// addRenderError reports a rendering refused: each object the CRDs would refuse as an error
// on the argument that fixes it (its map key too), or naming the object when the fix is in
// Astra Control.
func addRenderError(diags *diag.Diagnostics, err error) {
	var ie *tridentprotect.InputError
	if !errors.As(err, &ie) {
		diags.AddError("Cannot render the Trident protect resources", err.Error())
		return
	}
	for _, p := range ie.Problems {
		summary := "Trident protect would refuse the resource of " + p.Object
		if p.Argument == "" {
			diags.AddError(summary, p.Message+".")
			continue
		}
		at := path.Root(p.Argument)
		if p.Key != "" {
			at = at.AtMapKey(p.Key)
		}
		diags.AddAttributeError(at, summary, p.Message+".")
	}
}
