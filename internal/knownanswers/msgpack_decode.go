package knownanswers

import (
	"bytes"
	"errors"
	"math"
	"math/big"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	msgpack "github.com/vmihailenco/msgpack/v5"
	"github.com/vmihailenco/msgpack/v5/msgpcode"
)

// decodeValue is dv.Unmarshal(typ), faster for the values a steady plan sends.
//
// The library's decoder (tftypes.ValueFromMsgPack, terraform-plugin-go v0.31.0) builds an
// attribute path at every level for errors it rarely reports: a quarter of the known
// answers' allocations at 1000 clusters (issue 48). This decoder follows the same steps
// with the same msgpack calls, without paths, and leaves every case it is not sure of to
// the library (unknown values, dynamic types, tuples, any error), so the values and
// errors are the library's: TestMsgPackDecodeMatchesTheLibrary and FuzzMsgPackDecode
// compare the two. Like the library, it ignores bytes after the value.
func decodeValue(dv *tfprotov6.DynamicValue, typ tftypes.Type) (tftypes.Value, error) {
	if dv.JSON != nil || dv.MsgPack == nil {
		return dv.Unmarshal(typ)
	}
	dec := msgpack.GetDecoder()
	dec.Reset(bytes.NewReader(dv.MsgPack))
	v, err := msgpackValue(dec, typ)
	msgpack.PutDecoder(dec)
	if err != nil {
		return dv.Unmarshal(typ) // the library's value or error, whatever stopped this one
	}
	return v, nil
}

// The primitive types as interfaces, boxed once: typ.Is(tftypes.String) allocates the box
// at every call, a third of this decoder's allocations.
var (
	typeString  tftypes.Type = tftypes.String
	typeNumber  tftypes.Type = tftypes.Number
	typeBool    tftypes.Type = tftypes.Bool
	typeDynamic tftypes.Type = tftypes.DynamicPseudoType
	typeList    tftypes.Type = tftypes.List{}
	typeSet     tftypes.Type = tftypes.Set{}
	typeMap     tftypes.Type = tftypes.Map{}
	typeObject  tftypes.Type = tftypes.Object{}
)

// errLibrary stops the fast decoder where the library decides.
var errLibrary = errors.New("left to the library")

// msgpackValue is the library's msgpackUnmarshal without paths, dynamic types, tuples and
// unknown values.
func msgpackValue(dec *msgpack.Decoder, typ tftypes.Type) (tftypes.Value, error) {
	peek, err := dec.PeekCode()
	if err != nil || msgpcode.IsExt(peek) || typ.Is(typeDynamic) {
		return tftypes.Value{}, errLibrary
	}
	if peek == msgpcode.Nil {
		if err := dec.Skip(); err != nil {
			return tftypes.Value{}, err
		}
		return tftypes.NewValue(typ, nil), nil
	}
	switch {
	case typ.Is(typeString):
		s, err := dec.DecodeString()
		return primitive(typeString, s, err)
	case typ.Is(typeNumber):
		n, err := msgpackNumber(dec, peek)
		return primitive(typeNumber, n, err)
	case typ.Is(typeBool):
		b, err := dec.DecodeBool()
		return primitive(typeBool, b, err)
	// The library types a collection or an object anew from its element or attribute types;
	// typ is that type (an object's only when it has no optional attributes), and reusing it
	// saves an allocation per value.
	case typ.Is(typeList):
		return msgpackElements(dec, typ, typ.(tftypes.List).ElementType, false) //nolint:forcetypeassert // Is checked it
	case typ.Is(typeSet):
		return msgpackElements(dec, typ, typ.(tftypes.Set).ElementType, true) //nolint:forcetypeassert // Is checked it
	case typ.Is(typeMap):
		return msgpackMap(dec, typ, typ.(tftypes.Map).ElementType) //nolint:forcetypeassert // Is checked it
	case typ.Is(typeObject):
		obj := typ.(tftypes.Object) //nolint:forcetypeassert // Is checked it
		if obj.OptionalAttributes != nil {
			typ = tftypes.Object{AttributeTypes: obj.AttributeTypes}
		}
		return msgpackObject(dec, typ, obj.AttributeTypes)
	}
	return tftypes.Value{}, errLibrary // tuples and anything new
}

// msgpackNumber decodes a number as the library does: integers exactly, floats as
// float64, and anything else as a decimal string at 512 bits, rounding to nearest even.
func msgpackNumber(dec *msgpack.Decoder, peek byte) (*big.Float, error) {
	switch {
	case msgpcode.IsFixedNum(peek), peek == msgpcode.Int8, peek == msgpcode.Int16, peek == msgpcode.Int32, peek == msgpcode.Int64:
		n, err := dec.DecodeInt64()
		return new(big.Float).SetInt64(n), err
	case peek == msgpcode.Uint8, peek == msgpcode.Uint16, peek == msgpcode.Uint32, peek == msgpcode.Uint64:
		n, err := dec.DecodeUint64()
		return new(big.Float).SetUint64(n), err
	case peek == msgpcode.Float, peek == msgpcode.Double:
		f, err := dec.DecodeFloat64()
		if err != nil || math.IsNaN(f) {
			return nil, errLibrary // big.NewFloat panics on NaN: the library's panic, not this one's
		}
		return big.NewFloat(f), nil
	}
	s, err := dec.DecodeString()
	if err != nil {
		return nil, err
	}
	f, _, err := big.ParseFloat(s, 10, 512, big.ToNearestEven)
	return f, err
}

// msgpackElements is the library's list or set (typ) of elements of type elem. The
// library types a non-empty set by its elements (tftypes.TypeFromElements: an object
// element's type loses the optional attributes elem may have), so this does too.
func msgpackElements(dec *msgpack.Decoder, typ, elem tftypes.Type, set bool) (tftypes.Value, error) {
	n, err := dec.DecodeArrayLen()
	switch {
	case err != nil:
		return tftypes.Value{}, err
	case n < 0:
		return tftypes.NewValue(typ, nil), nil
	}
	vals := make([]tftypes.Value, 0, n)
	for range n {
		v, err := msgpackValue(dec, elem)
		if err != nil {
			return tftypes.Value{}, err
		}
		vals = append(vals, v)
	}
	if set && n > 0 {
		if of, err := tftypes.TypeFromElements(vals); err != nil {
			return tftypes.Value{}, errLibrary
		} else if !of.Equal(elem) {
			typ = tftypes.Set{ElementType: of}
		}
	}
	return tftypes.NewValue(typ, vals), nil
}

// msgpackMap is the library's map (typ): keys decoded as strings, the last of a repeated key
// kept.
func msgpackMap(dec *msgpack.Decoder, typ, elem tftypes.Type) (tftypes.Value, error) {
	n, err := dec.DecodeMapLen()
	switch {
	case err != nil:
		return tftypes.Value{}, err
	case n < 0:
		return tftypes.NewValue(typ, nil), nil
	}
	vals := make(map[string]tftypes.Value, n)
	for range n {
		key, err := dec.DecodeString()
		if err != nil {
			return tftypes.Value{}, err
		}
		if vals[key], err = msgpackValue(dec, elem); err != nil {
			return tftypes.Value{}, err
		}
	}
	return tftypes.NewValue(typ, vals), nil
}

// msgpackObject is the library's object (typ): exactly as many attributes as the type has, each
// one of the type's (a repeated one leaves another missing, which tftypes.NewValue
// rejects; this decoder leaves that to the library).
func msgpackObject(dec *msgpack.Decoder, typ tftypes.Type, types map[string]tftypes.Type) (tftypes.Value, error) {
	n, err := dec.DecodeMapLen()
	switch {
	case err != nil:
		return tftypes.Value{}, err
	case n < 0:
		return tftypes.NewValue(typ, nil), nil
	case n != len(types):
		return tftypes.Value{}, errLibrary
	}
	vals := make(map[string]tftypes.Value, n)
	for range n {
		key, err := dec.DecodeString()
		if err != nil {
			return tftypes.Value{}, err
		}
		attr, ok := types[key]
		if !ok {
			return tftypes.Value{}, errLibrary
		}
		if vals[key], err = msgpackValue(dec, attr); err != nil {
			return tftypes.Value{}, err
		}
	}
	if len(vals) != len(types) {
		return tftypes.Value{}, errLibrary
	}
	return tftypes.NewValue(typ, vals), nil
}

// primitive is the value of a primitive type decoded as v, or err.
func primitive[T any](typ tftypes.Type, v T, err error) (tftypes.Value, error) {
	if err != nil {
		return tftypes.Value{}, err
	}
	return tftypes.NewValue(typ, v), nil
}

// msgpackStrings are the attributes of identity (an object of strings) in the object value
// of msgpack, without decoding the rest: false when one is missing, empty, not a string (an
// unknown value, say), or the value is not a map. A read matches the bytes of its state
// with those of a read that decoded them (unchangedRead), so this scan only finds what to
// fetch; it need not refuse what the decoder would.
func msgpackStrings(b []byte, identity tftypes.Type) (map[string]string, bool) {
	typ, ok := identity.(tftypes.Object)
	if !ok || len(b) == 0 {
		return nil, false
	}
	dec := msgpack.GetDecoder()
	defer msgpack.PutDecoder(dec)
	dec.Reset(bytes.NewReader(b))
	n, err := dec.DecodeMapLen()
	if err != nil || n < 0 {
		return nil, false
	}
	out := make(map[string]string, len(typ.AttributeTypes))
	for range n {
		key, err := dec.DecodeString()
		if err != nil {
			return nil, false
		}
		if _, wanted := typ.AttributeTypes[key]; !wanted {
			if dec.Skip() != nil {
				return nil, false
			}
			continue
		}
		code, err := dec.PeekCode()
		if err != nil || !(msgpcode.IsFixedString(code) || code == msgpcode.Str8 || code == msgpcode.Str16 || code == msgpcode.Str32) {
			return nil, false
		}
		if out[key], err = dec.DecodeString(); err != nil || out[key] == "" {
			return nil, false
		}
	}
	return out, len(out) == len(typ.AttributeTypes) && len(out) > 0
}

// sentIdentityStrings are the attributes of the identity the CLI sent, when its msgpack is
// a map of exactly identity's attributes (a fixed map: an identity has a few), each a
// non-empty string; false otherwise, and for an identity sent as JSON or not at all.
func sentIdentityStrings(sent *tfprotov6.ResourceIdentityData, identity tftypes.Type) (map[string]string, bool) {
	typ, ok := identity.(tftypes.Object)
	if !ok || sent == nil || sent.IdentityData == nil || sent.IdentityData.JSON != nil {
		return nil, false
	}
	b := sent.IdentityData.MsgPack
	if len(b) == 0 || !msgpcode.IsFixedMap(b[0]) || int(b[0]&0x0f) != len(typ.AttributeTypes) {
		return nil, false
	}
	return msgpackStrings(b, identity)
}
