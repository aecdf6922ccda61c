package provider

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/float64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// TestKnownAnswers_coverage lists which resource types the known answers take, and which
// they leave to the framework and why. A type is taken when it has checkPlan instead of
// ModifyPlan (and readAnswer for reads), else it is listed here with the reason. The app is
// refused for its nested default.
func TestKnownAnswers_coverage(t *testing.T) {
	s := newKnownAnswers(nil, New("test")().(*astraProvider), New("test")().Resources(context.Background()))
	for typ, reads := range map[string]bool{
		"astra_cluster": true, "astra_managed_cluster": true, "astra_cloud": true, "astra_bucket": true,
		"astra_kubeconfig_credential": true, "astra_s3_credential": true, "astra_service_account_credential": true,
		"astra_protection_policy": true,
	} {
		rule, ok := s.rules[typ]
		if !ok {
			t.Errorf("%s is left to the framework: %s", typ, s.refused[typ])
			continue
		}
		if rule.reads != reads {
			t.Errorf("%s: known reads %v, want %v", typ, rule.reads, reads)
		}
	}
	if got := s.refused["astra_app"]; !strings.Contains(got, "nested default") {
		t.Errorf("astra_app: refused for %q, want its nested default", got)
	}
	if !s.rules["astra_kubeconfig_credential"].writeOnly["kubeconfig_wo"] {
		t.Errorf("kubeconfig_wo is not planned null")
	}
	for _, typ := range sortedKeys(s.rules) {
		t.Logf("known answers: %s (reads %v)", typ, s.rules[typ].reads)
	}
	for _, typ := range sortedKeys(s.refused) {
		if s.refused[typ] == "" {
			t.Errorf("%s is refused without a reason", typ)
		}
		t.Logf("left to the framework: %s: %s", typ, s.refused[typ])
	}
}

// variantResource is a resource with any schema, for planRuleFor.
type variantResource struct {
	schema schema.Schema
}

func (r *variantResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = "astra_variant"
}
func (r *variantResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = r.schema
}
func (r *variantResource) Create(context.Context, resource.CreateRequest, *resource.CreateResponse) {}
func (r *variantResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse)       {}
func (r *variantResource) Update(context.Context, resource.UpdateRequest, *resource.UpdateResponse) {}
func (r *variantResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// variantWithModifyPlan has its own ModifyPlan, which may change a plan.
type variantWithModifyPlan struct{ variantResource }

func (r *variantWithModifyPlan) ModifyPlan(context.Context, resource.ModifyPlanRequest, *resource.ModifyPlanResponse) {
}

// actsOnCreate is a plan modifier outside the known list: it sets a value on create.
type actsOnCreate struct{}

func (actsOnCreate) Description(context.Context) string         { return "sets x" }
func (actsOnCreate) MarkdownDescription(context.Context) string { return "sets x" }
func (actsOnCreate) PlanModifyString(_ context.Context, _ planmodifier.StringRequest, resp *planmodifier.StringResponse) {
}

// TestKnownAnswers_refusedSchemas: each schema shape the known answers cannot answer
// exactly for is refused, naming what; the shapes they model are accepted.
func TestKnownAnswers_refusedSchemas(t *testing.T) {
	id := schema.StringAttribute{Computed: true}
	with := func(name string, a schema.Attribute) schema.Schema {
		return schema.Schema{Attributes: map[string]schema.Attribute{"id": id, name: a}}
	}
	cases := []struct {
		name    string
		r       resource.Resource
		refused string // "" when accepted
	}{
		{name: "a block", refused: "it has blocks (b)", r: &variantResource{schema: schema.Schema{
			Attributes: map[string]schema.Attribute{"id": id},
			Blocks:     map[string]schema.Block{"b": schema.SingleNestedBlock{Attributes: map[string]schema.Attribute{"x": schema.StringAttribute{Optional: true}}}}}}},
		{name: "an unknown plan modifier", refused: "plan modifier provider.actsOnCreate is not one the known answers model",
			r: &variantResource{schema: with("x", schema.StringAttribute{Optional: true, PlanModifiers: []planmodifier.String{actsOnCreate{}}})}},
		// RequiresReplaceIfConfigured is RequiresReplaceIf, whose function only runs on a change.
		{name: "RequiresReplaceIfConfigured",
			r: &variantResource{schema: with("x", schema.StringAttribute{Optional: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplaceIfConfigured()}})}},
		{name: "a nested default", refused: "a nested default",
			r: &variantResource{schema: with("n", schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
				"x": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("d")}}})}},
		{name: "computed nested in settable", refused: "a computed attribute nested in one a configuration sets",
			r: &variantResource{schema: with("n", schema.ListNestedAttribute{Optional: true, NestedObject: schema.NestedAttributeObject{
				Attributes: map[string]schema.Attribute{"x": schema.StringAttribute{Computed: true}}}})}},
		{name: "a nested write-only attribute", refused: "a nested write-only attribute",
			r: &variantResource{schema: with("n", schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
				"x": schema.StringAttribute{Optional: true, WriteOnly: true}}})}},
		{name: "a dynamic attribute", refused: "its kind (schema.DynamicAttribute)",
			r: &variantResource{schema: with("d", schema.DynamicAttribute{Optional: true})}},
		{name: "a default it does not read", refused: "a default of a kind (schema.Float64Attribute)",
			r: &variantResource{schema: with("f", schema.Float64Attribute{Optional: true, Computed: true, Default: float64default.StaticFloat64(1)})}},
		{name: "its own ModifyPlan", refused: "it has its own ModifyPlan",
			r: &variantWithModifyPlan{variantResource{schema: with("x", schema.StringAttribute{Optional: true})}}},
		{name: "its own ModifyPlan, wrapped", refused: "it has its own ModifyPlan",
			r: &identified{Resource: &variantWithModifyPlan{variantResource{schema: with("x", schema.StringAttribute{Optional: true})}}}},
		{name: "a top-level write-only attribute: planned null",
			r: &variantResource{schema: with("secret", schema.StringAttribute{Optional: true, WriteOnly: true})}},
		{name: "a computed nested attribute nobody sets, known modifiers, a top-level default",
			r: &variantResource{schema: schema.Schema{Attributes: map[string]schema.Attribute{"id": id,
				"n": schema.SingleNestedAttribute{Computed: true, Attributes: map[string]schema.Attribute{"x": schema.StringAttribute{Computed: true}}},
				"r": schema.StringAttribute{Required: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace(), stringplanmodifier.UseStateForUnknown()}},
				"d": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("d")},
			}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rule, err := planRuleFor(c.r)
			switch {
			case c.refused == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.refused == "":
				if rule.writeOnly["secret"] != strings.Contains(c.name, "write-only") {
					t.Errorf("write-only attributes %v", rule.writeOnly)
				}
			case err == nil:
				t.Fatalf("accepted, want refused for %q", c.refused)
			case !strings.Contains(err.Error(), c.refused):
				t.Fatalf("refused for %q, want %q", err, c.refused)
			}
		})
	}
}

// TestKnownAnswers_defers: a request that allows deferrals, also after a Configure that
// allowed them, takes the known answer, the framework's own (which does not defer: nothing
// did); once Configure deferred, every plan and read goes to the framework, which answers
// Deferred where the known answers never do. No resource of the package defers itself,
// the premise of the first part: its sources assign no response's Deferred.
func TestKnownAnswers_defers(t *testing.T) {
	f := newAnswersFixture(t)
	ctx := context.Background()
	plan := func(allow bool) *tfprotov6.PlanResourceChangeRequest {
		req := &tfprotov6.PlanResourceChangeRequest{TypeName: "astra_cluster", PriorState: f.dynamic(t, f.state),
			ProposedNewState: f.dynamic(t, f.state), Config: f.dynamic(t, f.config()), PriorIdentity: f.identity, PriorPrivate: f.private}
		if allow {
			req.ClientCapabilities = &tfprotov6.PlanResourceChangeClientCapabilities{DeferralAllowed: true}
		}
		return req
	}
	read := func(allow bool) *tfprotov6.ReadResourceRequest {
		req := &tfprotov6.ReadResourceRequest{TypeName: "astra_cluster", CurrentState: f.dynamic(t, f.state), CurrentIdentity: f.identity, Private: f.private}
		if allow {
			req.ClientCapabilities = &tfprotov6.ReadResourceClientCapabilities{DeferralAllowed: true}
		}
		return req
	}
	takenAsFramework := func(when string) {
		t.Helper()
		gotPlan, gotRead := f.fast.knownPlan(ctx, plan(true)), f.fast.unchangedRead(ctx, read(true))
		if gotPlan == nil || gotRead == nil {
			t.Fatalf("%s: a request allowing deferrals did not take the known answer (plan %v, read %v)", when, gotPlan != nil, gotRead != nil)
		}
		wantPlan, err := f.framework.PlanResourceChange(ctx, plan(true))
		if err != nil {
			t.Fatal(err)
		}
		wantRead := f.frameworkRead(t, read(true))
		if wantPlan.Deferred != nil || wantRead.Deferred != nil {
			t.Fatalf("%s: the framework deferred (plan %v, read %v)", when, wantPlan.Deferred, wantRead.Deferred)
		}
		if d := planDiff(f.typ, identityType, gotPlan, wantPlan); d != "" {
			t.Errorf("%s: plan differs from the framework's: %s", when, d)
		}
		if d := readDiff(f.typ, identityType, gotRead, wantRead); d != "" {
			t.Errorf("%s: read differs from the framework's: %s", when, d)
		}
	}
	takenAsFramework("a request allowing deferrals")
	if _, err := f.fast.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: f.providerConfig(t),
		ClientCapabilities: &tfprotov6.ConfigureProviderClientCapabilities{DeferralAllowed: true}}); err != nil {
		t.Fatal(err)
	}
	takenAsFramework("after a Configure that allowed deferrals")
	f.fast.provider.deferred.Store(true)
	if f.fast.knownPlan(ctx, plan(false)) != nil || f.fast.unchangedRead(ctx, read(false)) != nil {
		t.Error("a known answer after Configure deferred")
	}

	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if assign, ok := n.(*ast.AssignStmt); ok {
				for _, lhs := range assign.Lhs {
					if sel, ok := lhs.(*ast.SelectorExpr); ok && sel.Sel.Name == "Deferred" {
						t.Errorf("%s: assigns %s.Deferred: the known answers must then leave that resource's requests to the framework",
							fset.Position(assign.Pos()), sel.X)
					}
				}
			}
			return true
		})
	}
}
