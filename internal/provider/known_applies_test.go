package provider

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
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// scripted is a resource of a real schema whose Create writes the outcome its script
// holds, so that the wrapper and the bare framework see the same Create.
type scripted struct {
	resource.Resource
	script *createScript
}

func (r *scripted) Create(ctx context.Context, _ resource.CreateRequest, resp *resource.CreateResponse) {
	r.script.calls++
	if r.script.started != nil {
		close(r.script.started)
		select {
		case <-ctx.Done():
			r.script.stopped = ctx.Err()
		case <-time.After(time.Minute): // a fail-safe, so a missed stop fails instead of hanging
			r.script.stopped = errors.New("never stopped")
		}
	}
	o := r.script.outcome
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

// scriptedProvider is the provider with scripted resources.
type scriptedProvider struct {
	*astraProvider
	resources []func() resource.Resource
}

func (p *scriptedProvider) Resources(context.Context) []func() resource.Resource { return p.resources }

// scriptedServers are the wrapper and the bare framework over the provider's resources
// with scripted Creates.
type scriptedServers struct {
	fast   *knownAnswers
	bare   tfprotov6.ProviderServer
	script *createScript
}

func newScriptedServers(t *testing.T) *scriptedServers {
	t.Helper()
	script := &createScript{}
	p := New("test")().(*astraProvider)
	var resources []func() resource.Resource
	for _, factory := range p.Resources(context.Background()) {
		resources = append(resources, func() resource.Resource {
			r := factory()
			if id, ok := r.(*identified); ok {
				return &identified{Resource: &scripted{Resource: id.Resource, script: script}}
			}
			return r
		})
	}
	wrapped, err := providerserver.NewProtocol6WithError(&scriptedProvider{astraProvider: p, resources: resources})()
	if err != nil {
		t.Fatal(err)
	}
	bare, err := providerserver.NewProtocol6WithError(&scriptedProvider{astraProvider: New("test")().(*astraProvider), resources: resources})()
	if err != nil {
		t.Fatal(err)
	}
	return &scriptedServers{fast: newKnownAnswers(wrapped.(frameworkServer), p, resources), bare: bare, script: script}
}

// applyRound sends the apply of one random create of every type with known applies to the
// wrapper and to the bare framework, with one random outcome of Create, and compares.
func (g *requestGen) applyRound(t *testing.T, counts map[string]int) {
	t.Helper()
	ctx := context.Background()
	fast, bare, script := g.scripted.fast, g.scripted.bare, g.scripted.script
	for _, typeName := range sortedKeys(fast.applies) {
		s := g.f.schemas.ResourceSchemas[typeName]
		typ := s.ValueType()
		config := g.object(s, nil)
		plan, err := bare.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: typeName,
			PriorState: dynamic(typ, tftypes.NewValue(typ, nil)), Config: dynamic(typ, config),
			ProposedNewState: dynamic(typ, proposedNewState(s, tftypes.NewValue(typ, nil), config))})
		if err != nil || plan.PlannedState == nil {
			continue // a configuration the framework cannot plan is not applied
		}
		planned, err := plan.PlannedState.Unmarshal(typ)
		if err != nil {
			t.Fatal(err)
		}
		req := &tfprotov6.ApplyResourceChangeRequest{TypeName: typeName, PriorState: dynamic(typ, tftypes.NewValue(typ, nil)),
			PlannedState: plan.PlannedState, Config: dynamic(typ, config), PlannedIdentity: plan.PlannedIdentity}
		if g.rng.Intn(4) == 0 {
			req.PlannedPrivate = g.private()
		}
		if g.rng.Intn(4) == 0 {
			req.PlannedIdentity = g.identity(g.uuid())
		}
		script.outcome = g.outcome(s, planned)
		script.calls = 0
		replays := fast.provider.answered.get("replayed apply " + typeName)
		got, want, shortcut, err := served(ctx, req, fast.knownApply, fast.frameworkServer.ApplyResourceChange, bare.ApplyResourceChange)
		if err != nil {
			t.Fatalf("seed %d: %s apply: %v", g.seed, typeName, err)
		}
		kind := taken(shortcut)
		if fast.provider.answered.get("replayed apply "+typeName) > replays {
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
}

// outcome is a random outcome of a create planned as planned: mostly the plan with every
// unknown value known; now and then an unknown left, a null state, a null ID (no
// identity), a write-only value kept; diagnostics with and without paths; private keys of
// the provider and one outside its list.
func (g *requestGen) outcome(s *tfprotov6.Schema, planned tftypes.Value) createOutcome {
	var o createOutcome
	if g.rng.Intn(10) != 0 {
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
			if g.rng.Intn(20) != 0 {
				known[p] = g.value(unknown[p], false)
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
		for _, a := range s.Block.Attributes {
			switch {
			case a.Name == "id" && g.rng.Intn(10) != 0:
				attrs[a.Name] = tftypes.NewValue(tftypes.String, g.uuid())
			case a.Name == "id" && g.rng.Intn(2) == 0:
				attrs[a.Name] = tftypes.NewValue(tftypes.String, nil)
			case a.WriteOnly && g.rng.Intn(3) == 0:
				attrs[a.Name] = g.value(a.ValueType(), false)
			}
		}
		state = tftypes.NewValue(state.Type(), attrs)
		o.state = &state
	}
	names := make([]string, 0, len(s.Block.Attributes))
	for _, a := range s.Block.Attributes {
		names = append(names, a.Name)
	}
	for i := g.rng.Intn(3); i > 0; i-- {
		summary, detail := stringPool[g.rng.Intn(len(stringPool))], g.uuid()
		at := path.Root(names[g.rng.Intn(len(names))])
		switch g.rng.Intn(5) {
		case 1:
			at = at.AtMapKey("k")
		case 2:
			at = at.AtListIndex(g.rng.Intn(3))
		case 3:
			at = at.AtSetValue(types.StringValue("v"))
		}
		isError := g.rng.Intn(4) == 0
		switch {
		case g.rng.Intn(3) == 0 && isError:
			o.diags.AddError(summary, detail)
		case g.rng.Intn(3) == 0:
			o.diags.AddWarning(summary, detail)
		case isError:
			o.diags.AddAttributeError(at, summary, detail)
		default:
			o.diags.AddAttributeWarning(at, summary, detail)
		}
	}
	o.private = map[string]string{}
	for _, key := range providerPrivateKeys {
		switch g.rng.Intn(4) {
		case 0:
			o.private[key] = `{"seal":"` + g.uuid() + `"}`
		case 1:
			o.private[key] = ""
		}
	}
	if g.rng.Intn(10) == 0 {
		o.private["other"] = `[1,2]`
	}
	return o
}

// TestKnownApplies_refusedSchemas: each shape whose create the known apply cannot answer
// exactly for is refused, naming what; the shapes it models are accepted.
func TestKnownApplies_refusedSchemas(t *testing.T) {
	id := schema.StringAttribute{Computed: true}
	with := func(name string, a schema.Attribute) func() resource.Resource {
		return identifiedByID(func() resource.Resource {
			return &variantResource{schema: schema.Schema{Attributes: map[string]schema.Attribute{"id": id, name: a}}}
		})
	}
	cases := []struct {
		name    string
		factory func() resource.Resource
		refused string // "" when accepted
	}{
		{name: "not identifiedByID", refused: "its Create cannot be replayed",
			factory: func() resource.Resource {
				return &variantResource{schema: schema.Schema{Attributes: map[string]schema.Attribute{"id": id}}}
			}},
		{name: "a block", refused: "it has blocks", factory: identifiedByID(func() resource.Resource {
			return &variantResource{schema: schema.Schema{Attributes: map[string]schema.Attribute{"id": id},
				Blocks: map[string]schema.Block{"b": schema.SingleNestedBlock{}}}}
		})},
		{name: "a float (semantic equality)", refused: "attribute f: its values (basetypes.Float64Value) have semantic equality",
			factory: with("f", schema.Float64Attribute{Optional: true})},
		{name: "floats in a list", refused: "attribute l: its values (basetypes.Float32Value)",
			factory: with("l", schema.ListAttribute{Optional: true, ElementType: types.Float32Type})},
		{name: "a float nested", refused: "attribute n: its values (basetypes.Float64Value)",
			factory: with("n", schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{"f": schema.Float64Attribute{Optional: true}}})},
		{name: "a nested write-only attribute", refused: "attribute n: a nested write-only attribute",
			factory: with("n", schema.ListNestedAttribute{Optional: true, NestedObject: schema.NestedAttributeObject{
				Attributes: map[string]schema.Attribute{"s": schema.StringAttribute{Optional: true, WriteOnly: true}}}})},
		{name: "nested strings and maps",
			factory: with("n", schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
				"s": schema.StringAttribute{Optional: true}, "m": schema.MapAttribute{Optional: true, ElementType: types.StringType}}})},
		{name: "a top-level write-only attribute: set null", factory: with("secret", schema.StringAttribute{Optional: true, WriteOnly: true})},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rule, err := applyRuleFor(c.factory)
			switch {
			case c.refused == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.refused == "" && rule.identityType == nil:
				t.Fatal("no identity type")
			case c.refused == "" && strings.Join(rule.writeOnly, ",") != map[bool]string{true: "secret"}[strings.Contains(c.name, "write-only")]:
				t.Fatalf("write-only attributes %v", rule.writeOnly)
			case c.refused != "" && err == nil:
				t.Fatalf("accepted, want refused for %q", c.refused)
			case c.refused != "" && !strings.Contains(err.Error(), c.refused):
				t.Fatalf("refused for %q, want %q", err, c.refused)
			}
		})
	}
}

func hasError(diags []*tfprotov6.Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return true
		}
	}
	return false
}

// TestKnownApplies_stopCancels: StopProvider cancels a create knownApply is running, as the
// framework cancels the requests it serves, so an interrupted apply stops waiting; the
// outcome is still answered.
func TestKnownApplies_stopCancels(t *testing.T) {
	servers := newScriptedServers(t)
	ctx := context.Background()
	const typeName = "astra_bucket"
	rule := servers.fast.applies[typeName]
	if rule == nil {
		t.Fatalf("%s has no known apply: %s", typeName, servers.fast.applyRefused[typeName])
	}
	attrs := map[string]tftypes.Value{}
	for name, typ := range rule.typ.(tftypes.Object).AttributeTypes {
		attrs[name] = tftypes.NewValue(typ, nil)
	}
	attrs["id"] = tftypes.NewValue(tftypes.String, "b-1")
	planned := tftypes.NewValue(rule.typ, attrs)
	servers.script.outcome = createOutcome{state: &planned}
	servers.script.started = make(chan struct{})
	answered := make(chan *tfprotov6.ApplyResourceChangeResponse)
	go func() {
		answered <- servers.fast.knownApply(ctx, &tfprotov6.ApplyResourceChangeRequest{TypeName: typeName,
			PriorState: dynamic(rule.typ, tftypes.NewValue(rule.typ, nil)), PlannedState: dynamic(rule.typ, planned), Config: dynamic(rule.typ, planned)})
	}()
	<-servers.script.started
	if _, err := servers.fast.StopProvider(ctx, &tfprotov6.StopProviderRequest{}); err != nil {
		t.Fatal(err)
	}
	resp := <-answered
	if !errors.Is(servers.script.stopped, context.Canceled) {
		t.Errorf("the create's context ended with %v, want canceled", servers.script.stopped)
	}
	if resp == nil || resp.NewState == nil || servers.fast.provider.answered.get("apply "+typeName) != 1 {
		t.Fatalf("the stopped create was not answered: %+v", resp)
	}
	if len(servers.fast.stops.cancels) != 0 {
		t.Errorf("%d finished applies still registered for StopProvider", len(servers.fast.stops.cancels))
	}
}
