package provider

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// unmanageAccepted reports an unmanage DELETE that failed without a refusal (a 5xx, or no
// answer), yet went through: a managed cluster keeps its record, so the client's read after
// such a DELETE (a 404 means deleted) does not tell on its own. The managed cluster's own
// GET does: unmanaging ("deleting", cluster 1.7) or no longer managed means the DELETE was
// accepted, and the destroy waits for the unmanage as after a 204 (research notes §7: poll
// until 404 or managedState unmanaged). Before 1.7 a cluster being unmanaged still reads
// "managed", which tells nothing: the DELETE's error stands, and the next refresh sees
// the outcome (a cluster no longer managed leaves state with a warning).
func unmanageAccepted(ctx context.Context, client *astra.Client, id string, err error) bool {
	var apiErr *astra.APIError
	if errors.As(err, &apiErr) && apiErr.StatusCode < http.StatusInternalServerError {
		return false // an answer that refused: nothing was done
	}
	mc, readErr := client.GetManagedCluster(astra.OwnRead(ctx), id)
	switch {
	case astra.IsNotFound(readErr):
		return true
	case readErr != nil:
		return false
	}
	return strings.EqualFold(strings.TrimSpace(mc.ManagedState), "deleting") || !isManaged(mc)
}
