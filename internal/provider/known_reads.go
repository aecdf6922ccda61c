package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// A read that finds the answer the state was last written from writes that state again:
// the conversion from an answer keeps what the state already holds. recordAnswerDigest
// notes, in the resource's private state, the digests of the answer and of the state
// written from it; unchangedRead answers a read whose state and fetched answer match them
// with the state as it is, and leaves every other read (a change, a 404, an error, no
// record) to the framework.

// unchangedRead is the framework's answer to a read that finds the answer the state was
// written from, or nil when it finds anything else (or cannot tell).
func (s *knownAnswers) unchangedRead(ctx context.Context, req *tfprotov6.ReadResourceRequest) *tfprotov6.ReadResourceResponse {
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
