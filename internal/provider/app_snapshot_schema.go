package provider

import (
	"time"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

const appSnapshotSchemaVersion = 0

// The waits of astra_app_snapshot and astra_app_backup: create waits until the run
// completes (after any other run of the app it has to wait for), and an update resumes that
// wait for a run a create left in progress; delete waits until the object is gone (after a
// run still in progress ends). Create's defaults are the actions' (astra_app_snapshot's
// 30m, astra_app_backup's 2h: a backup copies every volume to the object store, hours for
// a large app), so a resource gives a run as long as an action does.
var (
	appSnapshotTimeouts = attrs.TimeoutDefaults{Create: appSnapshotTimeout, Delete: 10 * time.Minute}
	appBackupTimeouts   = attrs.TimeoutDefaults{Create: appBackupTimeout, Delete: 10 * time.Minute}
)

// replacedString is a required or optional argument that only a new object can change:
// a snapshot or backup is never changed in place.
func replacedString(desc string, required bool, validators ...validator.String) schema.StringAttribute {
	return schema.StringAttribute{
		Required:            required,
		Optional:            !required,
		MarkdownDescription: desc + forcesReplacement,
		Validators:          validators,
		PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
	}
}

// replacedComputedString is an optional argument the service fills in when it is left out
// (the bucket it chose): kept from state then, so it never plans a change, and replacing
// the object when the configuration sets another value.
func replacedComputedString(desc string, validators ...validator.String) schema.StringAttribute {
	return schema.StringAttribute{
		Optional:            true,
		Computed:            true,
		MarkdownDescription: desc + forcesReplacement + keepsServiceValue,
		Validators:          validators,
		PlanModifiers:       []planmodifier.String{attrs.KeepUnlessChanged(), stringplanmodifier.RequiresReplace()},
	}
}

// appRunAttributes are the attributes astra_app_snapshot and astra_app_backup share; what
// names the object kind ("snapshot", "backup").
func appRunAttributes(what string) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": attrs.Kept(computedString("ID of the " + what + " in Astra Control.")),
		"app_id": replacedString("ID of the app the "+what+" is taken of (an `astra_app`'s `id`).", true,
			validate.UUID()),
		"name": replacedString("Name of the "+what+", 1 to 63 characters, unique among the app's "+what+"s: it is how "+
			"the provider finds the "+what+" again when the answer to its create request is lost.", true,
			validate.ResourceName(63)),
		"state": attrs.Kept(computedString("State of the " + what + ": `completed` once create waited for it; `failed` " +
			"(with `state_details`) for one that failed, which is replaced. `pending`, `running` or `discovering` while " +
			"it is being taken, after a create wait that ended early (`timeouts.create`, an interrupt): kept, not " +
			"tainted, and waited for by the next apply.")),
		"state_unready": attrs.Kept(computedStrings("The service's reasons why the " + what + " is not `completed` " +
			"(a failed " + what + "'s reasons, which older releases give only here).")),
		"state_details": attrs.Kept(attrs.StateDetailsSchema("Why the " + what + " is in its state (a failed " +
			what + "'s reasons, with a type and title, from Astra Control 24.02).")),
		"hook_state": attrs.Kept(computedString("Outcome of the execution hooks that ran for the " + what + ": " +
			"`success` (every matching hook succeeded, or none matched) or `failed`; null until the service reports it.")),
		"hook_state_details": attrs.Kept(attrs.StateDetailsSchema("Why the execution hooks that ran for the " +
			what + " failed, when they did.")),
		"schedule_id": attrs.Kept(computedString("ID of the protection policy (schedule) that took the " + what +
			"; null for one taken on demand, as every " + what + " this resource creates is.")),
		"metadata": attrs.MetadataSchema(),
	}
}

// appSnapshotAttributes are astra_app_snapshot's attributes; astra_app_snapshots derives
// its items from them.
func appSnapshotAttributes() map[string]schema.Attribute {
	out := appRunAttributes("snapshot")
	out["bucket_id"] = replacedComputedString("ID of the bucket the snapshot's metadata goes to (an `astra_bucket`'s "+
		"`id`): needs Astra Control 24.02 (`api_version` 1.7) and a cluster that supports it; when unset, Astra Control "+
		"decides.", validate.UUID())
	return out
}
