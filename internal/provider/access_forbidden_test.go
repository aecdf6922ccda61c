package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccAccess_viewerToken403: a run with a viewer's token reads (the data source works)
// but every write is refused with a message naming the role it lacks: member for a hook
// source, admin for a user; nothing is created.
func TestAccAccess_viewerToken403(t *testing.T) {
	viewer := "astra-sim-viewer-" + randomHex(8)
	a := newAccTarget(t, centerRelease(), withSim(func(o *astrasim.Options) {
		o.Tokens = map[string]astrasim.Role{astrasim.DefaultToken: astrasim.RoleOwner, viewer: astrasim.RoleViewer}
	}))
	a.requireSim("runs with a viewer's token")
	a.providerHCL = strings.Replace(a.providerHCL, astrasim.DefaultToken, viewer, 1)
	reads := `data "astra_users" "all" {}` + "\n"
	a.test(resource.TestCase{
		Steps: []resource.TestStep{
			{Config: a.config(reads), Check: resource.TestCheckResourceAttrSet("data.astra_users.all", "users.0.id")},
			{
				Config: a.config(reads + `resource "astra_hook_source" "x" {
  name   = "viewer-cannot"
  source = "#!/bin/sh\n"
}`),
				ExpectError: errorPhrases("Cannot create the hook source", "Astra Control refused this request (403): POST",
					`/core/v1/hookSources needs the "member" role (or a more privileged one), which the user of the provider's API token`,
					`a user with the "viewer" role may not do it`),
			},
			{
				Config: a.config(reads + fmt.Sprintf(`resource "astra_user" "x" {
  email = "viewer-cannot-%s@example.com"
}`, randomHex(4))),
				ExpectError: errorPhrases("Cannot create the user", `/core/v1/users needs the "admin" role`, `a user with the "viewer" or "member" role may not do it`),
			},
		},
	})
	if n := a.sim.Count("POST", routeUsers) + a.sim.Count("POST", routeHookSources); n != 2 {
		t.Errorf("%d refused POSTs, want 2", n)
	}
}

// TestAccAccess_constrainedMemberPlanTime: a member whose binding covers only the
// namespaces labelled team=payments is shown only those, so an app in another namespace is
// refused at plan, saying the namespace may lie outside the token's scope; nothing is managed.
func TestAccAccess_constrainedMemberPlanTime(t *testing.T) {
	member := "astra-sim-member-" + randomHex(8)
	a := newAccTarget(t, centerRelease(), withSim(func(o *astrasim.Options) {
		o.Tokens = map[string]astrasim.Role{astrasim.DefaultToken: astrasim.RoleOwner, member: astrasim.RoleMember}
		o.TokenConstraints = map[string][]string{member: {astra.NamespaceLabelConstraint("team=payments")}}
	}))
	a.requireSim("runs with a constrained member's token")
	clusterID := onlyID(t, seedClusters(a, "constrained", 1, true))
	a.providerHCL = strings.Replace(a.providerHCL, astrasim.DefaultToken, member, 1)
	a.test(resource.TestCase{
		Steps: []resource.TestStep{{
			Config: a.config(fmt.Sprintf(`resource "astra_app" "other_team" {
  name                       = "not-payments"
  cluster_id                 = %q
  namespace_scoped_resources = [{ namespace = "default" }]
}`, clusterID)),
			ExpectError: errorPhrases("Unknown namespace", `has no namespace "default"`,
				"Astra Control lists only the namespaces the provider's token may see", "limited to some namespaces (role constraints)"),
		}},
	})
	apps, err := a.client.ListApps(testContext(), astra.ListOptions{})
	if err != nil || len(apps) != 0 {
		t.Errorf("the refused app was managed: %v (%v)", apps, err)
	}
}
