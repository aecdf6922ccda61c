package knownanswers

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// stateDigest is the digest of a value in a canonical encoding: map keys, object
// attributes and set elements sorted. The protocol's encoding has no fixed order: the
// CLI sends maps sorted, while tftypes writes them in Go's random map order, so a digest
// of the wire bytes matched a state with several labels about once in n! reads.
func stateDigest(v tftypes.Value) string {
	var b bytes.Buffer
	canonical(&b, v)
	return digest(b.Bytes())
}

// canonical writes v so that two values encode alike exactly when they are Equal. It
// appends in place (AvailableBuffer): a fleet's plan encodes every state it reads.
func canonical(b *bytes.Buffer, v tftypes.Value) {
	switch {
	case v.IsNull():
		b.WriteString("n;")
		return
	case !v.IsKnown():
		b.WriteString("u;")
		return
	}
	typ := v.Type()
	switch {
	case typ.Is(tftypes.String):
		var s string
		_ = v.As(&s)
		b.WriteByte('s')
		b.Write(strconv.AppendQuote(b.AvailableBuffer(), s))
		b.WriteByte(';')
	case typ.Is(tftypes.Bool):
		var x bool
		_ = v.As(&x)
		b.WriteByte('b')
		b.Write(strconv.AppendBool(b.AvailableBuffer(), x))
		b.WriteByte(';')
	case typ.Is(tftypes.Number):
		var n big.Float
		_ = v.As(&n)
		b.WriteByte('d')
		b.Write(n.Append(b.AvailableBuffer(), 'g', -1))
		b.WriteByte(';')
	case typ.Is(tftypes.List{}), typ.Is(tftypes.Tuple{}):
		var elems []tftypes.Value
		_ = v.As(&elems)
		b.WriteString("[")
		for _, e := range elems {
			canonical(b, e)
		}
		b.WriteString("];")
	case typ.Is(tftypes.Set{}):
		var elems []tftypes.Value
		_ = v.As(&elems)
		encoded := make([]string, len(elems))
		for i, e := range elems {
			var eb bytes.Buffer
			canonical(&eb, e)
			encoded[i] = eb.String()
		}
		sort.Strings(encoded)
		b.WriteString("{" + strings.Join(encoded, "") + "};")
	case typ.Is(tftypes.Map{}), typ.Is(tftypes.Object{}):
		var members map[string]tftypes.Value
		_ = v.As(&members)
		names := make([]string, 0, len(members))
		for name := range members {
			names = append(names, name)
		}
		sort.Strings(names)
		b.WriteString("(")
		for _, name := range names {
			b.Write(strconv.AppendQuote(b.AvailableBuffer(), name))
			b.WriteByte('=')
			canonical(b, members[name])
		}
		b.WriteString(");")
	default: // dynamic and other types: their own text, which a schema the rules accept never holds
		b.WriteString("?" + strconv.Quote(v.String()) + ";")
	}
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// canonicalPrivate is private state as the framework passes it on: its keys and values
// checked, empty values dropped, keys sorted, nothing at all when nothing is left. False
// when the framework would report an error or drop the document (then it answers). The
// keys kept come with it, each to its JSON document, so that nothing parses it again.
func canonicalPrivate(private []byte) ([]byte, map[string][]byte, bool) {
	if len(private) == 0 {
		return nil, nil, true
	}
	if keys, ok := alreadyCanonical(private); ok {
		return private, keys, true
	}
	return decodedPrivate(private)
}

// decodedPrivate is canonicalPrivate of any private state: decoded, checked, encoded.
func decodedPrivate(private []byte) ([]byte, map[string][]byte, bool) {
	var keys map[string][]byte
	if json.Unmarshal(private, &keys) != nil {
		return nil, nil, false
	}
	for k, v := range keys {
		if !utf8.Valid(v) || !json.Valid(v) {
			return nil, nil, false
		}
		if len(v) == 0 {
			delete(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil, nil, true
	}
	out, err := json.Marshal(keys)
	return out, keys, err == nil
}

// alreadyCanonical reads private state that is already as canonicalPrivate writes it
// (encoding/json's encoding of a map of keys to bytes: keys in order, no spaces, standard
// base64), as this layer and the framework write it: the private state of every read and
// plan of a fleet. It answers what canonicalPrivate's decoding and encoding would, at a
// tenth of the cost; false for anything else, which they answer.
func alreadyCanonical(private []byte) (map[string][]byte, bool) {
	if len(private) < 2 || private[0] != '{' || private[len(private)-1] != '}' {
		return nil, false
	}
	keys := map[string][]byte{}
	rest, last := private[1:len(private)-1], ""
	for len(rest) > 0 {
		key, n := quoted(rest, plainKeyByte)
		if n == 0 || n >= len(rest) || rest[n] != ':' || (len(keys) > 0 && key <= last) {
			return nil, false
		}
		encoded, m := quoted(rest[n+1:], base64Byte)
		if m == 0 || len(encoded)%4 != 0 {
			return nil, false
		}
		value, err := base64.StdEncoding.Strict().DecodeString(encoded)
		if err != nil || len(value) == 0 || !utf8.Valid(value) || !json.Valid(value) {
			return nil, false
		}
		keys[key], last, rest = value, key, rest[n+1+m:]
		if len(rest) > 0 {
			if rest[0] != ',' || len(rest) == 1 {
				return nil, false
			}
			rest = rest[1:]
		}
	}
	return keys, len(keys) > 0
}

// quoted is the string b starts with, quoted, and its length with the quotes, when each
// byte of it passes ok; 0 otherwise.
func quoted(b []byte, ok func(byte) bool) (string, int) {
	if len(b) < 2 || b[0] != '"' {
		return "", 0
	}
	for i := 1; i < len(b); i++ {
		switch {
		case b[i] == '"':
			return string(b[1:i]), i + 1
		case !ok(b[i]):
			return "", 0
		}
	}
	return "", 0
}

// plainKeyByte: a byte encoding/json writes as it is in a key (printable ASCII, not one it
// escapes).
func plainKeyByte(c byte) bool {
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
}

func base64Byte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '='
}
