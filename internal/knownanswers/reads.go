package knownanswers

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"strings"
	"sync"

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
	rule, ok := s.planRule(req.TypeName)
	if !ok || !rule.reads || s.defers() ||
		req.CurrentState == nil {
		return nil
	}
	private, keys, ok := canonicalPrivate(req.Private)
	if !ok || hasFrameworkKeys(keys) {
		return nil
	}
	recorded, ok := sealIn(keys, answerKey)
	if !ok || buildKey() == "" {
		return nil
	}
	r := s.configured(ctx, rule)
	reader, ok := r.(AnswerReader)
	if !ok {
		return nil
	}
	// A reader of bytes first compares the bytes with those of the last read that matched.
	bytesReader, byBytes := r.(AnswerBytesReader)
	var answerBytes []byte
	if byBytes {
		// The IDs to read are the identity's the CLI sent, when it holds exactly those
		// strings (a few bytes), else the state's. A state this scan does not read (JSON)
		// goes the decoded way.
		ids, sentIDs := sentIdentityStrings(req.CurrentIdentity, rule.identityType)
		if byBytes = len(req.CurrentState.MsgPack) > 0 && req.CurrentState.JSON == nil && sentIDs; !byBytes {
			ids, byBytes = msgpackStrings(req.CurrentState.MsgPack, rule.identityType)
			sentIDs = false
		}
		if byBytes {
			if answerBytes, ok = bytesReader.ReadAnswerBytes(ctx, ids); !ok {
				return nil
			}
			if resp := s.sameBytesRead(rule, req, private, keys, recorded, ids, sentIDs, answerBytes); resp != nil {
				return resp
			}
		}
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
	var answer any
	if byBytes {
		answer, ok = bytesReader.AnswerFrom(ctx, answerBytes)
	} else {
		answer, ok = reader.ReadAnswer(ctx, ids)
	}
	if !ok {
		return nil
	}
	if sum, ok := answerDigest(answer); !ok || recorded != answerSeal(buildKey(), id, sum, stateDigest(state)) {
		return nil
	}
	if byBytes {
		private = withKey(private, keys, answerBytesKey, bytesSeal(buildKey(), req.TypeName, recorded, req.CurrentState.MsgPack, answerBytes))
	}
	return &tfprotov6.ReadResourceResponse{NewState: req.CurrentState, NewIdentity: identity, Private: private}
}

// sameBytesRead is unchangedRead's answer when the state and the answer are the bytes of
// the last read that matched the seal (answerBytesKey), else nil. sentIDs: ids are the
// sent identity's; the answer names its object, and the seal binds the state's bytes to
// that answer, so the state names the same object and the sent identity is the answer.
func (s *server) sameBytesRead(rule *knownRule, req *tfprotov6.ReadResourceRequest, private []byte, keys map[string][]byte, seal string,
	ids map[string]string, sentIDs bool, answer []byte) *tfprotov6.ReadResourceResponse {
	sealed, ok := sealIn(keys, answerBytesKey)
	if !ok || sealed != bytesSeal(buildKey(), req.TypeName, seal, req.CurrentState.MsgPack, answer) {
		return nil
	}
	identity := req.CurrentIdentity
	if !sentIDs {
		if identity, ok = rule.identityOf(req.CurrentIdentity, ids); !ok {
			return nil
		}
	}
	s.counts.Add("read by bytes " + req.TypeName)
	return &tfprotov6.ReadResourceResponse{NewState: req.CurrentState, NewIdentity: identity, Private: private}
}

// frameworkRead is the read the known answers do not answer from the state: the
// resource's Read, called directly where the framework's outcome is known (directRead), else
// by the framework. When it records the answer it converted (the
// seal in private state), the seal of its bytes is added: those of the state it answers as
// the CLI will send it back (cliMsgPack) and of the answer as fetched, so the next read of
// the same bytes is matched on them. Where the CLI sends other bytes, the next read is
// decoded and seals those.
func (s *server) frameworkRead(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	rule, ok := s.planRule(req.TypeName)
	var reader AnswerBytesReader
	if ok && rule.reads && buildKey() != "" {
		reader, ok = s.configured(ctx, rule).(AnswerBytesReader)
	}
	if !ok || reader == nil {
		return s.read(ctx, req)
	}
	var mu sync.Mutex
	noted := map[string][]byte{}
	resp, err := s.read(reader.NotingAnswers(ctx, func(id string, raw []byte) {
		mu.Lock()
		defer mu.Unlock()
		noted[id] = raw
	}), req)
	if err == nil && resp != nil {
		resp.Private = sealReadBytes(ctx, rule, reader, req.TypeName, resp, noted)
	}
	return resp, err
}

// read is the read of the resource: directRead's answer, else the framework's.
func (s *server) read(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	if resp := s.directRead(ctx, req); resp != nil {
		return resp, nil
	}
	return s.frameworkServer.ReadResource(ctx, req)
}

// sealReadBytes is the private state of a framework's read with the seal of its bytes
// added, when its seal is that of its state and of the object noted under the state's id.
func sealReadBytes(ctx context.Context, rule *knownRule, reader AnswerBytesReader, typeName string, resp *tfprotov6.ReadResourceResponse,
	noted map[string][]byte) []byte {
	// A read that says anything (a warning) says it again at each read: not sealed.
	_, keys, ok := canonicalPrivate(resp.Private)
	if !ok || len(resp.Diagnostics) > 0 || resp.Deferred != nil || resp.NewState == nil || resp.NewState.MsgPack == nil || hasFrameworkKeys(keys) {
		return resp.Private
	}
	seal, ok := sealIn(keys, answerKey)
	if !ok {
		return resp.Private
	}
	state, err := decodeValue(resp.NewState, rule.typ)
	if err != nil || state.IsNull() || !state.IsFullyKnown() {
		return resp.Private
	}
	id, ok := idAttribute(state)
	if !ok || noted[id] == nil {
		return resp.Private
	}
	answer, ok := reader.AnswerFrom(ctx, noted[id])
	if !ok {
		return resp.Private
	}
	if sum, ok := answerDigest(answer); !ok || seal != answerSeal(buildKey(), id, sum, stateDigest(state)) {
		return resp.Private
	}
	sent, ok := cliMsgPack(state)
	if !ok {
		return resp.Private
	}
	return withKey(resp.Private, keys, answerBytesKey, bytesSeal(buildKey(), typeName, seal, sent, noted[id]))
}

// identityFor is the identity the framework's read answers for state, and its attributes
// (identityOf); false when the state lacks one of them.
func (rule *knownRule) identityFor(sent *tfprotov6.ResourceIdentityData, state tftypes.Value) (*tfprotov6.ResourceIdentityData, map[string]string, bool) {
	ids, ok := identityAttributes(rule.identityType, state)
	if !ok {
		return nil, nil, false
	}
	identity, ok := rule.identityOf(sent, ids)
	return identity, ids, ok
}

// identityOf is the identity the framework's read answers for the state whose identity
// attributes are ids: the request's when it names the same object, the one built from ids
// when the request has none or a null one; false when it names another (the framework
// reports the change).
func (rule *knownRule) identityOf(sent *tfprotov6.ResourceIdentityData, ids map[string]string) (*tfprotov6.ResourceIdentityData, bool) {
	fields := map[string]tftypes.Value{}
	for name, v := range ids {
		fields[name] = tftypes.NewValue(tftypes.String, v)
	}
	built := tftypes.NewValue(rule.identityType, fields)
	if sent != nil && sent.IdentityData != nil {
		v, err := sent.IdentityData.Unmarshal(rule.identityType)
		if err != nil {
			return nil, false
		}
		if !v.IsFullyNull() {
			return sent, v.Equal(built)
		}
	}
	encoded, err := tfprotov6.NewDynamicValue(rule.identityType, built)
	if err != nil {
		return nil, false
	}
	return &tfprotov6.ResourceIdentityData{IdentityData: &encoded}, true
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
func hasFrameworkKeys(keys map[string][]byte) bool {
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

// sealIn reads a seal (answerKey's, answerBytesKey's) from private state's parsed keys
// (canonicalPrivate's). A record of the earlier form (an object) is no seal: its read goes
// to the framework, which writes a seal.
func sealIn(keys map[string][]byte, key string) (string, bool) {
	var seal string
	if json.Unmarshal(keys[key], &seal) != nil {
		return "", false
	}
	return seal, seal != ""
}

// answerBytesKey is the private-state key of the bytes of the last read that matched the
// answer's seal: the state as the CLI sent it and the answer as the service did (bytesSeal).
// A read that finds the same bytes again has the same answer and state, so it answers
// without decoding either. The framework's reads pass the key on untouched: a seal of bytes
// that no longer come is never matched again, and one that does tells the truth.
const answerBytesKey = "answer_bytes"

// bytesSeal is answerSeal for bytes: the build, the resource type, the answer's seal they
// matched (a private state whose seal changed is read the decoded way, as the framework
// writes the seal anew), the state's msgpack and the answer's JSON.
func bytesSeal(build, typeName, seal string, state, answer []byte) string {
	h := sha256.New()
	for _, part := range [][]byte{[]byte(build), []byte(typeName), []byte(seal), state, answer} {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(part)))
		h.Write(n[:])
		h.Write(part)
	}
	return base64.RawStdEncoding.EncodeToString(h.Sum(nil)[:16])
}

// withKey is private state with key set to the JSON string value: keys are its parsed keys
// (canonicalPrivate's), which it changes. On a failure to encode, private as it was.
func withKey(private []byte, keys map[string][]byte, key, value string) []byte {
	encoded, err := json.Marshal(value)
	if err != nil {
		return private
	}
	keys[key] = encoded
	out, err := json.Marshal(keys)
	if err != nil {
		return private
	}
	return out
}

// answerDigest is the digest of an API object as JSON, whose maps encoding/json sorts.
func answerDigest(answer any) (string, bool) {
	body, err := json.Marshal(answer)
	if err != nil {
		return "", false
	}
	return digest(body), true
}
