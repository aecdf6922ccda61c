package provider

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

const (
	testCloudID      = "0c8b4e1a-6a4d-4f53-9b6e-2f3a1c5d7e90"
	testClusterID    = "5b7d2c1e-3f4a-4b6c-8d9e-0a1b2c3d4e5f"
	testCredentialID = "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b"
	testRouteID      = "route-7f3e"
)

func stringSet(items ...string) types.Set {
	elems := make([]attr.Value, 0, len(items))
	for _, s := range items {
		elems = append(elems, types.StringValue(s))
	}
	return types.SetValueMust(types.StringType, elems)
}

func stringMap(kv ...string) types.Map {
	elems := map[string]attr.Value{}
	for i := 0; i+1 < len(kv); i += 2 {
		elems[kv[i]] = types.StringValue(kv[i+1])
	}
	return types.MapValueMust(types.StringType, elems)
}

// nullClusterFields is a configuration that sets nothing.
func nullClusterValues() clusterValues {
	return clusterValues{
		CloudID: types.StringValue(testCloudID), Name: types.StringNull(), CredentialID: types.StringNull(),
		PrivateRouteID: types.StringNull(), ConnectorCapabilities: types.SetNull(types.StringType),
		AccHost: types.BoolNull(), Labels: types.MapNull(types.StringType),
	}
}

func TestClusterCreateRequest(t *testing.T) {
	plan := nullClusterValues()
	plan.Name = types.StringValue("prod-east")
	plan.CredentialID = types.StringValue(testCredentialID)
	plan.PrivateRouteID = types.StringValue(testRouteID)
	plan.ConnectorCapabilities = stringSet("watcherV1", "neptuneV1")
	plan.AccHost = types.BoolValue(true)
	plan.Labels = stringMap("team", "storage", "env", "prod")

	got := clusterCreateRequest(plan)
	want := astra.ClusterCreate{
		Name: "prod-east", CredentialID: testCredentialID, PrivateRouteID: testRouteID,
		ConnectorCapabilities: []string{"neptuneV1", "watcherV1"}, AccHost: astra.BoolPtr(true),
		Labels: []astra.Label{{Name: "env", Value: "prod"}, {Name: "team", Value: "storage"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("clusterCreateRequest =\n%+v\nwant\n%+v", got, want)
	}

	// Unset arguments, an unknown name and acc_host = false send nothing.
	minimal := nullClusterValues()
	minimal.Name = types.StringUnknown()
	minimal.CredentialID = types.StringValue(testCredentialID)
	minimal.AccHost = types.BoolValue(false)
	if got := clusterCreateRequest(minimal); !reflect.DeepEqual(got, astra.ClusterCreate{CredentialID: testCredentialID}) {
		t.Fatalf("minimal request = %+v", got)
	}
}

func TestApplyClusterPlanChangesOnlyManagedFields(t *testing.T) {
	readOnly := astra.Label{Name: attrs.ReadOnlyLabelPrefix + "cloudName", Value: "private"}
	current := &astra.Cluster{
		ID:                    testClusterID,
		ConnectorCapabilities: []string{"proxyV1"},
		Metadata:              astra.Metadata{Labels: []astra.Label{readOnly, {Name: "team", Value: "old"}}, CreatedBy: "u1"},
		Extra:                 map[string]json.RawMessage{"connectorInstall": json.RawMessage(`"installed"`)},
		ClusterStatus: astra.ClusterStatus{
			Name:                       "old",
			CloudID:                    testCloudID,
			CredentialID:               testCredentialID,
			State:                      "running",
			ClusterType:                "openshift",
			TridentManagedStateDesired: "unmanaged",
			AccHost:                    astra.BoolPtr(true),
		},
	}
	plan := nullClusterValues()
	plan.Name = types.StringValue("new")
	plan.CredentialID = types.StringValue("11111111-2222-4333-8444-555555555555")
	plan.PrivateRouteID = types.StringValue(testRouteID)
	plan.ConnectorCapabilities = stringSet("watcherV1", "proxyV1")
	plan.AccHost = types.BoolValue(false)
	plan.Labels = stringMap("app", "x")

	applyClusterPlan(current, plan)

	want := &astra.Cluster{
		ID:                    testClusterID,
		ConnectorCapabilities: []string{"proxyV1", "watcherV1"},
		Metadata:              astra.Metadata{Labels: []astra.Label{readOnly, {Name: "app", Value: "x"}}, CreatedBy: "u1"},
		Extra:                 map[string]json.RawMessage{"connectorInstall": json.RawMessage(`"installed"`)},
		ClusterStatus: astra.ClusterStatus{
			Name:                       "new",
			CloudID:                    testCloudID,
			CredentialID:               "11111111-2222-4333-8444-555555555555",
			PrivateRouteID:             testRouteID,
			State:                      "running",
			ClusterType:                "openshift",
			TridentManagedStateDesired: "unmanaged",
		},
	}
	if !reflect.DeepEqual(current, want) {
		t.Fatalf("after applyClusterPlan:\n%+v\nwant\n%+v", current, want)
	}

	// A name left to the service (unknown in the plan) keeps the current one.
	plan.Name = types.StringUnknown()
	applyClusterPlan(current, plan)
	if current.Name != "new" {
		t.Fatalf("name = %q, want the current name kept", current.Name)
	}
}

func fullCluster() *astra.Cluster {
	return &astra.Cluster{
		ID:                    testClusterID,
		ConnectorCapabilities: []string{},
		Metadata: astra.Metadata{
			Labels:            []astra.Label{{Name: attrs.ReadOnlyLabelPrefix + "cloudName", Value: "private"}},
			CreationTimestamp: "2024-05-06T07:08:09Z", ModificationTimestamp: "2024-05-06T07:08:10Z", CreatedBy: "u1",
		},
		ClusterStatus: astra.ClusterStatus{
			Name:                       "prod-east",
			CloudID:                    testCloudID,
			CredentialID:               testCredentialID,
			State:                      "running",
			StateUnready:               nil,
			ManagedState:               "unmanaged",
			ManagedStateUnready:        []string{"r1"},
			ProtectionState:            "full",
			ProtectionStateDetails:     []astra.StateDetail{{Type: "t", Title: "ti", Detail: "d"}},
			RestoreTargetSupported:     astra.BoolPtr(true),
			SnapshotSupported:          astra.BoolPtr(false),
			TridentVersion:             "24.02.0",
			ACPVersion:                 "24.02.0",
			TridentManagedState:        "unmanaged",
			TridentManagedStateDesired: "unmanaged",
			TridentManagedStateAllowed: []string{"unmanaged"},
			InUse:                      astra.BoolPtr(false),
			ClusterType:                "kubernetes",
			ClusterVersion:             "1.29",
			ClusterVersionString:       "v1.29.4",
			ClusterCreationTimestamp:   "2024-01-02T03:04:05Z",
			Namespaces:                 []string{"default"},
			DefaultStorageClass:        "8a7b6c5d-4e3f-4a2b-9c1d-0e9f8a7b6c5d",
			IsMultizonal:               astra.BoolPtr(false),
			APIServiceID:               "3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a",
		},
	}
}

func TestClusterFrom(t *testing.T) {
	got := clusterFrom(fullCluster(), nullClusterValues())
	checks := []struct {
		name      string
		got, want attr.Value
	}{
		{"id", got.ID, types.StringValue(testClusterID)},
		{"cloud_id", got.CloudID, types.StringValue(testCloudID)},
		{"name", got.Name, types.StringValue("prod-east")},
		{"credential_id", got.CredentialID, types.StringValue(testCredentialID)},
		{"private_route_id", got.PrivateRouteID, types.StringNull()},
		{"connector_capabilities ([] with null prior)", got.ConnectorCapabilities, types.SetNull(types.StringType)},
		{"acc_host (absent, null prior)", got.AccHost, types.BoolNull()},
		{"labels (read-only only, null prior)", got.Labels, types.MapNull(types.StringType)},
		{"state", got.State, types.StringValue("running")},
		{"state_unready", got.StateUnready, attrs.StringList(nil)},
		{"managed_state_unready", got.ManagedStateUnready, attrs.StringList([]string{"r1"})},
		{"managed_timestamp", got.ManagedTimestamp, types.StringNull()},
		{"protection_state_details", got.ProtectionStateDetails, attrs.StateDetailsValue([]astra.StateDetail{{Type: "t", Title: "ti", Detail: "d"}})},
		{"restore_target_supported", got.RestoreTargetSupported, types.BoolValue(true)},
		{"snapshot_supported", got.SnapshotSupported, types.BoolValue(false)},
		{"acp_version", got.ACPVersion, types.StringValue("24.02.0")},
		{"trident_managed_state_details", got.TridentManagedStateDetails, attrs.StateDetailsValue(nil)},
		{"trident_managed_state_allowed", got.TridentManagedStateAllowed, attrs.StringList([]string{"unmanaged"})},
		{"in_use", got.InUse, types.BoolValue(false)},
		{"cluster_version_string", got.ClusterVersionString, types.StringValue("v1.29.4")},
		{"cluster_creation_timestamp", got.ClusterCreationTimestamp, types.StringValue("2024-01-02T03:04:05Z")},
		{"namespaces", got.Namespaces, attrs.StringList([]string{"default"})},
		{"location", got.Location, types.StringNull()},
		{"is_multizonal", got.IsMultizonal, types.BoolValue(false)},
		{"api_service_id", got.APIServiceID, types.StringValue("3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a")},
		{"metadata", got.Metadata, attrs.MetadataValue(fullCluster().Metadata)},
	}
	for _, c := range checks {
		if !c.got.Equal(c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

// What the user wrote as "nothing" stays as written, so a plan after apply or import is empty.
func TestClusterFromKeepsTheUsersSpellingOfNothing(t *testing.T) {
	prior := nullClusterValues()
	prior.ConnectorCapabilities = stringSet()
	prior.AccHost = types.BoolValue(false)
	prior.Labels = stringMap()
	got := clusterFrom(fullCluster(), prior)
	if !got.ConnectorCapabilities.Equal(stringSet()) || !got.AccHost.Equal(types.BoolValue(false)) || !got.Labels.Equal(stringMap()) {
		t.Fatalf("capabilities %v, acc_host %v, labels %v; want [], false, {}", got.ConnectorCapabilities, got.AccHost, got.Labels)
	}

	// Values set outside Terraform show, so the next plan corrects them.
	c := fullCluster()
	c.AccHost = astra.BoolPtr(true)
	c.ConnectorCapabilities = []string{"watcherV1", "relayV1"}
	c.Metadata.Labels = append(c.Metadata.Labels, astra.Label{Name: "added", Value: "outside"})
	got = clusterFrom(c, nullClusterValues())
	if !got.AccHost.Equal(types.BoolValue(true)) || !got.ConnectorCapabilities.Equal(stringSet("relayV1", "watcherV1")) ||
		!got.Labels.Equal(stringMap("added", "outside")) {
		t.Fatalf("drift hidden: acc_host %v, capabilities %v, labels %v", got.AccHost, got.ConnectorCapabilities, got.Labels)
	}
}

func TestClusterModelFromWaitForRunning(t *testing.T) {
	cases := []struct {
		name  string
		prior types.Bool
		want  bool
	}{
		{"import (null prior) takes the default", types.BoolNull(), true},
		{"a configured false is kept", types.BoolValue(false), false},
		{"a configured true is kept", types.BoolValue(true), true},
	}
	for _, c := range cases {
		prior := clusterModel{clusterValues: nullClusterValues(), WaitForRunning: c.prior}
		if got := clusterModelFrom(fullCluster(), prior).WaitForRunning; !got.Equal(types.BoolValue(c.want)) {
			t.Errorf("%s: wait_for_running = %v, want %v", c.name, got, c.want)
		}
	}
}
