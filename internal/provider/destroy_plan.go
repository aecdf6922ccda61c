package provider

import (
	"context"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// destroySet is the IDs of the objects whose destroy this plan has planned so far. A
// destroy check asks it what the same apply removes before the object it checks: Terraform
// plans a destroy only after the destroys of the resources whose state depends on it (its
// plan graph has the destroy edges of the apply's), so an app's destroy is recorded before
// its cluster's is checked, and a policy's before its bucket's. A resource that names the
// object by a literal ID has no such edge: it may be planned later, and is then counted as
// staying (the apply orders it no better). One set per Configure, that is per graph walk.
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

// destroyedHere tells whether this plan destroys the object id (before the caller's own
// destroy: see destroySet).
func (h *clientHolder) destroyedHere(id string) bool {
	return h.data != nil && h.data.destroys.has(id)
}
