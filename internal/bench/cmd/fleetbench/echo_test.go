package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// The end-to-end check of the echo floor needs a real CLI: FLEETBENCH_CLI is the absolute
// path of tofu or terraform (scripts/install-tf-cli.sh prints it). Without it the test
// skips, so `go test ./...` stays fast.

// TestEchoFleetEndToEnd applies a fleet of 3 with astra against the simulator, records it,
// applies the same configuration with the echo floor, and checks that the echo floor
// called nothing, that a second plan of its own state is empty, and that its state holds
// exactly the values astra's apply recorded.
func TestEchoFleetEndToEnd(t *testing.T) {
	b := testBench(t)
	b.fleet("module", 3) // every plan in it runs with -detailed-exitcode: a change would stop it
	for _, r := range b.rows {
		if got := r.res["echo"].requests; got != 0 {
			t.Errorf("%s: the echo floor made %d requests to the simulator, want 0", r.scenario, got)
		}
	}
	ours, echoDir := filepath.Join(b.work, "fleet-module-ours-3"), filepath.Join(b.work, "fleet-module-echo-3")
	echoV := b.echoFor(ours + "-echo-record")

	cmd := exec.Command(b.cli, "plan", "-input=false", "-detailed-exitcode")
	cmd.Dir, cmd.Env = echoDir, b.env(echoV)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 2 {
		t.Fatalf("second plan with the echo floor: changes planned\n%s", out)
	} else if err != nil {
		t.Fatalf("second plan with the echo floor: %v\n%s", err, out)
	}

	recorded, err := os.ReadFile(filepath.Join(ours+"-echo-record", "state.json"))
	if err != nil {
		t.Fatal(err)
	}
	want, got := stateObjects(t, recorded), stateObjects(t, b.output(b.cli, echoV, echoDir, "show", "-json"))
	if len(want) != 9 {
		t.Errorf("astra's recorded state has %d objects, want 9 (3 clusters)", len(want))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the echo floor's state differs from astra's:\ngot  %v\nwant %v", got, want)
	}
}

// TestEchoTestdata writes the echo floor's unit test fixtures (internal/bench/echo/testdata)
// from astra under FLEETBENCH_CLI, when FLEETBENCH_ECHO_TESTDATA is set: the schemas of the
// types a count fleet of 2 and a data source use, of the ephemeral resources and of two
// actions, and the state their apply left.
func TestEchoTestdata(t *testing.T) {
	if os.Getenv("FLEETBENCH_ECHO_TESTDATA") == "" {
		t.Skip("FLEETBENCH_ECHO_TESTDATA is not set: the echo floor's testdata stays as it is")
	}
	b := testBench(t)
	defer b.startSim(astrasim.Options{}, 0)()
	files := b.fleetFiles(b.variants["ours"], "count", 2)
	files["main.tf"] += `
data "astra_cluster" "first" {
  id = astra_cluster.c[0].id
}
`
	dir := b.dirFiles("testdata", files)
	b.run(b.variants["ours"], dir, "apply", "-auto-approve", "-input=false")
	record := b.recordEcho(b.cli, dir)
	out := filepath.Join(b.root, "internal", "bench", "echo", "testdata")

	var schemas struct {
		FormatVersion   string                    `json:"format_version"`
		ProviderSchemas map[string]map[string]any `json:"provider_schemas"`
	}
	readJSON(t, filepath.Join(record, "schema.json"), &schemas)
	// Two actions under Terraform 1.14 or later: one of plain attributes, one with nested ones.
	keep := map[string]bool{"astra_kubeconfig_credential": true, "astra_cluster": true, "astra_managed_cluster": true,
		"astra_app_snapshot": true, "astra_app_restore": true}
	for _, p := range schemas.ProviderSchemas {
		delete(p, "list_resource_schemas")
		for _, kind := range []string{"resource_schemas", "resource_identity_schemas", "data_source_schemas", "action_schemas"} {
			m, _ := p[kind].(map[string]any)
			for name := range m {
				if !keep[name] {
					delete(m, name)
				}
			}
		}
	}
	writeJSON(t, filepath.Join(out, "schema.json"), schemas)
	var state any
	readJSON(t, filepath.Join(record, "state.json"), &state)
	writeJSON(t, filepath.Join(out, "state.json"), state)
}

// readJSON decodes file into v, numbers as they are written.
func readJSON(t *testing.T, file string, v any) {
	t.Helper()
	f, err := os.Open(file)
	if err == nil {
		defer f.Close()
		dec := json.NewDecoder(f)
		dec.UseNumber()
		err = dec.Decode(v)
	}
	if err != nil {
		t.Fatal(err)
	}
}

func writeJSON(t *testing.T, file string, v any) {
	t.Helper()
	data, err := json.MarshalIndent(v, "", "  ")
	if err == nil {
		err = os.WriteFile(file, append(data, '\n'), 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// testBench is a bench with astra and the echo floor built, under FLEETBENCH_CLI.
func testBench(t *testing.T) *bench {
	t.Helper()
	cli := os.Getenv("FLEETBENCH_CLI")
	if cli == "" {
		t.Skip("FLEETBENCH_CLI (the absolute path of tofu or terraform) is not set: this check runs a real CLI")
	}
	root, err := filepath.Abs("../../../..")
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	b := &bench{cli: cli, root: root, work: work, repeat: 1, out: filepath.Join(work, "report.md"), fleetFloors: []string{"echo"}}
	b.build("ours", "echo")
	return b
}

// stateObjects are the values and identities of `show -json`'s resources, by address.
func stateObjects(t *testing.T, showJSON []byte) map[string]any {
	t.Helper()
	type module struct {
		Resources []struct {
			Address  string `json:"address"`
			Values   any    `json:"values"`
			Identity any    `json:"identity"`
		} `json:"resources"`
		ChildModules []json.RawMessage `json:"child_modules"`
	}
	var doc struct {
		Values struct {
			RootModule json.RawMessage `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal(showJSON, &doc); err != nil {
		t.Fatal(err)
	}
	objects := map[string]any{}
	var walk func(raw json.RawMessage)
	walk = func(raw json.RawMessage) {
		var m module
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		for _, r := range m.Resources {
			objects[r.Address] = []any{r.Values, r.Identity}
		}
		for _, c := range m.ChildModules {
			walk(c)
		}
	}
	walk(doc.Values.RootModule)
	return objects
}
