package knownanswers

import (
	"bytes"
	"math"
	"math/big"
	"sort"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	msgpack "github.com/vmihailenco/msgpack/v5"
)

// cliMsgPack is v encoded as the CLI sends it back in its next request: as the library
// encodes it (tftypes), but with each map's keys in order, as the CLI (cty) writes them;
// the library writes them in Go's map order, which differs from one encoding to the next.
// false for what the CLI might order otherwise (a set of more than one element) and for
// what this encoder does not write (unknown values, tuples, dynamic values). frameworkRead
// seals these bytes: if the CLI sends others, its next read is decoded and seals those.
func cliMsgPack(v tftypes.Value) ([]byte, bool) {
	var buf bytes.Buffer
	enc := msgpack.GetEncoder()
	defer msgpack.PutEncoder(enc)
	enc.Reset(&buf)
	if !writeCLIValue(enc, v) {
		return nil, false
	}
	return buf.Bytes(), true
}

func writeCLIValue(enc *msgpack.Encoder, v tftypes.Value) bool {
	if v.IsNull() {
		return enc.EncodeNil() == nil
	}
	if !v.IsKnown() {
		return false
	}
	typ := v.Type()
	switch {
	case typ.Is(typeString):
		var s string
		return v.As(&s) == nil && enc.EncodeString(s) == nil
	case typ.Is(typeBool):
		var b bool
		return v.As(&b) == nil && enc.EncodeBool(b) == nil
	case typ.Is(typeNumber):
		var n big.Float
		return v.As(&n) == nil && writeCLINumber(enc, &n)
	case typ.Is(typeList), typ.Is(typeSet):
		var elems []tftypes.Value
		if v.As(&elems) != nil || (typ.Is(typeSet) && len(elems) > 1) || enc.EncodeArrayLen(len(elems)) != nil {
			return false
		}
		for _, e := range elems {
			if !writeCLIValue(enc, e) {
				return false
			}
		}
		return true
	case typ.Is(typeMap), typ.Is(typeObject):
		var members map[string]tftypes.Value
		if v.As(&members) != nil || enc.EncodeMapLen(len(members)) != nil {
			return false
		}
		keys := make([]string, 0, len(members))
		for k := range members {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if enc.EncodeString(k) != nil || !writeCLIValue(enc, members[k]) {
				return false
			}
		}
		return true
	}
	return false
}

// writeCLINumber writes n as the library does: an integer if it is one that fits, else a
// float if exact, else its decimal text.
func writeCLINumber(enc *msgpack.Encoder, n *big.Float) bool {
	switch {
	case n.IsInf():
		return enc.EncodeFloat64(math.Inf(n.Sign())) == nil
	case n.IsInt():
		if i, acc := n.Int64(); acc == big.Exact {
			return enc.EncodeInt(i) == nil
		}
	default:
		if f, acc := n.Float64(); acc == big.Exact {
			return enc.EncodeFloat64(f) == nil
		}
	}
	return enc.EncodeString(n.Text('f', -1)) == nil
}
