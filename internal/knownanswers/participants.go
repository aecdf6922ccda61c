package knownanswers

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
)

// The interfaces a resource implements to take part, and what it calls: ModifyPlan on the
// framework's path of its plan checks, RecordAnswer (reads.go) once it has written state
// from an answer, Replayed (applies.go) at the start of its Create. Each interface is looked
// up on the resource the provider's factory returns, or, for a Wrapper, on the resource it
// wraps; a resource that implements none is still planned for when its schema allows, and
// never read for.

// PlanChecker is a resource whose ModifyPlan only checks: it reports problems and never
// changes the plan. The framework's path calls CheckPlan through ModifyPlan below (the
// resource's, or its Wrapper's, ModifyPlan calls it), and the known plans call it on the
// plan they computed, so a check added to a resource applies to both at once. A resource
// with a ModifyPlan of its own that is no PlanChecker may change plans in ways the known
// answers cannot see: they refuse it.
type PlanChecker interface {
	CheckPlan(ctx context.Context, req PlanRequest) diag.Diagnostics
}

// PlanRequest is what a PlanChecker reads: the framework's resource.ModifyPlanRequest,
// whose private state is a type of the framework's own that nothing outside it can build.
type PlanRequest struct {
	Config tfsdk.Config
	State  tfsdk.State
	Plan   tfsdk.Plan
	// Private is the prior private state, on both paths.
	Private PrivateState
	// Unchanged: the plan is the prior state, as the known answers found it before asking
	// (they answer no other update); false on the framework's path, which does not tell.
	Unchanged bool
}

// PrivateState is the read half of a resource's private state.
type PrivateState interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

// DestroyChecker is a resource that checks the plan of its own destroy (warns of what the
// service will refuse). It changes nothing, and the known answers never answer a destroy's
// plan: the framework calls ModifyPlan, which calls CheckDestroy (ModifyPlan below, or
// ModifyDestroyPlan for a resource with no other check).
type DestroyChecker interface {
	CheckDestroy(ctx context.Context, state tfsdk.State) diag.Diagnostics
}

// ModifyPlan is a PlanChecker's ModifyPlan: its checks, and on a destroy its
// DestroyChecker's, if it is one.
func ModifyPlan(ctx context.Context, checker PlanChecker, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		if d, ok := checker.(DestroyChecker); ok {
			resp.Diagnostics.Append(d.CheckDestroy(ctx, req.State)...)
		}
		return
	}
	resp.Diagnostics.Append(checker.CheckPlan(ctx, PlanRequest{Config: req.Config, State: req.State, Plan: req.Plan, Private: req.Private})...)
}

// ModifyDestroyPlan is the ModifyPlan of a DestroyChecker that checks nothing else.
func ModifyDestroyPlan(ctx context.Context, checker DestroyChecker, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		resp.Diagnostics.Append(checker.CheckDestroy(ctx, req.State)...)
	}
}

// PrivateWriter is the write half of a resource's private state (resource.CreateResponse's
// Private, or ReadResponse's, or UpdateResponse's).
type PrivateWriter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// AnswerReader is a resource whose Read converts one object, fetched by its identity, to
// state, and answers the identity its state names: each identity attribute is the state's
// attribute of the same name ({ id }, or { app_id, id }). Its Read and its Create record the
// answer they converted with RecordAnswer.
type AnswerReader interface {
	// ReadAnswer is the object Read would convert, given the identity's attributes as the
	// state holds them; false when Read would not convert one (a 404, an error, an object
	// it forgets, no client).
	ReadAnswer(ctx context.Context, ids map[string]string) (any, bool)
}

// AnswerBytesReader is an AnswerReader whose ReadAnswer decodes the bytes the service sent
// (AnswerFrom of ReadAnswerBytes): its reads are first matched on the bytes, so an
// unchanged read decodes neither the answer nor the state.
type AnswerBytesReader interface {
	AnswerReader
	// ReadAnswerBytes is the object as the service sent it, given the identity's attributes.
	ReadAnswerBytes(ctx context.Context, ids map[string]string) ([]byte, bool)
	// AnswerFrom is what ReadAnswer answers for the object the service sent as raw.
	AnswerFrom(ctx context.Context, raw []byte) (any, bool)
	// NotingAnswers is ctx asking the reads made with it to hand note the ID and the bytes of
	// each object they fetch: the framework's read is sealed with the bytes it converted.
	NotingAnswers(ctx context.Context, note func(id string, raw []byte)) context.Context
}

// PrivateKeyWriter is a resource that writes keys of its own into private state, besides
// the seal RecordAnswer writes. A create that writes a key left out of the list is replayed
// through the framework, and the differential test sends only listed keys.
type PrivateKeyWriter interface {
	PrivateKeys() []string
}

// Wrapper is a resource that wraps another (to give it an identity, say), whose methods the
// interfaces above are looked up on. A Wrapper with a ModifyPlan calls the wrapped
// resource's: its own ModifyPlan, or its PlanChecker's through ModifyPlan above.
type Wrapper interface {
	Unwrap() resource.Resource
}

// CreateReplayer is a resource whose Create begins with Replayed, so that the framework can
// pass on an outcome of Create the known apply already has (see applies.go). Only the
// creates of a CreateReplayer are answered.
type CreateReplayer interface {
	resource.Resource
	ReplaysCreates()
}

// IdleModifier is a plan modifier that acts only with a prior state and an unknown planned
// value, so it does nothing to a create's plan nor to a plan that proposes a fully known
// prior state: the known plans may leave it out. The differential test holds it to that.
type IdleModifier interface {
	IdleUnlessUnknown()
}

// PureValidator is a resource whose configuration checks (its ValidateConfig, its
// ConfigValidators, the validators of its schema and its Configure) read only their
// request and change nothing outside it, so that running them twice is running them once.
// The known validations run those checks, and leave a configuration any check speaks up on
// to the framework, which runs them all again; so they answer only the types that say so.
// A new resource is left to the framework until it declares this.
type PureValidator interface {
	ValidatesPurely()
}

// unwrapped is the resource a Wrapper wraps, or r.
func unwrapped(r resource.Resource) resource.Resource {
	if w, ok := r.(Wrapper); ok {
		return w.Unwrap()
	}
	return r
}
