package knownanswers_test

import (
	"context"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/astra-control/terraform-provider-astra/internal/provider"
)

// TestRulesDerivedForTheTypesUsed: a provider process holds the rules of the resource
// types its CLI command uses, not of every type the provider has. Each kind of request
// derives its type's rules on first use, and once derived they answer as before (the
// other tests of the layer, which derive every type's).
func TestRulesDerivedForTheTypesUsed(t *testing.T) {
	ctx := context.Background()
	server := knownServer(t, provider.New("test")())
	if derived := server.Derived(); len(derived) != 0 {
		t.Fatalf("a new server derived the rules of %v before any request", derived)
	}
	steps := []struct {
		send func()
		want []string
	}{
		{func() {
			_, _ = server.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: "astra_cluster"})
		}, []string{"astra_cluster"}},
		{func() {
			_, _ = server.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{TypeName: "astra_managed_cluster",
				RawState: &tfprotov6.RawState{JSON: []byte(`{}`)}})
		}, []string{"astra_cluster", "astra_managed_cluster"}},
		{func() {
			_, _ = server.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: "astra_kubeconfig_credential"})
		}, []string{"astra_cluster", "astra_kubeconfig_credential", "astra_managed_cluster"}},
		{func() {
			_, _ = server.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: "astra_bucket"})
		}, []string{"astra_bucket", "astra_cluster", "astra_kubeconfig_credential", "astra_managed_cluster"}},
	}
	for i, step := range steps {
		step.send()
		if got := server.Derived(); !slices.Equal(got, step.want) {
			t.Errorf("after request %d, the rules of %v are derived; want %v", i+1, got, step.want)
		}
	}
	if all := len(server.Rules()) + len(server.Refused()); all <= len(steps[len(steps)-1].want) {
		t.Errorf("the provider has %d resource types; the test needs more than the %d it sends requests of", all, len(steps[len(steps)-1].want))
	}
}
