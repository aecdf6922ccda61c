package knownanswers_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
	"github.com/astra-control/terraform-provider-astra/internal/provider"
	"github.com/astra-control/terraform-provider-astra/internal/testutil"
)

// The tests of this file and the others of package knownanswers_test serve the provider's
// real resources (internal/provider) against the simulator, through the known answers and
// through the bare framework, and compare.

// identityType is the identity of every resource but the protection policy: { id }.
var identityType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String}}

// missingCredential is the error of a cluster without a credential_id, which its plan checks report.
const missingCredential = "Missing credential_id"

// answersFixture is one registered cluster, the provider served with the shortcuts and the
// same provider served by the framework alone, both configured for the simulator, and the
// cluster's state as the framework read it.
type answersFixture struct {
	registered *testutil.SimCluster
	sim        *astrasim.Sim
	client     *astra.Client
	fast       *knownanswers.Server
	framework  tfprotov6.ProviderServer
	schema     *tfprotov6.Schema
	schemas    *tfprotov6.GetProviderSchemaResponse
	typ        tftypes.Type
	clusterID  string
	cloudID    string
	credID     string
	state      tftypes.Value
	identity   *tfprotov6.ResourceIdentityData
	private    []byte
}

func newAnswersFixture(t *testing.T) *answersFixture {
	t.Helper()
	ctx := context.Background()
	testutil.ClearAstraEnvironment(t)
	c := testutil.NewSimCluster(t, "answers")
	f := &answersFixture{registered: c, sim: c.Sim, client: c.Client, cloudID: c.CloudID, credID: c.CredentialID, clusterID: c.ClusterID}
	t.Setenv("ASTRA_READ_MAX_AGE", "0s") // every read asks the service, so a change is seen at once

	f.fast = knownServer(t, provider.New("test")())
	// tf6server over the known answers (grpc_path_test.go) logs every request at TRACE unless told.
	t.Setenv("TF_LOG_SDK_PROTO", "OFF")
	t.Setenv("TF_LOG_SDK", "OFF")
	var err error
	if f.framework, err = providerserver.NewProtocol6WithError(provider.New("test")())(); err != nil {
		t.Fatal(err)
	}
	for _, s := range []tfprotov6.ProviderServer{f.fast, f.framework} {
		schemas, err := s.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
		if err != nil || len(schemas.Diagnostics) > 0 {
			t.Fatalf("schema: %v %s", err, testutil.DiagnosticsText(schemas.Diagnostics))
		}
		f.schemas, f.schema, f.typ = schemas, schemas.ResourceSchemas["astra_cluster"], schemas.ResourceSchemas["astra_cluster"].ValueType()
		config, err := tfprotov6.NewDynamicValue(schemas.Provider.ValueType(), testutil.NullObject(schemas.Provider.ValueType(), nil))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := s.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: &config})
		if err != nil || len(resp.Diagnostics) > 0 {
			t.Fatalf("configure: %v %s", err, testutil.DiagnosticsText(resp.Diagnostics))
		}
	}
	imported, err := f.framework.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{TypeName: "astra_cluster", ID: f.clusterID})
	if err != nil || len(imported.Diagnostics) > 0 || len(imported.ImportedResources) != 1 {
		t.Fatalf("import: %v %s", err, testutil.DiagnosticsText(imported.Diagnostics))
	}
	read := f.frameworkRead(t, &tfprotov6.ReadResourceRequest{TypeName: "astra_cluster", CurrentState: imported.ImportedResources[0].State,
		CurrentIdentity: imported.ImportedResources[0].Identity})
	f.identity, f.private = read.NewIdentity, read.Private
	if f.state, err = read.NewState.Unmarshal(f.typ); err != nil {
		t.Fatal(err)
	}
	return f
}

// knownServer serves p with the known answers, whatever the developer's environment says.
func knownServer(t *testing.T, p fwprovider.Provider) *knownanswers.Server {
	t.Helper()
	t.Setenv(knownanswers.SwitchVariable, "")
	server, err := knownanswers.NewServer(p)()
	if err != nil {
		t.Fatal(err)
	}
	known, ok := server.(*knownanswers.Server)
	if !ok {
		t.Fatalf("NewServer served %T, not the known answers", server)
	}
	return known
}

func (f *answersFixture) frameworkRead(t *testing.T, req *tfprotov6.ReadResourceRequest) *tfprotov6.ReadResourceResponse {
	t.Helper()
	resp, err := f.framework.ReadResource(context.Background(), req)
	if err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("read: %v %s", err, testutil.DiagnosticsText(resp.Diagnostics))
	}
	return resp
}

func (f *answersFixture) dynamic(t *testing.T, v tftypes.Value) *tfprotov6.DynamicValue {
	t.Helper()
	dv, err := tfprotov6.NewDynamicValue(f.typ, v)
	if err != nil {
		t.Fatal(err)
	}
	return &dv
}

// providerConfig is an empty provider block (the environment points at the simulator).
func (f *answersFixture) providerConfig(t *testing.T) *tfprotov6.DynamicValue {
	t.Helper()
	typ := f.schemas.Provider.ValueType()
	dv, err := tfprotov6.NewDynamicValue(typ, testutil.NullObject(typ, nil))
	if err != nil {
		t.Fatal(err)
	}
	return &dv
}

// config is the configuration of the fixture's cluster: its cloud and credential.
func (f *answersFixture) config() tftypes.Value {
	return testutil.NullObject(f.typ, map[string]tftypes.Value{
		"cloud_id":      tftypes.NewValue(tftypes.String, f.cloudID),
		"credential_id": tftypes.NewValue(tftypes.String, f.credID),
	})
}

// TestKnownAnswers_unchangedRead proves the read shortcut answers exactly what the
// framework answers when it applies, and leaves every other read to the framework: an
// object changed on the service, a state changed since it was recorded, a record another
// release wrote, no identity (older CLIs), no record.
func TestKnownAnswers_unchangedRead(t *testing.T) {
	f := newAnswersFixture(t)
	ctx := context.Background()
	if _, ok := knownanswers.RecordedSeal(f.private); !ok {
		t.Fatalf("the framework's read recorded no answer in private state %q", f.private)
	}
	// The private state a known read answers holds the seal of its bytes: the next read
	// of the same bytes is matched on them.
	first := f.fast.UnchangedRead(ctx, &tfprotov6.ReadResourceRequest{TypeName: "astra_cluster", CurrentState: f.dynamic(t, f.state),
		CurrentIdentity: f.identity, Private: f.private})
	if first == nil {
		t.Fatal("the first read took no known answer")
	}
	relabeled := testutil.WithAttributes(t, f.state, map[string]tftypes.Value{
		"labels": tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{"team": tftypes.NewValue(tftypes.String, "a")}),
	})
	cases := []struct {
		name      string
		req       *tfprotov6.ReadResourceRequest
		change    func(t *testing.T) // on the service, before the read
		shortcuts bool
		byBytes   bool // matched on the bytes
		// frameworkFails is the error the framework reports instead of reading.
		frameworkFails string
	}{
		{name: "unchanged", shortcuts: true,
			req: &tfprotov6.ReadResourceRequest{CurrentState: f.dynamic(t, f.state), CurrentIdentity: f.identity, Private: f.private}},
		{name: "state changed since recorded",
			req: &tfprotov6.ReadResourceRequest{CurrentState: f.dynamic(t, relabeled), CurrentIdentity: f.identity, Private: f.private}},
		{name: "no identity (older CLIs)", shortcuts: true,
			req: &tfprotov6.ReadResourceRequest{CurrentState: f.dynamic(t, f.state), Private: f.private}},
		{name: "a null identity", shortcuts: true,
			req: &tfprotov6.ReadResourceRequest{CurrentState: f.dynamic(t, f.state), Private: f.private, CurrentIdentity: f.nullIdentity(t)}},
		{name: "an identity naming another ID", frameworkFails: "Unexpected Identity Change",
			req: &tfprotov6.ReadResourceRequest{CurrentState: f.dynamic(t, f.state), Private: f.private, CurrentIdentity: f.identityOf(t, "7b4e2a3c-1d2e-4f5a-8b6c-0d1e2f3a4b5c")}},
		{name: "recorded by another release",
			req: &tfprotov6.ReadResourceRequest{CurrentState: f.dynamic(t, f.state), CurrentIdentity: f.identity,
				Private: f.sealedBy(t, "vcs:0000000")}},
		// The control of the case above: the same seal made by this build is taken.
		{name: "sealed again by this build", shortcuts: true,
			req: &tfprotov6.ReadResourceRequest{CurrentState: f.dynamic(t, f.state), CurrentIdentity: f.identity,
				Private: f.sealedBy(t, "")}},
		{name: "no record",
			req: &tfprotov6.ReadResourceRequest{CurrentState: f.dynamic(t, f.state), CurrentIdentity: f.identity}},
		{name: "the bytes of the last known read", shortcuts: true, byBytes: true,
			req: &tfprotov6.ReadResourceRequest{CurrentState: f.dynamic(t, f.state), CurrentIdentity: f.identity, Private: first.Private}},
		{name: "the bytes of the last known read, no identity", shortcuts: true, byBytes: true,
			req: &tfprotov6.ReadResourceRequest{CurrentState: f.dynamic(t, f.state), Private: first.Private}},
		{name: "the bytes of the last known read, a null identity", shortcuts: true, byBytes: true,
			req: &tfprotov6.ReadResourceRequest{CurrentState: f.dynamic(t, f.state), Private: first.Private, CurrentIdentity: f.nullIdentity(t)}},
		// The identity's ID is what a read by bytes fetches: another one is not matched.
		{name: "the bytes of the last known read, an identity naming another ID", frameworkFails: "Unexpected Identity Change",
			req: &tfprotov6.ReadResourceRequest{CurrentState: f.dynamic(t, f.state), Private: first.Private, CurrentIdentity: f.identityOf(t, f.otherClusterID(t))}},
		{name: "the bytes of the last known read, another state", shortcuts: false,
			req: &tfprotov6.ReadResourceRequest{CurrentState: f.dynamic(t, relabeled), CurrentIdentity: f.identity, Private: first.Private}},
		{name: "object changed on the service",
			req: &tfprotov6.ReadResourceRequest{CurrentState: f.dynamic(t, f.state), CurrentIdentity: f.identity, Private: f.private},
			change: func(t *testing.T) {
				c, err := f.client.GetCluster(ctx, f.cloudID, f.clusterID)
				if err != nil {
					t.Fatal(err)
				}
				c.Metadata.Labels = append(c.Metadata.Labels, astra.Label{Name: "changed", Value: "outside"})
				if _, err := f.client.UpdateCluster(ctx, f.cloudID, c); err != nil {
					t.Fatal(err)
				}
			}},
		// After the case above: the answer's bytes are no longer those sealed.
		{name: "the bytes of the last known read, object changed on the service",
			req: &tfprotov6.ReadResourceRequest{CurrentState: f.dynamic(t, f.state), CurrentIdentity: f.identity, Private: first.Private}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.req.TypeName = "astra_cluster"
			if c.change != nil {
				c.change(t)
			}
			byBytes := f.fast.Count("read by bytes astra_cluster")
			got := f.fast.UnchangedRead(ctx, c.req)
			if (got != nil) != c.shortcuts {
				t.Fatalf("shortcut taken: %v, want %v", got != nil, c.shortcuts)
			}
			if matched := f.fast.Count("read by bytes astra_cluster") > byBytes; matched != c.byBytes {
				t.Fatalf("matched on the bytes: %v, want %v", matched, c.byBytes)
			}
			if c.frameworkFails != "" {
				want, err := f.framework.ReadResource(ctx, c.req)
				if err != nil || !strings.Contains(testutil.DiagnosticsText(want.Diagnostics), c.frameworkFails) {
					t.Fatalf("the framework's read: %v %q, want %q", err, testutil.DiagnosticsText(want.Diagnostics), c.frameworkFails)
				}
				return
			}
			want := f.frameworkRead(t, c.req)
			if got == nil {
				// The wrapper passes it on: its answer is the framework's.
				served, err := f.fast.ReadResource(ctx, c.req)
				if err != nil || len(served.Diagnostics) > 0 {
					t.Fatalf("read: %v %s", err, testutil.DiagnosticsText(served.Diagnostics))
				}
				got = served
			}
			if d := readDiff(f.typ, identityType, got, want); d != "" {
				t.Errorf("the read differs from the framework's: %s", d)
			}
		})
	}
}

// TestKnownAnswers_unchangedPlan proves the plan shortcut answers exactly what the
// framework answers for a plan that proposes the prior state, and leaves to the framework
// the plans it cannot answer: a default that changes a value, a proposed change, an
// argument the resource's plan checks refuse, no identity.
func TestKnownAnswers_unchangedPlan(t *testing.T) {
	f := newAnswersFixture(t)
	noWait := testutil.WithAttributes(t, f.state, map[string]tftypes.Value{"wait_for_running": tftypes.NewValue(tftypes.Bool, false)})
	renamed := testutil.WithAttributes(t, f.state, map[string]tftypes.Value{"name": tftypes.NewValue(tftypes.String, "renamed")})
	noCredential := testutil.WithAttributes(t, f.state, map[string]tftypes.Value{"credential_id": tftypes.NewValue(tftypes.String, nil)})
	cases := []struct {
		name             string
		prior, proposed  tftypes.Value
		config           tftypes.Value
		identity         *tfprotov6.ResourceIdentityData
		shortcuts        bool
		frameworkRefuses string
	}{
		{name: "unchanged", prior: f.state, proposed: f.state, config: f.config(), identity: f.identity, shortcuts: true},
		{name: "a default changes a value", prior: noWait, proposed: noWait, config: f.config(), identity: f.identity},
		{name: "a proposed change", prior: f.state, proposed: renamed, config: f.config(), identity: f.identity},
		{name: "no identity (older CLIs)", prior: f.state, proposed: f.state, config: f.config(), shortcuts: true},
		{name: "the plan checks refuse", prior: noCredential, proposed: noCredential, identity: f.identity,
			config:           testutil.WithAttributes(t, f.config(), map[string]tftypes.Value{"credential_id": tftypes.NewValue(tftypes.String, nil)}),
			frameworkRefuses: missingCredential},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := &tfprotov6.PlanResourceChangeRequest{TypeName: "astra_cluster", PriorState: f.dynamic(t, c.prior),
				ProposedNewState: f.dynamic(t, c.proposed), Config: f.dynamic(t, c.config), PriorIdentity: c.identity, PriorPrivate: f.private}
			f.checkPlan(t, req, c.shortcuts, c.frameworkRefuses)
		})
	}
}

// checkPlan asserts whether the plan shortcut takes req, and that what the wrapper serves
// is the framework's plan; refuses is an error the framework must report instead.
func (f *answersFixture) checkPlan(t *testing.T, req *tfprotov6.PlanResourceChangeRequest, shortcuts bool, refuses string) {
	t.Helper()
	ctx := context.Background()
	got := f.fast.KnownPlan(ctx, req)
	if (got != nil) != shortcuts {
		t.Fatalf("shortcut taken: %v, want %v", got != nil, shortcuts)
	}
	want, err := f.framework.PlanResourceChange(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if refuses != "" {
		if !strings.Contains(testutil.DiagnosticsText(want.Diagnostics), refuses) {
			t.Fatalf("the framework's plan says %q, want %q", testutil.DiagnosticsText(want.Diagnostics), refuses)
		}
	} else if len(want.Diagnostics) > 0 {
		t.Fatalf("plan: %s", testutil.DiagnosticsText(want.Diagnostics))
	}
	if got == nil { // the wrapper passes it on
		if got, err = f.fast.PlanResourceChange(ctx, req); err != nil {
			t.Fatal(err)
		}
	}
	if d := planDiff(f.typ, identityType, got, want); d != "" {
		t.Errorf("the plan differs from the framework's: %s", d)
	}
}

// nullIdentity is the identity a CLI sends before it knows one.
func (f *answersFixture) nullIdentity(t *testing.T) *tfprotov6.ResourceIdentityData {
	t.Helper()
	dv, err := tfprotov6.NewDynamicValue(identityType, tftypes.NewValue(identityType, nil))
	if err != nil {
		t.Fatal(err)
	}
	return &tfprotov6.ResourceIdentityData{IdentityData: &dv}
}

// identityOf is the identity { id }.
func (f *answersFixture) identityOf(t *testing.T, id string) *tfprotov6.ResourceIdentityData {
	t.Helper()
	dv, err := tfprotov6.NewDynamicValue(identityType, tftypes.NewValue(identityType, map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, id)}))
	if err != nil {
		t.Fatal(err)
	}
	return &tfprotov6.ResourceIdentityData{IdentityData: &dv}
}

// sealedBy is the fixture's private state with its answer record sealed by build ("" for
// this one): the cluster as the service answers it now, and the fixture's state.
func (f *answersFixture) sealedBy(t *testing.T, build string) []byte {
	t.Helper()
	var keys map[string][]byte
	if err := json.Unmarshal(f.private, &keys); err != nil {
		t.Fatal(err)
	}
	if _, ok := knownanswers.RecordedSeal(f.private); !ok {
		t.Fatalf("no answer record in %q", f.private)
	}
	c, err := f.client.GetCluster(context.Background(), f.cloudID, f.clusterID)
	if err != nil {
		t.Fatal(err)
	}
	seal, ok := knownanswers.Seal(build, f.clusterID, c, f.state)
	if !ok {
		t.Fatal("no digest of the cluster")
	}
	if keys[knownanswers.AnswerKey], err = json.Marshal(seal); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(keys)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestKnownAnswers_readAfterCreate proves the state a create writes is the state a read of the
// same answer writes, so the first plan after an apply can take the read shortcut and
// answers as the framework does.
func TestKnownAnswers_readAfterCreate(t *testing.T) {
	f := newAnswersFixture(t)
	ctx := context.Background()
	credID, err := f.registered.NewCredential("created")
	if err != nil {
		t.Fatal(err)
	}
	config := testutil.WithAttributes(t, f.config(), map[string]tftypes.Value{"credential_id": tftypes.NewValue(tftypes.String, credID)})
	planned, err := f.fast.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: "astra_cluster",
		PriorState: f.dynamic(t, tftypes.NewValue(f.typ, nil)), ProposedNewState: f.dynamic(t, config), Config: f.dynamic(t, config)})
	if err != nil || len(planned.Diagnostics) > 0 {
		t.Fatalf("plan: %v %s", err, testutil.DiagnosticsText(planned.Diagnostics))
	}
	created, err := f.fast.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{TypeName: "astra_cluster",
		PriorState: f.dynamic(t, tftypes.NewValue(f.typ, nil)), PlannedState: planned.PlannedState, Config: f.dynamic(t, config),
		PlannedPrivate: planned.PlannedPrivate, PlannedIdentity: planned.PlannedIdentity})
	if err != nil || len(created.Diagnostics) > 0 {
		t.Fatalf("create: %v %s", err, testutil.DiagnosticsText(created.Diagnostics))
	}
	req := &tfprotov6.ReadResourceRequest{TypeName: "astra_cluster", CurrentState: created.NewState,
		CurrentIdentity: created.NewIdentity, Private: created.Private}
	got := f.fast.UnchangedRead(ctx, req)
	if got == nil {
		t.Fatalf("the read after create did not take the shortcut (private state %q)", created.Private)
	}
	if d := readDiff(f.typ, identityType, got, f.frameworkRead(t, req)); d != "" {
		t.Errorf("the read differs from the framework's: %s", d)
	}
}

// TestKnownAnswers_createPlan proves the plan of a create answered without the
// framework is the framework's, whatever the configuration leaves out or leaves unknown,
// and that a configuration the resource's plan checks refuse goes to the framework.
func TestKnownAnswers_createPlan(t *testing.T) {
	f := newAnswersFixture(t)
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	timeoutsType := f.typ.(tftypes.Object).AttributeTypes["timeouts"].(tftypes.Object)
	full := testutil.WithAttributes(t, f.config(), map[string]tftypes.Value{
		"name":             str("full"),
		"labels":           tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{"team": str("a")}),
		"wait_for_running": tftypes.NewValue(tftypes.Bool, false),
		"timeouts":         testutil.NullObject(timeoutsType, map[string]tftypes.Value{"create": str("5m")}),
	})
	cases := []struct {
		name             string
		config           tftypes.Value
		identity         *tfprotov6.ResourceIdentityData
		shortcuts        bool
		frameworkRefuses string
	}{
		{name: "cloud and credential", config: f.config(), shortcuts: true},
		{name: "every argument", config: full, shortcuts: true},
		{name: "a null prior identity", config: f.config(), identity: f.nullIdentity(t), shortcuts: true},
		{name: "a credential known at apply", shortcuts: true, config: testutil.WithAttributes(t, f.config(),
			map[string]tftypes.Value{"credential_id": tftypes.NewValue(tftypes.String, tftypes.UnknownValue)})},
		{name: "the plan checks refuse", frameworkRefuses: missingCredential, config: testutil.WithAttributes(t, f.config(),
			map[string]tftypes.Value{"credential_id": tftypes.NewValue(tftypes.String, nil)})},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := &tfprotov6.PlanResourceChangeRequest{TypeName: "astra_cluster", PriorState: f.dynamic(t, tftypes.NewValue(f.typ, nil)),
				ProposedNewState: f.dynamic(t, c.config), Config: f.dynamic(t, c.config), PriorIdentity: c.identity}
			f.checkPlan(t, req, c.shortcuts, c.frameworkRefuses)
		})
	}
}

// TestKnownAnswers_planChecksOnBothPaths: a resource's plan checks report the same on the
// framework's path as on the known answers' (which hand any report to the framework): a
// protection policy naming a bucket Astra Control does not have is refused at plan time,
// by the bare framework and through the known answers.
func TestKnownAnswers_planChecksOnBothPaths(t *testing.T) {
	f := newAnswersFixture(t)
	ctx := context.Background()
	const typeName = "astra_protection_policy"
	typ := f.schemas.ResourceSchemas[typeName].ValueType()
	config := testutil.NullObject(typ, map[string]tftypes.Value{
		"app_id":      tftypes.NewValue(tftypes.String, "7b4e2a3c-1d2e-4f5a-8b6c-0d1e2f3a4b5c"),
		"name":        tftypes.NewValue(tftypes.String, "daily"),
		"granularity": tftypes.NewValue(tftypes.String, "daily"),
		"bucket_id":   tftypes.NewValue(tftypes.String, "0f4e2a3c-1d2e-4f5a-8b6c-0d1e2f3a4b5c"),
	})
	req := &tfprotov6.PlanResourceChangeRequest{TypeName: typeName, PriorState: dynamic(typ, tftypes.NewValue(typ, nil)),
		Config: dynamic(typ, config), ProposedNewState: dynamic(typ, config)}
	for name, server := range map[string]tfprotov6.ProviderServer{"the bare framework": f.framework, "the known answers": f.fast} {
		resp, err := server.PlanResourceChange(ctx, req)
		if err != nil || !strings.Contains(testutil.DiagnosticsText(resp.Diagnostics), "Unknown bucket") {
			t.Errorf("%s: the plan says %v %q, want the unknown bucket refused", name, err, testutil.DiagnosticsText(resp.Diagnostics))
		}
	}
}

// serverPrivateKey is the kubeconfig credential's private key of its API server's digest.
const serverPrivateKey = "kubeconfig_server"

// serverDigest is what the kubeconfig credential notes in private state of the API server
// it last sent (a JSON string).
func serverDigest(server string) []byte {
	sum := sha256.Sum256([]byte(server))
	b, _ := json.Marshal(hex.EncodeToString(sum[:]))
	return b
}

// TestKnownAnswers_privateStateReachesPlanChecks: a kubeconfig credential that sends its
// kubeconfig write-only remembers its API server in private state only; a plan that gives
// it a kubeconfig for another server, while a cluster uses it, warns, also when the plan
// proposes the prior state, which the known plans would answer: they give the plan checks
// the prior private state, and hand the warning to the framework.
func TestKnownAnswers_privateStateReachesPlanChecks(t *testing.T) {
	f := newAnswersFixture(t)
	ctx := context.Background()
	const typeName = "astra_kubeconfig_credential"
	typ := f.schemas.ResourceSchemas[typeName].ValueType()
	imported, err := f.framework.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{TypeName: typeName, ID: f.credID})
	if err != nil || len(imported.ImportedResources) != 1 {
		t.Fatalf("import: %v %s", err, testutil.DiagnosticsText(imported.Diagnostics))
	}
	read := f.frameworkRead(t, &tfprotov6.ReadResourceRequest{TypeName: typeName, CurrentState: imported.ImportedResources[0].State,
		CurrentIdentity: imported.ImportedResources[0].Identity})
	prior, err := read.NewState.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	// The fixture's credential was sent with testutil.NewSimCluster's kubeconfig.
	private := withExtraKey(read.Private, serverPrivateKey, string(serverDigest("https://answers.k8s.example:6443")))
	other := tftypes.NewValue(tftypes.String, string(astrasim.TestKubeconfig("other", "https://other.k8s.example:6443")))
	config := testutil.WithAttributes(t, testutil.NullObject(typ, nil), map[string]tftypes.Value{
		"name": stringValue(prior, "name"), "kubeconfig_wo": other})
	req := &tfprotov6.PlanResourceChangeRequest{TypeName: typeName, PriorState: read.NewState, Config: dynamic(typ, config),
		ProposedNewState: dynamic(typ, proposedNewState(f.schemas.ResourceSchemas[typeName], prior, config)),
		PriorIdentity:    read.NewIdentity, PriorPrivate: private}
	const warning = "Rotated kubeconfig points at another API server"
	want, err := f.framework.PlanResourceChange(ctx, req)
	if err != nil || !strings.Contains(testutil.DiagnosticsText(want.Diagnostics), warning) {
		t.Fatalf("the framework's plan says %v %q, want the rotation warned about", err, testutil.DiagnosticsText(want.Diagnostics))
	}
	got, err := f.fast.PlanResourceChange(ctx, req)
	if err != nil || !strings.Contains(testutil.DiagnosticsText(got.Diagnostics), warning) {
		t.Fatalf("the known answers' plan says %v %q, want the rotation warned about", err, testutil.DiagnosticsText(got.Diagnostics))
	}
	if d := planDiff(typ, identityType, got, want); d != "" {
		t.Errorf("the plan differs from the framework's: %s", d)
	}
}

// stringValue is the attribute name of object.
func stringValue(object tftypes.Value, name string) tftypes.Value {
	return tftypes.NewValue(tftypes.String, stringAttribute(object, name))
}

// TestKnownAnswers_unreachableClustersWarnOnEveryRefresh: a cluster or managed cluster the
// service reports failed or removed warns on every refresh, not only on the first: its Read
// records no answer for the known reads to take (issue 32, defect a).
func TestKnownAnswers_unreachableClustersWarnOnEveryRefresh(t *testing.T) {
	f := newAnswersFixture(t)
	ctx := context.Background()
	for _, state := range []string{"failed", "removed"} {
		id := f.unreachableCluster(t, "unreachable-"+state, state)
		for _, typeName := range []string{"astra_cluster", "astra_managed_cluster"} {
			t.Run(typeName+" "+state, func(t *testing.T) {
				warning := "Cluster is " + state + " in Astra Control"
				imported, err := f.framework.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{TypeName: typeName, ID: id})
				if err != nil || len(imported.ImportedResources) != 1 {
					t.Fatalf("import: %v %s", err, testutil.DiagnosticsText(imported.Diagnostics))
				}
				req := &tfprotov6.ReadResourceRequest{TypeName: typeName, CurrentState: imported.ImportedResources[0].State,
					CurrentIdentity: imported.ImportedResources[0].Identity, Private: imported.ImportedResources[0].Private}
				for refresh := 1; refresh <= 3; refresh++ {
					resp, err := f.fast.ReadResource(ctx, req)
					if err != nil || !strings.Contains(testutil.DiagnosticsText(resp.Diagnostics), warning) {
						t.Fatalf("refresh %d: %v %q, want the warning %q", refresh, err, testutil.DiagnosticsText(resp.Diagnostics), warning)
					}
					req = &tfprotov6.ReadResourceRequest{TypeName: typeName, CurrentState: resp.NewState, CurrentIdentity: resp.NewIdentity, Private: resp.Private}
				}
			})
		}
	}
}

// TestKnownAnswers_frameworkReadSealsBytes: the framework's read, through the layer, notes
// the seal of its bytes (the state as the CLI encodes it back, the answer as fetched), so
// the read after it is matched on its bytes; with the state as the library encodes it
// (maps in Go's order) it may not be, and is then decoded and answered all the same.
func TestKnownAnswers_frameworkReadSealsBytes(t *testing.T) {
	f := newAnswersFixture(t)
	ctx := context.Background()
	read, err := f.fast.FrameworkRead(ctx, &tfprotov6.ReadResourceRequest{TypeName: "astra_cluster", CurrentState: f.dynamic(t, f.state),
		CurrentIdentity: f.identity})
	if err != nil || len(read.Diagnostics) > 0 {
		t.Fatalf("read: %v %s", err, testutil.DiagnosticsText(read.Diagnostics))
	}
	var keys map[string][]byte
	if err := json.Unmarshal(read.Private, &keys); err != nil || keys[knownanswers.AnswerBytesKey] == nil {
		t.Fatalf("the framework's read noted no seal of its bytes: %q", read.Private)
	}
	state, err := read.NewState.Unmarshal(f.typ)
	if err != nil {
		t.Fatal(err)
	}
	sent, ok := knownanswers.CLIMsgPack(state)
	if !ok {
		t.Fatalf("%s not encoded", state)
	}
	before := f.fast.Count("read by bytes astra_cluster")
	next := f.fast.UnchangedRead(ctx, &tfprotov6.ReadResourceRequest{TypeName: "astra_cluster", CurrentState: &tfprotov6.DynamicValue{MsgPack: sent},
		CurrentIdentity: read.NewIdentity, Private: read.Private})
	if next == nil || f.fast.Count("read by bytes astra_cluster") != before+1 {
		t.Fatalf("the next read was not matched on its bytes (answered: %v)", next != nil)
	}
	if !bytes.Equal(next.NewState.MsgPack, sent) || !samePrivate(next.Private, read.Private) {
		t.Errorf("the next read answered %x %q, want the state and private state it was sent", next.NewState.MsgPack, next.Private)
	}
}

// otherClusterID registers another cluster on the fixture's simulator: an ID a read can
// fetch, of another object.
func (f *answersFixture) otherClusterID(t *testing.T) string {
	t.Helper()
	cred, err := f.registered.NewCredential("answers-other")
	if err != nil {
		t.Fatal(err)
	}
	cluster, err := f.client.CreateCluster(context.Background(), f.cloudID, astra.ClusterCreate{CredentialID: cred})
	if err != nil {
		t.Fatal(err)
	}
	return cluster.ID
}
