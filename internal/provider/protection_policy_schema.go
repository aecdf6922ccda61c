package provider

import (
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

const protectionPolicySchemaVersion = 0

// protectionPolicyPutArgs: every argument but app_id and granularity is updated in place,
// with one PUT.
var protectionPolicyPutArgs = []string{"name", "minute", "hour", "day_of_week", "day_of_month",
	"snapshot_retention", "backup_retention", "bucket_id", "enabled", "interval_minutes", "replicate"}

func optionalNumber(desc string, lowest, highest int64) schema.Int64Attribute {
	return schema.Int64Attribute{
		Optional:            true,
		MarkdownDescription: desc + updatedInPlace,
		Validators:          []validator.Int64{int64validator.Between(lowest, highest)},
	}
}

func retention(desc string) schema.Int64Attribute {
	return schema.Int64Attribute{
		Required:            true,
		MarkdownDescription: desc + updatedInPlace,
		Validators:          []validator.Int64{int64validator.AtLeast(0)},
	}
}

// protectionPolicyAttributes are astra_protection_policy's attributes.
func protectionPolicyAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": attrs.Kept(computedString("ID of the protection policy (the app's schedule) in Astra Control.")),
		"app_id": schema.StringAttribute{
			Required:            true,
			MarkdownDescription: "ID of the app the policy protects (an `astra_app`'s `id`)." + forcesReplacement,
			Validators:          []validator.String{validate.UUID()},
			PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		"name": schema.StringAttribute{
			Required:            true,
			MarkdownDescription: "Name of the policy, 1 to 63 characters." + updatedInPlace,
			Validators:          []validator.String{validate.ResourceName(63)},
		},
		"granularity": schema.StringAttribute{
			Required: true,
			MarkdownDescription: "How often the policy runs: `hourly` (at `minute`), `daily` (at `hour`:`minute`), " +
				"`weekly` (on `day_of_week` at `hour`:`minute`), `monthly` (on `day_of_month` at `hour`:`minute`) or `custom` " +
				"(every `interval_minutes`, the replication schedule of an `astra_app_mirror`). Times " +
				"are UTC. Changing it replaces the policy (the schedule is deleted, then a new one made): no source shows " +
				"Astra Control changing a schedule's granularity in place (NetApp's toolkit always sends the existing one), " +
				"so the provider does not ask it to." + forcesReplacement,
			Validators:    []validator.String{stringvalidator.OneOf("hourly", "daily", "weekly", "monthly", "custom")},
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		"minute": schema.Int64Attribute{
			Optional:            true,
			Computed:            true,
			Default:             int64default.StaticInt64(0),
			MarkdownDescription: "Minute of the hour the policy runs at, 0 to 59. Defaults to 0." + updatedInPlace,
			Validators:          []validator.Int64{int64validator.Between(0, 59)},
		},
		"hour":               optionalNumber("Hour of the day (UTC) the policy runs at, 0 to 23: required by `daily`, `weekly` and `monthly` policies, refused on an `hourly` one.", 0, 23),
		"day_of_week":        optionalNumber("Day of the week a `weekly` policy runs on, 0 to 7 (0 and 7 are Sunday): required by `weekly`, refused by every other granularity.", 0, 7),
		"day_of_month":       optionalNumber("Day of the month a `monthly` policy runs on, 1 to 31: required by `monthly`, refused by every other granularity.", 1, 31),
		"snapshot_retention": retention("How many snapshots the policy keeps, 0 or more."),
		"backup_retention":   retention("How many backups the policy keeps, 0 or more; 0 takes no backups."),
		"bucket_id": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "ID of the bucket the backups go to (an `astra_bucket`'s `id`). When unset, Astra Control " +
				"chooses one (the cluster's or the cloud's default bucket)." + updatedInPlace + keepsServiceValue,
			Validators:    []validator.String{validate.UUID()},
			PlanModifiers: []planmodifier.String{attrs.KeepUnlessChanged()},
		},
		"enabled": schema.BoolAttribute{
			Optional: true,
			Computed: true,
			Default:  booldefault.StaticBool(true),
			MarkdownDescription: "Whether the policy runs. Defaults to `true`; a disabled policy does not count toward " +
				"the app's `protection_state`." + updatedInPlace,
		},
		"interval_minutes": schema.Int64Attribute{
			Optional: true,
			MarkdownDescription: "Minutes between two runs of a `custom` policy (required by `custom`, refused by every " +
				"other granularity), sent as the rule `FREQ=MINUTELY;INTERVAL=<n>`; NetApp's toolkit offers 5 to 1440. " +
				"The first run is at `minute` past midnight UTC." + updatedInPlace,
			Validators: []validator.Int64{int64validator.Between(1, 1440)},
		},
		"replicate": schema.BoolAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "Whether each snapshot the policy takes is replicated to the app's `astra_app_mirror` " +
				"destination (`replicate: \"true\"`). Default `false`; `true` only on an app that has a mirror (checked " +
				"at plan time when the app is known). Usually a `custom` policy every few minutes, with " +
				"`snapshot_retention` of 0 or more and `backup_retention = 0`." + updatedInPlace + keepsServiceValue,
			PlanModifiers: []planmodifier.Bool{attrs.KeepUnlessChanged()},
		},
		"metadata": attrs.MetadataSchema(protectionPolicyPutArgs...),
	}
}
