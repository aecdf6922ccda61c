package provider

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

const testStorageClassID = "8f7e6d5c-4b3a-4c2d-9e1f-0a9b8c7d6e5f"

func TestManagedClusterFrom(t *testing.T) {
	inUse := astra.Bool(true)
	m := managedClusterFrom(&astra.ManagedCluster{
		ID:       testClusterID,
		Metadata: astra.Metadata{CreatedBy: "u-1"},
		ClusterStatus: astra.ClusterStatus{
			Name:                       "prod-east",
			CloudID:                    testCloudID,
			State:                      "running",
			ManagedState:               "managed",
			ManagedStateDetails:        []astra.StateDetail{{Type: "t", Title: "Ready", Detail: "d"}},
			DefaultStorageClass:        testStorageClassID,
			TridentManagedStateDesired: "managed",
			InUse:                      &inUse,
			Namespaces:                 []string{"default"},
		},
	})
	checks := map[string]bool{
		"id and cluster_id are the cluster's ID": m.ID.ValueString() == testClusterID && m.ClusterID.ValueString() == testClusterID,
		"arguments":                              m.DefaultStorageClass.ValueString() == testStorageClassID && m.TridentManagedStateDesired.ValueString() == "managed",
		"unreported default_bucket_id is null":   m.DefaultBucketID.IsNull(),
		"states":                                 m.State.ValueString() == "running" && m.ManagedState.ValueString() == "managed",
		"in_use":                                 m.InUse.ValueBool(),
		"absent acc_host reads false":            !m.AccHost.IsNull() && !m.AccHost.ValueBool(),
		"details":                                len(m.ManagedStateDetails.Elements()) == 1,
		"empty lists are known and empty":        !m.StateUnready.IsNull() && len(m.StateUnready.Elements()) == 0,
		"the cloud and name of the managed view": m.CloudID.ValueString() == testCloudID && m.Name.ValueString() == "prod-east",
	}
	for what, ok := range checks {
		if !ok {
			t.Errorf("%s: %+v", what, m)
		}
	}
}

func TestManagedClusterRequests(t *testing.T) {
	plan := managedClusterValues{
		ClusterID: types.StringValue(testClusterID), DefaultStorageClass: types.StringValue(testStorageClassID),
		TridentManagedStateDesired: types.StringUnknown(), DefaultBucketID: types.StringNull(),
	}
	want := astra.ManagedClusterCreate{ID: testClusterID, DefaultStorageClass: testStorageClassID}
	if got := managedClusterCreateRequest(plan); !reflect.DeepEqual(got, want) {
		t.Fatalf("managedClusterCreateRequest = %+v, want %+v", got, want)
	}

	current := &astra.ManagedCluster{ID: testClusterID, ClusterStatus: astra.ClusterStatus{DefaultStorageClass: "old", TridentManagedStateDesired: "unmanaged", Location: "kept"}}
	applyManagedClusterPlan(current, plan)
	if current.DefaultStorageClass != testStorageClassID || current.TridentManagedStateDesired != "unmanaged" || current.Location != "kept" {
		t.Fatalf("applyManagedClusterPlan = %+v: unknown arguments keep the service's value", current)
	}
}

func TestManagedStates(t *testing.T) {
	for state, want := range map[string]bool{"managed": true, "managing": true, "deleting": true, "unmanaged": false, "Ineligible": false} {
		if got := isManaged(&astra.ManagedCluster{ClusterStatus: astra.ClusterStatus{ManagedState: state}}); got != want {
			t.Errorf("isManaged(%s) = %v", state, got)
		}
	}
	for _, tt := range []struct {
		c    *astra.Cluster
		want bool
	}{{nil, true}, {&astra.Cluster{ClusterStatus: astra.ClusterStatus{ManagedState: "unmanaged"}}, true}, {&astra.Cluster{ClusterStatus: astra.ClusterStatus{ManagedState: "deleting"}}, false}} {
		if done, err := unmanagedOrGone(tt.c); done != tt.want || err != nil {
			t.Errorf("unmanagedOrGone(%v) = %v, %v", tt.c, done, err)
		}
	}
}

func TestInUseConflict(t *testing.T) {
	inUse := &astra.APIError{StatusCode: 409, InvalidFields: []astra.InvalidField{{Name: "inUse", Reason: "2 managed apps"}}}
	other := &astra.APIError{StatusCode: 409, InvalidFields: []astra.InvalidField{{Name: "managedState"}}}
	if !inUseConflict(inUse) || inUseConflict(other) || inUseConflict(nil) {
		t.Fatal("inUseConflict must recognise only the inUse refusal")
	}
	var diags diag.Diagnostics
	addInUse(&diags, testClusterID, "web (9a0c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d)", inUse)
	text := diagnosticsText(diags)
	for _, want := range []string{"Cannot unmanage a cluster that has managed applications", "Unmanage those applications first", "2 managed apps",
		"Managed applications: web (9a0c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d)."} {
		if !strings.Contains(text, want) {
			t.Errorf("in-use error lacks %q: %s", want, text)
		}
	}
}

func TestCheckStorageClassListsTheChoices(t *testing.T) {
	classes := []astra.StorageClass{{ID: "id-silver", Name: "ontap-silver"}, {ID: "id-gold", Name: "ontap-gold"}}
	var diags diag.Diagnostics
	if !checkStorageClass(classes, testClusterID, "id-gold", &diags) || diags.HasError() {
		t.Fatal("a storage class of the cluster must pass")
	}
	if checkStorageClass(classes, testClusterID, "ontap-gold", &diags) {
		t.Fatal("a name is not an ID")
	}
	want := `Cluster ` + testClusterID + ` has no storage class with ID "ontap-gold"; valid storage classes: ontap-gold (id-gold), ontap-silver (id-silver).`
	if len(diags) != 1 || !strings.HasPrefix(diags[0].Detail(), want) {
		t.Fatalf("detail = %q, want prefix %q", diags[0].Detail(), want)
	}
}

// The managed view shares astra_cluster's computed names, so outputs move from one to the
// other unchanged.
func TestManagedClusterSchemaSharesClusterNames(t *testing.T) {
	managed := managedClusterAttributes()
	var missing []string
	for name := range clusterComputedAttributes(managedClusterDrivenBy, nil) {
		if _, ok := managed[name]; !ok {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Fatalf("astra_managed_cluster lacks astra_cluster's computed attributes %v", missing)
	}
	for name, a := range map[string]bool{"cluster_id": true, "default_storage_class": false, "trident_managed_state_desired": false, "default_bucket_id": false} {
		attr := managed[name]
		if attr.IsRequired() != a || (!a && !(attr.IsOptional() && attr.IsComputed())) {
			t.Errorf("%s: required=%v optional=%v computed=%v", name, attr.IsRequired(), attr.IsOptional(), attr.IsComputed())
		}
	}
}
