package provider

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"sigs.k8s.io/yaml"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
	"github.com/astra-control/terraform-provider-astra/internal/provider/config"
)

// TestAccLogsKeepSecrets runs the private-cluster workflow (credential, cluster, managed
// cluster, then destroy) beside an S3 and a service-account credential, with every log at
// TRACE, Terraform's and the provider's alike, and searches all of it for the secrets the
// run handled: the API token, the kubeconfig (its user's token or key, and the whole of it
// as the base64 the API receives), the S3 secret and the service account's private key
// (as written and as base64). Against a
// real Astra Control these are the environment's token and ASTRA_TEST_KUBECONFIG.
func TestAccLogsKeepSecrets(t *testing.T) {
	logsKeepSecrets(t, nil, nil)
}

// TestAccLogsKeepSecretsUnderFaults is the same run with faults on every write route, so
// the error paths run too (they log and report answers' bodies and URLs): a 429 on the
// credential's POST, 503s on the cluster's reads, a lost answer on the cluster's POST (then
// the search), and a 502 on the managed cluster's POST, whose unknown outcome fails the
// first apply; the second apply converges.
func TestAccLogsKeepSecretsUnderFaults(t *testing.T) {
	faults := []astrasim.Fault{
		{Method: "POST", Route: routeCredentials, Kind: astrasim.FaultTooManyRequests, Times: 1, RetryAfter: time.Second},
		{Method: "GET", Route: routeClusterByID, Kind: astrasim.FaultUnavailable, Times: 2},
		{Method: "POST", Route: routeClusters, Kind: astrasim.FaultLostAnswer, Times: 1},
		{Method: "POST", Route: routeManagedClusters, Kind: astrasim.FaultBadGateway, Times: 1},
	}
	logsKeepSecrets(t, faults, errorPhrases("Outcome of creating the managed cluster", "is unknown", "502"))
}

func logsKeepSecrets(t *testing.T, faults []astrasim.Fault, firstApplyFails *regexp.Regexp) {
	dir := t.TempDir()
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_LOG_PATH_MASK", filepath.Join(dir, "%s.log"))
	a := newAccTarget(t, serial())
	if len(faults) > 0 {
		a.requireSim("injects faults")
	}
	token, kubeYAML := os.Getenv(config.EnvAPIToken), a.kubeconfig("logs")
	if a.simulated() {
		// The token comes from the environment, as in real use: the test harness itself logs
		// the HCL of every step, which would otherwise carry it.
		tokenLine := fmt.Sprintf("  api_token  = %q\n", astrasim.DefaultToken)
		if !strings.Contains(a.providerHCL, tokenLine) {
			t.Fatal("the harness's provider block no longer sets api_token as this test expects")
		}
		a.providerHCL = strings.Replace(a.providerHCL, tokenLine, "", 1)
		token = astrasim.DefaultToken
		t.Setenv(config.EnvAPIToken, token)
		secret := "kubeconfig-token-" + randomHex(12)
		kubeYAML = bytes.Replace(kubeYAML, []byte("sim-fake-token-not-a-secret"), []byte(secret), 1)
		if !bytes.Contains(kubeYAML, []byte(secret)) {
			t.Fatal("the test kubeconfig no longer holds the fake token this test replaces")
		}
	}
	if firstApplyFails != nil {
		// The search after the 502 looks for one request_timeout before reporting.
		a.providerHCL = strings.Replace(a.providerHCL, "}\n", "  request_timeout = \"2s\"\n}\n", 1)
	}
	userSecrets := kubeconfigUserSecrets(t, kubeYAML)
	if len(userSecrets) == 0 || token == "" {
		t.Fatalf("nothing to search for: %d secrets in the kubeconfig's user, token set %v", len(userSecrets), token != "")
	}
	kubeJSON, err := yaml.YAMLToJSON(kubeYAML)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "kubeconfig.yaml")
	if err := os.WriteFile(path, kubeYAML, 0o600); err != nil {
		t.Fatal(err)
	}

	// The S3 secret and the service account's private key come from files too: the harness
	// logs each step's HCL.
	s3Secret, saKey := "s3-secret-"+randomHex(12), "sa-private-key-"+randomHex(12)
	saJSON := `{"type":"service_account","client_email":"logs@astra-test.iam.gserviceaccount.com","private_key":"` + saKey + `"}`
	s3Path, saPath := filepath.Join(t.TempDir(), "s3-secret"), filepath.Join(t.TempDir(), "sa.json")
	if err := os.WriteFile(s3Path, []byte(s3Secret), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(saPath, []byte(saJSON), 0o600); err != nil {
		t.Fatal(err)
	}
	hcl := a.config(`
resource "astra_s3_credential" "logs" {
  name              = "` + a.name("logs-s3") + `"
  access_key_id     = "AKIA-LOGS"
  secret_access_key = file("` + filepath.ToSlash(s3Path) + `")
}
resource "astra_service_account_credential" "logs" {
  name                 = "` + a.name("logs-sa") + `"
  cloud_type           = "gcp"
  service_account_json = file("` + filepath.ToSlash(saPath) + `")
}
resource "astra_kubeconfig_credential" "logs" {
  name       = "` + a.name("logs") + `"
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
	for _, f := range faults {
		a.sim.AddFault(f)
	}
	steps := []resource.TestStep{{Config: hcl}}
	if firstApplyFails != nil {
		steps = []resource.TestStep{{Config: hcl, ExpectError: firstApplyFails}, {Config: hcl}}
	}
	a.test(resource.TestCase{Steps: steps})
	for _, f := range faults {
		if n := a.sim.Fired(f.Method, f.Route, f.Kind); n != f.Times {
			t.Errorf("fault %s on %s %s fired %d times, want %d", f.Kind, f.Method, f.Route, n, f.Times)
		}
	}

	logs := readLogs(t, dir)
	// The logs must be real: the client's request lines are there.
	wantLogged := []string{"POST", "/core/v1/credentials", "/topology/v1/managedClusters", "astra_api", "astra_s3_credential", "astra_service_account_credential"}
	if len(faults) > 0 {
		wantLogged = append(wantLogged, "Astra API error answer", "Outcome of creating the managed cluster")
	}
	for _, want := range wantLogged {
		if !strings.Contains(logs, want) {
			t.Fatalf("the TRACE logs (%d bytes) have no %q: logging was not captured", len(logs), want)
		}
	}
	b64 := base64.StdEncoding.EncodeToString(kubeJSON)
	secrets := map[string]string{
		"the API token":                       token,
		"the kubeconfig as base64 (a prefix)": b64[:40],
		"an Authorization header":             "Bearer ",
		"the S3 secret access key":            s3Secret,
		"the S3 secret as base64":             base64.StdEncoding.EncodeToString([]byte(s3Secret)),
		"the service account's private key":   saKey,
		"the service account JSON as base64":  base64.StdEncoding.EncodeToString([]byte(saJSON))[:40],
	}
	for name, secret := range userSecrets {
		secrets["the kubeconfig user's "+name] = secret
	}
	for what, secret := range secrets {
		if i := strings.Index(logs, secret); i >= 0 {
			t.Errorf("%s appears in the logs: ...%s...", what, excerpt(logs, i))
		}
	}
}

// kubeconfigUserSecrets are the credentials of a kubeconfig's users (token, key, password).
func kubeconfigUserSecrets(t *testing.T, kubeYAML []byte) map[string]string {
	t.Helper()
	var doc struct {
		Users []struct {
			User map[string]any `json:"user"`
		} `json:"users"`
	}
	if err := yaml.Unmarshal(kubeYAML, &doc); err != nil {
		t.Fatalf("the test kubeconfig: %v", err)
	}
	out := map[string]string{}
	for _, u := range doc.Users {
		for _, key := range []string{"token", "client-key-data", "password"} {
			if v, ok := u.User[key].(string); ok && len(v) >= 8 {
				out[key] = v
			}
		}
	}
	return out
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
