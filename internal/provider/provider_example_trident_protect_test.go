package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
	"github.com/astra-control/terraform-provider-astra/internal/tridentprotect/crdcheck"
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
	wantKeys := []string{"AppVault.trident-protect.complete-example-backups", "Application.default.complete-example-050d41",
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
	exampleAcceptedByCRDs(t, out.Objects.Value)

	// The app's scope changes in Astra Control: a label selector on its namespace. Astra
	// Control changes no app's scope in place, so the app is managed anew (another writer,
	// outside Terraform), with its policies. Rendered again (-refresh=false: the data source
	// is read, the vanished astra_app left alone), the Application has another name, so that
	// kubernetes/ replaces it; every resource that keeps its key is an update Trident
	// protect's CRDs accept.
	c := h.apiClient()
	apps, err := c.ListApps(testContext(), astra.ListOptions{})
	if err != nil || len(apps) != 1 {
		t.Fatalf("apps %v: %v", apps, err)
	}
	old := apps[0]
	policies, err := c.ListAppSchedules(testContext(), old.ID)
	if err != nil || len(policies) != 2 {
		t.Fatalf("policies %v: %v", policies, err)
	}
	if err := c.DeleteApp(testContext(), old.ID); err != nil {
		t.Fatal(err)
	}
	scope := old.NamespaceScopedResources
	scope[0].LabelSelectors = []string{"app.kubernetes.io/part-of=complete"}
	appID := seedTPApp(t, c, astra.AppCreate{Name: old.Name, ClusterID: old.ClusterID, NamespaceScopedResources: scope})
	for _, p := range policies {
		if _, err := c.CreateAppSchedule(testContext(), appID, astra.AppScheduleFields{Name: p.Name, Granularity: p.Granularity,
			Minute: p.Minute, Hour: p.Hour, DayOfWeek: p.DayOfWeek, DayOfMonth: p.DayOfMonth, SnapshotRetention: p.SnapshotRetention,
			BackupRetention: p.BackupRetention, BucketID: p.BucketID, Enabled: p.Enabled}); err != nil {
			t.Fatal(err)
		}
	}
	if r := h.apply(kubeconfig, "-var=cluster_id="+clusterID, "-refresh=false"); r.err != nil {
		t.Fatalf("applying the example after the scope change: %v\n%s", r.err, r.out)
	}
	var rerendered struct {
		Objects struct{ Value map[string]map[string]any } `json:"trident_protect_objects"`
	}
	if err := json.Unmarshal([]byte(h.run(testContext(), "output", "-json").out), &rerendered); err != nil {
		t.Fatal(err)
	}
	before, after := out.Objects.Value, rerendered.Objects.Value
	if _, ok := after["Application.default.complete-example-050d41"]; ok || len(after) != len(before) {
		t.Errorf("after the scope change, the objects are %v: want the Application renamed", slices.Sorted(maps.Keys(after)))
	}
	if spec, _ := after["Schedule.default.complete-example-daily"]["spec"].(map[string]any); spec["applicationRef"] == "complete-example-050d41" {
		t.Errorf("the daily Schedule still refers to the old Application: %v", spec)
	}
	exampleAcceptedByCRDs(t, after)
	kept := 0
	for key, cur := range after {
		if old, ok := before[key]; ok {
			kept++
			if errs := crdcheck.UpdateRefusals(t, old, cur); len(errs) > 0 {
				t.Errorf("the update of %s is refused: %v", key, errs)
			}
		}
	}
	if kept != len(after)-1 {
		t.Errorf("%d of %d resources keep their key, want all but the Application", kept, len(after))
	}
}

// exampleAcceptedByCRDs fails for every object the CRDs of Trident protect refuse.
func exampleAcceptedByCRDs(t *testing.T, objects map[string]map[string]any) {
	t.Helper()
	if len(objects) == 0 {
		t.Fatal("no objects to check")
	}
	for key, obj := range objects {
		if errs := crdcheck.Refusals(t, obj); len(errs) > 0 {
			t.Errorf("Trident protect's CRDs refuse %s: %v", key, errs)
		}
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
