package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// futureMembers are what a newer Astra Control could hold on an object: members no
// published release has, of several JSON shapes.
var futureMembers = map[string]json.RawMessage{
	"futureField":  json.RawMessage(`{"tier":"gold","replicas":3,"zones":["a","b"]}`),
	"futureSwitch": json.RawMessage(`true`),
}

// roundTripHCL is a credential, a cluster added with it and the cluster under management;
// each argument that varies is one the provider updates in place.
func roundTripHCL(a *accTarget, credName, stage, storageClass string) string {
	return a.config(fmt.Sprintf(`
resource "astra_kubeconfig_credential" "rt" {
  name       = %q
  kubeconfig = %q
}

resource "astra_cluster" "rt" {
  cloud_id      = %q
  credential_id = astra_kubeconfig_credential.rt.id
  labels        = { stage = %q }
}

data "astra_storage_classes" "rt" {
  cluster_id = astra_cluster.rt.id
}

resource "astra_managed_cluster" "rt" {
  cluster_id            = astra_cluster.rt.id
  default_storage_class = one([for sc in data.astra_storage_classes.rt.storage_classes : sc.id if sc.name == %q])
}
`, credName, string(a.kubeconfig("roundtrip")), a.cloudID(), stage, storageClass))
}

// TestAccRoundTrip_releases: against each simulator release (lenient, as a newer server),
// with the matching api_version, the members the provider does not know that an object
// carries survive every update the provider makes to it, byte for byte, as stored by the
// simulator: one apply updates the credential, the cluster and the managed cluster (one PUT
// each; the last two write the same object through its two facets).
func TestAccRoundTrip_releases(t *testing.T) {
	for _, tc := range []struct{ release, apiVersion string }{
		{"22.11", "1.3"},
		{"23.07", "1.5"},
		{"24.02", "1.7"},
	} {
		t.Run(tc.release, func(t *testing.T) {
			a := newAccTarget(t, withSim(func(o *astrasim.Options) {
				o.Release, o.Lenient = tc.release, true
			}), withAPIVersion(tc.apiVersion))
			a.requireSim("members no release has are written into the simulator")
			var credID, clusterID string
			var counts countDelta
			kept := func(ids ...*string) resource.TestCheckFunc {
				return func(*terraform.State) error {
					for _, id := range ids {
						got, err := a.sim.UnknownMembers(*id)
						if err != nil {
							return err
						}
						if err := sameMembers(got, futureMembers); err != nil {
							return fmt.Errorf("object %s: %w", *id, err)
						}
					}
					return nil
				}
			}
			a.test(resource.TestCase{
				Steps: []resource.TestStep{
					{
						Config: roundTripHCL(a, "rt-one", "one", "ontap-silver"),
						Check: resource.ComposeAggregateTestCheckFunc(
							recordID("astra_kubeconfig_credential.rt", &credID), recordID("astra_cluster.rt", &clusterID),
						),
					},
					{
						PreConfig: func() {
							for _, id := range []string{credID, clusterID} {
								for name, v := range futureMembers {
									if err := a.sim.SetUnknownMember(id, name, v); err != nil {
										t.Fatal(err)
									}
								}
							}
							a.markCounts(&counts)
						},
						Config: roundTripHCL(a, "rt-two", "two", "ontap-gold"),
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction("astra_kubeconfig_credential.rt", plancheck.ResourceActionUpdate),
							plancheck.ExpectResourceAction("astra_cluster.rt", plancheck.ResourceActionUpdate),
							plancheck.ExpectResourceAction("astra_managed_cluster.rt", plancheck.ResourceActionUpdate),
						}},
						Check: resource.ComposeAggregateTestCheckFunc(
							a.simCheck("one PUT of the credential, one of the cluster, one of the managed cluster", func(sim *astrasim.Sim) error {
								return expectCounts(counts.since(sim, "PUT "+routeCredential), 1, counts.since(sim, putCloudCluster), 1,
									counts.since(sim, "PUT "+routeManagedCluster), 1)
							}),
							kept(&credID, &clusterID),
						),
					},
				},
			})
		})
	}
}

// sameMembers compares stored members with want byte for byte (both compact JSON: the
// simulator keeps a member as it was sent, compacted).
func sameMembers(got, want map[string]json.RawMessage) error {
	if len(got) != len(want) {
		return fmt.Errorf("the simulator holds %d unknown members, want %d: %s", len(got), len(want), membersText(got))
	}
	for name, w := range want {
		if !bytes.Equal(got[name], w) {
			return fmt.Errorf("member %s is %s, want %s", name, got[name], w)
		}
	}
	return nil
}

func membersText(m map[string]json.RawMessage) string {
	b, _ := json.Marshal(m)
	return string(b)
}
