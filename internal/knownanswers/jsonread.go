package knownanswers

import "encoding/json"

// readJSON reads raw, one valid JSON value (json.Valid holds; whitespace may surround it):
// objects as maps, arrays as slices, numbers as json.Number, strings unquoted as
// encoding/json unquotes them; false on a duplicated key, whose values the framework decodes
// in turn (and may fail on). It gives what a json.Decoder with UseNumber read token by token
// gives (readJSONDecoder in the tests, the reference), without its allocations per token.
func readJSON(raw []byte) (any, bool) {
	r := jsonReader{raw: raw}
	v, ok := r.value()
	return v, ok
}

// jsonReader scans valid JSON; any surprise answers false rather than guessing.
type jsonReader struct {
	raw []byte
	i   int
}

func (r *jsonReader) skipSpace() {
	for r.i < len(r.raw) {
		switch r.raw[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// next is the byte after any whitespace, not consumed; 0 at the end.
func (r *jsonReader) next() byte {
	r.skipSpace()
	if r.i >= len(r.raw) {
		return 0
	}
	return r.raw[r.i]
}

func (r *jsonReader) value() (any, bool) {
	switch c := r.next(); {
	case c == '{':
		return r.object()
	case c == '[':
		return r.array()
	case c == '"':
		return r.str()
	case c == '-' || c >= '0' && c <= '9':
		return r.number(), true
	case c == 't':
		return true, r.literal("true")
	case c == 'f':
		return false, r.literal("false")
	case c == 'n':
		return nil, r.literal("null")
	}
	return nil, false
}

func (r *jsonReader) object() (any, bool) {
	r.i++ // '{'
	m := map[string]any{}
	if r.next() == '}' {
		r.i++
		return m, true
	}
	for {
		if r.next() != '"' {
			return nil, false
		}
		name, ok := r.str()
		if !ok || r.next() != ':' {
			return nil, false
		}
		r.i++
		if _, dup := m[name]; dup {
			return nil, false
		}
		if m[name], ok = r.value(); !ok {
			return nil, false
		}
		switch r.next() {
		case ',':
			r.i++
		case '}':
			r.i++
			return m, true
		default:
			return nil, false
		}
	}
}

func (r *jsonReader) array() (any, bool) {
	r.i++ // '['
	list := []any{}
	if r.next() == ']' {
		r.i++
		return list, true
	}
	for {
		v, ok := r.value()
		if !ok {
			return nil, false
		}
		list = append(list, v)
		switch r.next() {
		case ',':
			r.i++
		case ']':
			r.i++
			return list, true
		default:
			return nil, false
		}
	}
}

// str reads a string at r.i (its opening quote): the bytes themselves when they are plain
// ASCII without escapes, else encoding/json's unquoting (escapes, surrogates, invalid UTF-8
// replaced by U+FFFD) so the text is exactly the decoder's.
func (r *jsonReader) str() (string, bool) {
	start := r.i
	plain := true
	for j := start + 1; j < len(r.raw); j++ {
		switch c := r.raw[j]; {
		case c == '"':
			r.i = j + 1
			if plain {
				return string(r.raw[start+1 : j]), true
			}
			var s string
			return s, json.Unmarshal(r.raw[start:j+1], &s) == nil
		case c == '\\':
			plain = false
			j++ // the escaped byte, which may be a quote
		case c >= 0x80 || c < 0x20: // a control byte: encoding/json refuses it
			plain = false
		}
	}
	return "", false
}

// number is the number at r.i as its text; json.Valid vouched for its form.
func (r *jsonReader) number() json.Number {
	start := r.i
	for r.i < len(r.raw) {
		switch c := r.raw[r.i]; {
		case c >= '0' && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'E':
			r.i++
		default:
			return json.Number(r.raw[start:r.i])
		}
	}
	return json.Number(r.raw[start:r.i])
}

func (r *jsonReader) literal(word string) bool {
	if len(r.raw)-r.i < len(word) || string(r.raw[r.i:r.i+len(word)]) != word {
		return false
	}
	r.i += len(word)
	return true
}
