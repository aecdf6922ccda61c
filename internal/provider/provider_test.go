package provider

import (
	"context"
	"fmt"
	"maps"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

func TestProviderMetadata(t *testing.T) {
	var resp provider.MetadataResponse
	New("1.2.3")().Metadata(context.Background(), provider.MetadataRequest{}, &resp)
	if resp.TypeName != "astra" || resp.Version != "1.2.3" {
		t.Fatalf("Metadata = (%q, %q), want (\"astra\", \"1.2.3\")", resp.TypeName, resp.Version)
	}
}

// The provider's schema must pass the framework's validation, as `providers schema -json`
// and tfplugindocs see it; test-only resources must never ship.
func TestProviderSchema(t *testing.T) {
	tests := []struct {
		name     string
		provider provider.Provider
		wantEcho bool
	}{
		{"shipped", New("test")(), false},
		{"with test resources", echoProvider(newEchoStore()), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			server, err := providerserver.NewProtocol6WithError(tt.provider)()
			if err != nil {
				t.Fatal(err)
			}
			resp, err := server.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range resp.Diagnostics {
				t.Errorf("diagnostic: %s: %s", d.Summary, d.Detail)
			}
			if resp.Provider == nil {
				t.Fatal("no provider schema")
			}
			if _, got := resp.ResourceSchemas["astra_acctest_echo"]; got != tt.wantEcho {
				t.Errorf("astra_acctest_echo served = %v, want %v", got, tt.wantEcho)
			}
		})
	}
}

func echoProvider(store *echoStore) provider.Provider {
	return providerWithResources{
		Provider: New("test")(),
		extra:    []func() fwresource.Resource{func() fwresource.Resource { return &echoResource{store: store} }},
	}
}

func echoConfig(value string) string {
	return fmt.Sprintf("resource \"astra_acctest_echo\" \"test\" {\n  value = %q\n}\n", value)
}

// storeHolds checks what the CLI really asked the provider to persist.
func storeHolds(store *echoStore, want map[string]string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got, _, _ := store.snapshot(); !maps.Equal(got, want) {
			return fmt.Errorf("store holds %v, want %v", got, want)
		}
		return nil
	}
}

// TestAccHarness proves the harness end to end: create, empty re-plan, import, in-place
// update and destroy, run by a real CLI against the provider served in-process.
func TestAccHarness(t *testing.T) {
	store := newEchoStore()
	const addr = "astra_acctest_echo.test"
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories(echoProvider(store)),
		CheckDestroy: func(*terraform.State) error {
			objects, creates, deletes := store.snapshot()
			if len(objects) != 0 || creates != 1 || deletes != 1 {
				return fmt.Errorf("after destroy: objects %v, %d creates, %d deletes; want none, 1, 1", objects, creates, deletes)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: echoConfig("one"),
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(addr, "id", "echo-1"),
					expectString(addr, "value", "one"),
				},
				Check: storeHolds(store, map[string]string{"echo-1": "one"}),
			},
			{
				Config: echoConfig("one"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateVerify: true,
			},
			{
				Config: echoConfig("two"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(addr, "id", "echo-1"),
					expectString(addr, "value", "two"),
				},
				Check: storeHolds(store, map[string]string{"echo-1": "two"}),
			},
		},
	})
}
