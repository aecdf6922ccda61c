package knownanswers_test

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
	"github.com/astra-control/terraform-provider-astra/internal/provider"
)

// The known validations in the differential: configurations from the objects the service
// holds (mostly valid), with one argument now and then changed, null or unknown, and
// random ones (mostly invalid), with and without the CLI's write-only support.

// validation is a random validation request of typeName.
func (g *requestGen) validation(typeName string, s *tfprotov6.Schema, bases []readBase) *tfprotov6.ValidateResourceConfigRequest {
	typ := s.ValueType()
	req := &tfprotov6.ValidateResourceConfigRequest{TypeName: typeName}
	if n := g.Rand.Intn(3); n > 0 {
		req.ClientCapabilities = &tfprotov6.ValidateResourceConfigClientCapabilities{WriteOnlyAttributesAllowed: n == 1}
	}
	var of []readBase
	for _, b := range bases {
		if b.typeName == typeName {
			of = append(of, b)
		}
	}
	config := g.object(s, nil)
	if len(of) > 0 && g.Rand.Intn(4) != 0 {
		config = g.configOf(of[g.Rand.Intn(len(of))].state, s)
	}
	if g.Rand.Intn(40) != 0 { // else none: the framework answers nothing
		req.Config = dynamic(typ, config)
	}
	return req
}

// configOf is the configuration of an object's state: its arguments, write-only ones null
// or from the pools, and half the time one argument changed (a random value, possibly
// unknown; null; unknown).
func (g *requestGen) configOf(state tftypes.Value, s *tfprotov6.Schema) tftypes.Value {
	var prior map[string]tftypes.Value
	_ = state.As(&prior)
	changed := ""
	if g.Rand.Intn(2) == 0 {
		changed = s.Block.Attributes[g.Rand.Intn(len(s.Block.Attributes))].Name
	}
	config := map[string]tftypes.Value{}
	for _, a := range s.Block.Attributes {
		typ := a.ValueType()
		switch {
		case a.Name == changed:
			config[a.Name] = []tftypes.Value{g.attribute(a.Name, typ, true), tftypes.NewValue(typ, nil),
				tftypes.NewValue(typ, tftypes.UnknownValue)}[g.Rand.Intn(3)]
		case a.Computed && !a.Optional && !a.Required:
			config[a.Name] = tftypes.NewValue(typ, nil)
		case a.WriteOnly:
			config[a.Name] = []tftypes.Value{tftypes.NewValue(typ, nil), g.attribute(a.Name, typ, false)}[g.Rand.Intn(2)]
		default:
			config[a.Name] = prior[a.Name]
		}
	}
	return tftypes.NewValue(s.ValueType(), config)
}

// validationRound validates one random configuration of every resource type.
func (g *requestGen) validationRound(t *testing.T, bases []readBase, counts map[string]int) {
	t.Helper()
	for _, typeName := range sortedKeys(g.f.schemas.ResourceSchemas) {
		g.compareValidation(t, typeName, bases, counts)
	}
}

// compareValidation sends a random validation of typeName to the known answers and to the
// bare framework and compares their diagnostics.
func (g *requestGen) compareValidation(t *testing.T, typeName string, bases []readBase, counts map[string]int) {
	t.Helper()
	s := g.f.schemas.ResourceSchemas[typeName]
	req := g.validation(typeName, s, bases)
	got, want, shortcut, err := served(context.Background(), req, g.f.fast.KnownValidation, g.f.fast.Framework().ValidateResourceConfig, g.f.framework.ValidateResourceConfig)
	if err != nil {
		t.Fatalf("seed %d: %s validation: %v", g.seed, typeName, err)
	}
	counts[typeName+"/validate/"+taken(shortcut)]++
	g.sameOnGRPC(t, req, got, shortcut, counts)
	if a, b := sortedDiagnostics(got.Diagnostics), sortedDiagnostics(want.Diagnostics); a != b {
		config := "none"
		if req.Config != nil {
			v, _ := req.Config.Unmarshal(s.ValueType())
			config = v.String()
		}
		t.Errorf("seed %d: %s validation (shortcut %v) differs from the framework's: %q, want %q\nconfig %s", g.seed, typeName, shortcut, a, b, config)
	}
}

// sortedDiagnostics are diagnostics with their severities and paths, sorted: the framework
// validates attributes in map order, so two of its answers list them in any order.
func sortedDiagnostics(diags []*tfprotov6.Diagnostic) string {
	lines := make([]string, 0, len(diags))
	for _, d := range diags {
		lines = append(lines, diagnosticsWithPaths([]*tfprotov6.Diagnostic{d}))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// TestKnownValidations_coverage: the resource types of the fleet and their neighbours
// declare their checks pure and are validated by the known answers; any other type is
// either validated or left to the framework with the reason; a type none of them knows, and
// a resource that does not declare it (as a new resource until it does), go to the
// framework.
func TestKnownValidations_coverage(t *testing.T) {
	p := &withUndeclared{Provider: provider.New("test")().(knownanswers.Provider)}
	s := knownServer(t, p)
	validations, refused := s.Validations(), s.ValidationRefused()
	for _, typ := range []string{"astra_cluster", "astra_managed_cluster", "astra_cloud", "astra_bucket", "astra_app",
		"astra_kubeconfig_credential", "astra_s3_credential", "astra_service_account_credential", "astra_protection_policy",
		"astra_hook_source", "astra_execution_hook", "astra_app_snapshot", "astra_app_backup"} {
		if !validations[typ] {
			t.Errorf("%s: validations are left to the framework: %s", typ, refused[typ])
		}
	}
	for _, factory := range p.Resources(context.Background()) {
		var meta resource.MetadataResponse
		factory().Metadata(context.Background(), resource.MetadataRequest{ProviderTypeName: "astra"}, &meta)
		if !validations[meta.TypeName] && refused[meta.TypeName] == "" {
			t.Errorf("%s: neither validated nor refused with a reason", meta.TypeName)
		}
	}
	if got := refused[undeclaredType]; !strings.Contains(got, "PureValidator") {
		t.Errorf("%s: refused for %q, want the missing declaration", undeclaredType, got)
	}
	ctx := context.Background()
	schemas, err := s.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, typeName := range []string{undeclaredType, "astra_not_a_resource"} {
		var typ tftypes.Type = tftypes.Object{AttributeTypes: map[string]tftypes.Type{}}
		config := dynamic(typ, tftypes.NewValue(typ, map[string]tftypes.Value{}))
		if s := schemas.ResourceSchemas[typeName]; s != nil {
			typ = s.ValueType()
			config = dynamic(typ, configWith(s, map[string]tftypes.Value{
				"cloud_id": tftypes.NewValue(tftypes.String, "0e3c6a39-6bd1-4d6e-9b59-3f6a4a5e2b11")}))
		}
		req := &tfprotov6.ValidateResourceConfigRequest{TypeName: typeName, Config: config}
		if resp := s.KnownValidation(ctx, req); resp != nil {
			t.Errorf("%s: the known answers validated it", typeName)
		}
		resp, err := s.ValidateResourceConfig(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if n := s.Counts().Get("validate " + typeName); n != 0 {
			t.Errorf("%s: counted %d known validations", typeName, n)
		}
		t.Logf("%s: the framework answered %q", typeName, sortedDiagnostics(resp.Diagnostics))
	}
	if resp, _ := s.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: "astra_not_a_resource"}); !strings.Contains(
		sortedDiagnostics(resp.Diagnostics), "Resource Type Not Found") {
		t.Errorf("an unknown type: the framework's answer is %q, want its Resource Type Not Found", sortedDiagnostics(resp.Diagnostics))
	}
	for _, typ := range sortedKeys(refused) {
		t.Logf("validations left to the framework: %s: %s", typ, refused[typ])
	}
}

// undeclaredType is a resource that does not declare its checks pure: the cluster's
// schema and checks under another name, as a resource another engineer adds.
const undeclaredType = "astra_undeclared"

// withUndeclared is the provider with undeclaredType added.
type withUndeclared struct{ knownanswers.Provider }

func (p *withUndeclared) Resources(ctx context.Context) []func() resource.Resource {
	out := p.Provider.Resources(ctx)
	cluster := out[0]
	return append(out, func() resource.Resource { return &undeclared{cluster()} })
}

// undeclared hides every method of the resource it embeds but those of resource.Resource.
type undeclared struct{ resource.Resource }

func (*undeclared) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = undeclaredType
}

// configWith is a configuration of s with the given attributes set, the others null.
func configWith(s *tfprotov6.Schema, set map[string]tftypes.Value) tftypes.Value {
	values := map[string]tftypes.Value{}
	for _, a := range s.Block.Attributes {
		values[a.Name] = tftypes.NewValue(a.ValueType(), nil)
		if v, ok := set[a.Name]; ok {
			values[a.Name] = v
		}
	}
	return tftypes.NewValue(s.ValueType(), values)
}
