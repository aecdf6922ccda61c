package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// clusterConfig builds a configuration from the arguments the rules look at; "" is unset,
// "?" unknown.
func clusterConfig(credential, route string, capabilities ...string) clusterValues {
	cfg := nullClusterValues()
	str := func(v string) types.String {
		switch v {
		case "":
			return types.StringNull()
		case "?":
			return types.StringUnknown()
		}
		return types.StringValue(v)
	}
	cfg.CredentialID, cfg.PrivateRouteID = str(credential), str(route)
	switch {
	case len(capabilities) == 1 && capabilities[0] == "?":
		cfg.ConnectorCapabilities = types.SetUnknown(types.StringType)
	case capabilities != nil:
		cfg.ConnectorCapabilities = stringSet(capabilities...)
	}
	return cfg
}

func problemText(ps []attrProblem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.attr + ": " + p.summary + ": " + p.detail + "\n")
	}
	return b.String()
}

func TestClusterCredentialProblems(t *testing.T) {
	cases := []struct {
		name string
		cfg  clusterValues
		want string // "" means no problem; else the attribute and summary
	}{
		{"credential alone", clusterConfig(testCredentialID, ""), ""},
		{"credential with a route and a watcher", clusterConfig(testCredentialID, testRouteID, "watcherV1"), ""},
		{"connector: route and relayV1", clusterConfig("", testRouteID, "relayV1", "watcherV1"), ""},
		{"connector: route and connectorV2", clusterConfig("", testRouteID, "connectorV2"), ""},
		{"nothing", clusterConfig("", ""), "credential_id: Missing credential_id"},
		{"route without relay", clusterConfig("", testRouteID, "watcherV1"), "credential_id: Missing credential_id"},
		{"relay without route", clusterConfig("", "", "relayV1"), "credential_id: Missing credential_id"},
		{"credential with relayV1", clusterConfig(testCredentialID, testRouteID, "relayV1"), "credential_id: credential_id conflicts with a relay-capable connector"},
		{"credential with connectorV2", clusterConfig(testCredentialID, "", "connectorV2"), "credential_id: credential_id conflicts with a relay-capable connector"},
		{"unknown credential is checked at apply", clusterConfig("?", ""), ""},
		{"unknown capabilities are checked at apply", clusterConfig("", testRouteID, "?"), ""},
		{"unknown route is checked at apply", clusterConfig("", "?", "relayV1"), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := clusterCredentialProblems(c.cfg)
			if c.want == "" {
				if len(got) != 0 {
					t.Fatalf("unexpected problems:\n%s", problemText(got))
				}
				return
			}
			if len(got) != 1 || got[0].attr+": "+got[0].summary != c.want {
				t.Fatalf("problems:\n%swant exactly %q", problemText(got), c.want)
			}
		})
	}
}

func TestClusterCredentialProblemDetails(t *testing.T) {
	missing := clusterCredentialProblems(clusterConfig("", ""))[0].detail
	if !strings.Contains(missing, "credential_id is required unless private_route_id and a relay-capable connector capability (relayV1 up to api_version 1.6, connectorV2 from 1.7) are both set") {
		t.Errorf("detail does not state the rule: %s", missing)
	}
	conflict := clusterCredentialProblems(clusterConfig(testCredentialID, "", "relayV1"))[0].detail
	if !strings.Contains(conflict, "Remove credential_id, or remove relayV1/connectorV2 from connector_capabilities.") {
		t.Errorf("detail does not say how to fix it: %s", conflict)
	}
}

func TestClusterVersionProblems(t *testing.T) {
	cases := []struct {
		version string
		cfg     clusterValues
		want    []string // attribute: summary of each problem, in order
	}{
		{"1.3", clusterConfig(testCredentialID, ""), nil},
		{"1.3", clusterConfig(testCredentialID, testRouteID), []string{"private_route_id: Argument needs api_version 1.4"}},
		{"1.4", clusterConfig(testCredentialID, testRouteID), nil},
		{"1.4", clusterConfig(testCredentialID, "", "watcherV1"), []string{"connector_capabilities: Argument needs api_version 1.5"}},
		{"1.4", clusterConfig("", testRouteID, "relayV1"), []string{"connector_capabilities: Argument needs api_version 1.5", "credential_id: Missing credential_id"}},
		{"1.5", clusterConfig("", testRouteID, "relayV1"), nil},
		{"1.6", clusterConfig("", testRouteID, "connectorV2"), []string{"connector_capabilities: Argument needs api_version 1.7"}},
		{"1.7", clusterConfig("", testRouteID, "connectorV2"), nil},
		{"1.7", clusterConfig("", testRouteID, "relayV1"), []string{"connector_capabilities: relayV1 was replaced by connectorV2"}},
		{"1.0", clusterConfig("?", ""), nil},
		{"1.6", withClusterType(clusterConfig(testCredentialID, ""), "openshift"), []string{"cluster_type: Argument needs api_version 1.7"}},
		{"1.7", withClusterType(clusterConfig(testCredentialID, ""), "openshift"), nil},
	}
	for _, c := range cases {
		got := clusterVersionProblems(c.version, c.cfg)
		var summaries []string
		for _, p := range got {
			summaries = append(summaries, p.attr+": "+p.summary)
		}
		if strings.Join(summaries, "|") != strings.Join(c.want, "|") {
			t.Errorf("version %s: got\n%swant %v", c.version, problemText(got), c.want)
		}
	}
}

func TestClusterVersionProblemNamesTheVersionAndTheFix(t *testing.T) {
	got := clusterVersionProblems("1.3", clusterConfig(testCredentialID, testRouteID))
	want := "private_route_id needs cluster API version 1.4 or later, and the provider's api_version is 1.3. " +
		"Raise api_version (or ASTRA_API_VERSION) to 1.4 or later, or remove private_route_id. Cluster API version 1.4 is " +
		"Astra Control 23.05 and later: point the provider (endpoint) at such a service; with the simulator, " +
		"`astra-sim -release 23.05` (`make sim` serves 24.02)."
	if len(got) != 1 || got[0].detail != want {
		t.Fatalf("detail = %q\nwant     %q", problemText(got), want)
	}
}

func withClusterType(cfg clusterValues, kind string) clusterValues {
	cfg.ClusterType = types.StringValue(kind)
	return cfg
}

// The credential rule of a plan sees what the cluster will have: a configuration that leaves
// an argument out keeps the cluster's value (an import with a minimal configuration), and
// on create nothing.
func TestEffectiveClusterArgs(t *testing.T) {
	connector := clusterConfig("", testRouteID, "relayV1")
	kube := clusterConfig(testCredentialID, testRouteID, "watcherV1")
	cases := []struct {
		name        string
		cfg, prior  clusterValues
		wantProblem string
	}{
		{"connector imported with only its route", clusterConfig("", testRouteID), connector, ""},
		{"kubeconfig cluster imported with only its credential", clusterConfig(testCredentialID, ""), kube, ""},
		{"kubeconfig cluster imported with only its route", clusterConfig("", testRouteID), kube, ""},
		{"create with a route and no capabilities", clusterConfig("", testRouteID), nullClusterValues(), "credential_id: Missing credential_id"},
		{"relay added to a cluster with a credential", clusterConfig("", "", "connectorV2"), kube, "credential_id: credential_id conflicts with a relay-capable connector"},
	}
	for _, c := range cases {
		got := clusterCredentialProblems(effectiveClusterArgs(c.cfg, c.prior))
		text := ""
		if len(got) > 0 {
			text = got[0].attr + ": " + got[0].summary
		}
		if len(got) > 1 || text != c.wantProblem {
			t.Errorf("%s: problems\n%swant %q", c.name, problemText(got), c.wantProblem)
		}
	}
}

// ValidateConfig leaves "a route without a relay" to the plan, which knows the cluster's
// capabilities, and still refuses a configuration with neither credential nor route.
func TestClusterValidateConfigDefersRouteRule(t *testing.T) {
	for _, c := range []struct {
		cfg  clusterValues
		want int
	}{
		{clusterConfig("", testRouteID), 0},
		{clusterConfig("", ""), 1},
		{clusterConfig(testCredentialID, "", "relayV1"), 1},
	} {
		problems := clusterConfigProblems(c.cfg)
		if len(problems) != c.want {
			t.Errorf("%+v: %d problems, want %d", c.cfg, len(problems), c.want)
		}
	}
}
