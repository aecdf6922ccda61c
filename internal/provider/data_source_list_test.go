package provider

import (
	"context"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

func TestObjectListConvertsModels(t *testing.T) {
	ctx := context.Background()
	var a, b cloudValues
	a.readFrom(&astra.Cloud{ID: "1", Name: "private", CloudType: "private", State: "running"})
	b.readFrom(&astra.Cloud{ID: "2", Name: "GCP", CloudType: "GCP", CredentialID: testCredentialID})
	list, diags := objectList(ctx, cloudItemAttributes(ctx), []cloudValues{a, b})
	if diags.HasError() {
		t.Fatal(diagnosticsText(diags))
	}
	second := list.Elements()[1].(types.Object).Attributes()
	if second["cloud_type"].(types.String).ValueString() != "gcp" || second["credential_id"].(types.String).ValueString() != testCredentialID {
		t.Fatalf("second item = %v", second)
	}
	empty, diags := objectList[cloudValues](ctx, cloudItemAttributes(ctx), nil)
	if diags.HasError() || empty.IsNull() || len(empty.Elements()) != 0 {
		t.Fatalf("no items must be an empty list: %v %v", empty, diags)
	}
}

func TestClusterFilters(t *testing.T) {
	m := clustersModel{
		CloudID: types.StringValue(testCloudID), Name: types.StringNull(), ClusterType: types.StringValue("gke"),
		ManagedState: types.StringValue("unmanaged"), State: types.StringNull(),
	}
	filters := clusterFilters(m)
	want := []astra.Filter{{Field: "clusterType", Op: "eq", Value: "gke"}, {Field: "managedState", Op: "eq", Value: "unmanaged"}}
	if !reflect.DeepEqual(filters, want) {
		t.Fatalf("clusterFilters = %v, want %v", filters, want)
	}
	tests := []struct {
		c    astra.Cluster
		want bool
	}{
		{astra.Cluster{ClusterType: "gke", ManagedState: "unmanaged"}, true},
		{astra.Cluster{ClusterType: "gke", ManagedState: "managed"}, false},
		{astra.Cluster{ClusterType: "aks", ManagedState: "unmanaged"}, false},
	}
	for _, tt := range tests {
		if got := clusterMatches(tt.c, filters); got != tt.want {
			t.Errorf("clusterMatches(%+v) = %v", tt.c, got)
		}
	}
	if got := clusterNames([]astra.Cluster{{ID: "1", Name: "a"}}); got != "a (1)" {
		t.Errorf("clusterNames = %q", got)
	}
}
