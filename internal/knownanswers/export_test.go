package knownanswers

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// What the tests of package knownanswers_test, which serve the provider's real resources,
// read of the server.

// Server is the layer's server.
type Server = server

// Rule is what the tests read of a resource type's plan and read rule.
type Rule struct {
	Reads bool
	// ReadsBytes: its reads are first matched on the bytes (AnswerBytesReader).
	ReadsBytes   bool
	IdentityType tftypes.Type // nil without an identity
	Defaults     map[string]tftypes.Value
	WriteOnly    map[string]bool
}

// Rules are the rules of the types the known plans take.
func (s *server) Rules() map[string]Rule {
	out := map[string]Rule{}
	for typ, t := range s.allRules() {
		r := t.rule
		if r == nil {
			continue
		}
		_, byBytes := unwrapped(r.factory()).(AnswerBytesReader)
		out[typ] = Rule{Reads: r.reads, ReadsBytes: r.reads && byBytes, IdentityType: r.identityType, Defaults: r.defaults, WriteOnly: r.writeOnly}
	}
	return out
}

// Refused are the types the known plans leave to the framework, and why.
func (s *server) Refused() map[string]string {
	return s.reasons(func(t *typeRules) string { return t.refused })
}

// reasons are, by type, what why says of the type's rules, where it says anything.
func (s *server) reasons(why func(*typeRules) string) map[string]string {
	out := map[string]string{}
	for typ, t := range s.allRules() {
		if reason := why(t); reason != "" {
			out[typ] = reason
		}
	}
	return out
}

// Derived are the types whose rules were derived so far, sorted.
func (s *server) Derived() []string {
	var out []string
	for typ, t := range s.types {
		if t.derived {
			out = append(out, typ)
		}
	}
	slices.Sort(out)
	return out
}

// allRules are every type's rules, all derived.
func (s *server) allRules() map[string]*typeRules {
	for typ := range s.types {
		s.rulesOf(typ)
	}
	return s.types
}

// Upgrades tells whether the known upgrades take typ.
func (s *server) Upgrades(typ string) bool { _, ok := s.upgradeRule(typ); return ok }

// Applies are the object types of the types whose creates the known applies take.
func (s *server) Applies() map[string]tftypes.Type {
	out := map[string]tftypes.Type{}
	for typ, t := range s.allRules() {
		if t.apply != nil {
			out[typ] = t.apply.typ
		}
	}
	return out
}

// ApplyRefused are the types whose creates go to the framework, and why.
func (s *server) ApplyRefused() map[string]string {
	return s.reasons(func(t *typeRules) string { return t.applyRefused })
}

// PrivateKeys are, by type, the private keys its resource may write.
func (s *server) PrivateKeys() map[string][]string {
	ctx := context.Background()
	var meta provider.MetadataResponse
	s.provider.Metadata(ctx, provider.MetadataRequest{}, &meta)
	out := map[string][]string{}
	for _, factory := range s.provider.Resources(ctx) {
		r := factory()
		var typ resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: meta.TypeName}, &typ)
		out[typ.TypeName] = privateKeysOf(r)
	}
	return out
}

// Counts are the server's counts of its answers.
func (s *server) Counts() *Counts { return s.counts }

// Framework is the framework's server it wraps.
func (s *server) Framework() tfprotov6.ProviderServer { return s.frameworkServer }

// FrameworkRead is the framework's read as the layer sends it (the seal of its bytes added).
func (s *server) FrameworkRead(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return s.frameworkRead(ctx, req)
}

// InFlight is how many applies StopProvider would cancel.
func (s *server) InFlight() int {
	s.stops.Lock()
	defer s.stops.Unlock()
	return len(s.stops.cancels)
}

func (s *server) KnownPlan(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) *tfprotov6.PlanResourceChangeResponse {
	return s.knownPlan(ctx, req)
}

func (s *server) UnchangedRead(ctx context.Context, req *tfprotov6.ReadResourceRequest) *tfprotov6.ReadResourceResponse {
	return s.unchangedRead(ctx, req)
}

func (s *server) KnownApply(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) *tfprotov6.ApplyResourceChangeResponse {
	return s.knownApply(ctx, req)
}

func (s *server) KnownUpgrade(_ context.Context, req *tfprotov6.UpgradeResourceStateRequest) *tfprotov6.UpgradeResourceStateResponse {
	return s.knownUpgrade(req)
}

// Seal is the seal RecordAnswer writes for an object of the given ID, answer and state,
// by the given build ("" for this one's), as private state holds it.
func Seal(build, id string, answer any, state tftypes.Value) (string, bool) {
	if build == "" {
		build = buildKey()
	}
	sum, ok := answerDigest(answer)
	return answerSeal(build, id, sum, stateDigest(state)), ok
}

// RecordedSeal is the seal a private state holds.
func RecordedSeal(private []byte) (string, bool) {
	_, keys, ok := canonicalPrivate(private)
	if !ok {
		return "", false
	}
	return sealIn(keys, answerKey)
}

// AnswerKey is the private key of the seal; AnswerBytesKey that of the bytes' seal.
const (
	AnswerKey      = answerKey
	AnswerBytesKey = answerBytesKey
)

// Count is the count of answers of a kind ("read by bytes astra_cluster").
func (s *server) Count(key string) int { return s.counts.Get(key) }

// Validations are the resource types whose configurations the known validations check.
func (s *server) Validations() map[string]bool {
	out := map[string]bool{}
	for typ, t := range s.allRules() {
		if t.validation != nil {
			out[typ] = true
		}
	}
	return out
}

// ValidationRefused are the types whose validations go to the framework, and why.
func (s *server) ValidationRefused() map[string]string {
	return s.reasons(func(t *typeRules) string { return t.validationRefused })
}

func (s *server) KnownValidation(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) *tfprotov6.ValidateResourceConfigResponse {
	return s.knownValidation(ctx, req)
}
