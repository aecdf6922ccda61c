package provider

import (
	"context"
	"encoding/json"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
)

// What every resource that takes part in the known answers (internal/knownanswers) shares.

// readWith is a resource's ReadAnswer (knownanswers.AnswerReader): the object get fetches
// with the configured client, unless readSaysMore (nil: never) says Read would do more than
// convert it: remove it from state, or warn (a warning travels only on the framework's path).
func readWith[T any](h *clientHolder, get func(*astra.Client) (*T, error), readSaysMore func(*astra.Client, *T) bool) (any, bool) {
	client := h.configuredClient()
	if client == nil {
		return nil, false
	}
	obj, err := get(client)
	if err != nil || obj == nil || (readSaysMore != nil && readSaysMore(client, obj)) {
		return nil, false
	}
	return obj, true
}

// readBytesWith is a resource's ReadAnswerBytes (knownanswers.AnswerBytesReader): the
// object's JSON as get fetches it with the configured client.
func readBytesWith(h *clientHolder, get func(*astra.Client) (json.RawMessage, error)) ([]byte, bool) {
	client := h.configuredClient()
	if client == nil {
		return nil, false
	}
	raw, err := get(client)
	return raw, err == nil && raw != nil
}

// answerFrom is a resource's AnswerFrom (knownanswers.AnswerBytesReader): readWith's answer
// for the object the service sent as raw.
func answerFrom[T any](h *clientHolder, raw []byte, readSaysMore func(*astra.Client, *T) bool) (any, bool) {
	return readWith(h, func(*astra.Client) (*T, error) {
		obj := new(T)
		return obj, json.Unmarshal(raw, obj)
	}, readSaysMore)
}

// NotingAnswers is ctx asking the client's reads to hand note what they fetch
// (knownanswers.AnswerBytesReader).
func (h *clientHolder) NotingAnswers(ctx context.Context, note func(id string, raw []byte)) context.Context {
	return astra.WithAnswerNotes(ctx, note)
}

// answerOfBytes is the ReadAnswer of an AnswerBytesReader: AnswerFrom of ReadAnswerBytes,
// which is what the known answers assume of it.
func answerOfBytes(ctx context.Context, r knownanswers.AnswerBytesReader, ids map[string]string) (any, bool) {
	raw, ok := r.ReadAnswerBytes(ctx, ids)
	if !ok {
		return nil, false
	}
	return r.AnswerFrom(ctx, raw)
}

// privateKeys is where a resource's Create, Read or Update writes its private state.
type privateKeys = knownanswers.PrivateWriter
