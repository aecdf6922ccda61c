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
	// types are the provider's resource types by name, each with its rules.
	types map[string]*typeRules
	// stops are the applies in flight, which StopProvider cancels.
	stops stopRequests
}

// typeRules are the rules of one resource type, derived when a request of the type first
// needs them: a CLI command uses a few of the provider's types, and each provider process
// would otherwise hold every type's rules (their schemas' types, defaults and checks),
// which were a sixth of a fleet plan's live heap, and the heap peaks at a multiple of it.
type typeRules struct {
	factory  func() resource.Resource
	withMeta bool // the provider has a meta schema
	once     sync.Once
	derived  bool // derive has run

	// rule is the known plans' and reads' rule; refused why planRuleFor refused one.
	rule    *knownRule
	refused string
	// upgrade answers the type's state upgrades (knownUpgrade); nil: the framework does.
	upgrade *upgradeRule
	// apply answers the type's creates (knownApply); applyRefused why there is none.
	apply        *applyRule
	applyRefused string
	// validation checks the type's configurations (knownValidation); validationRefused
	// why the framework does.
	validation        *validationRule
	validationRefused string
}

// newServer names the resource types of p; their rules are derived on first use (rulesOf).
func newServer(full frameworkServer, p Provider) *server {
	ctx := context.Background()
	s := &server{frameworkServer: full, provider: p, counts: &Counts{}, types: map[string]*typeRules{}}
	if counting, ok := p.(CountingProvider); ok {
		s.counts = counting.AnswerCounts()
	}
	var meta provider.MetadataResponse
	p.Metadata(ctx, provider.MetadataRequest{}, &meta)
	_, withMeta := p.(provider.ProviderWithMetaSchema)
	for _, factory := range p.Resources(ctx) {
		var typ resource.MetadataResponse
		factory().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: meta.TypeName}, &typ)
		s.types[typ.TypeName] = &typeRules{factory: factory, withMeta: withMeta}
	}
	return s
}

// rulesOf are the rules of the resource type named, derived once; nil for a type the
// provider does not have.
func (s *server) rulesOf(typeName string) *typeRules {
	t := s.types[typeName]
	if t != nil {
		t.once.Do(t.derive)
	}
	return t
}

func (t *typeRules) derive() {
	t.derived = true
	r := t.factory()
	if upgrade, ok := upgradeRuleFor(r); ok {
		t.upgrade = upgrade
	}
	switch apply, err := applyRuleFor(t.factory); {
	case t.withMeta:
		t.applyRefused = "the provider has a meta schema, whose configuration the framework decodes"
	case err != nil:
		t.applyRefused = err.Error()
	default:
		t.apply = apply
	}
	if validation, err := validationRuleFor(t.factory); err != nil {
		t.validationRefused = err.Error()
	} else {
		t.validation = validation
	}
	rule, err := planRuleFor(r)
	if err != nil {
		t.refused = err.Error()
		return
	}
	rule.factory = t.factory
	t.rule = rule
}

// planRule is the known plans' and reads' rule of the type named; false without one.
func (s *server) planRule(typeName string) (*knownRule, bool) {
	if t := s.rulesOf(typeName); t != nil && t.rule != nil {
		return t.rule, true
	}
	return nil, false
}

// applyRule is the known applies' rule of the type named; nil without one.
func (s *server) applyRule(typeName string) *applyRule {
	if t := s.rulesOf(typeName); t != nil {
		return t.apply
	}
	return nil
}

// upgradeRule is the known upgrades' rule of the type named; false without one.
func (s *server) upgradeRule(typeName string) (*upgradeRule, bool) {
	if t := s.rulesOf(typeName); t != nil && t.upgrade != nil {
		return t.upgrade, true
	}
	return nil, false
}

// validationRule is the known validations' rule of the type named; false without one.
func (s *server) validationRule(typeName string) (*validationRule, bool) {
	if t := s.rulesOf(typeName); t != nil && t.validation != nil {
		return t.validation, true
	}
	return nil, false
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
