package provider

import (
	"context"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// destroySet is the IDs of the objects whose destroy this plan has planned so far. A
// destroy check asks it what the same apply removes before the object it checks: Terraform
// plans a destroy (plan -destroy, terraform destroy) only after the destroys of the
// resources whose state depends on it (its plan graph has the destroy edges of the
// apply's), so an app's destroy is recorded before its cluster's is checked, and a policy's
// before its bucket's. A plain plan has no such edges between removed resources: a check
// there waits a moment for them (destroyWait). A resource that names the object by a
// literal ID and is not removed counts as staying. One set per Configure, that is per
// graph walk.
type destroySet struct {
	mu  sync.Mutex
	ids map[string]bool
}

func (s *destroySet) add(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ids == nil {
		s.ids = map[string]bool{}
	}
	s.ids[id] = true
}

func (s *destroySet) has(id string) bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ids[id]
}

// destroyNoter is a resource that records its planned destroys (every resource, through
// clientHolder).
type destroyNoter interface {
	noteDestroy(ctx context.Context, req resource.ModifyPlanRequest)
}

// noteDestroy records the destroy that req plans, if it plans one (a null plan).
func (h *clientHolder) noteDestroy(ctx context.Context, req resource.ModifyPlanRequest) {
	if h.data == nil || h.data.destroys == nil || !req.Plan.Raw.IsNull() || req.State.Raw.IsNull() {
		return
	}
	var id types.String
	if req.State.GetAttribute(ctx, path.Root("id"), &id).HasError() || !isSet(id) {
		return
	}
	h.data.destroys.add(id.ValueString())
}

// destroyWait is how long a destroy check waits for the destroys it asks about: a plain
// plan (not -destroy) orders no destroys of resources removed from the configuration, so
// the destroy of an app may be planned at the same time as its cluster's, a moment later.
// Only a check that would otherwise report something waits, and at most this long.
const destroyWait = 3 * time.Second

// destroyedHere is which of ids this plan destroys (before the caller's own destroy, or at
// the same time: see destroySet and destroyWait).
func (h *clientHolder) destroyedHere(ctx context.Context, ids []string) map[string]bool {
	var s *destroySet
	if h.data != nil {
		s = h.data.destroys
	}
	deadline := time.Now().Add(destroyWait)
	for {
		found := map[string]bool{}
		for _, id := range ids {
			if s.has(id) {
				found[id] = true
			}
		}
		if len(found) == len(ids) || s == nil || time.Now().After(deadline) || ctx.Err() != nil {
			return found
		}
		time.Sleep(20 * time.Millisecond)
	}
}
