package testutil

import (
	"encoding/json"
	"maps"
	"math/big"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// NullObject is an object of type t with every attribute null but those given.
func NullObject(t tftypes.Type, set map[string]tftypes.Value) tftypes.Value {
	obj, ok := t.(tftypes.Object)
	if !ok {
		panic("NullObject of " + t.String() + ", not an object type")
	}
	values := map[string]tftypes.Value{}
	for name, at := range obj.AttributeTypes {
		values[name] = tftypes.NewValue(at, nil)
		if v, ok := set[name]; ok {
			values[name] = v
		}
	}
	return tftypes.NewValue(t, values)
}

// WithAttributes is object v with the given top-level attributes replaced.
func WithAttributes(tb testing.TB, v tftypes.Value, set map[string]tftypes.Value) tftypes.Value {
	tb.Helper()
	var attributes map[string]tftypes.Value
	if err := v.As(&attributes); err != nil {
		tb.Fatal(err)
	}
	values := maps.Clone(attributes) // As hands out the value's own map
	for name, value := range set {
		values[name] = value
	}
	return tftypes.NewValue(v.Type(), values)
}

// ProposedNewState is what the CLI proposes for a resource: the configured value of each
// top-level attribute, or the prior one where the configuration leaves a computed one null.
func ProposedNewState(tb testing.TB, s *tfprotov6.Schema, prior, config tftypes.Value) tftypes.Value {
	tb.Helper()
	var p, c map[string]tftypes.Value
	if err := prior.As(&p); err != nil {
		tb.Fatal(err)
	}
	if err := config.As(&c); err != nil {
		tb.Fatal(err)
	}
	out := map[string]tftypes.Value{}
	for _, a := range s.Block.Attributes {
		out[a.Name] = c[a.Name]
		if c[a.Name].IsNull() && a.Computed {
			out[a.Name] = p[a.Name]
		}
	}
	return tftypes.NewValue(prior.Type(), out)
}

// StateJSON is v as the CLI stores a resource's "attributes" in a state file.
func StateJSON(tb testing.TB, v tftypes.Value) []byte {
	tb.Helper()
	out, err := json.Marshal(jsonValue(tb, v))
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

func jsonValue(tb testing.TB, v tftypes.Value) any {
	if v.IsNull() {
		return nil
	}
	switch {
	case v.Type().Is(tftypes.String):
		var s string
		_ = v.As(&s)
		return s
	case v.Type().Is(tftypes.Bool):
		var x bool
		_ = v.As(&x)
		return x
	case v.Type().Is(tftypes.Number):
		var n big.Float
		_ = v.As(&n)
		return json.Number(n.Text('g', -1))
	case v.Type().Is(tftypes.List{}), v.Type().Is(tftypes.Set{}):
		var items []tftypes.Value
		_ = v.As(&items)
		out := []any{}
		for _, item := range items {
			out = append(out, jsonValue(tb, item))
		}
		return out
	case v.Type().Is(tftypes.Map{}), v.Type().Is(tftypes.Object{}):
		var m map[string]tftypes.Value
		_ = v.As(&m)
		out := map[string]any{}
		for k, item := range m {
			out[k] = jsonValue(tb, item)
		}
		return out
	}
	tb.Fatalf("no JSON for %s", v.Type())
	return nil
}

// DiagnosticsText is the protocol's diagnostics as one string, for failure messages.
func DiagnosticsText(diags []*tfprotov6.Diagnostic) string {
	var out string
	for _, d := range diags {
		out += d.Summary + ": " + d.Detail + "\n"
	}
	return out
}
