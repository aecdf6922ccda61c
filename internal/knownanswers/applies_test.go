package knownanswers_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
	"github.com/astra-control/terraform-provider-astra/internal/provider"
)

// create is a scripted Create: it writes the script's outcome, so that the known answers
// and the bare framework see the same Create.
func (script *createScript) create(ctx context.Context, _ resource.CreateRequest, resp *resource.CreateResponse) {
	script.calls++
	if script.started != nil {
		close(script.started)
		select {
		case <-ctx.Done():
			script.stopped = ctx.Err()
		case <-time.After(time.Minute): // a fail-safe, so a missed stop fails instead of hanging
			script.stopped = errors.New("never stopped")
		}
	}
	o := script.outcome
	if o.state != nil {
		resp.State.Raw = *o.state
	}
	resp.Diagnostics = append(resp.Diagnostics, o.diags...)
	for _, key := range sortedKeys(o.private) {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, key, []byte(o.private[key]))...)
	}
}

// createScript is the outcome every scripted Create gives, and how many ran.
type createScript struct {
	outcome createOutcome
	calls   int
	// started, when set, is closed as Create starts, which then waits for its context to
	// end and records why (stopped).
	started chan struct{}
	stopped error
}

type createOutcome struct {
	state   *tftypes.Value // nil leaves the state null
	diags   diag.Diagnostics
	private map[string]string // keys set to JSON text ("" removes one)
}

// scriptedServers are the known answers and the bare framework over the provider's
// resources with scripted Creates.
type scriptedServers struct {
	fast   *knownanswers.Server
	bare   tfprotov6.ProviderServer
	script *createScript
}

func newScriptedServers(t *testing.T) *scriptedServers {
	t.Helper()
	script := &createScript{}
	fast := knownServer(t, provider.WithScriptedCreates(provider.New("test")(), script.create))
	bare, err := providerserver.NewProtocol6WithError(provider.WithScriptedCreates(provider.New("test")(), script.create))()
	if err != nil {
		t.Fatal(err)
	}
	return &scriptedServers{fast: fast, bare: bare, script: script}
}

// applyRound sends the apply of one random create of every type with known applies to the
// wrapper and to the bare framework, with one random outcome of Create, and compares.
func (g *requestGen) applyRound(t *testing.T, counts map[string]int) {
	t.Helper()
	for _, typeName := range sortedKeys(g.scripted.fast.Applies()) {
		g.compareApply(t, typeName, counts)
	}
}

// compareApply sends the apply of one random create of typeName to the wrapper and to the
// bare framework, with one random outcome of Create, and compares.
func (g *requestGen) compareApply(t *testing.T, typeName string, counts map[string]int) {
	t.Helper()
	ctx := context.Background()
	fast, bare, script := g.scripted.fast, g.scripted.bare, g.scripted.script
	s := g.f.schemas.ResourceSchemas[typeName]
	typ := s.ValueType()
	config := g.object(s, nil)
	plan, err := bare.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: typeName,
		PriorState: dynamic(typ, tftypes.NewValue(typ, nil)), Config: dynamic(typ, config),
		ProposedNewState: dynamic(typ, proposedNewState(s, tftypes.NewValue(typ, nil), config))})
	if err != nil || plan.PlannedState == nil || hasError(plan.Diagnostics) {
		return // a configuration the framework cannot plan is not applied
	}
	planned, err := plan.PlannedState.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	req := &tfprotov6.ApplyResourceChangeRequest{TypeName: typeName, PriorState: dynamic(typ, tftypes.NewValue(typ, nil)),
		PlannedState: plan.PlannedState, Config: dynamic(typ, config), PlannedIdentity: plan.PlannedIdentity}
	if g.Rand.Intn(4) == 0 {
		req.PlannedPrivate = g.private(typeName)
	}
	if g.Rand.Intn(4) == 0 {
		req.PlannedIdentity = g.identity(g.UUID())
	}
	script.outcome = g.outcome(s, planned, fast.PrivateKeys()[typeName])
	script.calls = 0
	replays := fast.Counts().Get("replayed apply " + typeName)
	got, want, shortcut, err := served(ctx, req, fast.KnownApply, fast.Framework().ApplyResourceChange, bare.ApplyResourceChange)
	if err != nil {
		t.Fatalf("seed %d: %s apply: %v", g.seed, typeName, err)
	}
	kind := taken(shortcut)
	if fast.Counts().Get("replayed apply "+typeName) > replays {
		kind = "replayed"
	}
	counts[typeName+"/apply/"+kind]++

	// Each server runs Create once, unless the framework refused the request before it.
	if refusedEarly := kind == "framework" && hasError(want.Diagnostics); script.calls != 2 && !(refusedEarly && script.calls == 0) {
		t.Errorf("seed %d: %s: Create ran %d times for the two servers, want once each", g.seed, typeName, script.calls)
	}
	of := func(r *tfprotov6.ApplyResourceChangeResponse) answer {
		return answer{r.NewState, r.NewIdentity, r.Private, r.Diagnostics, false}
	}
	if d := answerDiff(typ, g.identityType(typeName), of(got), of(want)); len(d) > 0 {
		t.Errorf("seed %d: %s apply (%s) differs from the framework's: %s\noutcome %+v", g.seed, typeName, kind, strings.Join(d, "; "), script.outcome)
	}
}

// outcome is a random outcome of a create planned as planned: mostly the plan with every
// unknown value known; now and then an unknown left, a null state, a null ID (no
// identity), a write-only value kept, a value the framework's types refuse; diagnostics
// with and without paths; the private keys
// the resource writes (keys) and one outside its list.
func (g *requestGen) outcome(s *tfprotov6.Schema, planned tftypes.Value, keys []string) createOutcome {
	var o createOutcome
	if g.Rand.Intn(10) != 0 {
		// Transform walks objects in map order: the random values are drawn in path order,
		// so that a seed replays the same outcome.
		unknown := map[string]tftypes.Type{}
		_ = tftypes.Walk(planned, func(p *tftypes.AttributePath, v tftypes.Value) (bool, error) {
			if !v.IsKnown() {
				unknown[p.String()] = v.Type()
			}
			return true, nil
		})
		known := map[string]tftypes.Value{}
		for _, p := range sortedKeys(unknown) {
			if g.Rand.Intn(20) != 0 {
				known[p] = g.Value(unknown[p], false)
			}
		}
		state, err := tftypes.Transform(planned, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
			if k, ok := known[p.String()]; ok && !v.IsKnown() {
				return k, nil
			}
			return v, nil
		})
		if err != nil {
			g.t.Fatal(err)
		}
		var attrs map[string]tftypes.Value
		_ = state.As(&attrs)
		// One refused value at most: with two, the framework reports whichever its walk
		// reaches first, in map order.
		refused := false
		for _, a := range s.Block.Attributes {
			switch {
			case a.Name == "id" && g.Rand.Intn(10) != 0:
				attrs[a.Name] = tftypes.NewValue(tftypes.String, g.UUID())
			case a.Name == "id" && g.Rand.Intn(2) == 0:
				attrs[a.Name] = tftypes.NewValue(tftypes.String, nil)
			case a.WriteOnly && g.Rand.Intn(3) == 0:
				attrs[a.Name] = g.Value(a.ValueType(), false)
			case !refused && g.Rand.Intn(15) == 0:
				attrs[a.Name], refused = refusedValue(attrs[a.Name])
			}
		}
		state = tftypes.NewValue(state.Type(), attrs)
		o.state = &state
	}
	names := make([]string, 0, len(s.Block.Attributes))
	for _, a := range s.Block.Attributes {
		names = append(names, a.Name)
	}
	for i := g.Rand.Intn(3); i > 0; i-- {
		summary, detail := g.PoolString(), g.UUID()
		at := path.Root(names[g.Rand.Intn(len(names))])
		switch g.Rand.Intn(5) {
		case 1:
			at = at.AtMapKey("k")
		case 2:
			at = at.AtListIndex(g.Rand.Intn(3))
		case 3:
			at = at.AtSetValue(types.StringValue("v"))
		}
		isError := g.Rand.Intn(4) == 0
		switch {
		case g.Rand.Intn(3) == 0 && isError:
			o.diags.AddError(summary, detail)
		case g.Rand.Intn(3) == 0:
			o.diags.AddWarning(summary, detail)
		case isError:
			o.diags.AddAttributeError(at, summary, detail)
		default:
			o.diags.AddAttributeWarning(at, summary, detail)
		}
	}
	o.private = map[string]string{}
	for _, key := range keys {
		switch g.Rand.Intn(4) {
		case 0:
			o.private[key] = `{"seal":"` + g.UUID() + `"}`
		case 1:
			o.private[key] = ""
		}
	}
	if g.Rand.Intn(10) == 0 {
		o.private["other"] = `[1,2]`
	}
	return o
}

func hasError(diags []*tfprotov6.Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return true
		}
	}
	return false
}

// refusedValue is v made into a value the framework's types refuse where they can (a set
// holding an element twice, a number no int64 holds), and whether it could.
func refusedValue(v tftypes.Value) (tftypes.Value, bool) {
	var elems []tftypes.Value
	switch {
	case !v.IsKnown() || v.IsNull():
	case v.Type().Is(tftypes.Set{}) && v.As(&elems) == nil && len(elems) > 0:
		return tftypes.NewValue(v.Type(), append(elems, elems[0])), true
	case v.Type().Is(tftypes.Number):
		return tftypes.NewValue(v.Type(), 1.5), true
	}
	return v, false
}

// TestKnownApplies_stopCancels: StopProvider cancels a create knownApply is running, as the
// framework cancels the requests it serves, so an interrupted apply stops waiting; the
// outcome is still answered.
func TestKnownApplies_stopCancels(t *testing.T) {
	servers := newScriptedServers(t)
	ctx := context.Background()
	const typeName = "astra_bucket"
	typ := servers.fast.Applies()[typeName]
	if typ == nil {
		t.Fatalf("%s has no known apply: %s", typeName, servers.fast.ApplyRefused()[typeName])
	}
	attrs := map[string]tftypes.Value{}
	for name, at := range typ.(tftypes.Object).AttributeTypes {
		attrs[name] = tftypes.NewValue(at, nil)
	}
	attrs["id"] = tftypes.NewValue(tftypes.String, "b-1")
	planned := tftypes.NewValue(typ, attrs)
	servers.script.outcome = createOutcome{state: &planned}
	servers.script.started = make(chan struct{})
	answered := make(chan *tfprotov6.ApplyResourceChangeResponse)
	go func() {
		answered <- servers.fast.KnownApply(ctx, &tfprotov6.ApplyResourceChangeRequest{TypeName: typeName,
			PriorState: dynamic(typ, tftypes.NewValue(typ, nil)), PlannedState: dynamic(typ, planned), Config: dynamic(typ, planned)})
	}()
	<-servers.script.started
	if _, err := servers.fast.StopProvider(ctx, &tfprotov6.StopProviderRequest{}); err != nil {
		t.Fatal(err)
	}
	resp := <-answered
	if !errors.Is(servers.script.stopped, context.Canceled) {
		t.Errorf("the create's context ended with %v, want canceled", servers.script.stopped)
	}
	if resp == nil || resp.NewState == nil || servers.fast.Counts().Get("apply "+typeName) != 1 {
		t.Fatalf("the stopped create was not answered: %+v", resp)
	}
	if n := servers.fast.InFlight(); n != 0 {
		t.Errorf("%d finished applies still registered for StopProvider", n)
	}
}
