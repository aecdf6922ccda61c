package provider

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"sigs.k8s.io/yaml"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
	"github.com/astra-control/terraform-provider-astra/internal/provider/config"
)

// TestAccLogsKeepSecrets runs the private-cluster workflow (credential, cluster, managed
// cluster, then destroy) with every log at TRACE, Terraform's and the provider's alike, and
// searches all of it for the secrets the run handled: the API token and the kubeconfig,
// whole, as the JSON the API receives, or base64-encoded.
func TestAccLogsKeepSecrets(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_LOG_PATH_MASK", filepath.Join(dir, "%s.log"))
	a := newAccTarget(t, serial())
	a.requireSim("searches the logs for the simulator's API token")
	// The token comes from the environment, as in real use: the test harness itself logs
	// the HCL of every step, which would otherwise carry it.
	tokenLine := fmt.Sprintf("  api_token  = %q\n", astrasim.DefaultToken)
	if !strings.Contains(a.providerHCL, tokenLine) {
		t.Fatal("the harness's provider block no longer sets api_token as this test expects")
	}
	a.providerHCL = strings.Replace(a.providerHCL, tokenLine, "", 1)
	t.Setenv(config.EnvAPIToken, astrasim.DefaultToken)

	secret := "kubeconfig-token-" + randomHex(12)
	kubeYAML := bytes.Replace(astrasim.TestKubeconfig("logs", "https://logs.k8s.example:6443"),
		[]byte("sim-fake-token-not-a-secret"), []byte(secret), 1)
	if !bytes.Contains(kubeYAML, []byte(secret)) {
		t.Fatal("the test kubeconfig no longer holds the fake token this test replaces")
	}
	kubeJSON, err := yaml.YAMLToJSON(kubeYAML)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "kubeconfig.yaml")
	if err := os.WriteFile(path, kubeYAML, 0o600); err != nil {
		t.Fatal(err)
	}

	hcl := a.config(`
resource "astra_kubeconfig_credential" "logs" {
  name       = "logs"
  kubeconfig = file("` + filepath.ToSlash(path) + `")
}
resource "astra_cluster" "logs" {
  cloud_id      = "` + a.cloudID() + `"
  credential_id = astra_kubeconfig_credential.logs.id
}
resource "astra_managed_cluster" "logs" {
  cluster_id = astra_cluster.logs.id
}
`)
	a.test(resource.TestCase{Steps: []resource.TestStep{{Config: hcl}}})

	logs := readLogs(t, dir)
	// The logs must be real: the client's request lines are there.
	for _, want := range []string{"POST", "/core/v1/credentials", "/topology/v1/managedClusters", "astra_api"} {
		if !strings.Contains(logs, want) {
			t.Fatalf("the TRACE logs (%d bytes) have no %q: logging was not captured", len(logs), want)
		}
	}
	b64 := base64.StdEncoding.EncodeToString(kubeJSON)
	for what, secret := range map[string]string{
		"the API token":                       astrasim.DefaultToken,
		"the kubeconfig's token":              secret,
		"the kubeconfig as base64 (a prefix)": b64[:40],
		"an Authorization header":             "Bearer ",
	} {
		if i := strings.Index(logs, secret); i >= 0 {
			t.Errorf("%s appears in the logs: ...%s...", what, excerpt(logs, i))
		}
	}
}

func readLogs(t *testing.T, dir string) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.log"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no log files in %s (%v)", dir, err)
	}
	var all strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
	}
	return all.String()
}

// excerpt shows where a secret was found without printing the secret itself.
func excerpt(s string, i int) string {
	start := max(0, i-120)
	return strings.ReplaceAll(s[start:i], "\n", " ") + "<SECRET>"
}
