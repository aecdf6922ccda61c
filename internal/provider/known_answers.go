package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// A fleet's plan reads and plans every resource, and its apply plans every new one twice.
// The framework reads an astra_cluster in about 2 ms of CPU and plans one in about 4 ms: it
// walks the schema of some sixty attributes several times (defaults, computed values,
// every plan modifier), rebuilding the attribute map at each step, which made it most of
// the cost of a fleet. Three requests have answers known beforehand, and NewServer's
// server answers them itself; every other request goes to the framework:
//   - a read that finds the answer the state was last written from (known_reads.go);
//   - a plan that proposes exactly the prior state, and the plan of a create
//     (known_plans.go), when no nested default or computed value needs the framework and
//     the resource's own plan checks (the same functions) have nothing to say.
// known_answers_test.go compares every such answer with the framework's.

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
		return newKnownAnswers(full, astraP), nil
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
	version string // the provider's release (see answerRecord)
	plans   map[string]planRule
	// reads fetch a resource's object by ID and return the digest of the answer.
	reads map[string]func(ctx context.Context, id string) (string, bool)
}

// newKnownAnswers sets the rules for astra_cluster, the resource a fleet has many of.
func newKnownAnswers(server frameworkServer, p *astraProvider) *knownAnswers {
	configuredClient := func() *clientHolder { return &clientHolder{data: p.configured.Load()} }
	s := &knownAnswers{frameworkServer: server, version: p.version, plans: map[string]planRule{},
		reads: map[string]func(context.Context, string) (string, bool){}}
	cluster := typeName + "_cluster"
	// The checks clusterResource.ModifyPlan makes, on raw values (prior is nil on create).
	quiet := func(config, prior map[string]tftypes.Value) bool {
		cfg, ok := clusterValuesFromRaw(config)
		if !ok {
			return false
		}
		var before clusterValues
		if prior != nil {
			if before, ok = clusterValuesFromRaw(prior); !ok {
				return false
			}
		}
		client := configuredClient().configuredClient()
		return len(clusterPlanProblems(cfg, before, client)) == 0 &&
			len(clusterReferenceProblems(context.Background(), client, cfg, before)) == 0
	}
	if rule, ok := planRuleFor(newClusterResource(), quiet); ok {
		s.plans[cluster] = rule
	}
	s.reads[cluster] = func(ctx context.Context, id string) (string, bool) {
		client := configuredClient().configuredClient()
		if client == nil {
			return "", false
		}
		c, err := client.GetCluster(ctx, "", id)
		if err != nil {
			return "", false
		}
		return answerDigest(c)
	}
	return s
}

func (s *knownAnswers) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	if resp := s.knownPlan(req); resp != nil {
		return resp, nil
	}
	return s.frameworkServer.PlanResourceChange(ctx, req)
}

func (s *knownAnswers) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	if resp := s.unchangedRead(ctx, req); resp != nil {
		return resp, nil
	}
	return s.frameworkServer.ReadResource(ctx, req)
}
