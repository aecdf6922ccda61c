package knownanswers_test

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
	"github.com/astra-control/terraform-provider-astra/internal/provider"
)

// TestKnownAnswers_coverage lists which resource types the known answers take, and which
// they leave to the framework and why. A type is taken when it has CheckPlan instead of a
// ModifyPlan of its own (and ReadAnswer for reads), else it is listed here with the reason.
// The app is refused for its nested default.
func TestKnownAnswers_coverage(t *testing.T) {
	s := knownServer(t, provider.New("test")())
	rules, refused := s.Rules(), s.Refused()
	for typ, reads := range map[string]bool{
		"astra_cluster": true, "astra_managed_cluster": true, "astra_cloud": true, "astra_bucket": true,
		"astra_kubeconfig_credential": true, "astra_s3_credential": true, "astra_service_account_credential": true,
		"astra_protection_policy": true, "astra_hook_source": true, "astra_execution_hook": true,
		"astra_app_snapshot": true, "astra_app_backup": true,
	} {
		rule, ok := rules[typ]
		if !ok {
			t.Errorf("%s is left to the framework: %s", typ, refused[typ])
			continue
		}
		if rule.Reads != reads {
			t.Errorf("%s: known reads %v, want %v", typ, rule.Reads, reads)
		}
	}
	if got := refused["astra_app"]; !strings.Contains(got, "nested default") {
		t.Errorf("astra_app: refused for %q, want its nested default", got)
	}
	if !rules["astra_kubeconfig_credential"].WriteOnly["kubeconfig_wo"] {
		t.Errorf("kubeconfig_wo is not planned null")
	}
	// The private keys each resource writes, which the differential sends and the known
	// applies pass on: the seal, and the kubeconfig credential's last API server.
	for typ, keys := range s.PrivateKeys() {
		want := knownanswers.AnswerKey
		if typ == "astra_kubeconfig_credential" {
			want += "," + serverPrivateKey
		}
		if got := strings.Join(keys, ","); got != want {
			t.Errorf("%s writes the private keys %s, want %s", typ, got, want)
		}
	}
	for _, typ := range sortedKeys(rules) {
		t.Logf("known answers: %s (reads %v)", typ, rules[typ].Reads)
	}
	for _, typ := range sortedKeys(refused) {
		if refused[typ] == "" {
			t.Errorf("%s is refused without a reason", typ)
		}
		t.Logf("left to the framework: %s: %s", typ, refused[typ])
	}
}

// deferring is a provider whose Configure the test can make look deferred.
type deferring struct {
	knownanswers.Provider
	deferred atomic.Bool
}

func (p *deferring) ConfigureDeferred() bool { return p.deferred.Load() }

// TestKnownAnswers_defers: a request that allows deferrals, also after a Configure that
// allowed them, takes the known answer, the framework's own (which does not defer: nothing
// did); once Configure deferred, every plan and read goes to the framework, which answers
// Deferred where the known answers never do. No resource of the package defers itself,
// the premise of the first part: its sources assign no response's Deferred.
func TestKnownAnswers_defers(t *testing.T) {
	f := newAnswersFixture(t)
	ctx := context.Background()
	p := &deferring{Provider: provider.New("test")().(knownanswers.Provider)}
	fast := knownServer(t, p)
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
		gotPlan, gotRead := fast.KnownPlan(ctx, plan(true)), fast.UnchangedRead(ctx, read(true))
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
	if _, err := fast.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: f.providerConfig(t)}); err != nil {
		t.Fatal(err)
	}
	takenAsFramework("a request allowing deferrals")
	if _, err := fast.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: f.providerConfig(t),
		ClientCapabilities: &tfprotov6.ConfigureProviderClientCapabilities{DeferralAllowed: true}}); err != nil {
		t.Fatal(err)
	}
	takenAsFramework("after a Configure that allowed deferrals")
	p.deferred.Store(true)
	if fast.KnownPlan(ctx, plan(false)) != nil || fast.UnchangedRead(ctx, read(false)) != nil {
		t.Error("a known answer after Configure deferred")
	}

	// The provider's sources, beside this package's.
	files, err := filepath.Glob(filepath.Join("..", "provider", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("the provider's sources: %v %v", files, err)
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
