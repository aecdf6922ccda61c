package knownanswers_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/testutil"
)

// The differential guard: random requests built from each resource's schema go to the
// server with known answers and to the framework's own server, which must answer alike:
// planned or new state, identity, private state, replacements and diagnostics. Fixed
// seeds run first, then one random seed, logged; KNOWN_ANSWERS_SEED replays a seed and
// KNOWN_ANSWERS_DURATION (a Go duration, default 2s) bounds the random part, which
// `make fuzz` runs for longer.

func TestKnownAnswers_differential(t *testing.T) {
	f := newAnswersFixture(t)
	readBases := f.readBases(t)
	seeds := []int64{1, 2, 3}
	random := time.Now().UnixNano()
	if s := os.Getenv("KNOWN_ANSWERS_SEED"); s != "" {
		var err error
		if random, err = strconv.ParseInt(s, 10, 64); err != nil {
			t.Fatalf("KNOWN_ANSWERS_SEED=%q: %v", s, err)
		}
		seeds = nil
	}
	duration := 2 * time.Second
	if d := os.Getenv("KNOWN_ANSWERS_DURATION"); d != "" {
		var err error
		if duration, err = time.ParseDuration(d); err != nil {
			t.Fatalf("KNOWN_ANSWERS_DURATION=%q: %v", d, err)
		}
	}
	counts := map[string]int{}
	scripted := newScriptedServers(t)
	for _, seed := range seeds {
		g := newRequestGen(t, seed, f, scripted)
		for i := 0; i < 25; i++ {
			g.round(t, readBases, counts)
		}
	}
	// The guard is not vacuous: on the fixed seeds, every rule answered some requests of
	// each kind itself.
	for typ, rule := range f.fast.Rules() {
		for _, kind := range []string{"create", "unchanged"} {
			if len(seeds) > 0 && counts[typ+"/"+kind+"/shortcut"] == 0 {
				t.Errorf("%s: no %s plan took the known answer", typ, kind)
			}
		}
		if len(seeds) > 0 && rule.Reads && counts[typ+"/read/shortcut"] == 0 {
			t.Errorf("%s: no read took the known answer", typ)
		}
	}
	for typ := range f.schemas.ResourceSchemas {
		if len(seeds) > 0 && f.fast.Upgrades(typ) && counts[typ+"/upgrade/shortcut"] == 0 {
			t.Errorf("%s: no state upgrade took the known answer", typ)
		}
	}
	for typ := range scripted.fast.Applies() {
		for _, kind := range []string{"shortcut", "replayed"} {
			if len(seeds) > 0 && counts[typ+"/apply/"+kind] == 0 {
				t.Errorf("%s: no create's apply was %s", typ, map[string]string{"shortcut": "answered", "replayed": "replayed"}[kind])
			}
		}
	}
	t.Logf("random seed %d (replay with KNOWN_ANSWERS_SEED=%d), for %s", random, random, duration)
	g := newRequestGen(t, random, f, scripted)
	iterations := 0
	for deadline := time.Now().Add(duration); time.Now().Before(deadline) && !t.Failed(); iterations++ {
		g.round(t, readBases, counts)
	}
	keys := sortedKeys(counts)
	var summary []string
	for _, k := range keys {
		summary = append(summary, fmt.Sprintf("%s=%d", k, counts[k]))
	}
	t.Logf("%d random rounds; requests compared: %s", iterations, strings.Join(summary, " "))
}

// readBase is an object on the simulator as the framework read it.
type readBase struct {
	typeName string
	typ      tftypes.Type
	state    tftypes.Value
	identity *tfprotov6.ResourceIdentityData
	private  []byte
}

// readBases reads one object of every resource type with known reads with the framework:
// the fixture's cluster (with three labels), credential and cloud, the cluster managed, an
// S3 and a service-account credential, a bucket, and a protection policy of an app.
func (f *answersFixture) readBases(t *testing.T) []readBase {
	t.Helper()
	ctx := context.Background()
	c, err := f.client.GetCluster(ctx, f.cloudID, f.clusterID)
	if err != nil {
		t.Fatal(err)
	}
	c.Metadata.Labels = append(c.Metadata.Labels, astra.Label{Name: "team", Value: "a"}, astra.Label{Name: "env", Value: "prod"},
		astra.Label{Name: "zone", Value: "eu-1"})
	if _, err := f.client.UpdateCluster(ctx, f.cloudID, c); err != nil {
		t.Fatal(err)
	}
	if _, err := f.client.CreateManagedCluster(ctx, astra.ManagedClusterCreate{ID: f.clusterID,
		Labels: []astra.Label{{Name: "a", Value: "1"}, {Name: "b", Value: "2"}, {Name: "c", Value: "3"}}}); err != nil {
		t.Fatal(err)
	}
	testutil.WaitUntil(t, "managing the cluster", func(ctx context.Context) (*astra.ManagedCluster, error) {
		return f.client.GetManagedCluster(ctx, f.clusterID)
	}, astra.ManagedClusterReady)
	s3, err := f.client.CreateCredential(ctx, astra.S3Credential("differential-s3", "AKIA-DIFF", "diff-secret"))
	if err != nil {
		t.Fatal(err)
	}
	sa, err := f.client.CreateCredential(ctx, astra.ServiceAccountCredential("differential-sa", "gcp", []byte(testutil.GCPKeyFile(1))))
	if err != nil {
		t.Fatal(err)
	}
	bucket, err := f.client.CreateBucket(ctx, astra.BucketCreate{Name: "differential-bucket", CredentialID: s3.ID,
		Provider: astra.BucketProviderONTAPS3, Parameters: astra.BucketParameters{S3: &astra.S3BucketParameters{
			ServerURL: "s3.example.com", BucketName: "differential"}}})
	if err != nil {
		t.Fatal(err)
	}
	testutil.WaitUntil(t, "bucket", func(ctx context.Context) (*astra.Bucket, error) { return f.client.GetBucket(ctx, bucket.ID) }, astra.BucketAvailable)
	app, err := f.client.CreateApp(ctx, astra.AppCreate{Name: "differential-app", ClusterID: f.clusterID,
		NamespaceScopedResources: []astra.NamespaceScope{{Namespace: "default"}}})
	if err != nil {
		t.Fatal(err)
	}
	testutil.WaitUntil(t, "app", func(ctx context.Context) (*astra.App, error) { return f.client.GetApp(ctx, app.ID) }, astra.AppReady)
	policy, err := f.client.CreateAppSchedule(ctx, app.ID, astra.AppScheduleFields{Name: "differential", Granularity: "daily",
		Minute: "5", Hour: "2", SnapshotRetention: "3", BackupRetention: "2", BucketID: bucket.ID})
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := f.framework.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var out []readBase
	for _, o := range []struct{ typeName, id string }{
		{"astra_cluster", f.clusterID}, {"astra_kubeconfig_credential", f.credID},
		{"astra_cloud", f.cloudID}, {"astra_managed_cluster", f.clusterID},
		{"astra_s3_credential", s3.ID}, {"astra_service_account_credential", sa.ID}, {"astra_bucket", bucket.ID},
		{"astra_protection_policy", app.ID + "/" + policy.ID},
	} {
		typ := schemas.ResourceSchemas[o.typeName].ValueType()
		imported, err := f.framework.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{TypeName: o.typeName, ID: o.id})
		if err != nil || len(imported.Diagnostics) > 0 || len(imported.ImportedResources) != 1 {
			t.Fatalf("import %s: %v %s", o.typeName, err, testutil.DiagnosticsText(imported.Diagnostics))
		}
		read := f.frameworkRead(t, &tfprotov6.ReadResourceRequest{TypeName: o.typeName, CurrentState: imported.ImportedResources[0].State,
			CurrentIdentity: imported.ImportedResources[0].Identity, Private: imported.ImportedResources[0].Private})
		// A second read, as the next plan's refresh: the import's key is gone.
		read = f.frameworkRead(t, &tfprotov6.ReadResourceRequest{TypeName: o.typeName, CurrentState: read.NewState,
			CurrentIdentity: read.NewIdentity, Private: read.Private})
		state, err := read.NewState.Unmarshal(typ)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, readBase{typeName: o.typeName, typ: typ, state: state, identity: read.NewIdentity, private: read.Private})
	}
	return out
}

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

// round sends one random plan of every resource type and one random read.
func (g *requestGen) round(t *testing.T, bases []readBase, counts map[string]int) {
	t.Helper()
	ctx := context.Background()
	schemas := g.f.schemas
	for _, typeName := range sortedKeys(schemas.ResourceSchemas) {
		req, kind := g.plan(typeName, schemas.ResourceSchemas[typeName])
		got, want, shortcut, err := served(ctx, req, g.f.fast.KnownPlan, g.f.fast.Framework().PlanResourceChange, g.f.framework.PlanResourceChange)
		if err != nil {
			t.Fatalf("seed %d: %s plan: %v", g.seed, typeName, err)
		}
		counts[typeName+"/"+kind+"/"+taken(shortcut)]++
		if d := planDiff(schemas.ResourceSchemas[typeName].ValueType(), g.identityType(typeName), got, want); d != "" {
			t.Errorf("seed %d: %s %s plan (shortcut %v) differs from the framework's: %s\nrequest: %s", g.seed, typeName, kind, shortcut, d, describePlan(req, schemas.ResourceSchemas[typeName].ValueType()))
		}
	}
	g.upgradeRound(t, counts)
	g.applyRound(t, counts)
	base := bases[g.Rand.Intn(len(bases))]
	req, expect := g.read(base)
	got, want, shortcut, err := served(ctx, req, g.f.fast.UnchangedRead, g.f.fast.Framework().ReadResource, g.f.framework.ReadResource)
	if err != nil {
		t.Fatalf("seed %d: %s read: %v", g.seed, base.typeName, err)
	}
	counts[base.typeName+"/read/"+taken(shortcut)]++
	if expect && !shortcut {
		t.Errorf("seed %d: %s: an unchanged read did not take the known answer", g.seed, base.typeName)
	}
	if d := readDiff(base.typ, g.identityType(base.typeName), got, want); d != "" {
		t.Errorf("seed %d: %s read (shortcut %v) differs from the framework's: %s", g.seed, base.typeName, shortcut, d)
	}
}

// served is what the wrapper serves for req (its known answer, or else the framework's it
// wraps, as its own method does) and what the bare framework answers; shortcut tells
// whether the known answer served.
func served[Req, Resp any](ctx context.Context, req Req, known func(context.Context, Req) *Resp,
	framework, bare func(context.Context, Req) (*Resp, error)) (got, want *Resp, shortcut bool, err error) {
	got = known(ctx, req)
	shortcut = got != nil
	var err1 error
	if !shortcut {
		got, err1 = framework(ctx, req)
	}
	want, err2 := bare(ctx, req)
	return got, want, shortcut, errors.Join(err1, err2)
}

func taken(shortcut bool) string {
	if shortcut {
		return "shortcut"
	}
	return "framework"
}

// plan is a random plan of a create, an unchanged resource, or an update.
func (g *requestGen) plan(typeName string, s *tfprotov6.Schema) (*tfprotov6.PlanResourceChangeRequest, string) {
	typ := s.ValueType()
	req := &tfprotov6.PlanResourceChangeRequest{TypeName: typeName, PriorPrivate: g.private()}
	if g.Rand.Intn(10) == 0 {
		req.ClientCapabilities = &tfprotov6.PlanResourceChangeClientCapabilities{DeferralAllowed: true}
	}
	kind := []string{"create", "create", "unchanged", "unchanged", "update"}[g.Rand.Intn(5)]
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
	return req, kind
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
}

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

// private is a random private state: none, empty, keys of the provider and the framework,
// empty values, and now and then one the framework refuses.
func (g *requestGen) private() []byte {
	switch g.Rand.Intn(6) {
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
	}
	return []byte(`{"b":"` + base64.StdEncoding.EncodeToString([]byte(`[1,2]`)) + `","a":"` + base64.StdEncoding.EncodeToString([]byte(`{"z":1,"y":2}`)) + `"}`)
}

// read is a random read of a base object, and whether the known answer must take it: the
// state as recorded, an identity naming it or none, the recorded private state.
func (g *requestGen) read(base readBase) (*tfprotov6.ReadResourceRequest, bool) {
	req := &tfprotov6.ReadResourceRequest{TypeName: base.typeName}
	expect := true
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

// answer is what a plan or a read answers besides the replacements, for answerDiff.
type answer struct {
	state    *tfprotov6.DynamicValue
	identity *tfprotov6.ResourceIdentityData
	private  []byte
	diags    []*tfprotov6.Diagnostic
	deferred bool
}

// answerDiff compares two answers as values (state, identity, private state, diagnostics
// without correlation IDs, deferral): the differences, none when alike.
func answerDiff(typ, identity tftypes.Type, got, want answer) []string {
	var out []string
	if d := valueDiff(typ, got.state, want.state); d != "" {
		out = append(out, "state: "+d)
	}
	if d := identityDiffAs(identity, got.identity, want.identity); d != "" {
		out = append(out, "identity: "+d)
	}
	if !samePrivate(got.private, want.private) {
		out = append(out, fmt.Sprintf("private: %q, want %q", got.private, want.private))
	}
	if a, b := diagnosticsWithPaths(got.diags), diagnosticsWithPaths(want.diags); a != b {
		out = append(out, fmt.Sprintf("diagnostics: %q, want %q", a, b))
	}
	if got.deferred != want.deferred {
		out = append(out, "deferred differs")
	}
	return out
}

// diagnosticsWithPaths is comparableDiagnostics with each one's severity and attribute path.
func diagnosticsWithPaths(diags []*tfprotov6.Diagnostic) string {
	var out strings.Builder
	for _, d := range diags {
		at := "-"
		if d.Attribute != nil {
			at = d.Attribute.String()
		}
		fmt.Fprintf(&out, "%s at %s: %s", d.Severity, at, comparableDiagnostics([]*tfprotov6.Diagnostic{d}))
	}
	return out.String()
}

// planDiff compares two plans as values: "" when alike. A plan the framework refuses is
// only its diagnostics: the CLI stops there, and the framework's planned state is then
// whatever it had reached (it plans attributes in map order and stops at the first error).
func planDiff(typ, identity tftypes.Type, got, want *tfprotov6.PlanResourceChangeResponse) string {
	of := func(r *tfprotov6.PlanResourceChangeResponse) answer {
		if hasError(want.Diagnostics) {
			return answer{diags: r.Diagnostics}
		}
		return answer{r.PlannedState, r.PlannedIdentity, r.PlannedPrivate, r.Diagnostics, r.Deferred != nil}
	}
	out := answerDiff(typ, identity, of(got), of(want))
	if a, b := pathsText(got.RequiresReplace), pathsText(want.RequiresReplace); a != b && !hasError(want.Diagnostics) {
		out = append(out, fmt.Sprintf("replace: %s, want %s", a, b))
	}
	return strings.Join(out, "; ")
}

// readDiff compares two reads as values: "" when alike.
func readDiff(typ, identity tftypes.Type, got, want *tfprotov6.ReadResourceResponse) string {
	of := func(r *tfprotov6.ReadResourceResponse) answer {
		return answer{r.NewState, r.NewIdentity, r.Private, r.Diagnostics, r.Deferred != nil}
	}
	return strings.Join(answerDiff(typ, identity, of(got), of(want)), "; ")
}

func pathsText(paths []*tftypes.AttributePath) string {
	var out []string
	for _, p := range paths {
		out = append(out, p.String())
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

func describePlan(req *tfprotov6.PlanResourceChangeRequest, typ tftypes.Type) string {
	prior, _ := req.PriorState.Unmarshal(typ)
	config, _ := req.Config.Unmarshal(typ)
	proposed, _ := req.ProposedNewState.Unmarshal(typ)
	return fmt.Sprintf("prior %s\nconfig %s\nproposed %s\nprivate %q", prior, config, proposed, req.PriorPrivate)
}

// correlationID is the part of an API error that differs between two identical requests.
var correlationID = regexp.MustCompile(`\[correlation ID [^\]]*\]`)

// comparableDiagnostics is the diagnostics' text without the service's correlation IDs:
// the two servers send the same request twice, and each answer has its own.
func comparableDiagnostics(diags []*tfprotov6.Diagnostic) string {
	return correlationID.ReplaceAllString(testutil.DiagnosticsText(diags), "[correlation ID]")
}

// stringAttribute is the known string attribute name of an object, "" if there is none.
func stringAttribute(object tftypes.Value, name string) string {
	var attrs map[string]tftypes.Value
	var s string
	if object.IsNull() || !object.IsKnown() || object.As(&attrs) != nil || attrs[name].As(&s) != nil {
		return ""
	}
	return s
}

// identityAttributes are the string attributes of object the identity type names.
func identityAttributes(identity tftypes.Type, object tftypes.Value) map[string]string {
	out := map[string]string{}
	if typ, ok := identity.(tftypes.Object); ok {
		for name := range typ.AttributeTypes {
			out[name] = stringAttribute(object, name)
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
