package knownanswers

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/vmihailenco/msgpack/v5"
)

// The CLI asks the provider to upgrade every object's state before each plan. With the
// state at the schema's version, the framework's answer is the state as it is: it decodes
// the JSON the CLI stored into a value of the schema's type (attributes the schema lacks
// dropped, those missing null) and encodes that value as MessagePack. Its JSON decoder
// starts a new decoder for every nested value, which made this passthrough 40% of what a
// plan of a fleet allocated, and so much of its garbage collection. knownUpgrade gives the
// same answer in one pass over the JSON, for the JSON Terraform and OpenTofu write; for
// anything else (invalid JSON, a duplicated key, a value of another JSON kind than the
// attribute's, a state of another version) it answers nil and the framework answers,
// errors included. The differential guard compares the two on random states.

// upgradeRule is what the passthrough needs of a resource type.
type upgradeRule struct {
	typ     tftypes.Object
	version int64
}

// upgradeRuleFor is the rule of r, or false when its schema holds what knownUpgrade does not
// encode as the framework does: blocks (the framework turns null ones into empty ones),
// tuples and dynamic values.
func upgradeRuleFor(r resource.Resource) (*upgradeRule, bool) {
	ctx := context.Background()
	var resp resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &resp)
	if resp.Diagnostics.HasError() || len(resp.Schema.Blocks) > 0 {
		return nil, false
	}
	typ, ok := resp.Schema.Type().TerraformType(ctx).(tftypes.Object)
	if !ok || !passthroughType(typ) {
		return nil, false
	}
	return &upgradeRule{typ: typ, version: resp.Schema.Version}, true
}

// passthroughType: typ is made of strings, numbers, bools, lists, sets, maps and objects
// only.
func passthroughType(typ tftypes.Type) bool {
	return everyType(typ, func(t tftypes.Type) bool {
		switch t := t.(type) {
		case tftypes.List, tftypes.Set, tftypes.Map:
			return true
		case tftypes.Object:
			return len(t.OptionalAttributes) == 0
		}
		return t.Is(tftypes.String) || t.Is(tftypes.Number) || t.Is(tftypes.Bool)
	})
}

// everyType: ok holds for typ and every type it holds (elements, attributes).
func everyType(typ tftypes.Type, ok func(tftypes.Type) bool) bool {
	if !ok(typ) {
		return false
	}
	var held []tftypes.Type
	switch t := typ.(type) {
	case tftypes.List:
		held = []tftypes.Type{t.ElementType}
	case tftypes.Set:
		held = []tftypes.Type{t.ElementType}
	case tftypes.Map:
		held = []tftypes.Type{t.ElementType}
	case tftypes.Tuple:
		held = t.ElementTypes
	case tftypes.Object:
		for _, a := range t.AttributeTypes {
			held = append(held, a)
		}
	}
	for _, h := range held {
		if !everyType(h, ok) {
			return false
		}
	}
	return true
}

// knownUpgrade is the framework's answer to a state at the schema's version, or nil.
func (s *server) knownUpgrade(req *tfprotov6.UpgradeResourceStateRequest) *tfprotov6.UpgradeResourceStateResponse {
	if req == nil || req.RawState == nil || len(req.RawState.JSON) == 0 {
		return nil
	}
	rule, ok := s.upgradeRule(req.TypeName)
	if !ok || req.Version != rule.version {
		return nil
	}
	packed, ok := stateMsgPack(rule.typ, req.RawState.JSON)
	if !ok {
		return nil
	}
	return &tfprotov6.UpgradeResourceStateResponse{UpgradedState: &tfprotov6.DynamicValue{MsgPack: packed}}
}

// stateMsgPack is the JSON state of an object of typ as MessagePack, as the framework
// encodes it (tftypes' encoding: object attributes in name order, numbers as integers when
// exact, else as float64 when exact, else as text); false when the framework's answer might
// differ.
func stateMsgPack(typ tftypes.Object, raw []byte) ([]byte, bool) {
	if packed, ok := streamMsgPack(typ, raw); ok {
		return packed, true
	}
	if !json.Valid(raw) { // the framework reads a value's first token and ignores what follows
		return nil, false
	}
	return treeMsgPack(typ, raw)
}

// treeMsgPack is stateMsgPack by way of the JSON's tree (readJSON), for valid JSON.
func treeMsgPack(typ tftypes.Object, raw []byte) ([]byte, bool) {
	v, ok := readJSON(raw)
	if !ok {
		return nil, false
	}
	if _, ok := v.(map[string]any); !ok { // a null state: rare enough to leave to the framework
		return nil, false
	}
	buf := bytes.NewBuffer(make([]byte, 0, len(raw))) // the MessagePack is mostly shorter than the JSON: one allocation
	enc := msgpack.NewEncoder(buf)
	if !writeMsgPack(enc, typ, v) {
		return nil, false
	}
	return buf.Bytes(), true
}

// writeMsgPack encodes v as a value of typ; false when v is not of the JSON kind the type
// is stored as (the framework converts some, such as a number given for a string, and
// refuses others).
func writeMsgPack(enc *msgpack.Encoder, typ tftypes.Type, v any) bool {
	if v == nil {
		return enc.EncodeNil() == nil
	}
	switch t := typ.(type) {
	case tftypes.List:
		return writeArray(enc, t.ElementType, v)
	case tftypes.Set: // in the JSON's order, a duplicated element kept, as the framework does
		return writeArray(enc, t.ElementType, v)
	case tftypes.Map:
		m, ok := v.(map[string]any)
		if !ok || enc.EncodeMapLen(len(m)) != nil {
			return false
		}
		for _, k := range sortedKeys(m) {
			if enc.EncodeString(k) != nil || !writeMsgPack(enc, t.ElementType, m[k]) {
				return false
			}
		}
		return true
	case tftypes.Object:
		m, ok := v.(map[string]any)
		if !ok || enc.EncodeMapLen(len(t.AttributeTypes)) != nil {
			return false
		}
		for _, k := range sortedKeys(t.AttributeTypes) {
			if enc.EncodeString(k) != nil || !writeMsgPack(enc, t.AttributeTypes[k], m[k]) { // missing: null
				return false
			}
		}
		return true
	}
	switch {
	case typ.Is(tftypes.String):
		s, ok := v.(string)
		return ok && enc.EncodeString(s) == nil
	case typ.Is(tftypes.Bool):
		b, ok := v.(bool)
		return ok && enc.EncodeBool(b) == nil
	case typ.Is(tftypes.Number):
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		return writeNumber(enc, string(n))
	}
	return false
}

// writeArray encodes v, a list or a set, as an array of elem values.
func writeArray(enc *msgpack.Encoder, elem tftypes.Type, v any) bool {
	list, ok := v.([]any)
	if !ok || enc.EncodeArrayLen(len(list)) != nil {
		return false
	}
	for _, e := range list {
		if !writeMsgPack(enc, elem, e) {
			return false
		}
	}
	return true
}

// writeNumber encodes a JSON number as tftypes does: parsed at 512 bits, then an integer
// when it is one that fits, a float64 when it is exactly one, else its decimal text.
func writeNumber(enc *msgpack.Encoder, text string) bool {
	if e := strings.IndexAny(text, "eE"); e >= 0 && len(strings.TrimLeft(text[e+1:], "+-0")) > 4 {
		return false // an exponent past 10^4 takes seconds to write out: the framework's to answer
	}
	f, _, err := big.ParseFloat(text, 10, 512, big.ToNearestEven)
	if err != nil || f.IsInf() {
		return false
	}
	if i, acc := f.Int64(); acc == big.Exact {
		return enc.EncodeInt(i) == nil
	}
	if x, acc := f.Float64(); acc == big.Exact && !f.IsInt() {
		return enc.EncodeFloat64(x) == nil
	}
	return enc.EncodeString(f.Text('f', -1)) == nil
}
