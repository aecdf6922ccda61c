package echo

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// TestProviderSchemaIsTheRecordedOne checks every attribute and block of every schema in
// the fixture against what the echo floor serves: type, flags, description, nesting.
func TestProviderSchemaIsTheRecordedOne(t *testing.T) {
	s, _ := testServer(t)
	resp, err := s.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	noDiags(t, resp.Diagnostics)
	data, err := os.ReadFile("testdata/schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc schemasJSON
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, p := range doc.ProviderSchemas {
		compareBlock(t, "provider", p.Provider.Block, resp.Provider.Block)
		// An action's schema is a block alone, served as a schema of version 0.
		wantActions, gotActions := map[string]*schemaJSON{}, map[string]*tfprotov6.Schema{}
		for name, a := range p.ActionSchemas {
			wantActions[name] = &schemaJSON{Block: a.Block}
		}
		for name, a := range resp.ActionSchemas {
			gotActions[name] = a.Schema
		}
		for kind, pair := range map[string]struct {
			want map[string]*schemaJSON
			got  map[string]*tfprotov6.Schema
		}{
			"resource": {p.ResourceSchemas, resp.ResourceSchemas}, "data source": {p.DataSourceSchemas, resp.DataSourceSchemas},
			"ephemeral resource": {p.EphemeralResourceSchemas, resp.EphemeralResourceSchemas}, "action": {wantActions, gotActions},
		} {
			if len(pair.got) != len(pair.want) || len(pair.want) == 0 {
				t.Errorf("%s schemas: served %d, recorded %d", kind, len(pair.got), len(pair.want))
			}
			for name, want := range pair.want {
				got := pair.got[name]
				if got == nil {
					t.Errorf("%s %s: not served", kind, name)
					continue
				}
				if got.Version != want.Version {
					t.Errorf("%s %s: version %d, want %d", kind, name, got.Version, want.Version)
				}
				compareBlock(t, kind+" "+name, want.Block, got.Block)
			}
		}
		ids, err := s.GetResourceIdentitySchemas(context.Background(), &tfprotov6.GetResourceIdentitySchemasRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if len(ids.IdentitySchemas) != len(p.ResourceIdentitySchemas) {
			t.Errorf("identity schemas: served %d, recorded %d", len(ids.IdentitySchemas), len(p.ResourceIdentitySchemas))
		}
		for name, want := range p.ResourceIdentitySchemas {
			got := ids.IdentitySchemas[name]
			if got == nil || got.Version != want.Version || len(got.IdentityAttributes) != len(want.Attributes) {
				t.Errorf("identity of %s: served %+v, recorded %+v", name, got, want)
				continue
			}
			for _, a := range got.IdentityAttributes {
				w := want.Attributes[a.Name]
				wt, _ := jsonType(w.Type)
				if w == nil || !a.Type.Equal(wt) || a.RequiredForImport != w.RequiredForImport ||
					a.OptionalForImport != w.OptionalForImport || a.Description != w.Description {
					t.Errorf("identity of %s: attribute %s served as %+v, recorded %+v", name, a.Name, a, w)
				}
			}
		}
	}
	meta, err := s.GetMetadata(context.Background(), &tfprotov6.GetMetadataRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for kind, names := range map[string]struct{ listed, served []string }{
		"resources":           {metadataNames(meta.Resources, func(m tfprotov6.ResourceMetadata) string { return m.TypeName }), sortedKeys(resp.ResourceSchemas)},
		"data sources":        {metadataNames(meta.DataSources, func(m tfprotov6.DataSourceMetadata) string { return m.TypeName }), sortedKeys(resp.DataSourceSchemas)},
		"ephemeral resources": {metadataNames(meta.EphemeralResources, func(m tfprotov6.EphemeralResourceMetadata) string { return m.TypeName }), sortedKeys(resp.EphemeralResourceSchemas)},
		"list resources":      {metadataNames(meta.ListResources, func(m tfprotov6.ListResourceMetadata) string { return m.TypeName }), sortedKeys(resp.ListResourceSchemas)},
		"actions":             {metadataNames(meta.Actions, func(m tfprotov6.ActionMetadata) string { return m.TypeName }), sortedKeys(resp.ActionSchemas)},
	} {
		if !slices.Equal(names.listed, names.served) {
			t.Errorf("metadata lists %s %v, the schema serves %v", kind, names.listed, names.served)
		}
	}
	if !resp.ServerCapabilities.GetProviderSchemaOptional || !resp.ServerCapabilities.PlanDestroy {
		t.Errorf("capabilities %+v: want the framework's GetProviderSchemaOptional and PlanDestroy", resp.ServerCapabilities)
	}
}

// metadataNames are the type names GetMetadata lists, in its order.
func metadataNames[M any](ms []M, name func(M) string) []string {
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		out = append(out, name(m))
	}
	return out
}

func compareBlock(t *testing.T, at string, want *blockJSON, got *tfprotov6.SchemaBlock) {
	t.Helper()
	if want.Description != got.Description || stringKind(want.DescriptionKind) != got.DescriptionKind || want.Deprecated != got.Deprecated {
		t.Errorf("%s: block description or deprecation differs", at)
	}
	compareAttributes(t, at, want.Attributes, got.Attributes)
	if len(got.BlockTypes) != len(want.BlockTypes) {
		t.Errorf("%s: %d blocks served, %d recorded", at, len(got.BlockTypes), len(want.BlockTypes))
	}
	for _, b := range got.BlockTypes {
		w := want.BlockTypes[b.TypeName]
		if w == nil || blockNesting[w.NestingMode] != b.Nesting || w.MinItems != b.MinItems || w.MaxItems != b.MaxItems {
			t.Errorf("%s: block %s served as %+v, recorded %+v", at, b.TypeName, b, w)
			continue
		}
		compareBlock(t, at+"."+b.TypeName, w.Block, b.Block)
	}
}

func compareAttributes(t *testing.T, at string, want map[string]*attributeJSON, got []*tfprotov6.SchemaAttribute) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d attributes served, %d recorded", at, len(got), len(want))
	}
	for _, a := range got {
		w := want[a.Name]
		if w == nil {
			t.Errorf("%s: attribute %s not recorded", at, a.Name)
			continue
		}
		if a.Required != w.Required || a.Optional != w.Optional || a.Computed != w.Computed || a.Sensitive != w.Sensitive ||
			a.WriteOnly != w.WriteOnly || a.Deprecated != w.Deprecated || a.Description != w.Description ||
			a.DescriptionKind != stringKind(w.DescriptionKind) {
			t.Errorf("%s: attribute %s served as %+v, recorded %+v", at, a.Name, a, w)
		}
		if w.NestedType != nil {
			if a.NestedType == nil || a.NestedType.Nesting != objectNesting[w.NestedType.NestingMode] {
				t.Errorf("%s: attribute %s: nesting differs", at, a.Name)
				continue
			}
			compareAttributes(t, at+"."+a.Name, w.NestedType.Attributes, a.NestedType.Attributes)
			continue
		}
		if wt, err := jsonType(w.Type); err != nil || a.Type == nil || !a.Type.Equal(wt) {
			t.Errorf("%s: attribute %s: type %v, recorded %s", at, a.Name, a.Type, w.Type)
		}
	}
}

// TestSchemaFlagsOfTheFleet spot-checks the conversion against what astra declares.
func TestSchemaFlagsOfTheFleet(t *testing.T) {
	s, _ := testServer(t)
	attr := func(typeName, name string) *tfprotov6.SchemaAttribute {
		for _, a := range s.schemas.resources[typeName].Block.Attributes {
			if a.Name == name {
				return a
			}
		}
		t.Fatalf("%s has no attribute %s", typeName, name)
		return nil
	}
	if a := attr("astra_cluster", "id"); !a.Computed || a.Optional || a.Required {
		t.Errorf("astra_cluster.id: %+v, want computed only", a)
	}
	if a := attr("astra_cluster", "cloud_id"); !a.Required {
		t.Errorf("astra_cluster.cloud_id: %+v, want required", a)
	}
	if a := attr("astra_kubeconfig_credential", "kubeconfig"); !a.Sensitive {
		t.Errorf("astra_kubeconfig_credential.kubeconfig: %+v, want sensitive", a)
	}
	if a := attr("astra_kubeconfig_credential", "kubeconfig_wo"); !a.WriteOnly {
		t.Errorf("astra_kubeconfig_credential.kubeconfig_wo: %+v, want write-only", a)
	}
	if a := attr("astra_cluster", "timeouts"); a.NestedType == nil {
		t.Errorf("astra_cluster.timeouts: %+v, want a nested attribute", a)
	}
}
