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
	if r, ok := rpcs[method]; ok {
		return r.answer(ctx, answers, req.ProtoReflect())
	}
	return nil, false
}

// Request is req, a request of the gRPC method named, as the path reads it (a tfprotov6
// request), or nil for a method it does not take or a request it leaves to tf6server.
func Request(method string, req proto.Message) any {
	if r, ok := rpcs[method]; ok {
		return r.read(req.ProtoReflect())
	}
	return nil
}

// rpcs are the methods the path takes, by full name.
var rpcs = map[string]rpc{
	"/tfplugin6.Provider/ValidateResourceConfig": rpcOf(validationRequest, knownanswers.Answers.AnswerValidation, validationResponse),
	"/tfplugin6.Provider/PlanResourceChange":     rpcOf(planRequest, knownanswers.Answers.AnswerPlan, planResponse),
	"/tfplugin6.Provider/ReadResource":           rpcOf(readRequest, knownanswers.Answers.AnswerRead, readResponse),
	"/tfplugin6.Provider/UpgradeResourceState":   rpcOf(upgradeRequest, knownanswers.Answers.AnswerUpgrade, upgradeResponse),
}

// rpc is how the path reads a method's request and answers it.
type rpc struct {
	read   func(protoreflect.Message) any
	answer func(context.Context, knownanswers.Answers, protoreflect.Message) (proto.Message, bool)
}

// rpcOf is the rpc that reads a request with read (false: tf6server's to read), seeks its
// known answer and writes it with write (false: tf6server's to write).
func rpcOf[Req, Resp any](read func(protoreflect.Message) (*Req, bool),
	known func(knownanswers.Answers, context.Context, *Req) *Resp, write func(*Resp) (protoreflect.Message, bool)) rpc {
	return rpc{
		read: func(m protoreflect.Message) any {
			if req, ok := read(m); ok {
				return req
			}
			return nil
		},
		answer: func(ctx context.Context, answers knownanswers.Answers, m protoreflect.Message) (proto.Message, bool) {
			req, ok := read(m)
			if !ok {
				return nil, false
			}
			resp := known(answers, ctx, req)
			if resp == nil {
				return nil, true
			}
			if written, ok := write(resp); ok {
				return written.Interface(), false
			}
			return nil, false
		},
	}
}
