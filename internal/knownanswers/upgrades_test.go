package knownanswers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/astra-control/terraform-provider-astra/internal/provider"
)

// TestKnownUpgrades_coverage: every resource's state upgrade is answered.
func TestKnownUpgrades_coverage(t *testing.T) {
	p := provider.New("test")()
	s := knownServer(t, p)
	for _, factory := range p.Resources(context.Background()) {
		var meta resource.MetadataResponse
		factory().Metadata(context.Background(), resource.MetadataRequest{ProviderTypeName: "astra"}, &meta)
		if !s.Upgrades(meta.TypeName) {
			t.Errorf("%s: state upgrades are left to the framework", meta.TypeName)
		}
	}
}

// upgradeRound sends a random state of every resource type to the wrapper and to the bare
// framework and compares the answers.
func (g *requestGen) upgradeRound(t *testing.T, counts map[string]int) {
	t.Helper()
	for _, typeName := range sortedKeys(g.f.schemas.ResourceSchemas) {
		g.compareUpgrade(t, typeName, counts)
	}
}

// compareUpgrade sends a random state of typeName to the wrapper and to the bare framework
// and compares the answers.
func (g *requestGen) compareUpgrade(t *testing.T, typeName string, counts map[string]int) {
	t.Helper()
	ctx := context.Background()
	s := g.f.schemas.ResourceSchemas[typeName]
	typ := s.ValueType()
	version := s.Version
	if g.Rand.Intn(20) == 0 {
		version++
	}
	raw := g.stateJSON(g.priorState(typeName, s))
	req := &tfprotov6.UpgradeResourceStateRequest{TypeName: typeName, Version: version, RawState: &tfprotov6.RawState{JSON: raw}}
	got, want, shortcut, err := served(ctx, req, g.f.fast.KnownUpgrade, g.f.fast.Framework().UpgradeResourceState, g.f.framework.UpgradeResourceState)
	if err != nil {
		t.Fatalf("seed %d: %s upgrade: %v", g.seed, typeName, err)
	}
	counts[typeName+"/upgrade/"+taken(shortcut)]++
	g.sameOnGRPC(t, req, got, shortcut, counts)
	if d := upgradeDiff(typ, got, want); d != "" {
		t.Errorf("seed %d: %s upgrade (shortcut %v) differs from the framework's: %s\nstate: %s", g.seed, typeName, shortcut, d, raw)
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
	if g.Rand.Intn(40) == 0 {
		return []byte("null")
	}
	var b bytes.Buffer
	g.writeJSON(&b, v, true)
	if g.Rand.Intn(40) == 0 {
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
	if g.Rand.Intn(60) == 0 { // another JSON kind
		b.WriteString([]string{`"1"`, `1`, `true`, `[]`, `{}`, `"true"`}[g.Rand.Intn(6)])
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
		if g.Rand.Intn(3) == 0 {
			forms := []string{f.Text('e', -1), "0.1", "1.5", "-0", "12345678901234567890123", "1e400", "2.5e-3", "9223372036854775808"}
			text = forms[g.Rand.Intn(len(forms))]
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
		g.Rand.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
		var parts []string
		for _, name := range names {
			if typ.Is(tftypes.Object{}) && members[name].IsNull() && g.Rand.Intn(4) == 0 {
				continue // left out: null
			}
			var e bytes.Buffer
			g.writeJSON(&e, members[name], false)
			key, _ := json.Marshal(name)
			parts = append(parts, string(key)+":"+e.String())
			if g.Rand.Intn(80) == 0 {
				parts = append(parts, string(key)+":"+e.String()) // duplicated
			}
		}
		if top && g.Rand.Intn(8) == 0 {
			parts = append(parts, `"removed_attribute":{"x":[1,"y",null]}`)
		}
		b.WriteString("{" + strings.Join(parts, ",") + "}")
	default:
		b.WriteString("null")
	}
}
