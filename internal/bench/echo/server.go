package echo

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Server is the echo floor: a tfprotov6.ProviderServer (with list resources and actions) serving
// recorded schemas and values. See the package documentation.
type Server struct {
	schemas *schemas
	// keys are the key attributes of each resource and data source type (keyAttributes).
	resourceKeys, dataSourceKeys map[string][]string
	records                      records
	schemaResp                   *tfprotov6.GetProviderSchemaResponse
	metadataResp                 *tfprotov6.GetMetadataResponse
}

// The list and action methods' interfaces, until ProviderServer holds them.
var (
	_ tfprotov6.ProviderServerWithListResource = (*Server)(nil) //nolint:staticcheck // see above
	_ tfprotov6.ProviderServerWithActions      = (*Server)(nil) //nolint:staticcheck // see above
)

// New is the echo floor for the schemas in schemaJSON (`providers schema -json`'s output;
// provider names the provider's address there, or is empty for the only one) and the
// state readState returns (`show -json`'s output), read on first need.
func New(schemaJSON []byte, provider string, readState func() ([]byte, error)) (*Server, error) {
	s, err := parseSchemas(schemaJSON, provider)
	if err != nil {
		return nil, err
	}
	srv := &Server{schemas: s, records: records{read: readState},
		resourceKeys: map[string][]string{}, dataSourceKeys: map[string][]string{}}
	for name, sc := range s.resources {
		srv.resourceKeys[name] = keyAttributes(sc.Block)
	}
	for name, sc := range s.dataSources {
		srv.dataSourceKeys[name] = keyAttributes(sc.Block)
	}
	// The framework's capabilities, but moves and generated config, which need the provider's own logic.
	caps := &tfprotov6.ServerCapabilities{GetProviderSchemaOptional: true, PlanDestroy: true}
	srv.schemaResp = &tfprotov6.GetProviderSchemaResponse{
		ServerCapabilities: caps, Provider: s.provider, ResourceSchemas: s.resources,
		DataSourceSchemas: s.dataSources, EphemeralResourceSchemas: s.ephemerals,
		ListResourceSchemas: s.listResources, ActionSchemas: s.actions, Functions: map[string]*tfprotov6.Function{},
	}
	srv.metadataResp = &tfprotov6.GetMetadataResponse{ServerCapabilities: caps}
	for _, name := range sortedKeys(s.resources) {
		srv.metadataResp.Resources = append(srv.metadataResp.Resources, tfprotov6.ResourceMetadata{TypeName: name})
	}
	for _, name := range sortedKeys(s.dataSources) {
		srv.metadataResp.DataSources = append(srv.metadataResp.DataSources, tfprotov6.DataSourceMetadata{TypeName: name})
	}
	for _, name := range sortedKeys(s.ephemerals) {
		srv.metadataResp.EphemeralResources = append(srv.metadataResp.EphemeralResources, tfprotov6.EphemeralResourceMetadata{TypeName: name})
	}
	for _, name := range sortedKeys(s.listResources) {
		srv.metadataResp.ListResources = append(srv.metadataResp.ListResources, tfprotov6.ListResourceMetadata{TypeName: name})
	}
	for _, name := range sortedKeys(s.actions) {
		srv.metadataResp.Actions = append(srv.metadataResp.Actions, tfprotov6.ActionMetadata{TypeName: name})
	}
	return srv, nil
}

func (s *Server) GetMetadata(context.Context, *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	return s.metadataResp, nil
}

func (s *Server) GetProviderSchema(context.Context, *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	return s.schemaResp, nil
}

func (s *Server) GetResourceIdentitySchemas(context.Context, *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	return &tfprotov6.GetResourceIdentitySchemasResponse{IdentitySchemas: s.schemas.identities}, nil
}

// ValidateProviderConfig hands the config back, as the framework does.
func (s *Server) ValidateProviderConfig(_ context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	return &tfprotov6.ValidateProviderConfigResponse{PreparedConfig: req.Config}, nil
}

func (s *Server) ConfigureProvider(context.Context, *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	return &tfprotov6.ConfigureProviderResponse{}, nil
}

func (s *Server) StopProvider(context.Context, *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	return &tfprotov6.StopProviderResponse{}, nil
}

// The provider has no functions, and the schemas refuse them (parseSchemas), as state stores.

func (s *Server) GetFunctions(context.Context, *tfprotov6.GetFunctionsRequest) (*tfprotov6.GetFunctionsResponse, error) {
	return &tfprotov6.GetFunctionsResponse{Functions: map[string]*tfprotov6.Function{}}, nil
}

func (s *Server) CallFunction(_ context.Context, req *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	return &tfprotov6.CallFunctionResponse{Error: &tfprotov6.FunctionError{Text: "echo floor: no function " + req.Name}}, nil
}

// Ephemeral resources are served in the schema but not echoed: nothing records them.

func (s *Server) ValidateEphemeralResourceConfig(context.Context, *tfprotov6.ValidateEphemeralResourceConfigRequest) (*tfprotov6.ValidateEphemeralResourceConfigResponse, error) {
	return &tfprotov6.ValidateEphemeralResourceConfigResponse{}, nil
}

func (s *Server) OpenEphemeralResource(_ context.Context, req *tfprotov6.OpenEphemeralResourceRequest) (*tfprotov6.OpenEphemeralResourceResponse, error) {
	return &tfprotov6.OpenEphemeralResourceResponse{Diagnostics: errorf("no recorded values of ephemeral resource %s", req.TypeName)}, nil
}

func (s *Server) RenewEphemeralResource(context.Context, *tfprotov6.RenewEphemeralResourceRequest) (*tfprotov6.RenewEphemeralResourceResponse, error) {
	return &tfprotov6.RenewEphemeralResourceResponse{}, nil
}

func (s *Server) CloseEphemeralResource(context.Context, *tfprotov6.CloseEphemeralResourceRequest) (*tfprotov6.CloseEphemeralResourceResponse, error) {
	return &tfprotov6.CloseEphemeralResourceResponse{}, nil
}

// List resources (`terraform query`) are served in the schema and list nothing.

func (s *Server) ValidateListResourceConfig(context.Context, *tfprotov6.ValidateListResourceConfigRequest) (*tfprotov6.ValidateListResourceConfigResponse, error) {
	return &tfprotov6.ValidateListResourceConfigResponse{}, nil
}

func (s *Server) ListResource(context.Context, *tfprotov6.ListResourceRequest) (*tfprotov6.ListResourceServerStream, error) {
	return &tfprotov6.ListResourceServerStream{Results: tfprotov6.NoListResults}, nil
}

// Actions are served in the schema, so that a configuration declaring one validates and
// plans as with the real provider, but never invoked: nothing records their effects, and
// the fleet invokes none.

func (s *Server) ValidateActionConfig(context.Context, *tfprotov6.ValidateActionConfigRequest) (*tfprotov6.ValidateActionConfigResponse, error) {
	return &tfprotov6.ValidateActionConfigResponse{}, nil
}

func (s *Server) PlanAction(context.Context, *tfprotov6.PlanActionRequest) (*tfprotov6.PlanActionResponse, error) {
	return &tfprotov6.PlanActionResponse{}, nil
}

func (s *Server) InvokeAction(_ context.Context, req *tfprotov6.InvokeActionRequest) (*tfprotov6.InvokeActionServerStream, error) {
	done := tfprotov6.InvokeActionEvent{Type: tfprotov6.CompletedInvokeActionEventType{
		Diagnostics: errorf("the echo floor does not invoke actions (nothing records their effects): %s not invoked", req.ActionType)}}
	return &tfprotov6.InvokeActionServerStream{Events: func(yield func(tfprotov6.InvokeActionEvent) bool) { yield(done) }}, nil
}

// errorf is one error diagnostic.
func errorf(format string, args ...any) []*tfprotov6.Diagnostic {
	return []*tfprotov6.Diagnostic{{Severity: tfprotov6.DiagnosticSeverityError, Summary: "Echo floor", Detail: fmt.Sprintf(format, args...)}}
}

// isNull reports whether dv holds null, from its first byte: no decoding on the paths
// that only pass values through.
func isNull(dv *tfprotov6.DynamicValue) bool {
	switch {
	case dv == nil:
		return true
	case dv.MsgPack != nil:
		return len(dv.MsgPack) == 1 && dv.MsgPack[0] == 0xc0 // msgpack nil
	default:
		return string(dv.JSON) == "null"
	}
}

// decodeObject is dv as a value of t and, unless null or unknown, its attributes.
func decodeObject(dv *tfprotov6.DynamicValue, t tftypes.Type) (tftypes.Value, map[string]tftypes.Value, error) {
	if dv == nil {
		return tftypes.NewValue(t, nil), nil, nil
	}
	v, err := dv.Unmarshal(t)
	if err != nil {
		return v, nil, err
	}
	return v, fields(v), nil
}

// encode is v as a DynamicValue of t.
func encode(t tftypes.Type, v tftypes.Value) (*tfprotov6.DynamicValue, error) {
	dv, err := tfprotov6.NewDynamicValue(t, v)
	return &dv, err
}
