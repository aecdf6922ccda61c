// Package labelselector checks Kubernetes label selectors ("app=mysql", "tier in (a,b)",
// "!canary", "replicas>1") against the grammar of the Kubernetes API server, without
// depending on k8s.io/apimachinery at run time. Astra Control passes an app's selectors to
// the cluster, so a selector that does not parse there is refused before it is sent, and
// one that parses there is never refused here: a differential test sends the same random
// selectors to both parsers and compares (selector_differential_test.go).
//
// The grammar, as Kubernetes' parser reads it:
//
//	selector    = [ requirement { "," requirement } ]
//	requirement = [ "!" ] key                       (exists, or does not exist)
//	            | key ( "=" | "==" | "!=" ) [ value ]
//	            | key ( ">" | "<" ) integer
//	            | key ( "in" | "notin" ) "(" [ values ] ")"
//	values      = [ value ] { "," [ value ] }        (empty entries are the empty value)
//
// Tokens are separated by white space or by the symbols ! = ( ) , < >; an identifier is any
// other run of characters, and "in" and "notin" are operators only where an operator is
// expected. Keys are qualified names, values label values (both checked as Kubernetes
// checks them: a value after > or < is a whole number that is also a label value, so "-3"
// is refused); "in ()" means the one value "".
package labelselector

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Validate reports why selector is not a valid Kubernetes label selector, or nil. The
// empty selector (everything) is valid.
func Validate(selector string) error {
	p := &parser{items: lex(selector)}
	return p.parse()
}

type token int

const (
	tokEnd token = iota
	tokIdentifier
	tokOpen     // (
	tokClose    // )
	tokComma    // ,
	tokNot      // !
	tokEquals   // =
	tokDouble   // ==
	tokNotEqual // !=
	tokGreater  // >
	tokLess     // <
	tokIn       // in
	tokNotIn    // notin
)

// symbols are the tokens made of symbol characters, and the two keywords.
var symbols = map[string]token{
	"(": tokOpen, ")": tokClose, ",": tokComma, "!": tokNot, "=": tokEquals, "==": tokDouble,
	"!=": tokNotEqual, ">": tokGreater, "<": tokLess, "in": tokIn, "notin": tokNotIn,
}

type item struct {
	tok token
	lit string
}

func isSpace(c byte) bool  { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
func isSymbol(c byte) bool { return strings.IndexByte("=!(),<>", c) >= 0 }

// lex cuts s into items, the last one tokEnd. A NUL byte is what Kubernetes' scan makes of
// it: where a token would start it ends the selector, and right after a token it is
// swallowed (as a separator).
func lex(s string) []item {
	var out []item
	for i := 0; ; {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i >= len(s) || s[i] == 0 {
			return append(out, item{tok: tokEnd})
		}
		end := i + 1
		if isSymbol(s[i]) {
			// The longest run of symbols that is a token ("==" and "!=" over "=" and "!");
			// every single symbol is one.
			if end < len(s) && isSymbol(s[end]) {
				if _, ok := symbols[s[i:end+1]]; ok {
					end++
				}
			}
			out = append(out, item{tok: symbols[s[i:end]], lit: s[i:end]})
		} else {
			for end < len(s) && !isSpace(s[end]) && !isSymbol(s[end]) && s[end] != 0 {
				end++
			}
			word := s[i:end]
			t, keyword := symbols[word]
			if !keyword {
				t = tokIdentifier
			}
			out = append(out, item{tok: t, lit: word})
		}
		if end < len(s) && s[end] == 0 {
			end++
		}
		i = end
	}
}

type parser struct {
	items []item
	pos   int
}

// next returns the next item and, with consume, moves past it. Where a value is expected,
// the keywords "in" and "notin" are identifiers.
func (p *parser) next(consume, asValue bool) item {
	it := p.items[min(p.pos, len(p.items)-1)]
	if consume && p.pos < len(p.items)-1 {
		p.pos++
	}
	if asValue && (it.tok == tokIn || it.tok == tokNotIn) {
		it.tok = tokIdentifier
	}
	return it
}

func (p *parser) peek() item    { return p.next(false, true) }
func (p *parser) consume() item { return p.next(true, true) }

func found(it item) string {
	if it.tok == tokEnd {
		return "the end of the selector"
	}
	return fmt.Sprintf("%q", it.lit)
}

func (p *parser) parse() error {
	for {
		switch it := p.peek(); it.tok {
		case tokEnd:
			return nil
		case tokIdentifier, tokNot:
			if err := p.requirement(); err != nil {
				return err
			}
			switch after := p.consume(); after.tok {
			case tokEnd:
				return nil
			case tokComma:
				if n := p.peek(); n.tok != tokIdentifier && n.tok != tokNot {
					return fmt.Errorf("found %s after a comma; expected another requirement (a trailing or doubled comma?)", found(n))
				}
			default:
				return fmt.Errorf("found %s; expected a comma or the end of the selector", found(after))
			}
		default:
			return fmt.Errorf("found %s; expected a requirement: key, !key, key=value, key!=value, key in (...), key notin (...), key>N or key<N", found(it))
		}
	}
}

// operator is how a requirement compares its key, after the key.
type operator int

const (
	opExists operator = iota
	opNotExists
	opSet      // in, notin
	opExact    // =, ==, !=
	opCompared // >, <
)

func (p *parser) requirement() error {
	key, op, err := p.keyAndKind()
	if err != nil || op == opExists || op == opNotExists {
		return err
	}
	it := p.next(true, false) // "in" and "notin" are operators here
	var values []string
	switch it.tok {
	case tokIn, tokNotIn:
		op = opSet
		if values, err = p.valueSet(it.lit); err != nil {
			return err
		}
	case tokEquals, tokDouble, tokNotEqual:
		op = opExact
		if values, err = p.exactValue(); err != nil {
			return err
		}
	case tokGreater, tokLess:
		op = opCompared
		if values, err = p.exactValue(); err != nil {
			return err
		}
	default:
		return fmt.Errorf("found %s after key %q; expected an operator: =, ==, !=, in, notin, > or <", found(it), key)
	}
	for _, v := range values {
		if op == opCompared {
			if _, err := strconv.ParseInt(v, 10, 64); err != nil {
				return fmt.Errorf("key %q: with > and < the value must be a whole number, not %q", key, v)
			}
		}
		if err := checkValue(v); err != nil {
			return err
		}
	}
	return nil
}

// keyAndKind reads an optional "!" and the key; a key followed by a comma or the end is an
// existence test (or, after "!", its negation).
func (p *parser) keyAndKind() (string, operator, error) {
	op := opSet // a binary operator follows unless the key stands alone
	it := p.consume()
	negated := it.tok == tokNot
	if negated {
		it = p.consume()
	}
	if it.tok != tokIdentifier {
		return "", op, fmt.Errorf("found %s; expected a key", found(it))
	}
	if err := checkKey(it.lit); err != nil {
		return "", op, err
	}
	if n := p.peek(); n.tok == tokEnd || n.tok == tokComma {
		op = opExists
	}
	if negated {
		op = opNotExists // "!key" needs nothing after the key; anything else is the caller's error
	}
	return it.lit, op, nil
}

// valueSet reads "(" values ")"; "()" is the one empty value.
func (p *parser) valueSet(op string) ([]string, error) {
	if it := p.consume(); it.tok != tokOpen {
		return nil, fmt.Errorf("found %s after %s; expected '(': the values of %s are in parentheses, e.g. %s (a,b)", found(it), op, op, op)
	}
	var values []string
	switch it := p.peek(); it.tok {
	case tokClose:
		p.consume()
		return []string{""}, nil
	case tokIdentifier, tokComma:
	default:
		return nil, fmt.Errorf("found %s in the values of %s; expected a value, a comma or ')'", found(it), op)
	}
	for {
		switch it := p.consume(); it.tok {
		case tokIdentifier:
			values = append(values, it.lit)
			switch n := p.peek(); n.tok {
			case tokComma:
			case tokClose:
				p.consume()
				return values, nil
			default:
				return nil, fmt.Errorf("found %s in the values of %s; expected a comma or ')'", found(n), op)
			}
		case tokComma: // "(,", ",,", ",)": the empty value
			values = append(values, "")
			if n := p.peek(); n.tok == tokClose {
				p.consume()
				return values, nil
			}
		default:
			return nil, fmt.Errorf("found %s in the values of %s; expected a value or a comma", found(it), op)
		}
	}
}

// exactValue reads the one value after =, ==, !=, > or <; none (a comma or the end next)
// is the empty value.
func (p *parser) exactValue() ([]string, error) {
	switch it := p.peek(); it.tok {
	case tokEnd, tokComma:
		return []string{""}, nil
	case tokIdentifier:
		p.consume()
		return []string{it.lit}, nil
	default:
		return nil, fmt.Errorf("found %s; expected a value", found(it))
	}
}

var (
	namePattern  = regexp.MustCompile(`^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$`)
	dnsSubdomain = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
)

// checkKey applies Kubernetes' qualified-name rule: [prefix/]name, the prefix a DNS
// subdomain of at most 253 characters, the name 1-63 characters.
func checkKey(key string) error {
	parts := strings.Split(key, "/")
	name := parts[len(parts)-1]
	switch len(parts) {
	case 1:
	case 2:
		if prefix := parts[0]; prefix == "" || len(prefix) > 253 || !dnsSubdomain.MatchString(prefix) {
			return fmt.Errorf("key %q: the prefix must be a DNS subdomain (lower case, at most 253 characters)", key)
		}
	default:
		return fmt.Errorf("key %q: a key is a name with at most one prefix, prefix/name", key)
	}
	if len(name) > 63 || !namePattern.MatchString(name) {
		return fmt.Errorf("key %q: the name must be 1-63 characters, alphanumerics, '-', '_' or '.', starting and ending with an alphanumeric", key)
	}
	return nil
}

// checkValue applies Kubernetes' label-value rule: empty, or at most 63 characters like a name.
func checkValue(v string) error {
	if v != "" && (len(v) > 63 || !namePattern.MatchString(v)) {
		return fmt.Errorf("value %q: a value must be at most 63 characters, alphanumerics, '-', '_' or '.', starting and ending with an alphanumeric", v)
	}
	return nil
}
