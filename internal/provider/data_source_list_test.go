package provider

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"

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

// Data sources derive their schemas from resources; none may keep a resource's lifecycle
// wording, which means nothing to a reader of a data source.
func TestDataSourceDescriptionsSpeakOfReading(t *testing.T) {
	ctx := context.Background()
	for _, newDS := range New("test")().DataSources(ctx) {
		ds := newDS()
		var meta datasource.MetadataResponse
		ds.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "astra"}, &meta)
		var resp datasource.SchemaResponse
		ds.Schema(ctx, datasource.SchemaRequest{}, &resp)
		for name, a := range resp.Schema.Attributes {
			desc := strings.ToLower(a.GetMarkdownDescription())
			if desc == "" {
				t.Errorf("%s.%s has no description", meta.TypeName, name)
			}
			for _, bad := range []string{"in place", "forces a new resource", "removing the argument"} {
				if strings.Contains(desc, bad) {
					t.Errorf("%s.%s: description says %q: %s", meta.TypeName, name, bad, desc)
				}
			}
		}
	}
}
