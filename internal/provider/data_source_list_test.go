package provider

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

func TestObjectListConvertsModels(t *testing.T) {
	ctx := context.Background()
	a := cloudFrom(&astra.Cloud{ID: "1", Name: "private", CloudType: "private", State: "running"}, cloudValues{})
	b := cloudFrom(&astra.Cloud{ID: "2", Name: "GCP", CloudType: "GCP", CredentialID: testCredentialID}, cloudValues{})
	list, diags := objectList(ctx, cloudItemAttributes(ctx), []cloudValues{a, b})
	if diags.HasError() {
		t.Fatal(diagnosticsText(diags))
	}
	if objectAttr(t, list, 1, "cloud_type") != "gcp" || objectAttr(t, list, 1, "credential_id") != testCredentialID {
		t.Fatalf("second item = %v", list.Elements()[1])
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
		{astra.Cluster{ClusterStatus: astra.ClusterStatus{ClusterType: "gke", ManagedState: "unmanaged"}}, true},
		{astra.Cluster{ClusterStatus: astra.ClusterStatus{ClusterType: "gke", ManagedState: "managed"}}, false},
		{astra.Cluster{ClusterStatus: astra.ClusterStatus{ClusterType: "aks", ManagedState: "unmanaged"}}, false},
	}
	for _, tt := range tests {
		if got := clusterMatches(tt.c, filters); got != tt.want {
			t.Errorf("clusterMatches(%+v) = %v", tt.c, got)
		}
	}
	if got := clusterNames([]astra.Cluster{{ID: "1", ClusterStatus: astra.ClusterStatus{Name: "a"}}}); got != "a (1)" {
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

// objectAttr reads attribute name of the object at index i of a list of objects, as text
// ("<null>" for null), failing the test when the value has another shape.
func objectAttr(t *testing.T, list types.List, i int, name string) string {
	t.Helper()
	obj, ok := list.Elements()[i].(types.Object)
	if !ok {
		t.Fatalf("item %d is %T, not an object", i, list.Elements()[i])
	}
	v, ok := obj.Attributes()[name]
	if !ok {
		t.Fatalf("item %d has no attribute %s", i, name)
	}
	if v.IsNull() {
		return "<null>"
	}
	switch x := v.(type) {
	case types.String:
		return x.ValueString()
	case types.Bool:
		return fmt.Sprint(x.ValueBool())
	}
	t.Fatalf("attribute %s is %T", name, v)
	return ""
}
