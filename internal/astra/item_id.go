package astra

import "strings"

// scanID finds the top-level "id" of raw, one valid JSON value, in one pass without
// allocating, and reports whether its answer is certainly encoding/json's: any case it
// does not settle (not an object, a key with escapes or other than ASCII, a key "ID" or
// "Id" that encoding/json would take as well, an id that is no plain ASCII string, or
// more than one) is left to encoding/json (FuzzScanID compares the two).
func scanID(raw []byte) (id string, ok bool) {
	s := idScanner{b: raw}
	if s.ws(); !s.eat('{') {
		return "", false
	}
	found := false
	for {
		if s.ws(); s.eat('}') {
			return id, true
		}
		key, plain := s.str()
		if !plain {
			return "", false
		}
		if s.ws(); !s.eat(':') {
			return "", false
		}
		s.ws()
		switch {
		case key == "id":
			value, plain := s.str()
			if !plain || found {
				return "", false
			}
			id, found = value, true
		case strings.EqualFold(key, "id"):
			return "", false
		default:
			if !s.skip() {
				return "", false
			}
		}
		if s.ws(); s.eat(',') {
			continue
		}
		if s.eat('}') {
			return id, true
		}
		return "", false
	}
}

type idScanner struct {
	b []byte
	i int
}

func (s *idScanner) ws() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\n' || s.b[s.i] == '\r') {
		s.i++
	}
}

func (s *idScanner) eat(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// str reads a string that is plain printable ASCII without escapes; false on anything else.
func (s *idScanner) str() (string, bool) {
	if !s.eat('"') {
		return "", false
	}
	start := s.i
	for ; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '"':
			s.i++
			return string(s.b[start : s.i-1]), true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return "", false
		}
	}
	return "", false
}

// skip passes over one value, up to the comma or bracket after it (raw is valid JSON, so
// brackets balance outside strings).
func (s *idScanner) skip() bool {
	depth := 0
	for ; s.i < len(s.b); s.i++ {
		switch s.b[s.i] {
		case '"':
			for s.i++; s.i < len(s.b) && s.b[s.i] != '"'; s.i++ {
				if s.b[s.i] == '\\' {
					s.i++
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return true
			}
			depth--
		case ',':
			if depth == 0 {
				return true
			}
		}
	}
	return false
}
