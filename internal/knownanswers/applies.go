package knownanswers

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/astra-control/terraform-provider-astra/internal/gcgoal"
)

// The apply of a create. Around the resource's Create, the framework (fwserver.CreateResource)
// decodes the request into its own data, checks the outcome, runs two walks over the new
// state (semantic equality, then write-only attributes set null) and encodes it again. In a
// fleet's apply of 3000 creates, those steps allocated about 1.3 GB. knownApply calls the
// resource's Create as the framework does and answers itself when each step's result is
// known:
//   - semantic equality changes nothing: no type in the schema has semantic equality; its
//     walk reads each attribute of the plan and the new state through its type, which
//     validates some (a set's duplicates, an int64 that fits): the values must pass;
//   - only top-level attributes are write-only, so setting them null is one step;
//   - the outcome is one the framework passes on unchanged: no error of its own to add
//     (state present after a success, identity present, every diagnostic's path converts,
//     the state and identity encode, the private state holds only the provider's keys).
//
// Any other outcome is replayed through the framework with that same outcome (Replayed), so
// it adds its own errors as it always does and the Create runs once. Only creates of a
// CreateReplayer are answered, since it replays; a request with a planned private state,
// which the framework parses and may refuse, goes to the framework.

// applyRule is what knownApply needs from one resource type.
type applyRule struct {
	factory           func() resource.Resource
	schema            schema.Schema
	identity          identityschema.Schema
	typ, identityType tftypes.Type
	writeOnly         []string // top-level write-only attributes
	// validating are the top-level attributes whose type validates their values.
	validating map[string]typeValidator
	// privateKeys are the keys a Create may write into private state: the seal and the
	// resource's own (PrivateKeyWriter).
	privateKeys []string
}

// applyRuleFor derives r's rule, or says why the known apply cannot answer for it.
func applyRuleFor(factory func() resource.Resource) (*applyRule, error) {
	ctx := context.Background()
	r, ok := factory().(CreateReplayer)
	if !ok {
		return nil, fmt.Errorf("its Create cannot be replayed (not a CreateReplayer)")
	}
	withIdentity, ok := r.(resource.ResourceWithIdentity)
	if !ok {
		return nil, fmt.Errorf("it has no identity, which the framework's create checks")
	}
	resp, err := schemaOf(r)
	if err != nil {
		return nil, err
	}
	if len(resp.Schema.Blocks) > 0 {
		return nil, fmt.Errorf("it has blocks, whose write-only and semantic-equality walks are not modelled")
	}
	var id resource.IdentitySchemaResponse
	withIdentity.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &id)
	rule := &applyRule{factory: factory, schema: resp.Schema, identity: id.IdentitySchema,
		typ: resp.Schema.Type().TerraformType(ctx), identityType: id.IdentitySchema.Type().TerraformType(ctx),
		privateKeys: privateKeysOf(r), validating: map[string]typeValidator{}}
	for _, name := range sortedKeys(resp.Schema.Attributes) {
		a := resp.Schema.Attributes[name]
		if t := semanticType(ctx, a.GetType()); t != "" {
			return nil, fmt.Errorf("attribute %s: its values (%s) have semantic equality, which may change the new state", name, t)
		}
		if nestedWriteOnly(a) {
			return nil, fmt.Errorf("attribute %s: a nested write-only attribute", name)
		}
		if a.IsWriteOnly() {
			rule.writeOnly = append(rule.writeOnly, name)
		}
		if validating, ok := a.GetType().(typeValidator); ok {
			rule.validating[name] = validating
		}
	}
	return rule, nil
}

// semanticType is the name of the first value type in t (t itself, its elements, its
// attributes) that has semantic equality; "" if none has.
func semanticType(ctx context.Context, t attr.Type) string {
	vt := reflect.TypeOf(t.ValueType(ctx))
	for i := 0; i < vt.NumMethod(); i++ {
		if strings.HasSuffix(vt.Method(i).Name, "SemanticEquals") {
			return vt.String()
		}
	}
	var inner []attr.Type
	switch t := t.(type) {
	case attr.TypeWithElementType:
		inner = append(inner, t.ElementType())
	case attr.TypeWithAttributeTypes:
		for _, name := range sortedKeys(t.AttributeTypes()) {
			inner = append(inner, t.AttributeTypes()[name])
		}
	case attr.TypeWithElementTypes:
		inner = t.ElementTypes()
	}
	for _, child := range inner {
		if s := semanticType(ctx, child); s != "" {
			return s
		}
	}
	return ""
}

// nestedWriteOnly: an attribute nested in a is write-only.
func nestedWriteOnly(a schema.Attribute) bool {
	n, ok := a.(schema.NestedAttribute)
	if !ok {
		return false
	}
	for _, child := range n.GetNestedObject().GetAttributes() {
		if child.IsWriteOnly() {
			return true
		}
		if c, ok := child.(schema.Attribute); ok && nestedWriteOnly(c) {
			return true
		}
	}
	return false
}

// typeValidator is a type that validates its values, as the framework's walks call it.
type typeValidator = xattr.TypeWithValidate //nolint:staticcheck // deprecated for providers' own types; the framework still calls it

// privateKeysOf are the private keys r may write: the seal, and its own.
func privateKeysOf(r resource.Resource) []string {
	keys := []string{answerKey}
	if writer, ok := unwrapped(r).(PrivateKeyWriter); ok {
		keys = append(keys, writer.PrivateKeys()...)
	}
	return keys
}

// cannedCreate carries a Create's outcome into the framework's replay of the request.
type cannedCreate struct{}

// Replayed sets resp to the outcome of Create the known apply carries in ctx, and reports
// whether it did: a CreateReplayer's Create returns at once when it did.
func Replayed(ctx context.Context, resp *resource.CreateResponse) bool {
	outcome, ok := ctx.Value(cannedCreate{}).(*resource.CreateResponse)
	if ok {
		*resp = *outcome
	}
	return ok
}

// knownApply answers the apply of a create, or returns nil for the framework to answer it.
func (s *server) knownApply(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) *tfprotov6.ApplyResourceChangeResponse {
	rule := s.applyRule(req.TypeName)
	if rule == nil || req.PriorState == nil || req.PlannedState == nil || req.Config == nil || len(req.PlannedPrivate) > 0 {
		return nil
	}
	prior, err := decodeValue(req.PriorState, rule.typ)
	if err != nil || !prior.IsNull() {
		return nil
	}
	planned, err := decodeValue(req.PlannedState, rule.typ)
	if err != nil || planned.IsNull() {
		return nil
	}
	config, err := decodeValue(req.Config, rule.typ)
	if err != nil {
		return nil
	}
	identity, r, ok := s.identityAndResource(ctx, rule, req.PlannedIdentity)
	if !ok {
		return nil
	}

	null := tftypes.NewValue(rule.typ, nil)
	createReq := resource.CreateRequest{
		Config:   tfsdk.Config{Schema: rule.schema, Raw: config},
		Plan:     tfsdk.Plan{Schema: rule.schema, Raw: planned},
		Identity: &tfsdk.ResourceIdentity{Schema: rule.identity, Raw: identity.Copy()},
	}
	createResp := resource.CreateResponse{
		State:    tfsdk.State{Schema: rule.schema, Raw: null},
		Identity: &tfsdk.ResourceIdentity{Schema: rule.identity, Raw: identity.Copy()},
	}
	createResp.Private = newPrivate(ctx, createResp.Private)
	ctx, done := s.stoppable(ctx)
	defer done()
	r.Create(ctx, createReq, &createResp)

	if resp, ok := rule.answer(ctx, planned, createResp); ok {
		s.counts.Add("apply " + req.TypeName)
		return resp
	}
	s.counts.Add("replayed apply " + req.TypeName)
	resp, err := s.frameworkServer.ApplyResourceChange(context.WithValue(ctx, cannedCreate{}, &createResp), req)
	if err != nil { // the framework's server answers every request with a nil error; were it not to, say so
		resp = &tfprotov6.ApplyResourceChangeResponse{Diagnostics: []*tfprotov6.Diagnostic{{
			Severity: tfprotov6.DiagnosticSeverityError, Summary: "Created object not recorded",
			Detail: "The create ran, but passing on its outcome failed: " + err.Error()}}}
	}
	return resp
}

// answer is the framework's answer to a Create's outcome, when the framework would pass it
// on unchanged (see above); false otherwise.
func (rule *applyRule) answer(ctx context.Context, planned tftypes.Value, out resource.CreateResponse) (*tfprotov6.ApplyResourceChangeResponse, bool) {
	diags, ok := protocolDiagnostics(ctx, out.Diagnostics)
	if !ok || out.Identity == nil {
		return nil, false
	}
	state := out.State.Raw
	if !out.Diagnostics.HasError() {
		if state.Equal(tftypes.NewValue(rule.typ, nil)) || out.Identity.Raw.IsFullyNull() ||
			!rule.valid(ctx, planned) || !rule.valid(ctx, state) {
			return nil, false
		}
		var nulled bool
		if state, nulled = withNull(state, rule.writeOnly); !nulled {
			return nil, false
		}
	}
	newState, newIdentity, private, ok := encoded(ctx, rule, state, out.Identity.Raw, out.Private, rule.privateKeys)
	if !ok {
		return nil, false
	}
	return &tfprotov6.ApplyResourceChangeResponse{NewState: newState, Private: private, Diagnostics: diags, NewIdentity: newIdentity}, true
}

// identityAndResource are the identity sent (null when none is) and a configured resource
// of rule's type; false when either is not to be had.
func (s *server) identityAndResource(ctx context.Context, rule *applyRule, sent *tfprotov6.ResourceIdentityData) (tftypes.Value, resource.Resource, bool) {
	identity := tftypes.NewValue(rule.identityType, nil)
	if sent != nil && sent.IdentityData != nil {
		var err error
		if identity, err = sent.IdentityData.Unmarshal(rule.identityType); err != nil {
			return identity, nil, false
		}
	}
	r, ok := s.configuredAs(ctx, rule.factory())
	return identity, r, ok
}

// encoded is rule's outcome's state, identity and private state (holding only keys) as the
// framework sends them; false when one does not encode.
func encoded[P privateData[P]](ctx context.Context, rule *applyRule, state, identity tftypes.Value, private P,
	keys []string) (*tfprotov6.DynamicValue, *tfprotov6.ResourceIdentityData, []byte, bool) {
	newState, err := tfprotov6.NewDynamicValue(rule.typ, state)
	if err != nil {
		return nil, nil, nil, false
	}
	newIdentity, err := tfprotov6.NewDynamicValue(rule.identityType, identity)
	if err != nil {
		return nil, nil, nil, false
	}
	bytes, ok := privateBytes(ctx, private, keys)
	if !ok {
		return nil, nil, nil, false
	}
	return &newState, &tfprotov6.ResourceIdentityData{IdentityData: &newIdentity}, bytes, true
}

// valid: each attribute of object whose type validates its values finds nothing to say,
// so the framework's walk adds nothing.
func (rule *applyRule) valid(ctx context.Context, object tftypes.Value) bool {
	var attrs map[string]tftypes.Value
	if object.As(&attrs) != nil {
		return false
	}
	for name, validating := range rule.validating {
		if len(validating.Validate(ctx, attrs[name], path.Root(name))) > 0 {
			return false
		}
	}
	return true
}

// withNull is object with the named attributes null; false if object is not a known object.
func withNull(object tftypes.Value, names []string) (tftypes.Value, bool) {
	if len(names) == 0 {
		return object, true
	}
	var attrs map[string]tftypes.Value
	if !object.IsKnown() || object.IsNull() || object.As(&attrs) != nil {
		return object, false
	}
	for _, name := range names {
		if v, ok := attrs[name]; ok && !v.IsNull() {
			attrs[name] = tftypes.NewValue(v.Type(), nil)
		}
	}
	return tftypes.NewValue(object.Type(), attrs), true
}

// stoppable is ctx, cancelled when the CLI stops the provider, as the framework cancels the
// requests it serves; done forgets it.
func (s *server) stoppable(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	s.stops.Lock()
	defer s.stops.Unlock()
	if s.stops.cancels == nil {
		s.stops.cancels = map[*context.CancelFunc]struct{}{}
	}
	key := &cancel
	s.stops.cancels[key] = struct{}{}
	return ctx, func() {
		s.stops.Lock()
		delete(s.stops.cancels, key)
		s.stops.Unlock()
		cancel()
	}
}

// stopRequests is the set stoppable registers in.
type stopRequests struct {
	sync.Mutex
	cancels map[*context.CancelFunc]struct{}
}

func (s *server) StopProvider(ctx context.Context, req *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	s.stops.Lock()
	for cancel := range s.stops.cancels {
		(*cancel)()
	}
	s.stops.Unlock()
	return s.frameworkServer.StopProvider(ctx, req)
}

// ApplyResourceChange first gives the process the garbage-collection goal of one that
// applies (gcgoal): its creates, not its memory, are what the user waits for.
func (s *server) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	gcgoal.ForApplies()
	if resp := s.knownApply(ctx, req); resp != nil {
		return resp, nil
	}
	return s.frameworkServer.ApplyResourceChange(ctx, req)
}
