package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

// bucketProviders are the values of bucket_provider, as the published schema spells them.
var bucketProviders = []string{
	astra.BucketProviderONTAPS3, astra.BucketProviderStorageGRIDS3, astra.BucketProviderGenericS3,
	astra.BucketProviderGCP, astra.BucketProviderAzure, astra.BucketProviderAWS,
}

// bucketTimeouts are the waits of astra_bucket: until a new bucket, or one with a new
// credential, is available; delete is one request.
var bucketTimeouts = attrs.TimeoutDefaults{Create: 10 * time.Minute, Update: 10 * time.Minute, Delete: 5 * time.Minute}

// bucketPutArgs are the arguments whose change makes an update PUT the bucket.
var bucketPutArgs = []string{"name", "credential_id"}

// bucketNameValidators bound a bucket name in the object store (the schema's 63 characters).
func bucketNameValidators() []validator.String {
	return []validator.String{stringvalidator.LengthBetween(1, 63)}
}

// bucketAttributes are astra_bucket's attributes; its data sources derive theirs from them
// (bucketItemAttributes).
func bucketAttributes() map[string]schema.Attribute {
	replace := []planmodifier.Object{objectplanmodifier.RequiresReplace()}
	return map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "Astra ID of the bucket.",
			PlanModifiers:       []planmodifier.String{attrs.KeepUnlessChanged()},
		},
		"name": schema.StringAttribute{
			Required:            true,
			MarkdownDescription: "Name of the bucket in Astra Control, 1 to 256 printable ASCII characters." + updatedInPlace,
			Validators:          []validator.String{validate.ResourceName(256)},
		},
		"bucket_provider": schema.StringAttribute{
			Required: true,
			MarkdownDescription: "The object store: `ontap-s3`, `storagegrid-s3`, `generic-s3` or `aws` (all located with " +
				"`s3`), `gcp` (with `gcp`) or `azure` (with `azure`). The API calls it `provider`, a name Terraform " +
				"reserves." + forcesReplacement,
			Validators:    []validator.String{stringvalidator.OneOf(bucketProviders...)},
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		"credential_id": schema.StringAttribute{
			Required: true,
			MarkdownDescription: "ID of the credential Astra Control opens the bucket with: an `astra_s3_credential` for the " +
				"S3 providers, an `astra_service_account_credential` for `gcp`. Updated in place (one PUT); the service " +
				"then checks the bucket again, and the update waits until it is `available`.",
			Validators: []validator.String{validate.UUID()},
		},
		"s3": schema.SingleNestedAttribute{
			Optional: true,
			MarkdownDescription: "Where an S3 bucket is (`ontap-s3`, `storagegrid-s3`, `generic-s3`, `aws`); exactly the " +
				"nested attribute `bucket_provider` takes must be set." + forcesReplacement,
			PlanModifiers: replace,
			Attributes: map[string]schema.Attribute{
				"server_url": schema.StringAttribute{
					Required: true,
					MarkdownDescription: "The S3 endpoint: a host name or IP address with an optional port " +
						"(`s3.example.com`, `10.0.0.5:443`), or an http(s) URL; at most 1023 characters.",
					Validators: []validator.String{validate.ObjectStoreURL()},
				},
				"bucket_name": schema.StringAttribute{
					Required:            true,
					MarkdownDescription: "Name of the bucket in the object store, 1 to 63 characters.",
					Validators:          bucketNameValidators(),
				},
			},
		},
		"gcp": schema.SingleNestedAttribute{
			Optional:            true,
			MarkdownDescription: "Where a Google Cloud Storage bucket is (`bucket_provider = \"gcp\"`)." + forcesReplacement,
			PlanModifiers:       replace,
			Attributes: map[string]schema.Attribute{
				"bucket_name": schema.StringAttribute{
					Required:            true,
					MarkdownDescription: "Name of the Cloud Storage bucket, 1 to 63 characters.",
					Validators:          bucketNameValidators(),
				},
			},
		},
		"azure": schema.SingleNestedAttribute{
			Optional:            true,
			MarkdownDescription: "Where an Azure blob container is (`bucket_provider = \"azure\"`)." + forcesReplacement,
			PlanModifiers:       replace,
			Attributes: map[string]schema.Attribute{
				"storage_account": schema.StringAttribute{
					Required:            true,
					MarkdownDescription: "The Azure storage account, 1 to 63 characters.",
					Validators:          bucketNameValidators(),
				},
				"bucket_name": schema.StringAttribute{
					Required:            true,
					MarkdownDescription: "Name of the blob container, 1 to 63 characters.",
					Validators:          bucketNameValidators(),
				},
			},
		},
		// A new credential makes the service check the bucket again; nothing else moves its state.
		"state": schema.StringAttribute{
			Computed: true,
			MarkdownDescription: "State of the bucket: `pending` (being checked), `available`, `failed` (permanently), " +
				"`removed` (not reachable now) or `unknown`.",
			PlanModifiers: []planmodifier.String{attrs.KeepUnlessChanged("credential_id")},
		},
		"state_details": func() schema.ListAttribute {
			a := attrs.StateDetailsSchema("Why the bucket is `failed` or `removed`; empty otherwise.")
			a.PlanModifiers = []planmodifier.List{attrs.KeepUnlessChanged("credential_id")}
			return a
		}(),
		"retention_time": schema.Int64Attribute{
			Computed: true,
			MarkdownDescription: "How long, in seconds, the object store keeps what is written (object lock): `-1` when the " +
				"bucket does not support it, `0` when no retention policy is known.",
			PlanModifiers: []planmodifier.Int64{attrs.KeepUnlessChanged("credential_id")},
		},
		"metadata": attrs.MetadataSchema(bucketPutArgs...),
	}
}

// bucketResourceAttributes add what only the resource has: its waits.
func bucketResourceAttributes(ctx context.Context) map[string]schema.Attribute {
	out := bucketAttributes()
	out["timeouts"] = attrs.TimeoutsSchema(ctx, bucketTimeouts)
	out["wait_for_available"] = schema.BoolAttribute{
		Optional: true,
		Computed: true,
		Default:  booldefault.StaticBool(true),
		MarkdownDescription: "Whether create, and an update of `credential_id`, wait (within `timeouts`) until the bucket " +
			"is `available`. Defaults to `true`. With `false` they return once Astra Control accepted the request; a " +
			"later refresh shows the outcome. Changing it sends nothing to Astra Control.",
	}
	return out
}
