package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// frameworkPassthrough is the framework's passthrough of raw as a state of typ: the value it
// decodes and the MessagePack it answers, or its error.
func frameworkPassthrough(typ tftypes.Type, raw []byte) ([]byte, error) {
	v, err := tfprotov6.RawState{JSON: raw}.UnmarshalWithOpts(typ, tfprotov6.UnmarshalOpts{
		ValueFromJSONOpts: tftypes.ValueFromJSONOpts{IgnoreUndefinedAttributes: true}})
	if err != nil {
		return nil, err
	}
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	return dv.MsgPack, err
}

// TestKnownUpgrades_coverage: every resource's state upgrade is answered, and the shapes the
// passthrough does not encode as the framework does are refused.
func TestKnownUpgrades_coverage(t *testing.T) {
	s := newKnownAnswers(nil, New("test")().(*astraProvider), New("test")().Resources(context.Background()))
	for _, factory := range s.provider.Resources(context.Background()) {
		var meta resource.MetadataResponse
		factory().Metadata(context.Background(), resource.MetadataRequest{ProviderTypeName: typeName}, &meta)
		if _, ok := s.upgrades[meta.TypeName]; !ok {
			t.Errorf("%s: state upgrades are left to the framework", meta.TypeName)
		}
	}
	str := schema.StringAttribute{Optional: true}
	for name, attrs := range map[string]map[string]schema.Attribute{
		"a dynamic":      {"d": schema.DynamicAttribute{Optional: true}},
		"a dynamic deep": {"o": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{"d": schema.ListAttribute{ElementType: types.DynamicType, Optional: true}}}},
		"a tuple":        {"t": schema.ObjectAttribute{Optional: true, AttributeTypes: map[string]attr.Type{"t": types.TupleType{ElemTypes: []attr.Type{types.StringType}}}}},
	} {
		if _, ok := upgradeRuleFor(&variantResource{schema: schema.Schema{Attributes: attrs}}); ok {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, ok := upgradeRuleFor(&variantResource{schema: schema.Schema{Attributes: map[string]schema.Attribute{"x": str}}}); !ok {
		t.Error("a string attribute: refused")
	}
	if _, ok := upgradeRuleFor(&variantResource{schema: schema.Schema{Attributes: map[string]schema.Attribute{"x": str},
		Blocks: map[string]schema.Block{"b": schema.ListNestedBlock{NestedObject: schema.NestedBlockObject{Attributes: map[string]schema.Attribute{"y": str}}}}}}); ok {
		t.Error("a block: accepted")
	}
}

// TestKnownUpgrades_stateMsgPack compares the passthrough with the framework's on the
// JSON shapes that matter: it answers the same bytes (no maps here, whose order the
// framework does not fix) or leaves the state to the framework.
func TestKnownUpgrades_stateMsgPack(t *testing.T) {
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"s": tftypes.String, "n": tftypes.Number, "b": tftypes.Bool,
		"l":   tftypes.List{ElementType: tftypes.String},
		"set": tftypes.Set{ElementType: tftypes.String},
		"o":   tftypes.Object{AttributeTypes: map[string]tftypes.Type{"x": tftypes.Number, "y": tftypes.List{ElementType: tftypes.Bool}}},
	}}
	cases := []struct {
		json    string
		answers bool
	}{
		{`{"s":"a","n":1,"b":true,"l":["x","y"],"o":{"x":2,"y":[false]}}`, true},
		{`{}`, true}, // every attribute null
		{`{"s":null,"l":[],"o":null}`, true},
		{`{"set":["b","a","b"]}`, true},              // a duplicated element, kept in order as the framework keeps it
		{`{"gone":{"deep":[1,2]},"s":"kept"}`, true}, // an attribute the schema dropped
		{`{"n":1.5}`, true},
		{`{"n":0.1}`, true},                          // not exactly a float64: text
		{`{"n":12345678901234567890123}`, true},      // beyond int64
		{`{"n":-0}`, true},                           // zero
		{`{"n":1e3}`, true},                          // an integer written with an exponent
		{`{"n":9223372036854775807}`, true},          // the largest int64
		{`{"n":1e400}`, true},                        // beyond float64, finite at 512 bits
		{`{"s":"\u00e9t\u00e9 \ud83d\ude00"}`, true}, // escapes
		{`{"o":{"x":1,"gone":true}}`, true},          // a nested attribute the schema dropped
		{`{"s":"a","s":"b"}`, false},                 // a duplicated key
		{`{"gone":1,"gone":2}`, false},               // even one the schema dropped
		{`{"s":1}`, false},                           // the framework converts a number to a string
		{`{"n":"1"}`, false},                         // and a string to a number
		{`{"b":"true"}`, false},                      // and some strings to bools
		{`{"l":"x"}`, false},                         // a string for a list: the framework fails
		{`{"s":"a"} trailing`, false},                // the framework ignores what follows
		{`null`, false},                              // a null state
		{`{"s":"a"`, false},                          // not JSON
	}
	for _, c := range cases {
		t.Run(c.json, func(t *testing.T) {
			got, ok := stateMsgPack(typ, []byte(c.json))
			if ok != c.answers {
				t.Fatalf("answered %v, want %v", ok, c.answers)
			}
			want, err := frameworkPassthrough(typ, []byte(c.json))
			if !ok {
				return
			}
			if err != nil {
				t.Fatalf("answered where the framework fails: %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("MessagePack differs:\n got %x\nwant %x", got, want)
			}
		})
	}
}

// upgradeRound sends a random state of every resource type to the wrapper and to the bare
// framework and compares the answers.
func (g *requestGen) upgradeRound(t *testing.T, counts map[string]int) {
	t.Helper()
	ctx := context.Background()
	for _, typeName := range sortedKeys(g.f.schemas.ResourceSchemas) {
		s := g.f.schemas.ResourceSchemas[typeName]
		typ := s.ValueType()
		version := s.Version
		if g.rng.Intn(20) == 0 {
			version++
		}
		raw := g.stateJSON(g.priorState(typeName, s))
		req := &tfprotov6.UpgradeResourceStateRequest{TypeName: typeName, Version: version, RawState: &tfprotov6.RawState{JSON: raw}}
		known := func(_ context.Context, req *tfprotov6.UpgradeResourceStateRequest) *tfprotov6.UpgradeResourceStateResponse {
			return g.f.fast.knownUpgrade(req)
		}
		got, want, shortcut, err := served(ctx, req, known, g.f.fast.frameworkServer.UpgradeResourceState, g.f.framework.UpgradeResourceState)
		if err != nil {
			t.Fatalf("seed %d: %s upgrade: %v", g.seed, typeName, err)
		}
		counts[typeName+"/upgrade/"+taken(shortcut)]++
		if d := upgradeDiff(typ, got, want); d != "" {
			t.Errorf("seed %d: %s upgrade (shortcut %v) differs from the framework's: %s\nstate: %s", g.seed, typeName, shortcut, d, raw)
		}
	}
}

// upgradeDiff describes how two answers differ: diagnostics, or the upgraded values.
func upgradeDiff(typ tftypes.Type, got, want *tfprotov6.UpgradeResourceStateResponse) string {
	if a, b := comparableDiagnostics(got.Diagnostics), comparableDiagnostics(want.Diagnostics); a != b {
		return fmt.Sprintf("diagnostics %q, want %q", a, b)
	}
	if (got.UpgradedState == nil) != (want.UpgradedState == nil) {
		return fmt.Sprintf("state %v, want %v", got.UpgradedState, want.UpgradedState)
	}
	if got.UpgradedState == nil {
		return ""
	}
	a, err1 := got.UpgradedState.Unmarshal(typ)
	b, err2 := want.UpgradedState.Unmarshal(typ)
	if err1 != nil || err2 != nil || !a.Equal(b) {
		return fmt.Sprintf("state %v (%v), want %v (%v)", a, err1, b, err2)
	}
	return ""
}

// stateJSON is v as a CLI stores it, in random attribute order, with numbers written in
// random forms, and now and then what a state edited by hand may hold: an attribute the
// schema lacks, one left out, a duplicated key, a value of another JSON kind, text after
// the value, a null state.
func (g *requestGen) stateJSON(v tftypes.Value) []byte {
	if g.rng.Intn(40) == 0 {
		return []byte("null")
	}
	var b bytes.Buffer
	g.writeJSON(&b, v, true)
	if g.rng.Intn(40) == 0 {
		b.WriteString(" {}")
	}
	return b.Bytes()
}

func (g *requestGen) writeJSON(b *bytes.Buffer, v tftypes.Value, top bool) {
	typ := v.Type()
	if v.IsNull() {
		b.WriteString("null")
		return
	}
	if g.rng.Intn(60) == 0 { // another JSON kind
		b.WriteString([]string{`"1"`, `1`, `true`, `[]`, `{}`, `"true"`}[g.rng.Intn(6)])
		return
	}
	switch {
	case typ.Is(tftypes.String):
		var s string
		_ = v.As(&s)
		quoted, _ := json.Marshal(s)
		b.Write(quoted)
	case typ.Is(tftypes.Bool):
		var x bool
		_ = v.As(&x)
		b.WriteString(strconv.FormatBool(x))
	case typ.Is(tftypes.Number):
		var f big.Float
		_ = v.As(&f)
		text := f.Text('f', -1)
		if g.rng.Intn(3) == 0 {
			forms := []string{f.Text('e', -1), "0.1", "1.5", "-0", "12345678901234567890123", "1e400", "2.5e-3", "9223372036854775808"}
			text = forms[g.rng.Intn(len(forms))]
		}
		b.WriteString(text)
	case typ.Is(tftypes.List{}), typ.Is(tftypes.Set{}):
		var elems []tftypes.Value
		_ = v.As(&elems)
		b.WriteString("[")
		for i, e := range elems {
			if i > 0 {
				b.WriteString(",")
			}
			g.writeJSON(b, e, false)
		}
		b.WriteString("]")
	case typ.Is(tftypes.Map{}), typ.Is(tftypes.Object{}):
		var members map[string]tftypes.Value
		_ = v.As(&members)
		names := sortedKeys(members)
		g.rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
		var parts []string
		for _, name := range names {
			if typ.Is(tftypes.Object{}) && members[name].IsNull() && g.rng.Intn(4) == 0 {
				continue // left out: null
			}
			var e bytes.Buffer
			g.writeJSON(&e, members[name], false)
			key, _ := json.Marshal(name)
			parts = append(parts, string(key)+":"+e.String())
			if g.rng.Intn(80) == 0 {
				parts = append(parts, string(key)+":"+e.String()) // duplicated
			}
		}
		if top && g.rng.Intn(8) == 0 {
			parts = append(parts, `"removed_attribute":{"x":[1,"y",null]}`)
		}
		b.WriteString("{" + strings.Join(parts, ",") + "}")
	default:
		b.WriteString("null")
	}
}
