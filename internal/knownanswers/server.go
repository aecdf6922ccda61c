package knownanswers

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
// the cost of a fleet. The requests the package doc lists have answers known beforehand;
// the server answers them itself and passes every other request to the framework.

// Provider is a provider the layer serves: the framework's provider, plus what the layer
// needs to call its resources as the framework calls them.
type Provider interface {
	provider.Provider
	// ResourceData is the ResourceData its last Configure handed to resources, nil before
	// one: the layer configures each resource it calls with it.
	ResourceData() any
	// ConfigureDeferred: its last Configure answered Deferred. The framework then defers
	// every read and plan, which the layer never does, so it answers none.
	ConfigureDeferred() bool
}

// CountingProvider keeps the counts of what the layer answered, shared by every server of
// the provider (a CLI starts one per command; tests assert the counts).
type CountingProvider interface {
	Provider
	AnswerCounts() *Counts
}

// NewServer serves p through the framework, with the known answers in front of it when p
// is a Provider and the switch (SwitchVariable) leaves them on.
func NewServer(p provider.Provider) func() (tfprotov6.ProviderServer, error) {
	return func() (tfprotov6.ProviderServer, error) {
		server, err := providerserver.NewProtocol6WithError(p)()
		if err != nil {
			return nil, err
		}
		full, ok := server.(frameworkServer)
		known, takesPart := p.(Provider)
		if !ok || !takesPart {
			return server, nil
		}
		full = released{full} // released.go: what the framework keeps of each request
		switch on, err := Enabled(); {
		case err != nil: // the framework alone, and Configure reports it where the CLI shows it
			return &refusedSwitch{frameworkServer: full, problem: err}, nil //nolint:nilerr // reported at Configure
		case !on:
			return full, nil
		}
		return newServer(full, known), nil
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

// server is the framework's server with the known answers in front.
type server struct {
	frameworkServer
	provider Provider
	counts   *Counts
	rules    map[string]*knownRule
	// upgrades are the resource types whose state upgrades knownUpgrade answers.
	upgrades map[string]*upgradeRule
	// refused are the resource types planRuleFor refused, and why; applyRefused those
	// applyRuleFor refused.
	refused, applyRefused map[string]string
	// applies are the resource types whose creates knownApply answers.
	applies map[string]*applyRule
	// validations are the resource types whose configurations knownValidation checks;
	// validationRefused those it leaves to the framework, and why.
	validations       map[string]*validationRule
	validationRefused map[string]string
	// stops are the applies in flight, which StopProvider cancels.
	stops stopRequests
}

// newServer derives the rules of every resource of p.
func newServer(full frameworkServer, p Provider) *server {
	ctx := context.Background()
	s := &server{frameworkServer: full, provider: p, counts: &Counts{}, rules: map[string]*knownRule{}, refused: map[string]string{},
		upgrades: map[string]*upgradeRule{}, applies: map[string]*applyRule{}, applyRefused: map[string]string{},
		validations: map[string]*validationRule{}, validationRefused: map[string]string{}}
	if counting, ok := p.(CountingProvider); ok {
		s.counts = counting.AnswerCounts()
	}
	var meta provider.MetadataResponse
	p.Metadata(ctx, provider.MetadataRequest{}, &meta)
	_, withMeta := p.(provider.ProviderWithMetaSchema)
	for _, factory := range p.Resources(ctx) {
		r := factory()
		var typ resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: meta.TypeName}, &typ)
		if upgrade, ok := upgradeRuleFor(r); ok {
			s.upgrades[typ.TypeName] = upgrade
		}
		switch apply, err := applyRuleFor(factory); {
		case withMeta:
			s.applyRefused[typ.TypeName] = "the provider has a meta schema, whose configuration the framework decodes"
		case err != nil:
			s.applyRefused[typ.TypeName] = err.Error()
		default:
			s.applies[typ.TypeName] = apply
		}
		if validation, err := validationRuleFor(factory); err != nil {
			s.validationRefused[typ.TypeName] = err.Error()
		} else {
			s.validations[typ.TypeName] = validation
		}
		rule, err := planRuleFor(r)
		if err != nil {
			s.refused[typ.TypeName] = err.Error()
			continue
		}
		rule.factory = factory
		s.rules[typ.TypeName] = rule
	}
	return s
}

// configured is a new resource of the rule's type configured as the framework configures
// one for each request (nil if that fails), unwrapped.
func (s *server) configured(ctx context.Context, rule *knownRule) resource.Resource {
	r, ok := s.configuredAs(ctx, unwrapped(rule.factory()))
	if !ok {
		return nil
	}
	return r
}

// configuredAs is r configured as the framework configures a resource for each request;
// false if that reports anything.
func (s *server) configuredAs(ctx context.Context, r resource.Resource) (resource.Resource, bool) {
	if c, ok := r.(resource.ResourceWithConfigure); ok {
		var resp resource.ConfigureResponse
		c.Configure(ctx, resource.ConfigureRequest{ProviderData: s.provider.ResourceData()}, &resp)
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
func (s *server) defers() bool {
	return s.provider.ConfigureDeferred()
}

func (s *server) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	if resp := s.knownPlan(ctx, req); resp != nil {
		s.counts.Add("plan " + req.TypeName)
		return resp, nil
	}
	return s.frameworkServer.PlanResourceChange(ctx, req)
}

func (s *server) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	if resp := s.unchangedRead(ctx, req); resp != nil {
		s.counts.Add("read " + req.TypeName)
		return resp, nil
	}
	return s.frameworkRead(ctx, req)
}

// Counts counts answered requests by kind and resource type ("read astra_cluster").
type Counts struct {
	mu sync.Mutex
	n  map[string]int
}

// Add counts one more of key.
func (c *Counts) Add(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[key]++
}

// Get is the count of key so far.
func (c *Counts) Get(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[key]
}
