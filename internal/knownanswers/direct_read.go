package knownanswers

import (
	"context"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// A read whose answer changed. Around the resource's Read, the framework
// (fwserver.ReadResource) runs the same two walks over the new state as around a Create
// (semantic equality, then write-only attributes set null): each looks every value's
// attribute up from the schema's root, copying the schema's attribute map at each step, and
// in a plan right after a fleet's create (each cluster read again, since its management
// changed it) they cost more than the read. directRead calls the resource's Read as the
// framework does, for the resource types knownApply answers (their schemas make both walks'
// results known, see applies.go), and answers itself when the framework would pass the
// outcome on as it is, errors and objects gone included. Anything else (an identity that
// changed or is missing, a deferral, a framework key in private state) is nil, and the
// framework reads again.
func (s *server) directRead(ctx context.Context, req *tfprotov6.ReadResourceRequest) *tfprotov6.ReadResourceResponse {
	rule := s.applyRule(req.TypeName)
	if rule == nil || s.defers() || req.CurrentState == nil {
		return nil
	}
	_, keys, ok := canonicalPrivate(req.Private)
	if !ok || hasFrameworkKeys(keys) {
		return nil
	}
	current, err := decodeValue(req.CurrentState, rule.typ)
	if err != nil || current.IsNull() || !rule.valid(ctx, current) {
		return nil
	}
	identity, r, ok := s.identityAndResource(ctx, rule, req.CurrentIdentity)
	if !ok {
		return nil
	}
	private := newPrivate(ctx, resource.ReadResponse{}.Private)
	for key, value := range keys {
		if len(private.SetKey(ctx, key, value)) > 0 {
			return nil
		}
	}
	in := resource.ReadRequest{
		State:    tfsdk.State{Schema: rule.schema, Raw: current.Copy()},
		Private:  private,
		Identity: &tfsdk.ResourceIdentity{Schema: rule.identity, Raw: identity.Copy()},
	}
	if req.ClientCapabilities != nil {
		in.ClientCapabilities.DeferralAllowed = req.ClientCapabilities.DeferralAllowed
	}
	out := resource.ReadResponse{
		State:    tfsdk.State{Schema: rule.schema, Raw: current.Copy()},
		Private:  private,
		Identity: &tfsdk.ResourceIdentity{Schema: rule.identity, Raw: identity.Copy()},
	}
	r.Read(ctx, in, &out)
	if resp, ok := rule.readAnswer(ctx, identity, keys, out); ok {
		s.counts.Add("direct read " + req.TypeName)
		return resp
	}
	return nil
}

// readAnswer is the framework's answer to a Read's outcome, when the framework would pass it
// on unchanged; false otherwise. identity is the one the read was sent, keys the private
// state's. The framework passes an error on as it is, state and all, before its checks; an
// object gone, as a null state.
func (rule *applyRule) readAnswer(ctx context.Context, identity tftypes.Value, keys map[string][]byte, out resource.ReadResponse) (*tfprotov6.ReadResourceResponse, bool) {
	if out.Deferred != nil || out.Identity == nil {
		return nil, false
	}
	diags, ok := protocolDiagnostics(ctx, out.Diagnostics)
	if !ok {
		return nil, false
	}
	state := out.State.Raw
	if !out.Diagnostics.HasError() {
		if out.Identity.Raw.IsFullyNull() || (!identity.IsFullyNull() && !identity.Equal(out.Identity.Raw)) {
			return nil, false
		}
		if !state.IsNull() {
			if !rule.valid(ctx, state) {
				return nil, false
			}
			if state, ok = withNull(state, rule.writeOnly); !ok {
				return nil, false
			}
		}
	}
	// The read keeps the keys it was sent beside those a create writes.
	allowed := slices.AppendSeq(slices.Clone(rule.privateKeys), maps.Keys(keys))
	newState, newIdentity, private, ok := encoded(ctx, rule, state, out.Identity.Raw, out.Private, allowed)
	if !ok {
		return nil, false
	}
	return &tfprotov6.ReadResourceResponse{NewState: newState, Private: private, Diagnostics: diags, NewIdentity: newIdentity}, true
}
