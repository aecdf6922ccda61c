package provider

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/tridentprotect"
)

// tpSampleRendering renders tpSampleSource, with a data mover password Secret.
func tpSampleRendering(t *testing.T) tridentprotect.Rendering {
	t.Helper()
	r, err := tridentprotect.Render(tridentProtectEstate(tpSampleSource()), tridentprotect.Options{DataMoverPasswordSecret: "repo-passwords"})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Every manifest object converts to a Terraform value that holds exactly what the
// renderer built, under its key.
func TestTridentProtectObjectsRoundTrip(t *testing.T) {
	ctx := context.Background()
	r := tpSampleRendering(t)
	kinds := map[string]bool{}
	for _, m := range r.Manifests {
		kinds[m.Kind] = true
	}
	if len(kinds) != 4 {
		t.Fatalf("the sample renders kinds %v, want all four", kinds)
	}
	dyn, err := tridentProtectObjects(ctx, r.Manifests)
	if err != nil {
		t.Fatal(err)
	}
	tv, err := dyn.UnderlyingValue().ToTerraformValue(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := goValue(t, tv).(map[string]any)
	if !ok || len(got) != len(r.Manifests) {
		t.Fatalf("objects holds %d entries, want %d", len(got), len(r.Manifests))
	}
	for _, m := range r.Manifests {
		if !reflect.DeepEqual(got[m.Key()], m.Object) {
			t.Errorf("%s:\n got %#v\nwant %#v", m.Key(), got[m.Key()], m.Object)
		}
	}
}

func TestTerraformValueTypes(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		in   any
		want attr.Type
	}{
		{"string", "x", types.StringType},
		{"bool", true, types.BoolType},
		// Items of one list may differ in shape: a tuple, not a list.
		{"mixed list", []any{map[string]any{"a": "1"}, map[string]any{"a": "1", "b": true}}, types.TupleType{ElemTypes: []attr.Type{
			types.ObjectType{AttrTypes: map[string]attr.Type{"a": types.StringType}},
			types.ObjectType{AttrTypes: map[string]attr.Type{"a": types.StringType, "b": types.BoolType}},
		}}},
		{"empty object", map[string]any{}, types.ObjectType{AttrTypes: map[string]attr.Type{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := terraformValue(ctx, tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if !v.Type(ctx).Equal(tt.want) {
				t.Errorf("type %s, want %s", v.Type(ctx), tt.want)
			}
		})
	}
	// A number is no type a manifest holds: the error says where it is.
	_, err := terraformValue(ctx, map[string]any{"spec": []any{"a", 3}})
	if err == nil || !strings.Contains(err.Error(), ".spec[1]: a value of type int") {
		t.Errorf("error %v, want one naming .spec[1] and int", err)
	}
}

func TestTridentProtectItems(t *testing.T) {
	r := tpSampleRendering(t)
	manifests := tridentProtectManifestItems(r.Manifests)
	for i, m := range manifests {
		if m.Key.ValueString() != r.Manifests[i].Key() || m.YAML.ValueString() != r.Manifests[i].YAML || m.SourceID.ValueString() == "" {
			t.Errorf("manifest %d: %+v", i, m)
		}
	}
	secrets := tridentProtectSecretItems(r.Secrets)
	byName := map[string]tridentProtectSecretValues{}
	for _, s := range secrets {
		byName[s.Name.ValueString()] = s
	}
	pw, vault := byName["repo-passwords"], byName["s3-credentials"]
	if !pw.BucketID.IsNull() || !pw.CredentialName.IsNull() || len(pw.Keys.Elements()) != 2 {
		t.Errorf("the data mover Secret stands for no bucket: %+v", pw)
	}
	if vault.BucketID.ValueString() != "b-s3" || vault.CredentialName.ValueString() != "s3-keys" || vault.Namespace.ValueString() != "trident-protect" ||
		!reflect.DeepEqual(vault.Keys.Elements(), []attr.Value{types.StringValue("accessKeyID"), types.StringValue("secretAccessKey")}) {
		t.Errorf("the S3 bucket's Secret: %+v", vault)
	}
	warnings := tridentProtectWarningItems(r.Warnings)
	if len(warnings) != len(r.Warnings) || len(warnings) == 0 || warnings[0].Object.ValueString() != r.Warnings[0].Object {
		t.Errorf("warnings %+v, want those of the rendering %+v", warnings, r.Warnings)
	}
}

func TestWarningsByObject(t *testing.T) {
	in := []tridentprotect.Warning{
		{Object: `bucket "a" (1)`, Message: "one"}, {Object: `app "b" (2)`, Message: "two"}, {Object: `bucket "a" (1)`, Message: "three"},
	}
	want := []tridentprotect.Warning{{Object: `bucket "a" (1)`, Message: "one\n\nthree"}, {Object: `app "b" (2)`, Message: "two"}}
	if got := warningsByObject(in); !reflect.DeepEqual(got, want) {
		t.Errorf("warningsByObject = %+v, want %+v", got, want)
	}
	if got := warningsByObject(nil); len(got) != 0 {
		t.Errorf("no warnings gave %+v", got)
	}
}
