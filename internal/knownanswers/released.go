package knownanswers

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/astra-control/terraform-provider-astra/internal/gcgoal"
)

// The framework's server keeps the cancel function of every request's context until the
// provider is stopped (terraform-plugin-framework 1.19, internal/proto6server/serve.go:
// registerContext appends to contextCancels, which only StopProvider empties), and with
// it the context and everything it carries: the dozen loggers terraform-plugin-go attaches
// to each request, some 11 KB. A process holds them to its end, so a fleet's plan held one
// per configuration the framework validated: about 10 MiB of a 300-cluster plan's 16 MiB
// of live heap, twice that in the heap's peak. released hands each per-object request to
// the framework under a context that lets go of the request's once the framework answers,
// so the framework keeps a few dozen bytes instead.
type released struct{ frameworkServer }

// releasedCall calls f under a context that forgets ctx when f returns.
func releasedCall[Req, Resp any](ctx context.Context, req Req, f func(context.Context, Req) (Resp, error)) (Resp, error) {
	r := &releasable{}
	r.parent.Store(&ctx)
	defer r.parent.Store(nil)
	return f(r, req)
}

func (s released) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return releasedCall(ctx, req, s.frameworkServer.ValidateResourceConfig)
}

func (s released) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	return releasedCall(ctx, req, s.frameworkServer.ValidateDataResourceConfig)
}

func (s released) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	return releasedCall(ctx, req, s.frameworkServer.UpgradeResourceState)
}

func (s released) UpgradeResourceIdentity(ctx context.Context, req *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	return releasedCall(ctx, req, s.frameworkServer.UpgradeResourceIdentity)
}

func (s released) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return releasedCall(ctx, req, s.frameworkServer.ReadResource)
}

func (s released) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return releasedCall(ctx, req, s.frameworkServer.PlanResourceChange)
}

// ApplyResourceChange sets the garbage-collection goal of a process that applies here too,
// for the applies the framework answers with the known answers off (server's answers set it
// before they get here).
func (s released) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	gcgoal.ForApplies()
	return releasedCall(ctx, req, s.frameworkServer.ApplyResourceChange)
}

func (s released) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	return releasedCall(ctx, req, s.frameworkServer.ImportResourceState)
}

func (s released) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	return releasedCall(ctx, req, s.frameworkServer.ReadDataSource)
}

// releasable is the request's context until it is released, then a cancelled context with
// no values: by then the CLI has its answer, and gRPC has cancelled the request's context.
// A context the framework derives from it is registered with the request's nearest
// cancellable context (the context package finds it through Value), so the request's
// cancellation reaches it as before.
type releasable struct {
	parent atomic.Pointer[context.Context]
}

func (r *releasable) Deadline() (time.Time, bool) {
	if p := r.parent.Load(); p != nil {
		return (*p).Deadline()
	}
	return time.Time{}, false
}

func (r *releasable) Done() <-chan struct{} {
	if p := r.parent.Load(); p != nil {
		return (*p).Done()
	}
	return closed
}

func (r *releasable) Err() error {
	if p := r.parent.Load(); p != nil {
		return (*p).Err()
	}
	return context.Canceled
}

func (r *releasable) Value(key any) any {
	if p := r.parent.Load(); p != nil {
		return (*p).Value(key)
	}
	return nil
}

// closed is the Done of a released context.
var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()
