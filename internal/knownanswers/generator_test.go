package knownanswers_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
	"github.com/astra-control/terraform-provider-astra/internal/testutil"
)

// Random requests built from the schemas, for the differential.

// requestGen builds random requests from the schemas.
type requestGen struct {
	testutil.RandomValues
	t        *testing.T
	f        *answersFixture
	seed     int64
	scripted *scriptedServers // for applies
}

func newRequestGen(t *testing.T, seed int64, f *answersFixture, scripted *scriptedServers) *requestGen {
	return &requestGen{RandomValues: testutil.RandomValues{Rand: rand.New(rand.NewSource(seed))}, t: t, f: f, seed: seed, scripted: scripted}
}

// plan is a random plan of a create, an unchanged resource, or an update.
func (g *requestGen) plan(typeName string, s *tfprotov6.Schema) (*tfprotov6.PlanResourceChangeRequest, string) {
	kind := []string{"create", "create", "unchanged", "unchanged", "update"}[g.Rand.Intn(5)]
	return g.planOf(typeName, s, kind), kind
}

// planOf is a random plan of the kind: "create", "unchanged" (mostly; the configuration
// now and then changes a value) or "update".
func (g *requestGen) planOf(typeName string, s *tfprotov6.Schema, kind string) *tfprotov6.PlanResourceChangeRequest {
	typ := s.ValueType()
	req := &tfprotov6.PlanResourceChangeRequest{TypeName: typeName, PriorPrivate: g.private(typeName)}
	if g.Rand.Intn(10) == 0 {
		req.ClientCapabilities = &tfprotov6.PlanResourceChangeClientCapabilities{DeferralAllowed: true}
	}
	var prior, config tftypes.Value
	if kind == "create" {
		prior = tftypes.NewValue(typ, nil)
		config = g.object(s, nil)
	} else {
		prior = g.priorState(typeName, s)
		config = g.object(s, &prior)
	}
	proposed := proposedNewState(s, prior, config)
	if kind == "update" {
		proposed = g.object(s, &prior)
	}
	req.PriorState, req.Config, req.ProposedNewState = dynamic(typ, prior), dynamic(typ, config), dynamic(typ, proposed)
	var id string
	if !prior.IsNull() {
		id = stringAttribute(prior, "id")
	}
	req.PriorIdentity = g.identityOf(typeName, prior, id)
	return req
}

// identityType is typeName's identity type: { id } unless its rule says otherwise.
func (g *requestGen) identityType(typeName string) tftypes.Type {
	if rule, ok := g.f.fast.Rules()[typeName]; ok && rule.IdentityType != nil {
		return rule.IdentityType
	}
	return identityType
}

// identityOf is a random identity for a prior state of typeName: g.identity for the
// resources identified by { id }; for another identity type (the protection policy's
// { app_id, id }) none, a null one, one built from the prior state's attributes, or one
// naming another object.
func (g *requestGen) identityOf(typeName string, prior tftypes.Value, id string) *tfprotov6.ResourceIdentityData {
	rule, ok := g.f.fast.Rules()[typeName]
	if !ok || rule.IdentityType == nil || rule.IdentityType.Equal(identityType) {
		return g.identity(id)
	}
	typ := rule.IdentityType
	var v tftypes.Value
	switch n := g.Rand.Intn(10); {
	case n < 3:
		return nil
	case n < 5 || prior.IsNull():
		v = tftypes.NewValue(typ, nil)
	default:
		var attrs map[string]tftypes.Value
		_ = prior.As(&attrs)
		fields := map[string]tftypes.Value{}
		types := typ.(tftypes.Object).AttributeTypes
		for _, name := range sortedKeys(types) {
			at := types[name]
			fields[name] = attrs[name]
			if n == 9 || !fields[name].IsKnown() || fields[name].IsNull() {
				fields[name] = tftypes.NewValue(at, g.UUID())
			}
		}
		v = tftypes.NewValue(typ, fields)
	}
	return &tfprotov6.ResourceIdentityData{IdentityData: dynamic(typ, v)}
}

// proposedNewState is what the CLI proposes: the configured value of each attribute, or
// the prior one where the configuration leaves a computed one null.
func proposedNewState(s *tfprotov6.Schema, prior, config tftypes.Value) tftypes.Value {
	var p, c map[string]tftypes.Value
	_ = config.As(&c)
	if !prior.IsNull() {
		_ = prior.As(&p)
	}
	out := map[string]tftypes.Value{}
	for _, a := range s.Block.Attributes {
		out[a.Name] = c[a.Name]
		if c[a.Name].IsNull() && a.Computed {
			out[a.Name] = tftypes.NewValue(a.ValueType(), nil)
			if p != nil {
				out[a.Name] = p[a.Name]
			}
		}
	}
	return tftypes.NewValue(s.ValueType(), out)
}

// priorState is a random state: every attribute known (or null), write-only ones null, and
// mostly the default where the attribute has one, as in a state an apply wrote.
func (g *requestGen) priorState(typeName string, s *tfprotov6.Schema) tftypes.Value {
	var defaults map[string]tftypes.Value
	if rule, ok := g.f.fast.Rules()[typeName]; ok {
		defaults = rule.Defaults
	}
	out := map[string]tftypes.Value{}
	for _, a := range s.Block.Attributes {
		def, hasDefault := defaults[a.Name]
		switch {
		case hasDefault && g.Rand.Intn(4) != 0:
			out[a.Name] = def
		case a.WriteOnly:
			out[a.Name] = tftypes.NewValue(a.ValueType(), nil)
		case a.Name == "id":
			out[a.Name] = tftypes.NewValue(tftypes.String, g.UUID())
		case !a.Required && g.Rand.Intn(6) == 0:
			out[a.Name] = tftypes.NewValue(a.ValueType(), nil)
		default:
			out[a.Name] = g.attribute(a.Name, a.ValueType(), false)
		}
	}
	return tftypes.NewValue(s.ValueType(), out)
}

// object is a random configuration, or, with a prior state, a configuration that mostly
// keeps its values (so that many plans propose the prior state).
func (g *requestGen) object(s *tfprotov6.Schema, prior *tftypes.Value) tftypes.Value {
	var p map[string]tftypes.Value
	if prior != nil {
		_ = prior.As(&p)
	}
	out := map[string]tftypes.Value{}
	for _, a := range s.Block.Attributes {
		typ := a.ValueType()
		null := tftypes.NewValue(typ, nil)
		switch {
		case a.Computed && !a.Optional && !a.Required:
			out[a.Name] = null
		case a.WriteOnly:
			out[a.Name] = []tftypes.Value{null, g.attribute(a.Name, typ, true)}[g.Rand.Intn(2)]
		case p != nil && g.Rand.Intn(8) != 0:
			out[a.Name] = p[a.Name]
			if a.Computed && g.Rand.Intn(2) == 0 {
				out[a.Name] = null // left to the prior value
			}
		case a.Required:
			out[a.Name] = g.attribute(a.Name, typ, true)
		case g.Rand.Intn(2) == 0:
			out[a.Name] = null
		default:
			out[a.Name] = g.attribute(a.Name, typ, true)
		}
	}
	return tftypes.NewValue(s.ValueType(), out)
}

// attributePools are values some string attributes take half the time, so that their
// plan checks (a key file that parses, a cloud type the service knows) pass often enough
// for the known answers to take plans of every type.
var attributePools = map[string][]string{
	"service_account_json":    {testutil.GCPKeyFile(1), testutil.GCPKeyFile(2)},
	"service_account_json_wo": {testutil.GCPKeyFile(3)},
	"cloud_type":              {"gcp", "azure", "aws", "GCP"},
	"kubeconfig":              poolKubeconfigs,
	"kubeconfig_wo":           poolKubeconfigs,
	// States the service reports: a snapshot's or backup's plan check speaks up (so the
	// framework answers) unless its prior run is settled, which a random string never is.
	"state": {"completed", "completed", "running", "pending", "failed", "ready", "available"},
}

// poolServers are the API servers of the kubeconfigs the pools hold: the fixture
// credential's first (testutil.NewSimCluster's), so that a plan sends it its own server
// or another.
var poolServers = []string{"https://answers.k8s.example:6443", "https://pool-a.k8s.example:6443", "https://pool-b.k8s.example:6443"}

var poolKubeconfigs = func() []string {
	var out []string
	for i, server := range poolServers {
		out = append(out, string(astrasim.TestKubeconfig(fmt.Sprintf("pool-%d", i), server)))
	}
	return out
}()

// attribute is a random value of the attribute name of type typ.
func (g *requestGen) attribute(name string, typ tftypes.Type, unknowns bool) tftypes.Value {
	if pool := attributePools[name]; len(pool) > 0 && typ.Is(tftypes.String) && g.Rand.Intn(2) == 0 {
		return tftypes.NewValue(typ, pool[g.Rand.Intn(len(pool))])
	}
	return g.Value(typ, unknowns)
}

// identity is none, a null one, { id }, or one naming another ID.
func (g *requestGen) identity(id string) *tfprotov6.ResourceIdentityData {
	var v tftypes.Value
	switch n := g.Rand.Intn(10); {
	case n < 3:
		return nil
	case n < 5 || id == "":
		v = tftypes.NewValue(identityType, nil)
	case n < 9:
		v = tftypes.NewValue(identityType, map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, id)})
	default:
		v = tftypes.NewValue(identityType, map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, g.UUID())})
	}
	dv := dynamic(identityType, v)
	return &tfprotov6.ResourceIdentityData{IdentityData: dv}
}

// private is a random private state of typeName: none, empty, a framework's key, an empty
// value and one that is no JSON (which the framework refuses), keys of no resource, and
// above all every key the type's resource writes, with values it writes and others.
func (g *requestGen) private(typeName string) []byte {
	switch g.Rand.Intn(8) {
	case 0:
		return nil
	case 1:
		return []byte("{}")
	case 2:
		return []byte(`{"answer":"` + base64.StdEncoding.EncodeToString([]byte(`{"id":"x"}`)) + `","other":""}`)
	case 3:
		return []byte(`{".import_before_read":"` + base64.StdEncoding.EncodeToString([]byte(`true`)) + `"}`)
	case 4:
		return []byte(`{"bad":"` + base64.StdEncoding.EncodeToString([]byte(`not json`)) + `"}`)
	case 5:
		return []byte(`{"b":"` + base64.StdEncoding.EncodeToString([]byte(`[1,2]`)) + `","a":"` + base64.StdEncoding.EncodeToString([]byte(`{"z":1,"y":2}`)) + `"}`)
	}
	return g.withResourceKeys(typeName, nil)
}

// withResourceKeys is private with each key typeName's resource writes set, now and then,
// to a value of that key.
func (g *requestGen) withResourceKeys(typeName string, private []byte) []byte {
	for _, key := range g.f.fast.PrivateKeys()[typeName] {
		if g.Rand.Intn(2) == 0 {
			private = withExtraKey(private, key, g.privateValue(key))
		}
	}
	return private
}

// privateValue is a value of a resource's private key: for the seal, one of another object
// or the earlier form of the record; for the kubeconfig credential's, the digest of a
// pool's API server or of another; for any other, a JSON document.
func (g *requestGen) privateValue(key string) string {
	switch key {
	case knownanswers.AnswerKey:
		seal, _ := json.Marshal(base64.RawStdEncoding.EncodeToString([]byte(g.UUID())[:16]))
		return []string{string(seal), `{"id":"x","answer":"y"}`}[g.Rand.Intn(2)]
	case serverPrivateKey:
		if g.Rand.Intn(4) == 0 {
			return string(serverDigest("https://" + g.UUID()))
		}
		return string(serverDigest(poolServers[g.Rand.Intn(len(poolServers))]))
	}
	return `{"z":1}`
}

// read is a random read of a base object, and whether the known answer must take it: the
// state as recorded, an identity naming it or none, the recorded private state.
func (g *requestGen) read(base readBase) (*tfprotov6.ReadResourceRequest, bool) {
	req := &tfprotov6.ReadResourceRequest{TypeName: base.typeName}
	expect := base.shortcut
	state := base.state
	if g.Rand.Intn(4) == 0 {
		var attrs map[string]tftypes.Value
		_ = state.As(&attrs)
		names := sortedKeys(attrs)
		name := names[g.Rand.Intn(len(names))]
		if name != "id" {
			changed := g.Value(attrs[name].Type(), false)
			expect = expect && changed.Equal(attrs[name])
			state = testutil.WithAttributes(g.t, state, map[string]tftypes.Value{name: changed})
		}
	}
	if g.Rand.Intn(8) == 0 {
		// An object the service does not hold (gone: a 404), or an ID it refuses (an error).
		gone := fmt.Sprintf("%08x-0000-4000-8000-%012x", g.Rand.Uint32(), g.Rand.Int63n(1<<48))
		if g.Rand.Intn(3) == 0 {
			gone = "not an ID"
		}
		state = testutil.WithAttributes(g.t, state, map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, gone)})
		expect = false
	}
	req.CurrentState = dynamic(base.typ, state)
	id := stringAttribute(state, "id")
	identity := g.identityType(base.typeName)
	switch n := g.Rand.Intn(10); {
	case n < 3:
	case n < 4:
		req.CurrentIdentity = &tfprotov6.ResourceIdentityData{IdentityData: dynamic(identity, tftypes.NewValue(identity, nil))}
	case n < 9:
		req.CurrentIdentity = base.identity
	default:
		if req.CurrentIdentity = g.identityOf(base.typeName, state, id); req.CurrentIdentity != nil {
			v, _ := req.CurrentIdentity.IdentityData.Unmarshal(identity)
			expect = expect && (v.IsFullyNull() || maps.Equal(identityAttributes(identity, v), identityAttributes(identity, state)))
		}
	}
	switch g.Rand.Intn(6) {
	case 0:
		req.Private = nil
		expect = false
	case 1:
		req.Private = withExtraKey(base.private, "other", `{"kept":true}`)
	case 3:
		// A key the resource writes, set anew: the seal of another object no read takes.
		req.Private = g.withResourceKeys(base.typeName, base.private)
		if seal, _ := knownanswers.RecordedSeal(req.Private); expect {
			recorded, _ := knownanswers.RecordedSeal(base.private)
			expect = seal == recorded
		}
	case 2:
		req.Private = withExtraKey(base.private, ".import_before_read", `true`)
		expect = false
	default:
		req.Private = base.private
	}
	if g.Rand.Intn(10) == 0 {
		req.ClientCapabilities = &tfprotov6.ReadResourceClientCapabilities{DeferralAllowed: true}
	}
	return req, expect
}

func withExtraKey(private []byte, key, value string) []byte {
	var keys map[string][]byte
	_ = json.Unmarshal(private, &keys)
	if keys == nil {
		keys = map[string][]byte{}
	}
	keys[key] = []byte(value)
	out, _ := json.Marshal(keys)
	return out
}

func dynamic(typ tftypes.Type, v tftypes.Value) *tfprotov6.DynamicValue {
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		panic(err)
	}
	return &dv
}

// basePlan is a plan of a base object that mostly proposes it unchanged: its state as the
// prior state, a configuration that keeps its arguments (a computed one now and then left
// to the prior value, one now and then changed), write-only arguments from the pools half
// the time, and its private state as read with keys its resource writes now and then set
// (a seal of another object, another API server's digest).
func (g *requestGen) basePlan(base readBase, s *tfprotov6.Schema) *tfprotov6.PlanResourceChangeRequest {
	var prior map[string]tftypes.Value
	_ = base.state.As(&prior)
	changed := ""
	if g.Rand.Intn(4) == 0 {
		changed = s.Block.Attributes[g.Rand.Intn(len(s.Block.Attributes))].Name
	}
	config := map[string]tftypes.Value{}
	for _, a := range s.Block.Attributes {
		null := tftypes.NewValue(a.ValueType(), nil)
		switch {
		case a.Computed && !a.Optional && !a.Required:
			config[a.Name] = null
		case a.WriteOnly:
			config[a.Name] = null
			if g.Rand.Intn(2) == 0 {
				config[a.Name] = g.attribute(a.Name, a.ValueType(), false)
			}
		case a.Name == changed:
			config[a.Name] = g.attribute(a.Name, a.ValueType(), true)
		case a.Computed && g.Rand.Intn(4) == 0:
			config[a.Name] = null
		default:
			config[a.Name] = prior[a.Name]
		}
	}
	configured := tftypes.NewValue(base.typ, config)
	return &tfprotov6.PlanResourceChangeRequest{TypeName: base.typeName, PriorState: dynamic(base.typ, base.state),
		Config: dynamic(base.typ, configured), ProposedNewState: dynamic(base.typ, proposedNewState(s, base.state, configured)),
		PriorIdentity: base.identity, PriorPrivate: g.withResourceKeys(base.typeName, base.private)}
}
