package provider

import (
	"context"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

// cloudTypes are the values of cloud_type, as the published schema spells them.
var cloudTypes = []string{astra.CloudTypePrivate, astra.CloudTypeGCP, astra.CloudTypeAzure, astra.CloudTypeAWS}

// cloudTimeouts are the waits of astra_cloud: until a new or updated cloud is running.
var cloudTimeouts = attrs.TimeoutDefaults{Create: 10 * time.Minute, Update: 10 * time.Minute}

// cloudPutArgs are the arguments whose change makes an update PUT the cloud (the casing of
// cloud_type and timeouts send nothing).
var cloudPutArgs = []string{"credential_id", "default_bucket_id"}

// cloudAttributes are astra_cloud's attributes; its data sources derive theirs from them
// (cloudItemAttributes).
func cloudAttributes(ctx context.Context) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "Astra ID of the cloud.",
			PlanModifiers:       []planmodifier.String{attrs.KeepUnlessChanged()},
		},
		"name": schema.StringAttribute{
			Required:            true,
			MarkdownDescription: "Name of the cloud, 1 to 63 printable ASCII characters. Changing this forces a new resource.",
			Validators:          []validator.String{validate.ResourceName(63)},
			PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		"cloud_type": schema.StringAttribute{
			Required: true,
			MarkdownDescription: "Type of the cloud: `private`, `gcp`, `azure` or `aws`, matched case-insensitively (the " +
				"service answers `GCP`, `Azure`, `AWS`); the casing written here is kept, so it never shows as a change. " +
				"Changing the type forces a new resource; changing only its casing does not.",
			Validators:    []validator.String{stringvalidator.OneOfCaseInsensitive(cloudTypes...)},
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplaceIf(cloudTypeChanged, "A different cloud type forces a new resource; a change of case does not.", "A different cloud type forces a new resource; a change of case does not.")},
		},
		"credential_id": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "ID of the service-account credential Astra Control uses to discover the cloud's clusters. " +
				"Required for `gcp`, `azure` and `aws`. Updated in place (the service then rediscovers the cloud); " +
				"removing the argument leaves the service's value unchanged. Never forces a new resource.",
			Validators:    []validator.String{validate.UUID()},
			PlanModifiers: []planmodifier.String{attrs.KeepUnlessChanged()},
		},
		"default_bucket_id": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "ID of the bucket backups of this cloud's clusters go to by default. Updated in place; " +
				"removing the argument leaves the service's value unchanged. Never forces a new resource.",
			Validators:    []validator.String{validate.UUID()},
			PlanModifiers: []planmodifier.String{attrs.KeepUnlessChanged()},
		},
		// A new credential makes the service discover the cloud again; nothing else moves its state.
		"state": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "State of the cloud: `pending`, `discovering`, `running`, `failed`, `removed` or `unknown`.",
			PlanModifiers:       []planmodifier.String{attrs.KeepUnlessChanged("credential_id")},
		},
		"state_unready": schema.ListAttribute{
			Computed:            true,
			ElementType:         types.StringType,
			MarkdownDescription: "The service's reasons why the cloud is not `running`.",
			PlanModifiers:       []planmodifier.List{attrs.KeepUnlessChanged("credential_id")},
		},
		"metadata": attrs.MetadataSchema(cloudPutArgs...),
		"timeouts": attrs.TimeoutsSchema(ctx, cloudTimeouts),
	}
}

// cloudTypeChanged replaces the cloud only when the type itself changes, not its casing.
func cloudTypeChanged(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = !strings.EqualFold(req.StateValue.ValueString(), req.PlanValue.ValueString())
}
