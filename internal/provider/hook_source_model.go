package provider

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

// hookSourceModel is the astra_hook_source resource.
type hookSourceModel struct {
	ID           types.String `tfsdk:"id"`
	Name         types.String `tfsdk:"name"`
	Description  types.String `tfsdk:"description"`
	Source       types.String `tfsdk:"source"`
	SourceBase64 types.String `tfsdk:"source_base64"`
	SourceSHA256 types.String `tfsdk:"source_sha256"`
	SourceMD5    types.String `tfsdk:"source_md5"`
	Metadata     types.Object `tfsdk:"metadata"`
}

// hookSourceAPIFields maps the API's field names in invalidFields to attributes.
var hookSourceAPIFields = map[string]string{"name": "name", "description": "description", "source": "source"}

// configuredScript is the script source or source_base64 holds (the one set).
func configuredScript(plain, encoded types.String) (string, error) {
	if isSet(encoded) {
		script, err := validate.DecodeHookSourceBase64(encoded.ValueString())
		return string(script), err
	}
	return plain.ValueString(), nil
}

func scriptSHA256(script string) string {
	sum := sha256.Sum256([]byte(script))
	return hex.EncodeToString(sum[:])
}

// hookSourceFrom converts the service's hook source for state. The script goes where the
// prior state keeps it: source_base64 when that is the one set, else source (an import
// too, the common spelling; source is also computed, so a configuration that leaves both
// out, as one generated at import must, keeps it). A private source (the service shows no
// script) keeps the prior script and hash; its MD5 still tells a change.
func hookSourceFrom(h *astra.HookSource, prior hookSourceModel) hookSourceModel {
	m := hookSourceModel{
		ID: types.StringValue(h.ID), Name: types.StringValue(h.Name), Description: attrs.OptionalString(h.Description),
		Source: types.StringNull(), SourceBase64: types.StringNull(), SourceSHA256: prior.SourceSHA256,
		SourceMD5: attrs.OptionalString(h.SourceMD5Checksum), Metadata: attrs.MetadataValue(h.Metadata),
	}
	script, err := h.Script()
	if h.Source == "" || err != nil {
		m.Source, m.SourceBase64 = prior.Source, prior.SourceBase64
		if m.SourceSHA256.IsUnknown() {
			m.SourceSHA256 = types.StringNull()
		}
		return m
	}
	if isSet(prior.SourceBase64) {
		m.SourceBase64 = types.StringValue(astra.EncodeScript(script))
	} else {
		m.Source = types.StringValue(script)
	}
	m.SourceSHA256 = types.StringValue(scriptSHA256(script))
	return m
}

// applyHookSourcePlan sets, on the hook source as just read, what the plan changes
// (planForFreshCopy: an unknown value keeps the read one). The script is sent encoded.
func applyHookSourcePlan(current *astra.HookSource, plan hookSourceModel) {
	if !plan.Name.IsUnknown() {
		current.Name = plan.Name.ValueString()
	}
	if !plan.Description.IsUnknown() {
		current.Description = attrs.StringOrEmpty(plan.Description)
	}
	// Either argument changing means the script may: both known here, one of them set.
	if !plan.Source.IsUnknown() || !plan.SourceBase64.IsUnknown() {
		plain, encoded := plan.Source, plan.SourceBase64
		if plain.IsUnknown() {
			plain = types.StringNull()
		}
		if encoded.IsUnknown() {
			encoded = types.StringNull()
		}
		if script, err := configuredScript(plain, encoded); err == nil && (isSet(plain) || isSet(encoded)) {
			current.Source = astra.EncodeScript(script)
		}
	}
}
