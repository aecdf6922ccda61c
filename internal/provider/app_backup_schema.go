package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

const appBackupSchemaVersion = 0

// appBackupAttributes are astra_app_backup's attributes; astra_app_backups derives its
// items from them.
func appBackupAttributes() map[string]schema.Attribute {
	out := appRunAttributes("backup")
	out["bucket_id"] = replacedComputedString("ID of the bucket the backup is written to (an `astra_bucket`'s `id`). "+
		"When unset, Astra Control chooses one (the cluster's or the cloud's default bucket).", validate.UUID())
	out["snapshot_id"] = schema.StringAttribute{
		Optional: true,
		Computed: true,
		MarkdownDescription: "ID of a completed snapshot of the same app (an `astra_app_snapshot`'s `id`) to take the " +
			"backup from. When unset, the backup takes a snapshot of its own (and runs the app's snapshot execution " +
			"hooks as well as its backup hooks)." + forcesReplacement + keepsServiceValue,
		Validators:    []validator.String{validate.UUID()},
		PlanModifiers: []planmodifier.String{attrs.KeepUnlessChanged(), stringplanmodifier.RequiresReplace()},
	}
	out["creation_timestamp"] = attrs.Kept(computedString("When the backup was started (ISO 8601, UTC): the service's " +
		"`backupCreationTimestamp`."))
	out["total_bytes"] = attrs.Kept(schema.Int64Attribute{Computed: true,
		MarkdownDescription: "Size of the backup in bytes, as the service reports it."})
	out["percent_done"] = attrs.Kept(schema.Int64Attribute{Computed: true,
		MarkdownDescription: "How much of the backup is written, 0 to 100 (100 once `completed`); null for a failed backup."})
	return out
}
