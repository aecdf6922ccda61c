package grpcanswers

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

func TestQuiet(t *testing.T) {
	for _, c := range []struct {
		environ []string
		want    bool
	}{
		{nil, true},
		{[]string{"HOME=/root", "TF_LOG_SDK=OFF", "TF_LOG_SDK_PROTO=off", "TF_LOG_PROVIDER= ", "TF_LOG="}, true},
		{[]string{"TF_LOG=DEBUG"}, false},
		{[]string{"TF_LOG_PROVIDER_ASTRA=trace"}, false},
		{[]string{"TF_LOG_SDK_PROTO_DATA_DIR=/tmp/data"}, false},
		{[]string{"TF_LOG_PATH=/tmp/log"}, false},
		{[]string{"NOT_TF_LOG=DEBUG"}, true},
	} {
		if got := Quiet(c.environ); got != c.want {
			t.Errorf("Quiet(%q) = %v, want %v", c.environ, got, c.want)
		}
	}
}

// answersOf answers plans of "known" with a planned state and nothing else.
type answersOf struct{ planned []byte }

func (a answersOf) AnswerValidation(context.Context, *tfprotov6.ValidateResourceConfigRequest) *tfprotov6.ValidateResourceConfigResponse {
	return nil
}

func (a answersOf) AnswerPlan(_ context.Context, req *tfprotov6.PlanResourceChangeRequest) *tfprotov6.PlanResourceChangeResponse {
	if req.TypeName != "known" {
		return nil
	}
	return &tfprotov6.PlanResourceChangeResponse{PlannedState: &tfprotov6.DynamicValue{MsgPack: a.planned}}
}

func (a answersOf) AnswerRead(context.Context, *tfprotov6.ReadResourceRequest) *tfprotov6.ReadResourceResponse {
	return nil
}

func (a answersOf) AnswerUpgrade(context.Context, *tfprotov6.UpgradeResourceStateRequest) *tfprotov6.UpgradeResourceStateResponse {
	return &tfprotov6.UpgradeResourceStateResponse{Diagnostics: []*tfprotov6.Diagnostic{{Summary: "not the path's to write"}}}
}

// TestInterceptor: an answer is the path's, and the handler is not called; a request whose
// answer was sought and not found goes on with a context of its own (knownanswers.Tried),
// any other with the context it came with.
func TestInterceptor(t *testing.T) {
	intercept := Interceptor(answersOf{planned: []byte{0xc0}})
	planOf := func(typeName string) proto.Message {
		m := newMessage("tfplugin6.PlanResourceChange.Request")
		m.Set(field(m, "type_name"), protoreflect.ValueOfString(typeName))
		return m.Interface()
	}
	upgrade := newMessage("tfplugin6.UpgradeResourceState.Request").Interface()
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, "sent")
	for _, c := range []struct {
		name, method string
		req          proto.Message
		answered     string // the answer's text, "" for the handler's
		newContext   bool
	}{
		{"answered", "/tfplugin6.Provider/PlanResourceChange", planOf("known"), `planned_state:{msgpack:"\xc0"}`, false},
		{"sought", "/tfplugin6.Provider/PlanResourceChange", planOf("other"), "", true},
		{"not the path's to write", "/tfplugin6.Provider/UpgradeResourceState", upgrade, "", false},
		{"not taken", "/tfplugin6.Provider/ApplyResourceChange", planOf("known"), "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var handled context.Context
			resp, err := intercept(ctx, c.req, &grpc.UnaryServerInfo{FullMethod: c.method}, func(ctx context.Context, _ any) (any, error) {
				handled = ctx
				return "handler's", nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if c.answered == "" {
				if resp != "handler's" || handled == nil || handled.Value(key{}) != "sent" || (handled != ctx) != c.newContext {
					t.Errorf("answer %v; handled with %v (a new context: %v), want the handler's, with a new context %v", resp, handled, handled != ctx, c.newContext)
				}
				return
			}
			m, ok := resp.(proto.Message)
			if handled != nil || !ok {
				t.Fatalf("answer %v, handler called: %v", resp, handled != nil)
			}
			want := newMessage("tfplugin6.PlanResourceChange.Response")
			setDynamicValue(want, "planned_state", &tfprotov6.DynamicValue{MsgPack: []byte{0xc0}})
			if !proto.Equal(m, want.Interface()) {
				t.Errorf("answer %v, want %s", m, c.answered)
			}
		})
	}
}
