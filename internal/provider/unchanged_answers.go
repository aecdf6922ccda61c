package provider

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/defaults"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// A plan of a fleet reads and plans every resource, and nearly all are unchanged. The
// framework reads an astra_cluster in about 2 ms of CPU and plans an unchanged one in about
// 4 ms: it walks the schema of some sixty attributes several times (defaults, computed
// values, every plan modifier), rebuilding the attribute map at each step, which made it
// most of a 1000-cluster plan. Two requests have answers known beforehand, and are
// answered here without the framework; every other request goes to it:
//   - a read that finds the same answer the state was last written from (recorded in the
//     resource's private state by recordAnswerDigest) would write the same state again;
//   - a plan that proposes exactly the prior state plans it, with the prior private state
//     and identity and nothing to replace, provided no default would change a value and the
//     resource's own plan checks (the same functions) have nothing to say.
// unchanged_answers_test.go compares these answers with the framework's.

// NewServer serves p through the framework, answering unchanged plans itself.
func NewServer(p provider.Provider) func() (tfprotov6.ProviderServer, error) {
	return func() (tfprotov6.ProviderServer, error) {
		server, err := providerserver.NewProtocol6WithError(p)()
		if err != nil {
			return nil, err
		}
		full, ok := server.(frameworkServer)
		if !ok {
			return server, nil
		}
		answers := &unchangedAnswers{frameworkServer: full, rules: unchangedPlanRules(p), reads: unchangedReadRules(p)}
		if astraP, ok := p.(*astraProvider); ok {
			answers.version = astraP.version
		}
		server = answers
		return server, nil
	}
}

// frameworkServer is everything the framework's server implements, so the wrapper hides
// none of the optional protocol interfaces.
type frameworkServer interface {
	tfprotov6.ProviderServerWithListResource
	tfprotov6.ProviderServerWithActions
	tfprotov6.ProviderServerWithStateStores
}

type unchangedAnswers struct {
	frameworkServer
	rules   map[string]unchangedPlanRule
	version string // the provider's release (see answerRecord)
	// reads fetch a resource's object by ID and return the digest of the answer.
	reads map[string]func(ctx context.Context, id string) (string, bool)
}

// unchangedPlanRule is what one resource type needs checked before an unchanged plan is
// answered without the framework.
type unchangedPlanRule struct {
	typ tftypes.Type
	// defaults holds the top-level attributes with a default: a configuration leaving them
	// out plans the default, which changes a prior value other than it.
	defaults map[string]tftypes.Value
	// quiet reports that the resource's ModifyPlan would add nothing to this prior state.
	quiet func(prior map[string]tftypes.Value) bool
}

func (s *unchangedAnswers) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	if resp := s.unchangedPlan(req); resp != nil {
		return resp, nil
	}
	return s.frameworkServer.PlanResourceChange(ctx, req)
}

// unchangedPlan is the framework's answer to a plan that proposes the prior state, or nil
// when the request is anything else.
func (s *unchangedAnswers) unchangedPlan(req *tfprotov6.PlanResourceChangeRequest) *tfprotov6.PlanResourceChangeResponse {
	rule, ok := s.rules[req.TypeName]
	if !ok || req.PriorState == nil || req.ProposedNewState == nil || req.PriorIdentity == nil ||
		len(req.PriorState.MsgPack) == 0 || !bytes.Equal(req.PriorState.MsgPack, req.ProposedNewState.MsgPack) {
		return nil
	}
	prior, err := req.PriorState.Unmarshal(rule.typ)
	if err != nil || prior.IsNull() || !prior.IsFullyKnown() {
		return nil
	}
	var attributes map[string]tftypes.Value
	if prior.As(&attributes) != nil {
		return nil
	}
	for name, def := range rule.defaults {
		if !attributes[name].Equal(def) {
			return nil
		}
	}
	if !rule.quiet(attributes) {
		return nil
	}
	resp := &tfprotov6.PlanResourceChangeResponse{PlannedState: req.PriorState, PlannedIdentity: req.PriorIdentity}
	if len(req.PriorPrivate) > 0 {
		resp.PlannedPrivate = req.PriorPrivate
	}
	return resp
}

// unchangedPlanRules are the resource types whose unchanged plans are answered here: the
// one a fleet has many of. Without the provider's configuration there is none.
func unchangedPlanRules(p provider.Provider) map[string]unchangedPlanRule {
	astraP, ok := p.(*astraProvider)
	if !ok {
		return nil
	}
	rule, ok := ruleFor(newClusterResource(), func(prior map[string]tftypes.Value) bool {
		args, ok := clusterValuesFromRaw(prior)
		if !ok {
			return false
		}
		holder := clientHolder{data: astraP.configured.Load()}
		// In a plan that proposes the prior state, each argument is configured as it is
		// or left to it, so the configuration's arguments are the prior ones.
		return len(clusterPlanProblems(args, args, holder.configuredClient())) == 0
	})
	if !ok {
		return nil
	}
	return map[string]unchangedPlanRule{typeName + "_cluster": rule}
}

// ruleFor derives the type and defaults from r's schema; false when a default sits where
// the rule does not look (nested, or of a kind it does not read).
func ruleFor(r resource.Resource, quiet func(map[string]tftypes.Value) bool) (unchangedPlanRule, bool) {
	ctx := context.Background()
	var resp resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &resp)
	rule := unchangedPlanRule{typ: resp.Schema.Type().TerraformType(ctx), defaults: map[string]tftypes.Value{}, quiet: quiet}
	for name, a := range resp.Schema.Attributes {
		def, ok := topLevelDefault(ctx, a)
		if !ok {
			return unchangedPlanRule{}, false
		}
		if def != nil {
			rule.defaults[name] = *def
		}
	}
	return rule, true
}

// topLevelDefault is a's default as a value (nil without one); false for a default the rule
// cannot take into account.
func topLevelDefault(ctx context.Context, a schema.Attribute) (*tftypes.Value, bool) {
	if nested, ok := a.(schema.NestedAttribute); ok {
		for _, inner := range nested.GetNestedObject().GetAttributes() {
			if anyDefault(inner) {
				return nil, false
			}
		}
	}
	switch a := a.(type) {
	case schema.BoolAttribute:
		if a.Default == nil {
			return nil, true
		}
		var resp defaults.BoolResponse
		a.Default.DefaultBool(ctx, defaults.BoolRequest{}, &resp)
		v, err := resp.PlanValue.ToTerraformValue(ctx)
		return &v, err == nil && !resp.Diagnostics.HasError()
	case schema.StringAttribute:
		if a.Default == nil {
			return nil, true
		}
		var resp defaults.StringResponse
		a.Default.DefaultString(ctx, defaults.StringRequest{}, &resp)
		v, err := resp.PlanValue.ToTerraformValue(ctx)
		return &v, err == nil && !resp.Diagnostics.HasError()
	}
	return nil, !hasDefault(a)
}

// hasDefault reads the Default field every framework attribute type has; an attribute it
// cannot read counts as having one.
func hasDefault(a any) bool {
	v := reflect.ValueOf(a)
	if v.Kind() != reflect.Struct {
		return true
	}
	f := v.FieldByName("Default")
	return f.IsValid() && !f.IsZero()
}

// anyDefault: a or an attribute nested in it has a default.
func anyDefault(a any) bool {
	if hasDefault(a) {
		return true
	}
	if nested, ok := a.(schema.NestedAttribute); ok {
		for _, inner := range nested.GetNestedObject().GetAttributes() {
			if anyDefault(inner) {
				return true
			}
		}
	}
	return false
}

func (s *unchangedAnswers) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	if resp := s.unchangedRead(ctx, req); resp != nil {
		return resp, nil
	}
	return s.frameworkServer.ReadResource(ctx, req)
}

// unchangedRead is the framework's answer to a read that finds the answer the state was
// written from, or nil when it finds anything else (or cannot tell).
func (s *unchangedAnswers) unchangedRead(ctx context.Context, req *tfprotov6.ReadResourceRequest) *tfprotov6.ReadResourceResponse {
	fetch, ok := s.reads[req.TypeName]
	if !ok || req.CurrentState == nil || req.CurrentIdentity == nil || len(req.CurrentState.MsgPack) == 0 {
		return nil
	}
	recorded, ok := recordedAnswer(req.Private)
	if !ok || recorded.Provider != s.version || recorded.State != digest(req.CurrentState.MsgPack) {
		return nil
	}
	answer, ok := fetch(ctx, recorded.ID)
	if !ok || answer != recorded.Answer {
		return nil
	}
	return &tfprotov6.ReadResourceResponse{NewState: req.CurrentState, NewIdentity: req.CurrentIdentity, Private: req.Private}
}

// unchangedReadRules fetch what the resources' Read fetches, with the configured client.
func unchangedReadRules(p provider.Provider) map[string]func(context.Context, string) (string, bool) {
	astraP, ok := p.(*astraProvider)
	if !ok {
		return nil
	}
	return map[string]func(context.Context, string) (string, bool){
		typeName + "_cluster": func(ctx context.Context, id string) (string, bool) {
			client := (&clientHolder{data: astraP.configured.Load()}).configuredClient()
			if client == nil {
				return "", false
			}
			c, err := client.GetCluster(ctx, "", id)
			if err != nil {
				return "", false
			}
			return answerDigest(c)
		},
	}
}

// answerKey is the private-state key of the answer a resource's state was last written from.
const answerKey = "answer"

type answerRecord struct {
	// Provider is the release that wrote the state: another may convert the same answer
	// into another state, so it does not take the shortcut.
	Provider string `json:"provider"`
	ID       string `json:"id"`
	Answer   string `json:"answer"` // digest of the object as the API answered
	State    string `json:"state"`  // digest of the state written from it, as the protocol encodes it
}

// privateKeys is where the framework's private state keeps a provider's keys.
type privateKeys interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// recordAnswerDigest notes that state was written from answer alone, for unchangedRead. A
// failure to note it only costs the next read its shortcut.
func recordAnswerDigest[T any](ctx context.Context, private privateKeys, data *providerData, answer *T, state tfsdk.State, diags *diag.Diagnostics) {
	if private == nil || data == nil || answer == nil || diags.HasError() {
		return
	}
	answerSum, ok := answerDigest(answer)
	if !ok {
		return
	}
	encoded, err := tfprotov6.NewDynamicValue(state.Raw.Type(), state.Raw)
	if err != nil {
		return
	}
	var id string
	var idValue tftypes.Value
	var attributes map[string]tftypes.Value
	if state.Raw.As(&attributes) != nil {
		return
	}
	idValue = attributes["id"]
	if idValue.As(&id) != nil || id == "" {
		return
	}
	record, err := json.Marshal(answerRecord{Provider: data.version, ID: id, Answer: answerSum, State: digest(encoded.MsgPack)})
	if err != nil {
		return
	}
	diags.Append(private.SetKey(ctx, answerKey, record)...)
}

// recordedAnswer reads the record from private state as the protocol carries it: a JSON
// object of keys to JSON documents, each encoded as bytes.
func recordedAnswer(private []byte) (answerRecord, bool) {
	var keys map[string][]byte
	var record answerRecord
	if len(private) == 0 || json.Unmarshal(private, &keys) != nil || json.Unmarshal(keys[answerKey], &record) != nil {
		return answerRecord{}, false
	}
	return record, record.ID != "" && record.Answer != "" && record.State != ""
}

func answerDigest(answer any) (string, bool) {
	body, err := json.Marshal(answer)
	if err != nil {
		return "", false
	}
	return digest(body), true
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
