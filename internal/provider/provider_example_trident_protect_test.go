package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// exampleFiles is the text of the named files of examples/dir, joined.
func exampleFiles(t *testing.T, dir string, files ...string) string {
	t.Helper()
	var b strings.Builder
	for _, f := range files {
		raw, err := os.ReadFile(filepath.Join("..", "..", "examples", dir, f))
		if err != nil {
			t.Fatal(err)
		}
		b.Write(raw)
		b.WriteString("\n")
	}
	return b.String()
}

// TestAccExampleMoveToTridentProtect applies examples/complete, then
// examples/move-to-trident-protect beside it (as it ships, through the CLI) on the complete
// example's managed cluster: the outputs hold the rendering, its Secrets and its one
// warning (the hourly policy names no bucket), which the example's check block reports.
// The YAML it outputs is then split as examples/move-to-trident-protect/kubernetes does
// (its locals, evaluated without the Kubernetes provider), giving back every manifest.
func TestAccExampleMoveToTridentProtect(t *testing.T) {
	h := newCLIHarness(t, astrasim.Options{Release: "24.02"}, "  api_version = \"1.7\"\n")
	complete := exampleFiles(t, "complete", "main.tf", "variables.tf", "outputs.tf")
	kubeconfig := "-var=kubeconfig_path=" + writeKubeconfig(t, "complete", "https://complete.k8s.example:6443")
	h.write(complete)
	if r := h.apply(kubeconfig); r.err != nil {
		t.Fatalf("applying examples/complete: %v\n%s", r.err, r.out)
	}
	clusterID := strings.TrimSpace(h.run(testContext(), "output", "-raw", "cluster_id").out)
	h.write(complete + exampleFiles(t, "move-to-trident-protect", "main.tf", "variables.tf", "outputs.tf"))
	r := h.apply(kubeconfig, "-var=cluster_id="+clusterID)
	if r.err != nil {
		t.Fatalf("applying the example: %v\n%s", r.err, r.out)
	}
	expectOutput(t, "the apply", r, `Warning: Trident protect: protection policy "hourly"`,
		"Part of Astra Control's protection does not carry over as it is: read the output trident_protect_warnings.")

	var out struct {
		Objects  struct{ Value map[string]map[string]any } `json:"trident_protect_objects"`
		Secrets  struct{ Value map[string]map[string]any } `json:"trident_protect_secrets"`
		Warnings struct{ Value []string }                  `json:"trident_protect_warnings"`
		YAML     struct{ Value string }                    `json:"trident_protect_yaml"`
		Release  struct{ Value string }                    `json:"trident_protect_release"`
	}
	raw := h.run(testContext(), "output", "-json").out
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		t.Fatalf("output -json: %v\n%s", err, raw)
	}
	var keys []string
	for k := range out.Objects.Value {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	wantKeys := []string{"AppVault.trident-protect.complete-example-backups", "Application.default.complete-example",
		"Schedule.default.complete-example-daily", "Schedule.default.complete-example-hourly"}
	if fmt.Sprint(keys) != fmt.Sprint(wantKeys) {
		t.Errorf("objects %v, want %v", keys, wantKeys)
	}
	if spec, _ := out.Objects.Value["Schedule.default.complete-example-daily"]["spec"].(map[string]any); spec["appVaultRef"] != "complete-example-backups" ||
		spec["granularity"] != "Daily" || spec["hour"] != "2" || spec["backupRetention"] != "7" {
		t.Errorf("the daily Schedule: %v", spec)
	}
	if s := out.Secrets.Value["complete-example-backups-credentials"]; s["namespace"] != "trident-protect" || s["credential"] != "complete-example-backups" {
		t.Errorf("secrets %v", out.Secrets.Value)
	}
	if len(out.Warnings.Value) != 1 || !strings.HasPrefix(out.Warnings.Value[0], `protection policy "hourly"`) || out.Release.Value == "" {
		t.Errorf("warnings %v, release %q", out.Warnings.Value, out.Release.Value)
	}
	if strings.Contains(raw, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY") {
		t.Error("the outputs hold the bucket's secret access key")
	}
	got := splitAsKubernetesExample(t, h.cli, out.YAML.Value)
	if fmt.Sprint(got) != fmt.Sprint(wantKeys) {
		t.Errorf("the kubernetes/ configuration splits the YAML into %v, want %v", got, wantKeys)
	}
}

// kubernetesLocals is the locals block of examples/move-to-trident-protect/kubernetes/main.tf.
var kubernetesLocals = regexp.MustCompile(`(?ms)^locals \{\n.*?^\}\n`)

// splitAsKubernetesExample evaluates the locals of the kubernetes/ configuration (which
// split the YAML file into manifests) on yaml, with the CLI alone, and returns the keys of
// the manifests it applies: first the AppVaults and Applications, then the others.
func splitAsKubernetesExample(t *testing.T, cli, yaml string) []string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "move-to-trident-protect", "kubernetes", "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	locals := kubernetesLocals.Find(src)
	if locals == nil {
		t.Fatal("kubernetes/main.tf has no locals block")
	}
	dir := t.TempDir()
	config := `variable "manifests_file" { default = "trident-protect.yaml" }` + "\n" + string(locals) +
		`output "keys" { value = concat(sort(keys(local.trident_protect_first)), sort(keys(local.trident_protect_then))) }` + "\n"
	for name, text := range map[string]string{"main.tf": config, "trident-protect.yaml": yaml} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var keys []string
	for _, args := range [][]string{{"init", "-input=false", "-no-color"}, {"apply", "-auto-approve", "-input=false", "-no-color"}, {"output", "-json", "keys"}} {
		cmd := exec.CommandContext(ctx, cli, args...)
		cmd.Dir, cmd.Env = dir, append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %v: %v\n%s", cli, args, err, out)
		}
		if args[0] == "output" {
			if err := json.Unmarshal(out, &keys); err != nil {
				t.Fatalf("output: %v\n%s", err, out)
			}
		}
	}
	return keys
}
