package echo

import (
	"context"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

func (s *Server) ValidateDataResourceConfig(context.Context, *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	return &tfprotov6.ValidateDataResourceConfigResponse{}, nil
}

// ReadDataSource answers with the config, its null computed attributes set to the values
// recorded for the data source the config's key names. (Terraform reads a data source
// only once its config is known.)
func (s *Server) ReadDataSource(_ context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	schema, ok := s.schemas.dataSources[req.TypeName]
	if !ok {
		return &tfprotov6.ReadDataSourceResponse{Diagnostics: errorf("no data source %s in the schemas", req.TypeName)}, nil
	}
	typ := s.schemas.dataSourceTypes[req.TypeName]
	recs, err := s.records.get(s.schemas)
	if err != nil {
		return &tfprotov6.ReadDataSourceResponse{Diagnostics: errorf("%v", err)}, nil
	}
	configValue, config, err := decodeObject(req.Config, typ)
	if err != nil {
		return &tfprotov6.ReadDataSourceResponse{Diagnostics: errorf("data source %s: config: %v", req.TypeName, err)}, nil
	}
	rec, found, _, shape, err := recs.lookup(false, req.TypeName, typ, s.dataSourceKeys[req.TypeName], config)
	if err != nil {
		return &tfprotov6.ReadDataSourceResponse{Diagnostics: errorf("%v", err)}, nil
	}
	if !found {
		return &tfprotov6.ReadDataSourceResponse{Diagnostics: notRecorded("data source "+req.TypeName, shape)}, nil
	}
	state, err := fillComputed(schema.Block, configValue, rec.value)
	var dv *tfprotov6.DynamicValue
	if err == nil {
		dv, err = encode(typ, state)
	}
	if err != nil {
		return &tfprotov6.ReadDataSourceResponse{Diagnostics: errorf("data source %s: %v", req.TypeName, err)}, nil
	}
	return &tfprotov6.ReadDataSourceResponse{State: dv}, nil
}
