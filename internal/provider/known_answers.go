package provider

import (
	"context"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// A fleet's plan reads and plans every resource, and its apply plans every new one twice.
// The framework reads an astra_cluster in about 2 ms of CPU and plans one in about 4 ms: it
// walks the schema of some sixty attributes several times (defaults, computed values,
// every plan modifier), rebuilding the attribute map at each step, which made it most of
// the cost of a fleet. These requests have answers known beforehand, and NewServer's
// server answers them itself; every other request goes to the framework:
//   - a read that finds the answer the state was last written from (known_reads.go);
//   - a plan that proposes the prior state, and the plan of a create (known_plans.go),
//     when the resource's own plan checks (checkPlan, the same function its ModifyPlan
//     is) have nothing to say;
//   - a state upgrade at the schema's version (known_upgrades.go);
//   - the apply of a create, around the resource's own Create (known_applies.go).
//
// Every resource of the provider takes part when planRuleFor accepts its schema (checked
// once, when the server starts): a new resource needs no registration, only checkPlan
// instead of ModifyPlan and, for reads, readAnswer. The refused ones go to the framework;
// TestKnownAnswers_coverage lists them and why. known_answers_test.go compares the
// answers with the framework's, on hand-picked cases and on random requests built from
// each schema (known_differential_test.go).

// NewServer serves p through the framework, answering the requests above itself.
func NewServer(p provider.Provider) func() (tfprotov6.ProviderServer, error) {
	return func() (tfprotov6.ProviderServer, error) {
		server, err := providerserver.NewProtocol6WithError(p)()
		if err != nil {
			return nil, err
		}
		full, ok := server.(frameworkServer)
		astraP, isAstra := p.(*astraProvider)
		if !ok || !isAstra {
			return server, nil
		}
		return newKnownAnswers(full, astraP, astraP.Resources(context.Background())), nil
	}
}

// frameworkServer is everything the framework's server implements, so the wrapper hides
// none of the optional protocol interfaces. They are deprecated only because they are to
// merge into ProviderServer; until then tf6server asks for each by name.
type frameworkServer interface {
	tfprotov6.ProviderServerWithListResource //nolint:staticcheck // see above
	tfprotov6.ProviderServerWithActions      //nolint:staticcheck // see above
	tfprotov6.ProviderServerWithStateStores  //nolint:staticcheck // see above
}

type knownAnswers struct {
	frameworkServer
	provider *astraProvider
	rules    map[string]*knownRule
	// upgrades are the resource types whose state upgrades knownUpgrade answers.
	upgrades map[string]*upgradeRule
	// refused are the resource types planRuleFor refused, and why; applyRefused those
	// applyRuleFor refused.
	refused, applyRefused map[string]string
	// applies are the resource types whose creates knownApply answers.
	applies map[string]*applyRule
	// stops are the applies in flight, which StopProvider cancels.
	stops stopRequests
}

// newKnownAnswers derives the rules of every resource of p (its resources, given apart so
// that a test can give others).
func newKnownAnswers(server frameworkServer, p *astraProvider, resources []func() resource.Resource) *knownAnswers {
	ctx := context.Background()
	s := &knownAnswers{frameworkServer: server, provider: p, rules: map[string]*knownRule{}, refused: map[string]string{},
		upgrades: map[string]*upgradeRule{}, applies: map[string]*applyRule{}, applyRefused: map[string]string{}}
	_, withMeta := any(p).(provider.ProviderWithMetaSchema)
	for _, factory := range resources {
		r := factory()
		var meta resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: typeName}, &meta)
		if upgrade, ok := upgradeRuleFor(r); ok {
			s.upgrades[meta.TypeName] = upgrade
		}
		switch apply, err := applyRuleFor(factory); {
		case withMeta:
			s.applyRefused[meta.TypeName] = "the provider has a meta schema, whose configuration the framework decodes"
		case err != nil:
			s.applyRefused[meta.TypeName] = err.Error()
		default:
			s.applies[meta.TypeName] = apply
		}
		rule, err := planRuleFor(r)
		if err != nil {
			s.refused[meta.TypeName] = err.Error()
			continue
		}
		rule.factory = factory
		s.rules[meta.TypeName] = rule
	}
	return s
}

// unwrapped is the resource identifiedByID wraps, whose own methods the rules look for.
func unwrapped(r resource.Resource) resource.Resource {
	if id, ok := r.(*identified); ok {
		return id.Resource
	}
	return r
}

// configured is a new resource of the rule's type configured as the framework configures
// one for each request (nil if that fails), unwrapped.
func (s *knownAnswers) configured(ctx context.Context, rule *knownRule) resource.Resource {
	r, ok := s.configuredAs(ctx, unwrapped(rule.factory()))
	if !ok {
		return nil
	}
	return r
}

// configuredAs is r configured as the framework configures a resource for each request;
// false if that reports anything.
func (s *knownAnswers) configuredAs(ctx context.Context, r resource.Resource) (resource.Resource, bool) {
	if c, ok := r.(resource.ResourceWithConfigure); ok {
		var data any
		if d := s.provider.configured.Load(); d != nil {
			data = d
		}
		var resp resource.ConfigureResponse
		c.Configure(ctx, resource.ConfigureRequest{ProviderData: data}, &resp)
		if len(resp.Diagnostics) > 0 {
			return nil, false
		}
	}
	return r, true
}

// defers: the framework answers Deferred to every read and plan once Configure deferred,
// which the known answers never do, so they leave it the requests. A request that merely
// allows deferrals (Terraform 1.16 allows them in every apply) is answered as any other:
// the framework defers one only when Configure did or when the resource's own code does,
// and no resource of this provider defers (TestKnownAnswers_defers checks the sources).
func (s *knownAnswers) defers() bool {
	return s.provider.deferred.Load()
}

func (s *knownAnswers) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	if resp := s.knownPlan(ctx, req); resp != nil {
		s.provider.answered.add("plan " + req.TypeName)
		return resp, nil
	}
	return s.frameworkServer.PlanResourceChange(ctx, req)
}

func (s *knownAnswers) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	if resp := s.unchangedRead(ctx, req); resp != nil {
		s.provider.answered.add("read " + req.TypeName)
		return resp, nil
	}
	return s.frameworkServer.ReadResource(ctx, req)
}

// answerCounts counts answered requests by key.
type answerCounts struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *answerCounts) add(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[key]++
}

// get is the count of key so far.
func (c *answerCounts) get(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[key]
}
