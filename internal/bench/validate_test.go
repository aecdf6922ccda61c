package bench

import (
	"context"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
	astraprovider "github.com/astra-control/terraform-provider-astra/internal/provider"
	"github.com/astra-control/terraform-provider-astra/internal/testutil"
)

// BenchmarkValidateFleetConfig measures ValidateResourceConfig of each of one fleet
// member's configurations as a steady plan sends them (a kubeconfig credential, a labelled cluster,
// its management; fleetbench's fleet) through the known answers and through the framework
// alone, alternately in the same loop so that both see the same machine. It reports each
// path's time and allocations per validation and the ratio of the times (known/framework),
// and fails if a known validation fell back to the framework or either path reported
// anything.
func BenchmarkValidateFleetConfig(b *testing.B) {
	b.Setenv(knownanswers.SwitchVariable, "on")
	ctx := context.Background()
	p := astraprovider.New("bench")()
	counting, ok := p.(knownanswers.CountingProvider)
	if !ok {
		b.Fatal("the provider does not count its known answers")
	}
	known := must(knownanswers.NewServer(p)())
	framework := must(providerserver.NewProtocol6WithError(astraprovider.New("bench")())())
	schemas := must(known.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{}))
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	labels := tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{"team": str("team-3"), "env": str("prod"), "tier": str("gold")})
	configs := map[string]map[string]tftypes.Value{
		"astra_kubeconfig_credential": {"name": str("fleet-3"),
			"kubeconfig": str(string(astrasim.TestKubeconfig("fleet-3", "https://fleet-3.k8s.example:6443")))},
		"astra_cluster": {"cloud_id": str("0e3c6a39-6bd1-4d6e-9b59-3f6a4a5e2b11"),
			"credential_id": str("5b2d7f0a-1c3e-4f5a-8b9c-0d1e2f3a4b5c"), "labels": labels},
		"astra_managed_cluster": {"cluster_id": str("7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f")},
	}
	var requests []*tfprotov6.ValidateResourceConfigRequest
	for _, typeName := range []string{"astra_kubeconfig_credential", "astra_cluster", "astra_managed_cluster"} {
		typ := schemas.ResourceSchemas[typeName].ValueType()
		config := must(tfprotov6.NewDynamicValue(typ, testutil.NullObject(typ, configs[typeName])))
		requests = append(requests, &tfprotov6.ValidateResourceConfigRequest{TypeName: typeName, Config: &config,
			ClientCapabilities: &tfprotov6.ValidateResourceConfigClientCapabilities{WriteOnlyAttributesAllowed: true}})
	}
	validate := func(server tfprotov6.ProviderServer, req *tfprotov6.ValidateResourceConfigRequest) time.Duration {
		start := time.Now()
		resp, err := server.ValidateResourceConfig(ctx, req)
		took := time.Since(start)
		if err != nil || len(resp.Diagnostics) > 0 {
			b.Fatalf("%s: %v %s", req.TypeName, err, testutil.DiagnosticsText(resp.Diagnostics))
		}
		return took
	}
	for _, req := range requests {
		b.Run(req.TypeName, func(b *testing.B) {
			var knownTime, frameworkTime time.Duration
			b.ReportAllocs()
			for b.Loop() {
				before := counting.AnswerCounts().Get("validate " + req.TypeName)
				knownTime += validate(known, req)
				if counting.AnswerCounts().Get("validate "+req.TypeName) != before+1 {
					b.Fatalf("%s: the known answers left the validation to the framework", req.TypeName)
				}
				frameworkTime += validate(framework, req)
			}
			b.ReportMetric(float64(knownTime.Nanoseconds())/float64(b.N), "known-ns/validation")
			b.ReportMetric(float64(frameworkTime.Nanoseconds())/float64(b.N), "framework-ns/validation")
			b.ReportMetric(float64(knownTime)/float64(frameworkTime), "known/framework")
			for name, server := range map[string]tfprotov6.ProviderServer{"known": known, "framework": framework} {
				b.ReportMetric(testing.AllocsPerRun(20, func() { validate(server, req) }), name+"-allocs/validation")
			}
		})
	}
}
