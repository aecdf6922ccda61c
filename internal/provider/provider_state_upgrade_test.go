package provider

import (
	"context"
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// upgradedFrom says, per resource type and prior schema version, how state of that version
// must read after the upgrade: the prior attributes edited as stated here. A version that
// is the current one passes through unchanged.
var upgradedFrom = map[string]map[int64]func(attributes map[string]any){
	"astra_managed_cluster": {
		0: func(a map[string]any) { a["wait_for_running"] = true },
	},
}

// stateFile is the part of a CLI's state file (format 4) the harness reads.
type stateFile struct {
	Version          int    `json:"version"`
	TerraformVersion string `json:"terraform_version"`
	Resources        []struct {
		Mode      string `json:"mode"`
		Type      string `json:"type"`
		Name      string `json:"name"`
		Instances []struct {
			SchemaVersion int64           `json:"schema_version"`
			Attributes    json.RawMessage `json:"attributes"`
		} `json:"instances"`
	} `json:"resources"`
}

// TestStateUpgrades upgrades every resource instance of the state files in testdata/state
// (written by Terraform or OpenTofu with earlier releases of this provider) through the
// provider, over the plugin protocol as the CLIs do, and checks the result attribute by
// attribute. It also fails when a resource's earlier schema version has no fixture.
func TestStateUpgrades(t *testing.T) {
	ctx := context.Background()
	server := providerserver.NewProtocol6(New("test")())()
	schemas, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || len(schemas.Diagnostics) > 0 {
		t.Fatalf("GetProviderSchema: %v %v", err, schemas.Diagnostics)
	}
	files, err := filepath.Glob(filepath.Join("testdata", "state", "*.tfstate"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no state fixtures in testdata/state (%v)", err)
	}
	covered := map[string]map[int64]bool{}
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var state stateFile
		if err := json.Unmarshal(raw, &state); err != nil || state.Version != 4 {
			t.Fatalf("%s: not a state file of format 4 (%v)", file, err)
		}
		for _, res := range state.Resources {
			if res.Mode != "managed" {
				continue
			}
			schema := schemas.ResourceSchemas[res.Type]
			if schema == nil {
				t.Errorf("%s: %s.%s: the provider has no resource type %s", file, res.Type, res.Name, res.Type)
				continue
			}
			for _, inst := range res.Instances {
				if covered[res.Type] == nil {
					covered[res.Type] = map[int64]bool{}
				}
				covered[res.Type][inst.SchemaVersion] = true
				name := filepath.Base(file) + "/" + res.Type + "." + res.Name
				t.Run(name, func(t *testing.T) {
					got := upgrade(ctx, t, server, schema, res.Type, inst.SchemaVersion, inst.Attributes)
					var want map[string]any
					if err := json.Unmarshal(inst.Attributes, &want); err != nil {
						t.Fatal(err)
					}
					if inst.SchemaVersion != schema.Version {
						edit := upgradedFrom[res.Type][inst.SchemaVersion]
						if edit == nil {
							t.Fatalf("no expectation for %s schema version %d in upgradedFrom", res.Type, inst.SchemaVersion)
						}
						edit(want)
					}
					for _, k := range keysOf(want, got) {
						if !reflect.DeepEqual(want[k], got[k]) {
							t.Errorf("%s: after the upgrade from schema version %d: %#v, want %#v", k, inst.SchemaVersion, got[k], want[k])
						}
					}
				})
			}
		}
	}
	for typ, schema := range schemas.ResourceSchemas {
		for v := int64(0); v < schema.Version; v++ {
			if !covered[typ][v] {
				t.Errorf("%s is at schema version %d, but no fixture in testdata/state holds its state of version %d", typ, schema.Version, v)
			}
		}
	}
}

// upgrade runs UpgradeResourceState as a CLI does and returns the upgraded attributes as
// JSON would decode them.
func upgrade(ctx context.Context, t *testing.T, server tfprotov6.ProviderServer, schema *tfprotov6.Schema, typ string, version int64, attributes []byte) map[string]any {
	t.Helper()
	resp, err := server.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{
		TypeName: typ, Version: version, RawState: &tfprotov6.RawState{JSON: attributes},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range resp.Diagnostics {
		t.Errorf("UpgradeResourceState: %s: %s", d.Summary, d.Detail)
	}
	if resp.UpgradedState == nil {
		t.Fatal("UpgradeResourceState returned no state")
	}
	v, err := resp.UpgradedState.Unmarshal(schema.ValueType())
	if err != nil {
		t.Fatal(err)
	}
	out, ok := goValue(t, v).(map[string]any)
	if !ok {
		t.Fatalf("upgraded state is not an object: %v", v)
	}
	return out
}

// goValue converts a state value to what encoding/json decodes its JSON form into.
func goValue(t *testing.T, v tftypes.Value) any {
	t.Helper()
	if v.IsNull() {
		return nil
	}
	typ := v.Type()
	switch {
	case typ.Is(tftypes.String):
		var s string
		must(t, v.As(&s))
		return s
	case typ.Is(tftypes.Bool):
		var b bool
		must(t, v.As(&b))
		return b
	case typ.Is(tftypes.Number):
		var n big.Float
		must(t, v.As(&n))
		f, _ := n.Float64()
		return f
	case typ.Is(tftypes.List{}), typ.Is(tftypes.Set{}), typ.Is(tftypes.Tuple{}):
		var elems []tftypes.Value
		must(t, v.As(&elems))
		out := make([]any, 0, len(elems))
		for _, e := range elems {
			out = append(out, goValue(t, e))
		}
		return out
	default: // objects and maps
		var members map[string]tftypes.Value
		must(t, v.As(&members))
		out := make(map[string]any, len(members))
		for k, e := range members {
			out[k] = goValue(t, e)
		}
		return out
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// keysOf is every key of a and b.
func keysOf(a, b map[string]any) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range []map[string]any{a, b} {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}
