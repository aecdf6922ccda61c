package echo

import (
	"context"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func (s *Server) ValidateResourceConfig(context.Context, *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return &tfprotov6.ValidateResourceConfigResponse{}, nil
}

// UpgradeResourceState hands the stored JSON back: the protocol takes JSON as well as
// msgpack, and the schema is the one the state was written with.
func (s *Server) UpgradeResourceState(_ context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	if req.RawState == nil || req.RawState.JSON == nil {
		return &tfprotov6.UpgradeResourceStateResponse{Diagnostics: errorf("%s: a state without JSON (flatmap) cannot be echoed", req.TypeName)}, nil
	}
	return &tfprotov6.UpgradeResourceStateResponse{UpgradedState: &tfprotov6.DynamicValue{JSON: req.RawState.JSON}}, nil
}

// UpgradeResourceIdentity hands the stored JSON back, as UpgradeResourceState does.
func (s *Server) UpgradeResourceIdentity(_ context.Context, req *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	if req.RawIdentity == nil || req.RawIdentity.JSON == nil {
		return &tfprotov6.UpgradeResourceIdentityResponse{Diagnostics: errorf("%s: no identity JSON to echo", req.TypeName)}, nil
	}
	return &tfprotov6.UpgradeResourceIdentityResponse{
		UpgradedIdentity: &tfprotov6.ResourceIdentityData{IdentityData: &tfprotov6.DynamicValue{JSON: req.RawIdentity.JSON}},
	}, nil
}

// ReadResource answers that nothing changed: the current state, private data and identity.
func (s *Server) ReadResource(_ context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return &tfprotov6.ReadResourceResponse{NewState: req.CurrentState, Private: req.Private, NewIdentity: req.CurrentIdentity}, nil
}

// PlanResourceChange plans a create with the recorded values (planCreate); anything else
// (an update, a no-op, a destroy) as Terraform proposed it.
func (s *Server) PlanResourceChange(_ context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	if !isNull(req.PriorState) || isNull(req.ProposedNewState) {
		return &tfprotov6.PlanResourceChangeResponse{
			PlannedState: req.ProposedNewState, PlannedPrivate: req.PriorPrivate, PlannedIdentity: req.PriorIdentity,
		}, nil
	}
	return s.planCreate(req), nil
}

func (s *Server) planCreate(req *tfprotov6.PlanResourceChangeRequest) *tfprotov6.PlanResourceChangeResponse {
	schema, typ, diags := s.resource(req.TypeName)
	if diags != nil {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: diags}
	}
	recs, err := s.records.get(s.schemas)
	if err != nil {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: errorf("%v", err)}
	}
	_, config, err := decodeObject(req.Config, typ)
	if err != nil {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: errorf("%s: config: %v", req.TypeName, err)}
	}
	proposed, err := req.ProposedNewState.Unmarshal(typ)
	if err != nil {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: errorf("%s: proposed new state: %v", req.TypeName, err)}
	}
	// With an unknown key (a configured value another resource will know) rec stays
	// absent, and the computed attributes unknown until the apply, whose config is known.
	rec, found, known, shape, err := recs.lookup(true, req.TypeName, typ, s.resourceKeys[req.TypeName], config)
	if err != nil {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: errorf("%v", err)}
	}
	if known && !found {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: notRecorded(req.TypeName, shape)}
	}
	planned, err := fillComputed(schema.Block, proposed, rec.value)
	if err != nil {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: errorf("%s: plan: %v", req.TypeName, err)}
	}
	dv, err := encode(typ, planned)
	if err != nil {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: errorf("%s: plan: %v", req.TypeName, err)}
	}
	return &tfprotov6.PlanResourceChangeResponse{PlannedState: dv}
}

// ApplyResourceChange answers with the planned state: as is when it is wholly known (an
// update, or a create planned with the recorded values), else with its unknown values set
// to the recorded ones. The identity is the planned one, or the recorded one on a create.
func (s *Server) ApplyResourceChange(_ context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	if isNull(req.PlannedState) { // a destroy
		return &tfprotov6.ApplyResourceChangeResponse{NewState: req.PlannedState}, nil
	}
	_, typ, diags := s.resource(req.TypeName)
	if diags != nil {
		return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: diags}, nil
	}
	resp := &tfprotov6.ApplyResourceChangeResponse{NewState: req.PlannedState, Private: req.PlannedPrivate, NewIdentity: req.PlannedIdentity}
	planned, plannedAttrs, err := decodeObject(req.PlannedState, typ)
	if err != nil {
		resp.Diagnostics = errorf("%s: planned state: %v", req.TypeName, err)
		return resp, nil
	}
	idType, hasIdentity := s.schemas.identityTypes[req.TypeName]
	needIdentity := hasIdentity && !knownIdentity(req.PlannedIdentity, idType)
	if planned.IsFullyKnown() && !needIdentity {
		return resp, nil
	}
	recs, err := s.records.get(s.schemas)
	if err != nil {
		resp.Diagnostics = errorf("%v", err)
		return resp, nil
	}
	_, config, err := decodeObject(req.Config, typ)
	if err != nil {
		resp.Diagnostics = errorf("%s: config: %v", req.TypeName, err)
		return resp, nil
	}
	rec, found, _, shape, err := recs.lookup(true, req.TypeName, typ, s.resourceKeys[req.TypeName], config)
	if err != nil {
		resp.Diagnostics = errorf("%v", err)
		return resp, nil
	}
	if !planned.IsFullyKnown() {
		if !found {
			resp.Diagnostics = notRecorded(req.TypeName, shape)
			return resp, nil
		}
		if planned, err = fillUnknown(planned, rec.value); err == nil {
			resp.NewState, err = encode(typ, planned)
		}
		if err != nil {
			resp.Diagnostics = errorf("%s: apply: %v", req.TypeName, err)
			return resp, nil
		}
		plannedAttrs = fields(planned)
	}
	if needIdentity {
		if found && rec.identity != nil {
			resp.NewIdentity = rec.identity
		} else if resp.NewIdentity, err = identityData(idType, derivedIdentity(idType, plannedAttrs)); err != nil {
			resp.Diagnostics = errorf("%s: %v", req.TypeName, err)
		}
	}
	return resp, nil
}

// ImportResourceState answers with the recorded instance whose `id` is the ID given, or
// whose same-named state attributes hold the identity given.
func (s *Server) ImportResourceState(_ context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	_, typ, diags := s.resource(req.TypeName)
	if diags != nil {
		return &tfprotov6.ImportResourceStateResponse{Diagnostics: diags}, nil
	}
	recs, err := s.records.get(s.schemas)
	if err != nil {
		return &tfprotov6.ImportResourceStateResponse{Diagnostics: errorf("%v", err)}, nil
	}
	by := map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, req.ID)}
	if req.ID == "" && req.Identity != nil && req.Identity.IdentityData != nil {
		idType, ok := s.schemas.identityTypes[req.TypeName]
		if !ok {
			return &tfprotov6.ImportResourceStateResponse{Diagnostics: errorf("%s has no identity", req.TypeName)}, nil
		}
		_, by, err = decodeObject(req.Identity.IdentityData, idType)
		if err != nil {
			return &tfprotov6.ImportResourceStateResponse{Diagnostics: errorf("%s: identity: %v", req.TypeName, err)}, nil
		}
	}
	var names []string
	for _, name := range sortedKeys(by) {
		if !by[name].IsNull() {
			names = append(names, name)
		}
	}
	rec, found, _, shape, err := recs.lookup(true, req.TypeName, typ, names, by)
	if err != nil {
		return &tfprotov6.ImportResourceStateResponse{Diagnostics: errorf("%v", err)}, nil
	}
	if !found {
		return &tfprotov6.ImportResourceStateResponse{Diagnostics: notRecorded(req.TypeName, shape)}, nil
	}
	imported := &tfprotov6.ImportedResource{TypeName: req.TypeName, Identity: rec.identity}
	if imported.State, err = encode(typ, rec.value); err == nil && imported.Identity == nil {
		if idType, ok := s.schemas.identityTypes[req.TypeName]; ok {
			imported.Identity, err = identityData(idType, derivedIdentity(idType, fields(rec.value)))
		}
	}
	if err != nil {
		return &tfprotov6.ImportResourceStateResponse{Diagnostics: errorf("%s: import: %v", req.TypeName, err)}, nil
	}
	return &tfprotov6.ImportResourceStateResponse{ImportedResources: []*tfprotov6.ImportedResource{imported}}, nil
}

func (s *Server) MoveResourceState(_ context.Context, req *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	return &tfprotov6.MoveResourceStateResponse{Diagnostics: errorf("%s: moves are not echoed", req.TargetTypeName)}, nil
}

func (s *Server) GenerateResourceConfig(_ context.Context, req *tfprotov6.GenerateResourceConfigRequest) (*tfprotov6.GenerateResourceConfigResponse, error) {
	return &tfprotov6.GenerateResourceConfigResponse{Diagnostics: errorf("%s: generated config is not echoed", req.TypeName)}, nil
}

// resource is a resource type's schema and value type.
func (s *Server) resource(name string) (*tfprotov6.Schema, tftypes.Type, []*tfprotov6.Diagnostic) {
	schema, ok := s.schemas.resources[name]
	if !ok {
		return nil, nil, errorf("no resource type %s in the schemas", name)
	}
	return schema, s.schemas.resourceTypes[name], nil
}

// knownIdentity: id holds a wholly known identity.
func knownIdentity(id *tfprotov6.ResourceIdentityData, t tftypes.Type) bool {
	if id == nil || isNull(id.IdentityData) {
		return false
	}
	v, err := id.IdentityData.Unmarshal(t)
	return err == nil && v.IsFullyKnown()
}

func notRecorded(typeName, shape string) []*tfprotov6.Diagnostic {
	return errorf("no recorded %s has the values the configuration sets (%s): the echo floor answers only the configuration it recorded", typeName, shape)
}
