package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// Warnings are not visible to plugin-testing, so these tests run the CLI themselves and
// read its output (issue 25, cases 2 and 7).

// cliText is the CLI's output with the diagnostic box drawing and line wrapping removed,
// so a message can be compared whole.
func cliText(out string) string {
	out = strings.NewReplacer("│", " ", "╷", " ", "╵", " ").Replace(out)
	return strings.Join(strings.Fields(out), " ")
}

// expectOutput fails unless the output holds each text (whole, spaces normalised).
func expectOutput(t *testing.T, what string, r cliResult, texts ...string) {
	t.Helper()
	got := cliText(r.out)
	for _, text := range texts {
		if !strings.Contains(got, cliText(text)) {
			t.Errorf("%s: the output lacks %q:\n%s", what, text, r.out)
		}
	}
}

// plan runs `plan` with a bounded time.
func (h *cliHarness) plan() cliResult {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	return h.run(ctx, "plan", "-input=false", "-no-color")
}

// TestAccKubeconfigCredential_rotationToAnotherCluster: rotating a credential to the
// kubeconfig of another API server warns in the plan, naming the clusters that use it; after
// the apply, each refresh warns that the cluster is removed, with Astra Control's reason and
// the fix. Neither prints the kubeconfig.
func TestAccKubeconfigCredential_rotationToAnotherCluster(t *testing.T) {
	h := newCLIHarness(t, astrasim.Options{}, "")
	dir := t.TempDir()
	kube := func(name string) string {
		path := filepath.Join(dir, name+".yaml")
		if err := os.WriteFile(path, astrasim.TestKubeconfig(name, "https://"+name+".k8s.example:6443"), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	own, other := kube("rot-own"), kube("rot-other")
	cloud := h.sim().Seeds().PrivateCloudID
	hcl := func(path string) string {
		return credentialHCL("rot", path) + fmt.Sprintf(`
resource "astra_cluster" "test" {
  cloud_id      = %q
  name          = "rot-own"
  credential_id = astra_kubeconfig_credential.test.id
}
`, cloud)
	}
	h.write(hcl(own))
	if r := h.apply(); r.err != nil {
		t.Fatalf("apply: %v\n%s", r.err, r.out)
	}
	c, err := findSimCluster(h, cloud, "rot-own")
	if err != nil {
		t.Fatal(err)
	}

	h.write(hcl(other))
	r := h.plan()
	if r.err != nil {
		t.Fatalf("plan: %v\n%s", r.err, r.out)
	}
	expectOutput(t, "the plan of the rotation", r,
		"Warning: Rotated kubeconfig points at another API server",
		fmt.Sprintf(`The new kubeconfig of credential "rot" (%s) names another API server than the one it replaces. `+
			"Astra Control tells clusters apart by their API service ID: if the new kubeconfig belongs to another cluster, "+
			"every cluster using this credential goes `removed` after the apply. Clusters using it: "+
			`"rot-own" (%s, api_service_id %s).`, c.CredentialID, c.ID, c.APIServiceID),
		"If it is the same cluster at a new address, apply. Otherwise keep this credential's kubeconfig and add a "+
			"separate astra_kubeconfig_credential for the other cluster.")
	if r := h.apply(); r.err != nil {
		t.Fatalf("apply of the rotation: %v\n%s", r.err, r.out)
	}
	r = h.plan()
	expectOutput(t, "the refresh after the rotation", r,
		"Warning: Cluster is removed in Astra Control",
		fmt.Sprintf(`Astra Control reports the cluster "rot-own" (%s) as removed: The credential's kubeconfig belongs to a different cluster.`, c.ID),
		"Check that the credential's kubeconfig reaches this cluster's API server (for example "+
			"`kubectl --kubeconfig FILE get --raw /version`); rotate the astra_kubeconfig_credential to a working kubeconfig "+
			"for this cluster, or set the cluster's credential_id to one, and apply: Astra Control then collects it again.")
	if strings.Contains(r.out, "sim-fake-token-not-a-secret") || strings.Contains(r.out, "k8s.example") {
		t.Errorf("the output prints the kubeconfig:\n%s", r.out)
	}
	// Rotating back repairs it: the warning goes once the cluster runs again.
	h.write(hcl(own))
	if r := h.apply(); r.err != nil {
		t.Fatalf("apply of the repair: %v\n%s", r.err, r.out)
	}
	if r := h.plan(); strings.Contains(r.out, "Cluster is removed") {
		t.Errorf("the warning stays after the repair:\n%s", r.out)
	}
}

// TestAccCloud_replacementWithClustersWarns: renaming a cloud replaces it, which deletes its
// unmanaged clusters on the service side: the plan warns, naming them.
func TestAccCloud_replacementWithClustersWarns(t *testing.T) {
	h := newCLIHarness(t, astrasim.Options{}, "")
	h.write(cloudHCL("diag-cloud", "private"))
	if r := h.apply(); r.err != nil {
		t.Fatalf("apply: %v\n%s", r.err, r.out)
	}
	client := simClient(t, h)
	clouds, err := client.ListClouds(testContext(), astra.ListOptions{Filters: []astra.Filter{astra.Eq("name", "diag-cloud")}})
	if err != nil || len(clouds) != 1 {
		t.Fatalf("the cloud: %v %v", clouds, err)
	}
	cloudID := clouds[0].ID
	cred, err := astra.KubeconfigCredential("in-cloud", astrasim.TestKubeconfig("in-cloud", "https://in-cloud.k8s.example:6443"))
	if err != nil {
		t.Fatal(err)
	}
	credential, err := client.CreateCredential(testContext(), cred)
	if err != nil {
		t.Fatal(err)
	}
	cluster, err := client.CreateCluster(testContext(), cloudID, astra.ClusterCreate{Name: "in-cloud", CredentialID: credential.ID})
	if err != nil {
		t.Fatal(err)
	}
	h.write(cloudHCL("diag-cloud-renamed", "private"))
	r := h.plan()
	if r.err != nil {
		t.Fatalf("plan: %v\n%s", r.err, r.out)
	}
	expectOutput(t, "the plan of the rename", r,
		"Warning: Replacing the cloud removes its clusters",
		fmt.Sprintf(`Changing name replaces the cloud "diag-cloud" (%s): the apply deletes it and creates a new one, and Astra Control `+
			"deletes the unmanaged clusters of a cloud with it (and refuses while any is managed). It holds 1: "+
			`"in-cloud" (%s, managedState unmanaged).`, cloudID, cluster.ID),
		`To keep them, set name back to "diag-cloud".`)
	// An unchanged plan reads no clusters and warns nothing.
	h.write(cloudHCL("diag-cloud", "private"))
	if r := h.plan(); strings.Contains(r.out, "Warning") {
		t.Errorf("an unchanged plan warns:\n%s", r.out)
	}
}

// simClient is a client of the harness's simulator.
func simClient(t *testing.T, h *cliHarness) *astra.Client {
	t.Helper()
	c, err := astra.New(astra.Config{Endpoint: h.url, AccountID: h.sim().AccountID(), Token: astrasim.DefaultToken})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// findSimCluster finds a cluster by name through the API.
func findSimCluster(h *cliHarness, cloudID, name string) (*astra.Cluster, error) {
	return simClient(h.t, h).FindCluster(testContext(), cloudID, astra.ClusterMatch{Name: name})
}
