package provider

import (
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

// privateKeys is where a resource's Create, Read or Update writes its private state.
type privateKeys = knownanswers.PrivateWriter
