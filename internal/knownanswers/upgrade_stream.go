package knownanswers

import (
	"bytes"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	msgpack "github.com/vmihailenco/msgpack/v5"
)

// streamMsgPack is stateMsgPack in one pass over the JSON, which it checks as it goes
// (json.Valid was a third of the time), without building its tree, for states as the CLIs
// write them: every object's and map's keys in name order, which is the order the
// MessagePack takes, and no attribute the type lacks. Anything else (keys in another
// order, a kind the type does not take, JSON that is not valid) answers false, and
// json.Valid and the tree's transcoding decide; where the stream answers, the JSON is
// valid and the tree answers the same bytes (TestStreamMsgPackIsTheTree, FuzzStreamMsgPack).
func streamMsgPack(typ tftypes.Object, raw []byte) ([]byte, bool) {
	r := jsonReader{raw: raw}
	if r.next() != '{' {
		return nil, false
	}
	buf := bytes.NewBuffer(make([]byte, 0, len(raw)))
	enc := msgpack.NewEncoder(buf)
	if !streamValue(enc, &r, typ) {
		return nil, false
	}
	if r.skipSpace(); r.i != len(raw) {
		return nil, false
	}
	return buf.Bytes(), true
}

// streamValue transcodes the value at r as a value of typ.
func streamValue(enc *msgpack.Encoder, r *jsonReader, typ tftypes.Type) bool {
	c := r.next()
	if c == 'n' {
		return r.literal("null") && enc.EncodeNil() == nil
	}
	switch t := typ.(type) {
	case tftypes.Object:
		return c == '{' && streamObject(enc, r, t)
	case tftypes.Map:
		return c == '{' && streamMap(enc, r, t.ElementType)
	case tftypes.List:
		return c == '[' && streamArray(enc, r, t.ElementType)
	case tftypes.Set: // in the JSON's order, as the tree's transcoding keeps it
		return c == '[' && streamArray(enc, r, t.ElementType)
	}
	switch {
	case typ.Is(tftypes.String):
		if c != '"' {
			return false
		}
		s, ok := r.str()
		return ok && enc.EncodeString(s) == nil
	case typ.Is(tftypes.Bool):
		switch c {
		case 't':
			return r.literal("true") && enc.EncodeBool(true) == nil
		case 'f':
			return r.literal("false") && enc.EncodeBool(false) == nil
		}
	case typ.Is(tftypes.Number):
		if c == '-' || c >= '0' && c <= '9' {
			text := string(r.number())
			return validNumber(text) && writeNumber(enc, text)
		}
	}
	return false
}

// streamObject writes every attribute of t in name order, null where the JSON has none. A
// member t does not have (the framework ignores it) is the tree's to pass over.
func streamObject(enc *msgpack.Encoder, r *jsonReader, t tftypes.Object) bool {
	names := sortedKeys(t.AttributeTypes)
	if enc.EncodeMapLen(len(names)) != nil {
		return false
	}
	next := 0
	ok := eachMember(r, func(key string) bool {
		for ; next < len(names) && names[next] < key; next++ {
			if enc.EncodeString(names[next]) != nil || enc.EncodeNil() != nil {
				return false
			}
		}
		if next < len(names) && names[next] == key {
			next++
			return enc.EncodeString(key) == nil && streamValue(enc, r, t.AttributeTypes[key])
		}
		return false
	})
	for ; ok && next < len(names); next++ {
		ok = enc.EncodeString(names[next]) == nil && enc.EncodeNil() == nil
	}
	return ok
}

// streamMap writes a map's members, whose count it finds first.
func streamMap(enc *msgpack.Encoder, r *jsonReader, elem tftypes.Type) bool {
	n, ok := countMembers(r.raw[r.i:])
	if !ok || enc.EncodeMapLen(n) != nil {
		return false
	}
	return eachMember(r, func(key string) bool {
		return enc.EncodeString(key) == nil && streamValue(enc, r, elem)
	})
}

// eachMember reads the object at r, calling member at each value with its key; false when
// a key is not after the one before it (another order, or a duplicate) or member says so.
func eachMember(r *jsonReader, member func(key string) bool) bool {
	r.i++ // '{'
	if r.next() == '}' {
		r.i++
		return true
	}
	for first, last := true, ""; ; first = false {
		if r.next() != '"' {
			return false
		}
		key, ok := r.str()
		if !ok || (!first && key <= last) || r.next() != ':' {
			return false
		}
		r.i++
		if !member(key) {
			return false
		}
		last = key
		switch r.next() {
		case ',':
			r.i++
		case '}':
			r.i++
			return true
		default:
			return false
		}
	}
}

// streamArray writes a list's or a set's elements, whose count it finds first.
func streamArray(enc *msgpack.Encoder, r *jsonReader, elem tftypes.Type) bool {
	n, ok := countMembers(r.raw[r.i:])
	if !ok || enc.EncodeArrayLen(n) != nil {
		return false
	}
	r.i++ // '['
	if r.next() == ']' {
		r.i++
		return true
	}
	for {
		if !streamValue(enc, r, elem) {
			return false
		}
		switch r.next() {
		case ',':
			r.i++
		case ']':
			r.i++
			return true
		default:
			return false
		}
	}
}

// countMembers is the number of members (or elements) of the object (or array) that b
// starts with: its commas at its own depth, plus one unless it is empty.
func countMembers(b []byte) (int, bool) {
	depth, n, empty := 0, 0, true
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			empty = false
		case '{', '[':
			if depth > 0 {
				empty = false
			}
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				if empty {
					return 0, true
				}
				return n + 1, true
			}
		case ',':
			if depth == 1 {
				n++
			}
		case ' ', '\t', '\n', '\r':
		default:
			empty = false
		}
	}
	return 0, false
}

// validNumber: text is a number as JSON writes one (-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?).
func validNumber(text string) bool {
	i := 0
	digits := func() int {
		start := i
		for i < len(text) && text[i] >= '0' && text[i] <= '9' {
			i++
		}
		return i - start
	}
	if i < len(text) && text[i] == '-' {
		i++
	}
	if n := digits(); n == 0 || (n > 1 && text[i-n] == '0') {
		return false
	}
	if i < len(text) && text[i] == '.' {
		if i++; digits() == 0 {
			return false
		}
	}
	if i < len(text) && (text[i] == 'e' || text[i] == 'E') {
		if i++; i < len(text) && (text[i] == '+' || text[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(text)
}
