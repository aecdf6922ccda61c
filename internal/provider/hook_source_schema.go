package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

const hookSourceSchemaVersion = 0

// hookSourcePutArgs: every argument is updated in place, with one PUT.
var hookSourcePutArgs = []string{"name", "description", "source", "source_base64"}

// hookSourceAttributes are astra_hook_source's attributes.
func hookSourceAttributes() map[string]schema.Attribute {
	// At most one here; a new hook source needs one (CheckPlan), an imported one may leave
	// both out.
	oneScript := stringvalidator.ConflictsWith(path.MatchRoot("source"), path.MatchRoot("source_base64"))
	return map[string]schema.Attribute{
		"id": attrs.Kept(computedString("ID of the hook source in Astra Control.")),
		"name": schema.StringAttribute{
			Required:            true,
			MarkdownDescription: "Name of the hook source (a \"script\" in the web UI), 1 to 63 characters, unique in the account." + updatedInPlace,
			Validators:          []validator.String{stringvalidator.LengthBetween(1, 63)},
		},
		"description": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "What the script does, 1 to 511 characters." + updatedInPlace,
			Validators:          []validator.String{stringvalidator.LengthBetween(1, 511)},
		},
		"source": schema.StringAttribute{
			Optional:  true,
			Computed:  true, // an imported hook source's script, which a generated configuration cannot carry
			Sensitive: true,
			MarkdownDescription: "The script as plain text, usually `file(\"${path.module}/quiesce.sh\")`; the provider " +
				"base64-encodes it. One of `source` and `source_base64` (a new hook source needs one; an imported one may " +
				"leave both out, as the configuration `-generate-config-out` writes does, and keeps the script Astra Control " +
				"holds, read into `source`). Sensitive, so that a plan shows a change of " +
				"the script as a change of `source_sha256` rather than the whole script (scripts are long, and some carry " +
				"credentials). Checked at plan time: at most 128 KiB once base64-encoded (98,304 bytes of script), text only " +
				"(no NUL bytes, valid UTF-8) and no carriage returns." + updatedInPlace,
			Validators: []validator.String{oneScript, validate.HookScript()},
		},
		"source_base64": schema.StringAttribute{
			Optional:  true,
			Sensitive: true,
			MarkdownDescription: "The script, base64-encoded (standard alphabet, padded, one line: what `filebase64()` " +
				"gives). At most one of `source` and `source_base64`; the same checks apply to the decoded script." + updatedInPlace,
			Validators: []validator.String{oneScript, validate.HookScriptBase64()},
		},
		"source_sha256": schema.StringAttribute{
			Computed: true,
			MarkdownDescription: "SHA-256 of the script (hex), computed at plan time from `source` or `source_base64` on " +
				"an update: a changed script shows here as a hash change. Read from the script Astra Control holds, so a " +
				"script changed outside Terraform shows as drift.",
			PlanModifiers: []planmodifier.String{scriptHash{}},
		},
		"source_md5": attrs.Kept(computedString("The service's `sourceMD5Checksum`: the hex MD5 of the base64 text it holds."),
			"source", "source_base64"),
		"metadata": attrs.MetadataSchema(hookSourcePutArgs...),
	}
}

// scriptHash plans source_sha256 on an update: the hash of the configured script. On a
// create it stays "(known after apply)", so that it acts only with a prior state and an
// unknown planned value, as the known answers require of a provider's own modifier
// (knownanswers.IdleModifier): creates and unchanged sources are planned without it.
type scriptHash struct{}

var _ planmodifier.String = scriptHash{}

func (scriptHash) IdleUnlessUnknown() {}

func (s scriptHash) Description(ctx context.Context) string { return s.MarkdownDescription(ctx) }

func (scriptHash) MarkdownDescription(context.Context) string {
	return "Plans the SHA-256 of the configured script on an update."
}

func (scriptHash) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.State.Raw.IsNull() || !req.PlanValue.IsUnknown() {
		return
	}
	var plain, encoded types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("source"), &plain)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("source_base64"), &encoded)...)
	if resp.Diagnostics.HasError() || plain.IsUnknown() || encoded.IsUnknown() {
		return
	}
	script, err := configuredScript(plain, encoded)
	if err != nil || (plain.IsNull() && encoded.IsNull()) {
		return // the validators report a bad script; with neither, the script is Astra Control's
	}
	resp.PlanValue = types.StringValue(scriptSHA256(script))
}
