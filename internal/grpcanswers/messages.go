package grpcanswers

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// The protocol's messages the path reads and writes, with every field each has: a message
// with any other field is one the path would not read whole, and it then steps aside.
var shapes = map[protoreflect.FullName][]protoreflect.Name{
	"tfplugin6.DynamicValue":         {"msgpack", "json"},
	"tfplugin6.RawState":             {"json", "flatmap"},
	"tfplugin6.ResourceIdentityData": {"identity_data"},
	"tfplugin6.ClientCapabilities":   {"deferral_allowed", "write_only_attributes_allowed"},

	"tfplugin6.ValidateResourceConfig.Request":  {"type_name", "config", "client_capabilities"},
	"tfplugin6.ValidateResourceConfig.Response": {"diagnostics"},
	"tfplugin6.PlanResourceChange.Request": {"type_name", "prior_state", "proposed_new_state", "config", "prior_private",
		"provider_meta", "client_capabilities", "prior_identity"},
	"tfplugin6.PlanResourceChange.Response": {"planned_state", "requires_replace", "planned_private", "diagnostics",
		"legacy_type_system", "deferred", "planned_identity"},
	"tfplugin6.ReadResource.Request": {"type_name", "current_state", "private", "provider_meta", "client_capabilities",
		"current_identity"},
	"tfplugin6.ReadResource.Response":         {"new_state", "diagnostics", "private", "deferred", "new_identity"},
	"tfplugin6.UpgradeResourceState.Request":  {"type_name", "version", "raw_state"},
	"tfplugin6.UpgradeResourceState.Response": {"upgraded_state", "diagnostics"},
}

// shapesKnown: every message of shapes is registered with exactly the fields listed.
func shapesKnown() error { return sameShapes(shapes) }

func sameShapes(shapes map[protoreflect.FullName][]protoreflect.Name) error {
	for name, fields := range shapes {
		mt, err := protoregistry.GlobalTypes.FindMessageByName(name)
		if err != nil {
			return err
		}
		have := mt.Descriptor().Fields()
		if have.Len() != len(fields) {
			return fmt.Errorf("%s has %d fields, the path reads %d", name, have.Len(), len(fields))
		}
		for _, f := range fields {
			if have.ByName(f) == nil {
				return fmt.Errorf("%s has no field %s", name, f)
			}
		}
	}
	return nil
}

func field(m protoreflect.Message, name protoreflect.Name) protoreflect.FieldDescriptor {
	return m.Descriptor().Fields().ByName(name)
}

func typeName(m protoreflect.Message) string { return m.Get(field(m, "type_name")).String() }

func bytesOf(m protoreflect.Message, name protoreflect.Name) []byte {
	return m.Get(field(m, name)).Bytes()
}

func flag(m protoreflect.Message, name protoreflect.Name) bool { return m.Get(field(m, name)).Bool() }

// present is the message field name of m, false where it is unset (tf6server's nil).
func present(m protoreflect.Message, name protoreflect.Name) (protoreflect.Message, bool) {
	f := field(m, name)
	if !m.Has(f) {
		return nil, false
	}
	return m.Get(f).Message(), true
}

func dynamicValue(m protoreflect.Message, name protoreflect.Name) *tfprotov6.DynamicValue {
	v, ok := present(m, name)
	if !ok {
		return nil
	}
	return &tfprotov6.DynamicValue{MsgPack: bytesOf(v, "msgpack"), JSON: bytesOf(v, "json")}
}

func identityData(m protoreflect.Message, name protoreflect.Name) *tfprotov6.ResourceIdentityData {
	v, ok := present(m, name)
	if !ok {
		return nil
	}
	return &tfprotov6.ResourceIdentityData{IdentityData: dynamicValue(v, "identity_data")}
}

// rawState is the raw state, false when it holds a flatmap: the known upgrades read JSON
// states only, and the framework answers the rest.
func rawState(m protoreflect.Message, name protoreflect.Name) (*tfprotov6.RawState, bool) {
	v, ok := present(m, name)
	if !ok {
		return nil, true
	}
	if v.Get(field(v, "flatmap")).Map().Len() > 0 {
		return nil, false
	}
	return &tfprotov6.RawState{JSON: bytesOf(v, "json")}, true
}

// capabilities are the client's capabilities as a request holds them (of), nil unsent.
func capabilities[T any](m protoreflect.Message, of func(protoreflect.Message) *T) *T {
	if c, ok := present(m, "client_capabilities"); ok {
		return of(c)
	}
	return nil
}

// The requests, read as tf6server's fromproto reads them.

func validationRequest(m protoreflect.Message) (*tfprotov6.ValidateResourceConfigRequest, bool) {
	return &tfprotov6.ValidateResourceConfigRequest{TypeName: typeName(m), Config: dynamicValue(m, "config"),
		ClientCapabilities: capabilities(m, func(c protoreflect.Message) *tfprotov6.ValidateResourceConfigClientCapabilities {
			return &tfprotov6.ValidateResourceConfigClientCapabilities{WriteOnlyAttributesAllowed: flag(c, "write_only_attributes_allowed")}
		})}, true
}

func planRequest(m protoreflect.Message) (*tfprotov6.PlanResourceChangeRequest, bool) {
	return &tfprotov6.PlanResourceChangeRequest{TypeName: typeName(m), Config: dynamicValue(m, "config"),
		PriorState: dynamicValue(m, "prior_state"), ProposedNewState: dynamicValue(m, "proposed_new_state"),
		PriorPrivate: bytesOf(m, "prior_private"), ProviderMeta: dynamicValue(m, "provider_meta"),
		PriorIdentity: identityData(m, "prior_identity"),
		ClientCapabilities: capabilities(m, func(c protoreflect.Message) *tfprotov6.PlanResourceChangeClientCapabilities {
			return &tfprotov6.PlanResourceChangeClientCapabilities{DeferralAllowed: flag(c, "deferral_allowed")}
		})}, true
}

func readRequest(m protoreflect.Message) (*tfprotov6.ReadResourceRequest, bool) {
	return &tfprotov6.ReadResourceRequest{TypeName: typeName(m), CurrentState: dynamicValue(m, "current_state"),
		Private: bytesOf(m, "private"), ProviderMeta: dynamicValue(m, "provider_meta"),
		CurrentIdentity: identityData(m, "current_identity"),
		ClientCapabilities: capabilities(m, func(c protoreflect.Message) *tfprotov6.ReadResourceClientCapabilities {
			return &tfprotov6.ReadResourceClientCapabilities{DeferralAllowed: flag(c, "deferral_allowed")}
		})}, true
}

func upgradeRequest(m protoreflect.Message) (*tfprotov6.UpgradeResourceStateRequest, bool) {
	raw, ok := rawState(m, "raw_state")
	return &tfprotov6.UpgradeResourceStateRequest{TypeName: typeName(m), Version: m.Get(field(m, "version")).Int(), RawState: raw}, ok
}

// The answers, written as tf6server's toproto writes them; false for an answer with
// anything the known answers never answer (diagnostics, replacements, a deferral), which
// tf6server then writes.

func validationResponse(resp *tfprotov6.ValidateResourceConfigResponse) (protoreflect.Message, bool) {
	return newMessage("tfplugin6.ValidateResourceConfig.Response"), len(resp.Diagnostics) == 0
}

func planResponse(resp *tfprotov6.PlanResourceChangeResponse) (protoreflect.Message, bool) {
	m := newMessage("tfplugin6.PlanResourceChange.Response")
	setDynamicValue(m, "planned_state", resp.PlannedState)
	setBytes(m, "planned_private", resp.PlannedPrivate)
	setIdentity(m, "planned_identity", resp.PlannedIdentity)
	//nolint:staticcheck // the field tf6server writes as legacy_type_system: an answer with it is tf6server's to write
	legacy := resp.UnsafeToUseLegacyTypeSystem
	return m, len(resp.Diagnostics) == 0 && len(resp.RequiresReplace) == 0 && resp.Deferred == nil && !legacy
}

func readResponse(resp *tfprotov6.ReadResourceResponse) (protoreflect.Message, bool) {
	m := newMessage("tfplugin6.ReadResource.Response")
	setDynamicValue(m, "new_state", resp.NewState)
	setBytes(m, "private", resp.Private)
	setIdentity(m, "new_identity", resp.NewIdentity)
	return m, len(resp.Diagnostics) == 0 && resp.Deferred == nil
}

func upgradeResponse(resp *tfprotov6.UpgradeResourceStateResponse) (protoreflect.Message, bool) {
	m := newMessage("tfplugin6.UpgradeResourceState.Response")
	setDynamicValue(m, "upgraded_state", resp.UpgradedState)
	return m, len(resp.Diagnostics) == 0
}

// newMessage is a new message of a type shapesKnown found.
func newMessage(name protoreflect.FullName) protoreflect.Message {
	mt, err := protoregistry.GlobalTypes.FindMessageByName(name)
	if err != nil {
		panic(err) // shapesKnown found it before the path was taken
	}
	return mt.New()
}

// setBytes sets a bytes field; empty bytes are proto3's unset field, as toproto's are.
func setBytes(m protoreflect.Message, name protoreflect.Name, b []byte) {
	if len(b) > 0 {
		m.Set(field(m, name), protoreflect.ValueOfBytes(b))
	}
}

// setDynamicValue sets a value, present even when empty, as toproto's non-nil one is.
func setDynamicValue(m protoreflect.Message, name protoreflect.Name, v *tfprotov6.DynamicValue) {
	if v == nil {
		return
	}
	d := m.Mutable(field(m, name)).Message()
	setBytes(d, "msgpack", v.MsgPack)
	setBytes(d, "json", v.JSON)
}

func setIdentity(m protoreflect.Message, name protoreflect.Name, v *tfprotov6.ResourceIdentityData) {
	if v == nil {
		return
	}
	setDynamicValue(m.Mutable(field(m, name)).Message(), "identity_data", v.IdentityData)
}
