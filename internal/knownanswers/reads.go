package knownanswers

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// A read that finds the answer the state was last written from writes that state again:
// the conversion from an answer keeps what the state already holds. RecordAnswer notes, in
// the resource's private state, the digests of the answer and of the state written from it;
// unchangedRead answers a read whose state and fetched answer match them
// with the state as it is, and leaves every other read (a change, a 404, an error, no
// record, a record of another build) to the framework.

// unchangedRead is the framework's answer to a read that finds the answer the state was
// written from, or nil when it finds anything else (or cannot tell).
//
// The identity: the framework's read answers the identity built from the state ({ id =
// <the state's id> }; the provider's identity wrapper, or the resource's own Read, sets it) whether or not
// the CLI sent one, and fails when the CLI sent another. So a read without identity
// (Terraform before 1.12, OpenTofu before 1.12) is answered with the identity built from
// the state, and one naming another object goes to the framework. The first version
// required an identity only because it echoed the request's, which is nothing for those
// CLIs, where the framework answers one.
func (s *server) unchangedRead(ctx context.Context, req *tfprotov6.ReadResourceRequest) *tfprotov6.ReadResourceResponse {
	rule, ok := s.rules[req.TypeName]
	if !ok || !rule.reads || s.defers() ||
		req.CurrentState == nil {
		return nil
	}
	state, err := decodeValue(req.CurrentState, rule.typ)
	if err != nil || state.IsNull() || !state.IsFullyKnown() {
		return nil
	}
	id, ok := idAttribute(state)
	if !ok {
		return nil
	}
	identity, ids, ok := rule.identityFor(req.CurrentIdentity, state)
	if !ok {
		return nil
	}
	private, ok := canonicalPrivate(req.Private)
	if !ok || hasFrameworkKeys(private) {
		return nil
	}
	recorded, ok := recordedAnswer(private)
	if !ok || buildKey() == "" {
		return nil
	}
	r := s.configured(ctx, rule)
	reader, ok := r.(AnswerReader)
	if !ok {
		return nil
	}
	answer, ok := reader.ReadAnswer(ctx, ids)
	if !ok {
		return nil
	}
	if sum, ok := answerDigest(answer); !ok || recorded != answerSeal(buildKey(), id, sum, stateDigest(state)) {
		return nil
	}
	return &tfprotov6.ReadResourceResponse{NewState: req.CurrentState, NewIdentity: identity, Private: private}
}

// identityFor is the identity the framework's read answers for state, and its attributes:
// the request's when it names the same object, the one built from the state's attributes
// when the request has none or a null one; false when it names another (the framework
// reports the change) or the state lacks one of them.
func (rule *knownRule) identityFor(sent *tfprotov6.ResourceIdentityData, state tftypes.Value) (*tfprotov6.ResourceIdentityData, map[string]string, bool) {
	ids, ok := identityAttributes(rule.identityType, state)
	if !ok {
		return nil, nil, false
	}
	fields := map[string]tftypes.Value{}
	for name, v := range ids {
		fields[name] = tftypes.NewValue(tftypes.String, v)
	}
	built := tftypes.NewValue(rule.identityType, fields)
	if sent != nil && sent.IdentityData != nil {
		v, err := sent.IdentityData.Unmarshal(rule.identityType)
		if err != nil {
			return nil, nil, false
		}
		if !v.IsFullyNull() {
			return sent, ids, v.Equal(built)
		}
	}
	encoded, err := tfprotov6.NewDynamicValue(rule.identityType, built)
	if err != nil {
		return nil, nil, false
	}
	return &tfprotov6.ResourceIdentityData{IdentityData: &encoded}, ids, true
}

// identityAttributes are the known, non-empty string attributes of object named by the
// identity type's attributes; false when one is missing, or the identity is not an object
// of strings.
func identityAttributes(identityType tftypes.Type, object tftypes.Value) (map[string]string, bool) {
	identity, ok := identityType.(tftypes.Object)
	var attributes map[string]tftypes.Value
	if !ok || object.As(&attributes) != nil {
		return nil, false
	}
	ids := map[string]string{}
	for name, typ := range identity.AttributeTypes {
		v, found := attributes[name]
		var s string
		if !found || !typ.Is(tftypes.String) || !v.Type().Is(tftypes.String) || v.As(&s) != nil || s == "" {
			return nil, false
		}
		ids[name] = s
	}
	return ids, len(ids) > 0
}

// idAttribute is the known, non-empty id attribute of an object.
func idAttribute(object tftypes.Value) (string, bool) {
	var attributes map[string]tftypes.Value
	var s string
	if object.Type() == nil || !object.Type().Is(tftypes.Object{}) || object.As(&attributes) != nil {
		return "", false
	}
	v, ok := attributes["id"]
	if !ok || !v.Type().Is(tftypes.String) || v.As(&s) != nil {
		return "", false
	}
	return s, s != ""
}

// hasFrameworkKeys: the framework keeps its own keys (starting with ".") in private state
// and acts on some, such as the one an import leaves for the read that follows.
func hasFrameworkKeys(private []byte) bool {
	var keys map[string]json.RawMessage
	if json.Unmarshal(private, &keys) != nil {
		return len(private) > 0
	}
	for k := range keys {
		if strings.HasPrefix(k, ".") {
			return true
		}
	}
	return false
}

// answerKey is the private-state key of the answer a resource's state was last written from.
const answerKey = "answer"

// answerSeal is what the record holds: one digest of the build that wrote the state
// (buildKey: another may convert the same answer into another state), the object's ID,
// the answer's digest and the digest of the state written from it. A read recomputes it
// from what it has in hand, so the record stays a few dozen bytes: the CLI keeps it with
// every object of the plan and copies it with every reference to one (OpenTofu copies
// every instance's change for each reference to a resource in a module instance), and
// 400 bytes of record were a third of what it copied. 128 bits tell apart states the
// provider wrote, which is all the seal is for; a state edited by hand is a changed state.
func answerSeal(build, id, answerSum, stateSum string) string {
	sum := sha256.Sum256([]byte(build + "\x00" + id + "\x00" + answerSum + "\x00" + stateSum))
	return base64.RawStdEncoding.EncodeToString(sum[:16])
}

// RecordAnswer notes that state was written from answer alone, for the known reads: an
// AnswerReader's Read and Create call it once they have written state from the object its
// ReadAnswer fetches. A resource whose Read then adds anything of its own (a warning) must
// not record. A failure to note it only costs the next read its shortcut.
func RecordAnswer(ctx context.Context, private PrivateWriter, answer any, state tfsdk.State, diags *diag.Diagnostics) {
	build := buildKey()
	if private == nil || answer == nil || build == "" || diags.HasError() {
		return
	}
	answerSum, ok := answerDigest(answer)
	if !ok {
		return
	}
	id, ok := idAttribute(state.Raw)
	if !ok {
		return
	}
	record, err := json.Marshal(answerSeal(build, id, answerSum, stateDigest(state.Raw)))
	if err != nil {
		return
	}
	diags.Append(private.SetKey(ctx, answerKey, record)...)
}

// recordedAnswer reads the seal from private state as the protocol carries it: a JSON
// object of keys to JSON documents, each encoded as bytes. A record of the earlier form
// (an object) is no seal: its read goes to the framework, which writes a seal.
func recordedAnswer(private []byte) (string, bool) {
	var keys map[string][]byte
	var seal string
	if len(private) == 0 || json.Unmarshal(private, &keys) != nil || json.Unmarshal(keys[answerKey], &seal) != nil {
		return "", false
	}
	return seal, seal != ""
}

// answerDigest is the digest of an API object as JSON, whose maps encoding/json sorts.
func answerDigest(answer any) (string, bool) {
	body, err := json.Marshal(answer)
	if err != nil {
		return "", false
	}
	return digest(body), true
}
