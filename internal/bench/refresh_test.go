package bench

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
	"github.com/astra-control/terraform-provider-astra/internal/bench/floor"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
	astraprovider "github.com/astra-control/terraform-provider-astra/internal/provider"
	"github.com/astra-control/terraform-provider-astra/internal/testutil"
)

// refreshFixture is what one astra_cluster of a `plan` costs the provider, call by call as
// the CLI makes them: UpgradeResourceState of the stored JSON, ValidateResourceConfig,
// ReadResource and PlanResourceChange. Driven in process, without gRPC or the CLI, so the
// figures are the provider's own and repeatable.
type refreshFixture struct {
	server   tfprotov6.ProviderServer
	typ      tftypes.Type
	rawState []byte
	identity *tfprotov6.ResourceIdentityData
	private  []byte
	version  int64
	state    *tfprotov6.DynamicValue
	config   *tfprotov6.DynamicValue
	proposed *tfprotov6.DynamicValue
	sim      *astrasim.Sim
}

// BenchmarkClusterRefresh measures one cluster's refresh and plan with the provider, with the
// same provider served by the framework alone (no known answers), and with the same-schema
// floor (the same schema, plan modifiers and validators, no API and no resource code), on
// the same state; `make bench` prints the three.
func BenchmarkClusterRefresh(b *testing.B) {
	c := testutil.NewSimCluster(b, "refresh")
	sim, cloudID, credID, clusterID := c.Sim, c.CloudID, c.CredentialID, c.ClusterID
	ours := newRefreshFixture(b, knownanswers.NewServer(astraprovider.New("bench")()), nil, cloudID, credID, clusterID)
	ours.sim = sim
	cases := []struct {
		name    string
		fixture *refreshFixture
	}{
		{"astra", ours},
		// The same provider served by the framework alone, without its known answers.
		{"astra-framework-alone", newRefreshFixture(b, providerserver.NewProtocol6WithError(astraprovider.New("bench")()), nil, cloudID, credID, clusterID)},
		{"same-schema-floor", newRefreshFixture(b, providerserver.NewProtocol6WithError(floor.SameSchema()), ours, cloudID, credID, clusterID)},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			sim.ResetCounts()
			b.ReportAllocs()
			for b.Loop() {
				c.fixture.refresh(b)
			}
			b.ReportMetric(float64(requests(sim))/float64(b.N), "requests/op")
		})
	}
}

// newRefreshFixture configures the provider and brings the cluster into a state: by import
// and read for the provider, or by taking the provider's state for the floor.
func newRefreshFixture(b *testing.B, newServer func() (tfprotov6.ProviderServer, error), stateFrom *refreshFixture, cloudID, credID, id string) *refreshFixture {
	b.Helper()
	ctx := context.Background()
	server, err := newServer()
	if err != nil {
		b.Fatal(err)
	}
	schemas, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || len(schemas.Diagnostics) > 0 {
		b.Fatalf("schema: %v %v", err, schemas.Diagnostics)
	}
	providerConfig := must(tfprotov6.NewDynamicValue(schemas.Provider.ValueType(), testutil.NullObject(schemas.Provider.ValueType(), nil)))
	if resp, err := server.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: &providerConfig}); err != nil || len(resp.Diagnostics) > 0 {
		b.Fatalf("configure: %v %v", err, resp.Diagnostics)
	}
	resourceSchema := schemas.ResourceSchemas["astra_cluster"]
	f := &refreshFixture{server: server, typ: resourceSchema.ValueType(), version: resourceSchema.Version}
	if stateFrom != nil {
		f.state, f.rawState = stateFrom.state, stateFrom.rawState // the floor has no identity
	} else {
		imported, err := server.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{TypeName: "astra_cluster", ID: id})
		if err != nil || len(imported.Diagnostics) > 0 || len(imported.ImportedResources) != 1 {
			b.Fatalf("import: %v %v", err, imported.Diagnostics)
		}
		read, err := server.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: "astra_cluster", CurrentState: imported.ImportedResources[0].State})
		if err != nil || len(read.Diagnostics) > 0 {
			b.Fatalf("read: %v %s", err, testutil.DiagnosticsText(read.Diagnostics))
		}
		f.state, f.identity, f.private = read.NewState, read.NewIdentity, read.Private
		f.rawState = testutil.StateJSON(b, must(f.state.Unmarshal(f.typ)))
	}
	configValue := testutil.NullObject(f.typ, map[string]tftypes.Value{
		"cloud_id":      tftypes.NewValue(tftypes.String, cloudID),
		"credential_id": tftypes.NewValue(tftypes.String, credID),
	})
	f.config = ptr(must(tfprotov6.NewDynamicValue(f.typ, configValue)))
	f.proposed = ptr(must(tfprotov6.NewDynamicValue(f.typ, testutil.ProposedNewState(b, resourceSchema, must(f.state.Unmarshal(f.typ)), configValue))))
	f.refresh(b) // fail early, before timing
	return f
}

func (f *refreshFixture) refresh(b *testing.B) {
	ctx := context.Background()
	up, err := f.server.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{
		TypeName: "astra_cluster", Version: f.version, RawState: &tfprotov6.RawState{JSON: f.rawState}})
	if err != nil || len(up.Diagnostics) > 0 {
		b.Fatalf("upgrade: %v %s: %s", err, up.Diagnostics[0].Summary, up.Diagnostics[0].Detail)
	}
	v, err := f.server.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: "astra_cluster", Config: f.config})
	if err != nil || len(v.Diagnostics) > 0 {
		b.Fatalf("validate: %v %v", err, v.Diagnostics)
	}
	read, err := f.server.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: "astra_cluster", CurrentState: up.UpgradedState, CurrentIdentity: f.identity, Private: f.private})
	if err != nil || len(read.Diagnostics) > 0 {
		b.Fatalf("read: %v %s", err, testutil.DiagnosticsText(read.Diagnostics))
	}
	plan, err := f.server.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: "astra_cluster",
		PriorState: read.NewState, PriorIdentity: read.NewIdentity, ProposedNewState: f.proposed, Config: f.config})
	if err != nil || len(plan.Diagnostics) > 0 || len(plan.RequiresReplace) > 0 {
		b.Fatalf("plan: %v %s replace %v", err, testutil.DiagnosticsText(plan.Diagnostics), plan.RequiresReplace)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(fmt.Sprintf("refresh fixture: %v", err))
	}
	return v
}

func ptr[T any](v T) *T { return &v }
