package echo

import (
	"math/big"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestKeyIsCanonical: equal values make equal keys whatever their order or number notation;
// an unknown value makes none; a null attribute is left out of the shape.
func TestKeyIsCanonical(t *testing.T) {
	set := func(elems ...string) tftypes.Value {
		var vs []tftypes.Value
		for _, e := range elems {
			vs = append(vs, tftypes.NewValue(tftypes.String, e))
		}
		return tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, vs)
	}
	labels := func(kv ...string) tftypes.Value {
		m := map[string]tftypes.Value{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = tftypes.NewValue(tftypes.String, kv[i+1])
		}
		return tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, m)
	}
	a := map[string]tftypes.Value{"tags": set("b", "a"), "labels": labels("x", "1", "y", "2"),
		"n": tftypes.NewValue(tftypes.Number, big.NewFloat(3)), "opt": tftypes.NewValue(tftypes.String, nil)}
	b := map[string]tftypes.Value{"tags": set("a", "b"), "labels": labels("y", "2", "x", "1"),
		"n": tftypes.NewValue(tftypes.Number, new(big.Float).SetPrec(512).SetInt64(3)), "opt": tftypes.NewValue(tftypes.String, nil)}
	candidates := []string{"labels", "n", "opt", "tags"}
	namesA, shapeA, keyA, knownA := configKey(candidates, a)
	_, shapeB, keyB, knownB := configKey(candidates, b)
	if !knownA || !knownB || shapeA != shapeB || keyA != keyB {
		t.Errorf("keys differ: %q %q / %q %q", shapeA, keyA, shapeB, keyB)
	}
	if len(namesA) != 3 || shapeA != "labels,n,tags" {
		t.Errorf("shape %q (%v), want the non-null attributes labels,n,tags", shapeA, namesA)
	}
	a["n"] = tftypes.NewValue(tftypes.Number, tftypes.UnknownValue)
	if _, _, _, known := configKey(candidates, a); known {
		t.Error("a key with an unknown value is known")
	}
}
