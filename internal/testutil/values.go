package testutil

import (
	"fmt"
	"math/rand"
	"sort"
	"strconv"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// RandomValues draws values of any type for the differential tests, which compare an
// answer of the provider's own with the framework's: the same seed draws the same values.
type RandomValues struct {
	Rand *rand.Rand
}

// stringPool are strings some attributes of the provider take, so that random
// configurations hit the values its checks tell apart.
var stringPool = []string{"", "a", "team", "5m", "1h", "connectorV2", "relayV1", "kubeconfig", "running", "managed", "gp2", "true"}

// PoolString is one of the strings the pool holds.
func (g RandomValues) PoolString() string {
	return stringPool[g.Rand.Intn(len(stringPool))]
}

// Value is a random value of typ; unknowns only where a configuration may hold them.
func (g RandomValues) Value(typ tftypes.Type, unknowns bool) tftypes.Value {
	if unknowns && g.Rand.Intn(12) == 0 {
		return tftypes.NewValue(typ, tftypes.UnknownValue)
	}
	switch {
	case typ.Is(tftypes.String):
		if g.Rand.Intn(3) == 0 {
			return tftypes.NewValue(typ, g.UUID())
		}
		return tftypes.NewValue(typ, g.PoolString())
	case typ.Is(tftypes.Bool):
		return tftypes.NewValue(typ, g.Rand.Intn(2) == 0)
	case typ.Is(tftypes.Number):
		return tftypes.NewValue(typ, g.Rand.Intn(100))
	case typ.Is(tftypes.List{}):
		elem := typ.(tftypes.List).ElementType //nolint:forcetypeassert // Is checked the kind
		var elems []tftypes.Value
		for i := g.Rand.Intn(4); i > 0; i-- {
			elems = append(elems, g.Value(elem, unknowns))
		}
		return tftypes.NewValue(typ, elems)
	case typ.Is(tftypes.Set{}):
		elem := typ.(tftypes.Set).ElementType //nolint:forcetypeassert // Is checked the kind
		var elems []tftypes.Value
		for i := g.Rand.Intn(4); i > 0; i-- {
			v := g.setElement(elem)
			duplicate := false
			for _, e := range elems {
				duplicate = duplicate || e.Equal(v)
			}
			if !duplicate {
				elems = append(elems, v)
			}
		}
		return tftypes.NewValue(typ, elems)
	case typ.Is(tftypes.Map{}):
		elem := typ.(tftypes.Map).ElementType //nolint:forcetypeassert // Is checked the kind
		entries := map[string]tftypes.Value{}
		for i := g.Rand.Intn(5); i > 0; i-- {
			entries[g.PoolString()+strconv.Itoa(i)] = g.Value(elem, unknowns)
		}
		return tftypes.NewValue(typ, entries)
	case typ.Is(tftypes.Object{}):
		attrs := map[string]tftypes.Value{}
		types := typ.(tftypes.Object).AttributeTypes //nolint:forcetypeassert // Is checked the kind
		names := make([]string, 0, len(types))
		for name := range types {
			names = append(names, name)
		}
		sort.Strings(names) // a seed replays the same values
		for _, name := range names {
			at := types[name]
			attrs[name] = tftypes.NewValue(at, nil)
			if g.Rand.Intn(2) == 0 {
				attrs[name] = g.Value(at, unknowns)
			}
		}
		return tftypes.NewValue(typ, attrs)
	}
	return tftypes.NewValue(typ, nil)
}

// setElement is a random element of a set of elem: an object has every attribute set, so
// the framework's defaults cannot make two elements equal (Terraform never sends a set
// holding one element twice, and the framework plans such a set in no fixed order).
func (g RandomValues) setElement(elem tftypes.Type) tftypes.Value {
	obj, ok := elem.(tftypes.Object)
	if !ok {
		return g.Value(elem, false)
	}
	names := make([]string, 0, len(obj.AttributeTypes))
	for name := range obj.AttributeTypes {
		names = append(names, name)
	}
	sort.Strings(names) // a seed replays the same values
	attrs := map[string]tftypes.Value{}
	for _, name := range names {
		attrs[name] = g.Value(obj.AttributeTypes[name], false)
	}
	return tftypes.NewValue(elem, attrs)
}

// UUID is a random UUID of version 4's form.
func (g RandomValues) UUID() string {
	b := make([]byte, 16)
	g.Rand.Read(b)
	return fmt.Sprintf("%x-%x-4%x-8%x-%x", b[0:4], b[4:6], b[6:8][1:], b[8:10][1:], b[10:16])
}
