package knownanswers

import (
	"context"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// Answers are the known answers alone, for a caller that holds a request before tf6server
// does (internal/grpcanswers answers on the gRPC path, without tf6server's per-request
// logging contexts, a seventh of a steady plan's provider CPU). Each is nil where the
// framework answers; a request the caller then passes on, with a context from Tried, goes
// straight to the framework, so no known answer is worked out twice.
type Answers interface {
	AnswerValidation(context.Context, *tfprotov6.ValidateResourceConfigRequest) *tfprotov6.ValidateResourceConfigResponse
	AnswerPlan(context.Context, *tfprotov6.PlanResourceChangeRequest) *tfprotov6.PlanResourceChangeResponse
	AnswerRead(context.Context, *tfprotov6.ReadResourceRequest) *tfprotov6.ReadResourceResponse
	AnswerUpgrade(context.Context, *tfprotov6.UpgradeResourceStateRequest) *tfprotov6.UpgradeResourceStateResponse
}

type triedKey struct{}

// Tried is ctx marked as carrying a request whose known answer was sought and not found.
func Tried(ctx context.Context) context.Context {
	return context.WithValue(ctx, triedKey{}, true)
}

// tried: ctx is marked by Tried.
func tried(ctx context.Context) bool {
	marked, _ := ctx.Value(triedKey{}).(bool)
	return marked
}

func (s *server) AnswerValidation(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) *tfprotov6.ValidateResourceConfigResponse {
	return counted(s, "validate ", req.TypeName, s.knownValidation(ctx, req))
}

func (s *server) AnswerPlan(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) *tfprotov6.PlanResourceChangeResponse {
	return counted(s, "plan ", req.TypeName, s.knownPlan(ctx, req))
}

func (s *server) AnswerRead(ctx context.Context, req *tfprotov6.ReadResourceRequest) *tfprotov6.ReadResourceResponse {
	return counted(s, "read ", req.TypeName, s.unchangedRead(ctx, req))
}

func (s *server) AnswerUpgrade(_ context.Context, req *tfprotov6.UpgradeResourceStateRequest) *tfprotov6.UpgradeResourceStateResponse {
	return counted(s, "upgrade ", req.TypeName, s.knownUpgrade(req))
}

// counted is resp, counted under kind and typeName when it is an answer.
func counted[Resp any](s *server, kind, typeName string, resp *Resp) *Resp {
	if resp != nil {
		s.counts.Add(kind + typeName)
	}
	return resp
}

// The protocol's methods: the known answer, unless the caller sought it already (Tried),
// else the framework's.

func (s *server) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return knownOr(ctx, req, s.AnswerValidation, s.frameworkServer.ValidateResourceConfig)
}

func (s *server) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return knownOr(ctx, req, s.AnswerPlan, s.frameworkServer.PlanResourceChange)
}

func (s *server) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return knownOr(ctx, req, s.AnswerRead, s.frameworkRead)
}

func (s *server) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	return knownOr(ctx, req, s.AnswerUpgrade, s.frameworkServer.UpgradeResourceState)
}

func knownOr[Req, Resp any](ctx context.Context, req *Req, known func(context.Context, *Req) *Resp,
	framework func(context.Context, *Req) (*Resp, error)) (*Resp, error) {
	if !tried(ctx) {
		if resp := known(ctx, req); resp != nil {
			return resp, nil
		}
	}
	return framework(ctx, req)
}
