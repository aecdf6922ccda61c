package provider

import (
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

// cloudValues are a cloud's attributes, shared by astra_cloud (resource and data source)
// and the items of astra_clouds.
type cloudValues struct {
	ID              types.String `tfsdk:"id"`
	Name            types.String `tfsdk:"name"`
	CloudType       types.String `tfsdk:"cloud_type"`
	CredentialID    types.String `tfsdk:"credential_id"`
	DefaultBucketID types.String `tfsdk:"default_bucket_id"`
	State           types.String `tfsdk:"state"`
	StateUnready    types.List   `tfsdk:"state_unready"`
	Metadata        types.Object `tfsdk:"metadata"`
}

// cloudModel is the astra_cloud resource.
type cloudModel struct {
	cloudValues
	Timeouts timeouts.Value `tfsdk:"timeouts"`
}

// cloudAPIFields maps the API's field names in invalidFields to attributes.
var cloudAPIFields = map[string]string{
	"name": "name", "cloudType": "cloud_type", "credentialID": "credential_id", "defaultBucketID": "default_bucket_id",
}

// cloudFrom converts the service's answer. cloud_type keeps the casing prior (the
// configuration, plan or state) already has when the service answers another ("GCP" for
// "gcp"); with nothing to keep (import, data sources) it is the schema's lowercase spelling.
func cloudFrom(c *astra.Cloud, prior cloudValues) cloudValues {
	return cloudValues{
		ID:              types.StringValue(c.ID),
		Name:            types.StringValue(c.Name),
		CloudType:       cloudTypeValue(c.CloudType, prior.CloudType),
		CredentialID:    attrs.OptionalString(c.CredentialID),
		DefaultBucketID: attrs.OptionalString(c.DefaultBucketID),
		State:           attrs.OptionalString(c.State),
		StateUnready:    attrs.StringList(c.StateUnready),
		Metadata:        attrs.MetadataValue(c.Metadata),
	}
}

// cloudTypeValue is the cloud_type to store for the service's answer.
func cloudTypeValue(answer string, prior types.String) types.String {
	if !prior.IsNull() && !prior.IsUnknown() && strings.EqualFold(prior.ValueString(), answer) {
		return prior
	}
	return types.StringValue(astra.NormalizeCloudType(answer))
}

// isPublicCloudType reports whether a cloud type (any casing) is a public provider, whose
// clouds need a credential.
func isPublicCloudType(t string) bool {
	return t != "" && !strings.EqualFold(t, astra.CloudTypePrivate)
}

// cloudCreateRequest is the POST body for a planned cloud.
func cloudCreateRequest(m cloudValues) astra.CloudCreate {
	return astra.CloudCreate{
		Name:            m.Name.ValueString(),
		CloudType:       m.CloudType.ValueString(),
		CredentialID:    attrs.StringOrEmpty(m.CredentialID),
		DefaultBucketID: attrs.StringOrEmpty(m.DefaultBucketID),
	}
}

// applyCloudPlan sets the in-place arguments of the plan on the cloud read from the
// service, so the PUT carries everything else unchanged. Unknown values (unset optional
// arguments) leave the service's value alone.
func applyCloudPlan(c *astra.Cloud, plan cloudValues) {
	if s := attrs.StringOrEmpty(plan.CredentialID); s != "" {
		c.CredentialID = s
	}
	if s := attrs.StringOrEmpty(plan.DefaultBucketID); s != "" {
		c.DefaultBucketID = s
	}
}

// cloudRunning is the wait condition after creating or updating a cloud: running, or a
// terminal failure with the service's reasons.
func cloudRunning(c *astra.Cloud) (bool, error) {
	switch strings.ToLower(c.State) {
	case "running":
		return true, nil
	case "failed":
		return false, &astra.TerminalStateError{What: "cloud " + c.ID, State: c.State, Reasons: c.StateUnready}
	}
	return false, nil
}
