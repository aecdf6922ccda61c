package provider

import (
	"context"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

// relayCapable reports whether the capabilities name a connector that relays the API
// (relayV1 up to cluster API 1.6, connectorV2 from 1.7), in any version: the version
// checks say which of the two the configured version accepts.
func relayCapable(capabilities types.Set) bool {
	caps := attrs.Strings(capabilities)
	return slices.Contains(caps, capabilityRelayV1) || slices.Contains(caps, capabilityConnectorV2)
}

const missingCredential = "Missing credential_id"

// clusterConfigProblems is the part of the credential rule a configuration alone decides:
// with a private route, the capabilities (maybe left to the cluster's value) decide whether
// a credential is needed, which the plan checks.
func clusterConfigProblems(cfg clusterValues) []attrProblem {
	problems := clusterCredentialProblems(cfg)
	if isSet(cfg.PrivateRouteID) {
		problems = withoutProblem(problems, "credential_id", missingCredential)
	}
	return problems
}

// clusterCredentialProblems applies the API's rule for credentialID: required unless
// privateRouteID and a relay-capable connector are both given, and refused together with
// a relay-capable connector (problem 165 at apply time otherwise).
func clusterCredentialProblems(cfg clusterValues) []attrProblem {
	if !known(cfg.CredentialID) || !known(cfg.PrivateRouteID) || !known(cfg.ConnectorCapabilities) {
		return nil
	}
	relay := relayCapable(cfg.ConnectorCapabilities)
	switch {
	case isSet(cfg.CredentialID) && relay:
		return []attrProblem{{"credential_id", "credential_id conflicts with a relay-capable connector",
			"A cluster registered through a relay-capable connector (connector_capabilities holding relayV1 or connectorV2) " +
				"has no credential, and Astra Control refuses both together. Remove credential_id, or remove relayV1/connectorV2 " +
				"from connector_capabilities."}}
	case !isSet(cfg.CredentialID) && !(isSet(cfg.PrivateRouteID) && relay):
		return []attrProblem{{"credential_id", missingCredential,
			"credential_id is required unless private_route_id and a relay-capable connector capability (relayV1 up to " +
				"api_version 1.6, connectorV2 from 1.7) are both set. Set credential_id to the ID of a kubeconfig credential " +
				"(for example astra_kubeconfig_credential.<name>.id), or register the cluster through an Astra Connector."}}
	}
	return nil
}

// clusterVersionProblems refuses arguments the provider's api_version (the cluster
// resource version it sends) does not have, naming the version that has them.
func clusterVersionProblems(version string, cfg clusterValues) []attrProblem {
	var out []attrProblem
	need := func(attr, what, minVersion string) {
		if !versionAtLeast(version, minVersion) {
			out = append(out, attrProblem{attr, "Argument needs api_version " + minVersion,
				fmt.Sprintf("%s needs cluster API version %s or later, and the provider's api_version is %s. "+
					"Raise api_version (or ASTRA_API_VERSION) to %s or later, or remove %s. %s", what, minVersion, version,
					minVersion, what, reachVersion(minVersion))})
		}
	}
	if isSet(cfg.PrivateRouteID) {
		need("private_route_id", "private_route_id", "1.4")
	}
	if isSet(cfg.ClusterType) {
		need("cluster_type", "cluster_type", "1.7")
	}
	if isSet(cfg.ConnectorCapabilities) {
		need("connector_capabilities", "connector_capabilities", "1.5")
		caps := attrs.Strings(cfg.ConnectorCapabilities)
		if slices.Contains(caps, capabilityConnectorV2) && versionAtLeast(version, "1.5") {
			need("connector_capabilities", "The capability connectorV2", "1.7")
		}
		if slices.Contains(caps, capabilityRelayV1) && versionAtLeast(version, "1.7") {
			out = append(out, attrProblem{"connector_capabilities", "relayV1 was replaced by connectorV2",
				"The capability relayV1 exists in cluster API versions 1.5 and 1.6; from 1.7, the provider's api_version (" +
					version + "), it is called connectorV2. Use connectorV2, or set api_version to 1.6."})
		}
	}
	if !versionAtLeast(version, "1.5") && cfg.CredentialID.IsNull() {
		out = append(out, attrProblem{"credential_id", "Missing credential_id",
			"Cluster API version " + version + " (the provider's api_version) always requires credential_id; registering a " +
				"cluster without a credential needs version 1.5 or later. Set credential_id, or raise api_version (or ASTRA_API_VERSION) to 1.5 or later."})
	}
	return out
}

// effectiveClusterArgs is what the cluster will have for the arguments the credential rule
// reads: the configured value, or else the current one (null on create).
func effectiveClusterArgs(cfg, prior clusterValues) clusterValues {
	out := cfg
	if cfg.CredentialID.IsNull() {
		out.CredentialID = prior.CredentialID
	}
	if cfg.PrivateRouteID.IsNull() {
		out.PrivateRouteID = prior.PrivateRouteID
	}
	if cfg.ConnectorCapabilities.IsNull() {
		out.ConnectorCapabilities = prior.ConnectorCapabilities
	}
	return out
}

// withoutUnchangedArgs clears the version-gated arguments whose configured value is the one
// the cluster already has: that is not new input for api_version to refuse. Configuration
// generated on import (`plan -generate-config-out`) writes every argument as read, such as
// cluster_type, which Astra Control reports whatever the api_version.
func withoutUnchangedArgs(cfg, prior clusterValues) clusterValues {
	out := cfg
	if cfg.ClusterType.Equal(prior.ClusterType) {
		out.ClusterType = types.StringNull()
	}
	if cfg.PrivateRouteID.Equal(prior.PrivateRouteID) {
		out.PrivateRouteID = types.StringNull()
	}
	if cfg.ConnectorCapabilities.Equal(prior.ConnectorCapabilities) {
		out.ConnectorCapabilities = types.SetNull(types.StringType)
	}
	return out
}

// clusterPlanProblems is what ModifyPlan reports: the credential rule on the arguments the
// cluster will have, and, with a client, the arguments its api_version does not have.
func clusterPlanProblems(cfg, prior clusterValues, client *astra.Client) []attrProblem {
	effective := effectiveClusterArgs(cfg, prior)
	problems := clusterCredentialProblems(effective)
	if client == nil {
		return problems
	}
	// Versions gate what the configuration sends; a credential kept from the cluster counts.
	gated := withoutUnchangedArgs(cfg, prior)
	gated.CredentialID = effective.CredentialID
	return append(problems, clusterVersionProblems(client.ClusterVersion(), gated)...)
}

// clusterValuesFromTerraform is clusterValuesFromRaw of a whole object.
func clusterValuesFromTerraform(object tftypes.Value) (clusterValues, bool) {
	var attributes map[string]tftypes.Value
	if object.As(&attributes) != nil {
		return clusterValues{}, false
	}
	return clusterValuesFromRaw(attributes)
}

// clusterValuesFromRaw reads the arguments clusterPlanProblems looks at (credential, route,
// capabilities, cluster type) from a state as the protocol carries it, without the
// framework's reflection; the other fields stay null.
func clusterValuesFromRaw(attributes map[string]tftypes.Value) (clusterValues, bool) {
	ctx := context.Background()
	var out clusterValues
	for name, dst := range map[string]*types.String{"cloud_id": &out.CloudID, "credential_id": &out.CredentialID,
		"private_route_id": &out.PrivateRouteID, "cluster_type": &out.ClusterType} {
		v, err := types.StringType.ValueFromTerraform(ctx, attributes[name])
		s, ok := v.(types.String)
		if err != nil || !ok {
			return clusterValues{}, false
		}
		*dst = s
	}
	v, err := types.SetType{ElemType: types.StringType}.ValueFromTerraform(ctx, attributes["connector_capabilities"])
	set, ok := v.(types.Set)
	if err != nil || !ok {
		return clusterValues{}, false
	}
	out.ConnectorCapabilities = set
	return out, true
}

// clusterReferenceProblems checks astra_cluster's cloud_id and credential_id.
func clusterReferenceProblems(ctx context.Context, client *astra.Client, seen *seenObjects, cfg, prior clusterValues) []attrProblem {
	if client == nil {
		return nil
	}
	return referenceProblems(ctx, seen, clusterReferences(client),
		map[string]types.String{"cloud_id": cfg.CloudID, "credential_id": cfg.CredentialID},
		map[string]types.String{"cloud_id": prior.CloudID, "credential_id": prior.CredentialID})
}

// clusterReferences are astra_cluster's references: its cloud and its credential.
func clusterReferences(client *astra.Client) []reference {
	return []reference{
		{attribute: "cloud_id", what: "cloud", listedBy: "the astra_clouds data source and `GET /topology/v1/clouds`",
			get: func(ctx context.Context, id string) error { _, err := client.GetCloud(ctx, id); return err }},
		{attribute: "credential_id", what: "credential", listedBy: "astra_kubeconfig_credential resources and `GET /core/v1/credentials`",
			get: func(ctx context.Context, id string) error { _, err := client.GetCredential(ctx, id); return err }},
	}
}
