package provider

import (
	"context"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// destroySet is what this plan has planned so far for the objects a destroy check asks
// about: their destroy, or a move off the bucket they use. A destroy check asks it what the
// same apply removes before the object it checks: Terraform plans a destroy (plan -destroy,
// terraform destroy) only after the destroys of the resources whose state depends on it
// (its plan graph has the destroy edges of the apply's), so an app's destroy is recorded
// before its cluster's is checked, and a policy's before its bucket's. A plain plan has no
// such edges between removed resources, nor between a removed bucket and the update that
// moves its users to another: a check there waits a moment for them (destroyWait). A
// resource that names the object by a literal ID and is neither removed nor changed counts
// as staying. One set per Configure, that is per graph walk.
type destroySet struct {
	mu  sync.Mutex
	ids map[string]planNote
}

// planNote is what a plan does to an object, as far as the destroy checks care.
type planNote uint8

const (
	noteDestroyed   planNote = 1 << iota // its destroy is planned
	noteMovesBucket                      // its bucket_id or default_bucket_id changes
)

func (s *destroySet) add(id string, note planNote) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ids == nil {
		s.ids = map[string]planNote{}
	}
	s.ids[id] |= note
}

func (s *destroySet) get(id string) planNote {
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ids[id]
}

// destroyNoter is a resource that records what its plan does (every resource, through
// clientHolder).
type destroyNoter interface {
	noteDestroy(ctx context.Context, req resource.ModifyPlanRequest)
}

// noteDestroy records the destroy that req plans (a null plan), or the move of the object
// off its bucket (a planned bucket_id or default_bucket_id that is not the prior one,
// unknown included: the bucket's check then trusts the apply to move it).
func (h *clientHolder) noteDestroy(ctx context.Context, req resource.ModifyPlanRequest) {
	if h.data == nil || h.data.destroys == nil || req.State.Raw.IsNull() {
		return
	}
	var id types.String
	if req.State.GetAttribute(ctx, path.Root("id"), &id).HasError() || !isSet(id) {
		return
	}
	if req.Plan.Raw.IsNull() {
		h.data.destroys.add(id.ValueString(), noteDestroyed)
		return
	}
	for _, attr := range []string{"bucket_id", "default_bucket_id"} {
		var prior, planned types.String
		if req.State.GetAttribute(ctx, path.Root(attr), &prior).HasError() ||
			req.Plan.GetAttribute(ctx, path.Root(attr), &planned).HasError() {
			continue // the resource has no such attribute
		}
		if isSet(prior) && !prior.Equal(planned) {
			h.data.destroys.add(id.ValueString(), noteMovesBucket)
		}
	}
}

// destroyWait is how long a destroy check waits for the destroys it asks about: a plain
// plan (not -destroy) orders no destroys of resources removed from the configuration, so
// the destroy of an app may be planned at the same time as its cluster's, a moment later.
// Only a check that would otherwise report something waits, and at most this long.
const destroyWait = 3 * time.Second

// destroyedHere is which of ids this plan destroys (before the caller's own destroy, or at
// the same time: see destroySet and destroyWait).
func (h *clientHolder) destroyedHere(ctx context.Context, ids []string) map[string]bool {
	destroyed := map[string]bool{}
	for id, note := range h.plannedHere(ctx, ids) {
		if note&noteDestroyed != 0 {
			destroyed[id] = true
		}
	}
	return destroyed
}

// plannedHere is what this plan does to each of ids it has planned something for (a destroy
// or a move), waiting up to destroyWait for those it has not yet.
func (h *clientHolder) plannedHere(ctx context.Context, ids []string) map[string]planNote {
	var s *destroySet
	if h.data != nil {
		s = h.data.destroys
	}
	unique := map[string]bool{}
	for _, id := range ids {
		unique[id] = true
	}
	deadline := time.Now().Add(destroyWait)
	for {
		found := map[string]planNote{}
		for id := range unique {
			if note := s.get(id); note != 0 {
				found[id] = note
			}
		}
		if len(found) == len(unique) || s == nil || time.Now().After(deadline) || ctx.Err() != nil {
			return found
		}
		time.Sleep(20 * time.Millisecond)
	}
}
