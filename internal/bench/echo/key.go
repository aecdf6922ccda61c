package echo

import (
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// keyAttributes are the attributes of block that may key an instance: top-level ones a
// configuration may set, neither write-only (state holds null for them) nor nested (their
// state holds computed parts the config lacks). Sorted, as block's attributes are.
func keyAttributes(block *tfprotov6.SchemaBlock) []string {
	var names []string
	for _, a := range block.Attributes {
		if (a.Required || a.Optional) && !a.WriteOnly && a.NestedType == nil {
			names = append(names, a.Name)
		}
	}
	return names
}

// configKey is the key of a configuration: the names of the key attributes it sets (its
// shape, also joined) and their values in canonical form; known is false when one is unknown.
func configKey(candidates []string, config map[string]tftypes.Value) (names []string, shape, key string, known bool) {
	for _, name := range candidates {
		if v, ok := config[name]; ok && !(v.IsKnown() && v.IsNull()) {
			names = append(names, name)
		}
	}
	key, known = keyOf(names, config)
	return names, strings.Join(names, ","), key, known
}

// keyOf is the canonical form of the values of names in obj.
func keyOf(names []string, obj map[string]tftypes.Value) (string, bool) {
	var b strings.Builder
	for _, name := range names {
		b.WriteString(name)
		b.WriteByte('=')
		if !canonical(&b, obj[name]) {
			return "", false
		}
		b.WriteByte(';')
	}
	return b.String(), true
}

// canonical writes v so that equal values write equal text: map keys and set elements
// sorted, numbers in one notation. False if v is not wholly known.
func canonical(b *strings.Builder, v tftypes.Value) bool {
	if !v.IsKnown() {
		return false
	}
	if v.IsNull() {
		b.WriteByte('~')
		return true
	}
	switch t := v.Type(); {
	case t.Is(tftypes.String):
		var s string
		_ = v.As(&s)
		b.WriteString(strconv.Quote(s))
	case t.Is(tftypes.Number):
		var f big.Float
		_ = v.As(&f)
		if f.IsInt() {
			i, _ := f.Int(nil)
			b.WriteString(i.String())
		} else {
			x, _ := f.Float64()
			b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
		}
	case t.Is(tftypes.Bool):
		var x bool
		_ = v.As(&x)
		b.WriteString(strconv.FormatBool(x))
	case t.Is(tftypes.Set{}):
		var elems []tftypes.Value
		_ = v.As(&elems)
		texts := make([]string, len(elems))
		for i, e := range elems {
			var eb strings.Builder
			if !canonical(&eb, e) {
				return false
			}
			texts[i] = eb.String()
		}
		sort.Strings(texts)
		b.WriteString("{" + strings.Join(texts, ",") + "}")
	case t.Is(tftypes.List{}), t.Is(tftypes.Tuple{}):
		var elems []tftypes.Value
		_ = v.As(&elems)
		b.WriteByte('[')
		for _, e := range elems {
			if !canonical(b, e) {
				return false
			}
			b.WriteByte(',')
		}
		b.WriteByte(']')
	default: // a map or an object
		var m map[string]tftypes.Value
		if err := v.As(&m); err != nil {
			return false
		}
		b.WriteByte('(')
		for _, k := range sortedKeys(m) {
			b.WriteString(strconv.Quote(k))
			b.WriteByte(':')
			if !canonical(b, m[k]) {
				return false
			}
			b.WriteByte(',')
		}
		b.WriteByte(')')
	}
	return true
}
