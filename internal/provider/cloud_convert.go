package provider

import (
	"sort"
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

// cloudTypes are the values of cloud_type, as the published schema spells them.
var cloudTypes = []string{astra.CloudTypePrivate, astra.CloudTypeGCP, astra.CloudTypeAzure, astra.CloudTypeAWS}

// readFrom copies the service's answer. cloud_type keeps the casing the configuration (or
// state) already has when the service answers another ("GCP" for "gcp"); with nothing to
// keep (import, data sources) it is the schema's lowercase spelling.
func (m *cloudValues) readFrom(c *astra.Cloud) {
	m.ID = types.StringValue(c.ID)
	m.Name = types.StringValue(c.Name)
	m.CloudType = cloudTypeValue(c.CloudType, m.CloudType)
	m.CredentialID = attrs.OptionalString(c.CredentialID)
	m.DefaultBucketID = attrs.OptionalString(c.DefaultBucketID)
	m.State = attrs.OptionalString(c.State)
	m.StateUnready = attrs.StringList(c.StateUnready)
	m.Metadata = attrs.MetadataValue(c.Metadata)
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

// applyCloudUpdate sets the in-place arguments of the plan on the cloud read from the
// service, so the PUT carries everything else unchanged. Unknown values (unset optional
// arguments) leave the service's value alone.
func applyCloudUpdate(c *astra.Cloud, plan cloudValues) {
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

// cloudNames lists "name (id)" of clouds, sorted, for errors that say what exists.
func cloudNames(clouds []astra.Cloud) string {
	names := make([]string, 0, len(clouds))
	for _, c := range clouds {
		names = append(names, c.Name+" ("+c.ID+")")
	}
	if len(names) == 0 {
		return "none"
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
