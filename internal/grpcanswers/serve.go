package grpcanswers

import (
	"context"
	"strings"

	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
)

// The go-plugin handshake and message limits of protocol 6, as tf6server.Serve sets them.
const (
	protocolVersion  = 6
	magicCookieKey   = "TF_PLUGIN_MAGIC_COOKIE"
	magicCookieValue = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2"
	maxMessageSize   = 256 << 20
)

// Serve serves server under name as tf6server.Serve does without a debugger, with the
// known answers on the gRPC path when server has them (knownanswers.Answers), environ
// asks for no log (Quiet) and the protocol's messages are the shapes the path reads.
func Serve(name string, server tfprotov6.ProviderServer, environ []string) {
	var options []grpc.ServerOption
	if answers, ok := server.(knownanswers.Answers); ok && Quiet(environ) && shapesKnown() == nil {
		options = append(options, grpc.UnaryInterceptor(Interceptor(answers)))
	}
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: plugin.HandshakeConfig{
			ProtocolVersion:  protocolVersion,
			MagicCookieKey:   magicCookieKey,
			MagicCookieValue: magicCookieValue,
		},
		Plugins: plugin.PluginSet{"provider": &tf6server.GRPCProviderPlugin{
			GRPCProvider: func() tfprotov6.ProviderServer { return server },
			Name:         name,
		}},
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			opts = append(opts, grpc.MaxRecvMsgSize(maxMessageSize), grpc.MaxSendMsgSize(maxMessageSize))
			return grpc.NewServer(append(opts, options...)...)
		},
	})
}

// Quiet: environ (os.Environ's form) sets no TF_LOG variable to anything but OFF, so
// tf6server would write no log and no protocol data for a request (TF_LOG_SDK_PROTO_DATA_DIR
// and TF_LOG_PATH name no level and so are never quiet).
func Quiet(environ []string) bool {
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "TF_LOG") {
			continue
		}
		if v := strings.TrimSpace(value); v != "" && !strings.EqualFold(v, "OFF") {
			return false
		}
	}
	return true
}

// Interceptor answers the requests the known answers take, and passes every other one
// to tf6server, marked knownanswers.Tried when its known answer was sought.
func Interceptor(answers knownanswers.Answers) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		message, ok := req.(proto.Message)
		if !ok {
			return handler(ctx, req)
		}
		resp, sought := Answer(ctx, answers, info.FullMethod, message)
		if resp != nil {
			return resp, nil
		}
		if sought {
			ctx = knownanswers.Tried(ctx)
		}
		return handler(ctx, req)
	}
}

// Answer is the path's answer to req, a request of the gRPC method named (its full name,
// "/tfplugin6.Provider/PlanResourceChange"), or nil; sought tells whether the known
// answer was sought and not found, so that tf6server need not seek it again.
func Answer(ctx context.Context, answers knownanswers.Answers, method string, req proto.Message) (resp proto.Message, sought bool) {
	m := req.ProtoReflect()
	switch method {
	case "/tfplugin6.Provider/ValidateResourceConfig":
		return answer(ctx, m, validationRequest, answers.AnswerValidation, validationResponse)
	case "/tfplugin6.Provider/PlanResourceChange":
		return answer(ctx, m, planRequest, answers.AnswerPlan, planResponse)
	case "/tfplugin6.Provider/ReadResource":
		return answer(ctx, m, readRequest, answers.AnswerRead, readResponse)
	case "/tfplugin6.Provider/UpgradeResourceState":
		return answer(ctx, m, upgradeRequest, answers.AnswerUpgrade, upgradeResponse)
	}
	return nil, false
}

// Request is req, a request of the gRPC method named, as the path reads it (a tfprotov6
// request), or nil for a method it does not take.
func Request(method string, req proto.Message) any {
	m := req.ProtoReflect()
	read := func(r any, ok bool) any {
		if !ok {
			return nil
		}
		return r
	}
	switch method {
	case "/tfplugin6.Provider/ValidateResourceConfig":
		return read(validationRequest(m))
	case "/tfplugin6.Provider/PlanResourceChange":
		return read(planRequest(m))
	case "/tfplugin6.Provider/ReadResource":
		return read(readRequest(m))
	case "/tfplugin6.Provider/UpgradeResourceState":
		return read(upgradeRequest(m))
	}
	return nil
}

func answer[Req, Resp any](ctx context.Context, m protoreflect.Message, read func(protoreflect.Message) (*Req, bool),
	known func(context.Context, *Req) *Resp, write func(*Resp) (protoreflect.Message, bool)) (proto.Message, bool) {
	req, ok := read(m)
	if !ok {
		return nil, false
	}
	resp := known(ctx, req)
	if resp == nil {
		return nil, true
	}
	written, ok := write(resp)
	if !ok {
		return nil, false
	}
	return written.Interface(), false
}
