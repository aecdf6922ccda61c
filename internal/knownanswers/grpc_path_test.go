package knownanswers_test

import (
	"bytes"
	"context"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/astra-control/terraform-provider-astra/internal/grpcanswers"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
)

// The gRPC path's leg of the differential (grpcanswers): every request compared is also
// written as the CLI sends it, read back as the path reads it, and, where the known
// answers answer it, answered on the path and by tf6server over the same server; the two
// answers must be the same bytes. Where the known answers do not answer, the path must
// pass the request on, marked as sought.

// grpcRPCs are the methods the path takes, by the request type the generator makes.
var grpcRPCs = map[reflect.Type]string{
	reflect.TypeOf(&tfprotov6.ValidateResourceConfigRequest{}): "ValidateResourceConfig",
	reflect.TypeOf(&tfprotov6.PlanResourceChangeRequest{}):     "PlanResourceChange",
	reflect.TypeOf(&tfprotov6.ReadResourceRequest{}):           "ReadResource",
	reflect.TypeOf(&tfprotov6.UpgradeResourceStateRequest{}):   "UpgradeResourceState",
}

// sameOnGRPC runs the gRPC path's leg for req, whose known answer got was found or not
// (shortcut). The path's answer is compared with tf6server's for the same answer (got,
// recorded): two calls of the known answers may encode a map's entries in another order.
func (g *requestGen) sameOnGRPC(t *testing.T, req, got any, shortcut bool, counts map[string]int) {
	t.Helper()
	ctx := context.Background()
	rpc := grpcRPCs[reflect.TypeOf(req)]
	method := "/tfplugin6.Provider/" + rpc
	sent := protoRequest(t, req)
	if back := grpcanswers.Request(method, sent); back == nil || !proto.Equal(sent, protoRequest(t, back)) {
		t.Fatalf("seed %d: %s: the gRPC path reads %#v from %v", g.seed, rpc, back, sent)
	}
	answered, sought := grpcanswers.Answer(ctx, g.f.fast, method, sent)
	switch {
	case shortcut && answered == nil:
		t.Errorf("seed %d: %s: the known answer was not answered on the gRPC path", g.seed, rpc)
	case !shortcut && (answered != nil || !sought):
		t.Errorf("seed %d: %s: the gRPC path answered %v (sought %v), where the known answers do not", g.seed, rpc, answered, sought)
	}
	if !shortcut {
		return
	}
	same := recorded{answer: got}
	written, _ := grpcanswers.Answer(ctx, same, method, sent)
	out := reflect.ValueOf(tf6server.New("registry.terraform.io/astra-control/astra", same)).MethodByName(rpc).
		Call([]reflect.Value{reflect.ValueOf(ctx), reflect.ValueOf(sent)})
	if err, _ := out[1].Interface().(error); err != nil {
		t.Fatalf("seed %d: %s through tf6server: %v", g.seed, rpc, err)
	}
	want, _ := out[0].Interface().(proto.Message)
	if written == nil || !bytes.Equal(wire(t, written), wire(t, want)) {
		t.Errorf("seed %d: %s answered on the gRPC path differs from tf6server's:\n%v\nwant\n%v", g.seed, rpc, written, want)
	}
	counts["grpc "+rpc]++
}

// recorded answers the four methods with the answer it holds, as the known answers and
// as a provider server; nothing else of it is called.
type recorded struct {
	tfprotov6.ProviderServer
	answer any
}

func (r recorded) AnswerValidation(context.Context, *tfprotov6.ValidateResourceConfigRequest) *tfprotov6.ValidateResourceConfigResponse {
	resp, _ := r.answer.(*tfprotov6.ValidateResourceConfigResponse)
	return resp
}

func (r recorded) AnswerPlan(context.Context, *tfprotov6.PlanResourceChangeRequest) *tfprotov6.PlanResourceChangeResponse {
	resp, _ := r.answer.(*tfprotov6.PlanResourceChangeResponse)
	return resp
}

func (r recorded) AnswerRead(context.Context, *tfprotov6.ReadResourceRequest) *tfprotov6.ReadResourceResponse {
	resp, _ := r.answer.(*tfprotov6.ReadResourceResponse)
	return resp
}

func (r recorded) AnswerUpgrade(context.Context, *tfprotov6.UpgradeResourceStateRequest) *tfprotov6.UpgradeResourceStateResponse {
	resp, _ := r.answer.(*tfprotov6.UpgradeResourceStateResponse)
	return resp
}

func (r recorded) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return r.AnswerValidation(ctx, req), nil
}

func (r recorded) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return r.AnswerPlan(ctx, req), nil
}

func (r recorded) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return r.AnswerRead(ctx, req), nil
}

func (r recorded) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	return r.AnswerUpgrade(ctx, req), nil
}

// guardGRPC: on the fixed seeds, the path answered requests of every method it takes.
func guardGRPC(t *testing.T, counts map[string]int) {
	t.Helper()
	for _, rpc := range grpcRPCs {
		if counts["grpc "+rpc] == 0 {
			t.Errorf("no %s was answered on the gRPC path", rpc)
		}
	}
}

func wire(t *testing.T, m proto.Message) []byte {
	t.Helper()
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// protoRequest is req as the CLI sends it.
func protoRequest(t *testing.T, req any) proto.Message {
	t.Helper()
	switch r := req.(type) {
	case *tfprotov6.ValidateResourceConfigRequest:
		var capabilities proto.Message
		if c := r.ClientCapabilities; c != nil {
			capabilities = protoMessage(t, "tfplugin6.ClientCapabilities", fields{"write_only_attributes_allowed": c.WriteOnlyAttributesAllowed})
		}
		return protoMessage(t, "tfplugin6.ValidateResourceConfig.Request", fields{"type_name": r.TypeName,
			"config": dynamicMessage(t, r.Config), "client_capabilities": capabilities})
	case *tfprotov6.PlanResourceChangeRequest:
		var capabilities proto.Message
		if c := r.ClientCapabilities; c != nil {
			capabilities = protoMessage(t, "tfplugin6.ClientCapabilities", fields{"deferral_allowed": c.DeferralAllowed})
		}
		return protoMessage(t, "tfplugin6.PlanResourceChange.Request", fields{"type_name": r.TypeName,
			"prior_state": dynamicMessage(t, r.PriorState), "proposed_new_state": dynamicMessage(t, r.ProposedNewState),
			"config": dynamicMessage(t, r.Config), "prior_private": r.PriorPrivate, "provider_meta": dynamicMessage(t, r.ProviderMeta),
			"client_capabilities": capabilities, "prior_identity": identityMessage(t, r.PriorIdentity)})
	case *tfprotov6.ReadResourceRequest:
		var capabilities proto.Message
		if c := r.ClientCapabilities; c != nil {
			capabilities = protoMessage(t, "tfplugin6.ClientCapabilities", fields{"deferral_allowed": c.DeferralAllowed})
		}
		return protoMessage(t, "tfplugin6.ReadResource.Request", fields{"type_name": r.TypeName,
			"current_state": dynamicMessage(t, r.CurrentState), "private": r.Private, "provider_meta": dynamicMessage(t, r.ProviderMeta),
			"client_capabilities": capabilities, "current_identity": identityMessage(t, r.CurrentIdentity)})
	case *tfprotov6.UpgradeResourceStateRequest:
		var raw proto.Message
		if r.RawState != nil {
			raw = protoMessage(t, "tfplugin6.RawState", fields{"json": r.RawState.JSON, "flatmap": r.RawState.Flatmap})
		}
		return protoMessage(t, "tfplugin6.UpgradeResourceState.Request", fields{"type_name": r.TypeName, "version": r.Version, "raw_state": raw})
	}
	t.Fatalf("no protocol message for %T", req)
	return nil
}

func dynamicMessage(t *testing.T, v *tfprotov6.DynamicValue) proto.Message {
	if v == nil {
		return nil
	}
	return protoMessage(t, "tfplugin6.DynamicValue", fields{"msgpack": v.MsgPack, "json": v.JSON})
}

func identityMessage(t *testing.T, v *tfprotov6.ResourceIdentityData) proto.Message {
	if v == nil {
		return nil
	}
	return protoMessage(t, "tfplugin6.ResourceIdentityData", fields{"identity_data": dynamicMessage(t, v.IdentityData)})
}

type fields map[protoreflect.Name]any

// protoMessage is the message named with the fields given; a nil message leaves its field
// unset.
func protoMessage(t *testing.T, name protoreflect.FullName, values fields) proto.Message {
	t.Helper()
	mt, err := protoregistry.GlobalTypes.FindMessageByName(name)
	if err != nil {
		t.Fatal(err)
	}
	m := mt.New()
	for n, v := range values {
		f := m.Descriptor().Fields().ByName(n)
		if f == nil {
			t.Fatalf("%s has no field %s", name, n)
		}
		switch v := v.(type) {
		case nil:
		case string:
			m.Set(f, protoreflect.ValueOfString(v))
		case []byte:
			m.Set(f, protoreflect.ValueOfBytes(v))
		case bool:
			m.Set(f, protoreflect.ValueOfBool(v))
		case int64:
			m.Set(f, protoreflect.ValueOfInt64(v))
		case map[string]string:
			entries := m.Mutable(f).Map()
			for k, s := range v {
				entries.Set(protoreflect.ValueOfString(k).MapKey(), protoreflect.ValueOfString(s))
			}
		case proto.Message:
			m.Set(f, protoreflect.ValueOfMessage(v.ProtoReflect()))
		default:
			t.Fatalf("%s.%s: no field of %T", name, n, v)
		}
	}
	return m.Interface()
}

// TestKnownAnswers_tried: a request marked Tried (its known answer sought on the gRPC path
// and not found) goes straight to the framework, which answers as the known answer would;
// unmarked, the known answer serves it.
func TestKnownAnswers_tried(t *testing.T) {
	f := newAnswersFixture(t)
	req := &tfprotov6.PlanResourceChangeRequest{TypeName: "astra_cluster", PriorState: f.dynamic(t, f.state),
		ProposedNewState: f.dynamic(t, f.state), Config: f.dynamic(t, f.config()), PriorIdentity: f.identity, PriorPrivate: f.private}
	want, err := f.framework.PlanResourceChange(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		ctx   context.Context
		known int // the known answers counted
	}{
		{"unmarked", context.Background(), 1},
		{"tried", knownanswers.Tried(context.Background()), 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := f.fast.Count("plan astra_cluster")
			got, err := f.fast.PlanResourceChange(c.ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if n := f.fast.Count("plan astra_cluster") - before; n != c.known {
				t.Errorf("known answers counted: %d, want %d", n, c.known)
			}
			if d := planDiff(f.typ, identityType, got, want); d != "" {
				t.Errorf("the plan differs from the framework's: %s", d)
			}
		})
	}
}
