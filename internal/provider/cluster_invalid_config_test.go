package provider

import (
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// TestAccCluster_validation: each plan-time rule of astra_cluster stops `plan` with its own
// diagnostic, before any request.
func TestAccCluster_validation(t *testing.T) {
	a := newAccTarget(t)
	cred := testCredentialID
	cases := []struct {
		name       string
		apiVersion string
		body       []string
		want       *regexp.Regexp
	}{
		{"cloud_id UUID", "", []string{arg("credential_id", cred)}, nil},
		{"credential_id UUID", "", []string{arg("credential_id", "123")}, errorPhrases("Invalid UUID", `"123" is not a UUID`)},
		{"name markup", "", []string{arg("name", "<b>x</b>"), arg("credential_id", cred)}, errorPhrases("Invalid name", "the name holds markup (<)")},
		{"name length", "", []string{arg("name", strings.Repeat("n", 64)), arg("credential_id", cred)}, errorPhrases("the name must be 1 to 63 characters long; it has 64")},
		{"name non-ASCII", "", []string{arg("name", "café"), arg("credential_id", cred)}, errorPhrases("the name must be printable ASCII")},
		{"name traversal", "", []string{arg("name", "a/../b"), arg("credential_id", cred)}, errorPhrases("a path traversal (../)")},
		{"name SQL", "", []string{arg("name", "x' OR 1=1"), arg("credential_id", cred)}, errorPhrases("an SQL metacharacter (')")},
		{"private_route_id length", "", []string{arg("credential_id", cred), arg("private_route_id", "")}, errorPhrases("private_route_id string length must be between 1 and 255")},
		{"capability enum", "", []string{arg("credential_id", cred), `connector_capabilities = ["bogusV9"]`}, errorPhrases("value must be one of")},
		{"read-only label", "", []string{arg("credential_id", cred), `labels = { "astra.netapp.io/labels/read-only/x" = "y" }`}, errorPhrases("Read-only label")},
		{"credential required", "", []string{arg("private_route_id", testRouteID), `connector_capabilities = ["watcherV1"]`},
			errorPhrases("Missing credential_id", "credential_id is required unless private_route_id and a relay-capable connector capability")},
		{"credential with relay", "", []string{arg("credential_id", cred), arg("private_route_id", testRouteID), `connector_capabilities = ["relayV1"]`},
			errorPhrases("credential_id conflicts with a relay-capable connector")},
		{"private_route_id below 1.4", "1.3", []string{arg("credential_id", cred), arg("private_route_id", testRouteID)},
			errorPhrases("Argument needs api_version 1.4", "the provider's api_version is 1.3. Raise api_version (or ASTRA_API_VERSION) to 1.4 or later")},
		{"capabilities below 1.5", "1.4", []string{arg("credential_id", cred), `connector_capabilities = ["watcherV1"]`},
			errorPhrases("Argument needs api_version 1.5", "connector_capabilities needs cluster API version 1.5")},
		{"no credential below 1.5", "1.4", []string{arg("name", "c"), arg("private_route_id", testRouteID), `connector_capabilities = ["relayV1"]`},
			errorPhrases("Missing credential_id", "Cluster API version 1.4 (the provider's api_version) always requires credential_id")},
		{"connectorV2 below 1.7", "1.6", []string{arg("name", "c"), arg("private_route_id", testRouteID), `connector_capabilities = ["connectorV2"]`},
			errorPhrases("Argument needs api_version 1.7", "The capability connectorV2 needs cluster API version 1.7")},
		{"credential_id uppercase", "", []string{arg("credential_id", strings.ToUpper(cred))},
			errorPhrases("Invalid UUID", "has uppercase letters, and Astra Control accepts IDs only in lowercase")},
		{"credential_id version 1", "", []string{arg("credential_id", "6d4e8a5c-1f2b-1c3d-9e8f-0a1b2c3d4e5f")},
			errorPhrases("Invalid UUID", "is a version 1 UUID, and Astra Control accepts only version 4 or 5 UUIDs")},
		{"cluster_type enum", "1.7", []string{arg("credential_id", cred), arg("cluster_type", "k3s")}, errorPhrases("value must be one of")},
		{"cluster_type below 1.7", "1.6", []string{arg("credential_id", cred), arg("cluster_type", "openshift")},
			errorPhrases("Argument needs api_version 1.7", "cluster_type needs cluster API version 1.7 or later, and the provider's api_version is 1.6")},
		{"relayV1 from 1.7", "1.7", []string{arg("name", "c"), arg("private_route_id", testRouteID), `connector_capabilities = ["relayV1"]`},
			errorPhrases("relayV1 was replaced by connectorV2")},
	}
	var steps []resource.TestStep
	for _, c := range cases {
		cloud := a.cloudID()
		if c.want == nil { // the cloud_id case: everything else is valid
			cloud, c.want = "not-a-uuid", errorPhrases("Invalid UUID", `"not-a-uuid" is not a UUID`)
		}
		steps = append(steps, resource.TestStep{
			Config:      a.renderProviderBlock(c.apiVersion) + clusterHCL(cloud, c.body...),
			PlanOnly:    true,
			ExpectError: c.want,
		})
	}
	a.test(resource.TestCase{Steps: steps})
	if a.simulated() && len(a.sim.Counts()) != 0 {
		t.Errorf("requests %v; plan-time validation must send none", a.sim.Counts())
	}
}
