package echo

import (
	"encoding/json"
	"maps"
	"os"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The fixtures in testdata were written from astra by fleetbench's TestEchoTestdata
// (FLEETBENCH_CLI=... FLEETBENCH_ECHO_TESTDATA=1): `providers schema -json` cut to the
// types used, and `show -json` after applying a count fleet of 2 clusters (a kubeconfig
// credential, the cluster with three labels, its management each) and a data source
// reading the first cluster, against the simulator.

// testServer is the echo floor on the fixtures (the state as `show -json` printed it);
// reads counts the reads of the state.
func testServer(t *testing.T) (s *Server, reads *int) {
	t.Helper()
	return testServerOn(t, false)
}

// testServerOn is testServer on the state compiled by Compile, if compiled.
func testServerOn(t *testing.T, compiled bool) (s *Server, reads *int) {
	t.Helper()
	schemaJSON, err := os.ReadFile("testdata/schema.json")
	if err != nil {
		t.Fatal(err)
	}
	state, err := os.ReadFile("testdata/state.json")
	if err != nil {
		t.Fatal(err)
	}
	if compiled {
		if state, err = Compile(schemaJSON, "", state); err != nil {
			t.Fatal(err)
		}
	}
	reads = new(int)
	s, err = New(schemaJSON, "", func() ([]byte, error) {
		*reads++
		return state, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return s, reads
}

// forms are the two forms of the recorded state New takes.
var forms = map[string]bool{"show -json": false, "compiled": true}

// fixture is a recorded object of the fixture state, read by address.
type fixture struct {
	value    tftypes.Value
	typ      tftypes.Type
	identity tftypes.Value // null when none was recorded
}

func recordedAt(t *testing.T, s *Server, address string) fixture {
	t.Helper()
	data, err := os.ReadFile("testdata/state.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address, Mode, Type string
					Values, Identity    json.RawMessage
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, r := range doc.Values.RootModule.Resources {
		if r.Address != address {
			continue
		}
		f := fixture{typ: s.schemas.resourceTypes[r.Type]}
		if r.Mode == "data" {
			f.typ = s.schemas.dataSourceTypes[r.Type]
		}
		if f.value, err = (tfprotov6.RawState{JSON: r.Values}).Unmarshal(f.typ); err != nil {
			t.Fatal(err)
		}
		f.identity = tftypes.NewValue(tftypes.Object{}, nil)
		if idType, ok := s.schemas.identityTypes[r.Type]; ok && len(r.Identity) > 0 && r.Mode == "managed" {
			if f.identity, err = (tfprotov6.RawState{JSON: r.Identity}).Unmarshal(idType); err != nil {
				t.Fatal(err)
			}
		}
		return f
	}
	t.Fatalf("no %s in testdata/state.json", address)
	return fixture{}
}

// configOf is f's object with every attribute null but names: what a configuration
// setting names would be.
func configOf(t *testing.T, f fixture, names ...string) tftypes.Value {
	t.Helper()
	attrs := attributes(t, f.value)
	keep := map[string]bool{}
	for _, n := range names {
		keep[n] = true
	}
	for name, v := range attrs {
		if !keep[name] {
			attrs[name] = tftypes.NewValue(v.Type(), nil)
		}
	}
	return tftypes.NewValue(f.typ, attrs)
}

// with is obj with attribute name set to v.
func with(t *testing.T, obj tftypes.Value, name string, v tftypes.Value) tftypes.Value {
	t.Helper()
	attrs := attributes(t, obj)
	attrs[name] = v
	return tftypes.NewValue(obj.Type(), attrs)
}

// attributes are a copy of obj's attributes (As hands out the value's own map).
func attributes(t *testing.T, obj tftypes.Value) map[string]tftypes.Value {
	t.Helper()
	var attrs map[string]tftypes.Value
	if err := obj.As(&attrs); err != nil {
		t.Fatal(err)
	}
	return maps.Clone(attrs)
}

func dv(t *testing.T, typ tftypes.Type, v tftypes.Value) *tfprotov6.DynamicValue {
	t.Helper()
	d, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		t.Fatal(err)
	}
	return &d
}

func value(t *testing.T, typ tftypes.Type, d *tfprotov6.DynamicValue) tftypes.Value {
	t.Helper()
	if d == nil {
		t.Fatal("no value")
	}
	v, err := d.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func noDiags(t *testing.T, diags []*tfprotov6.Diagnostic) {
	t.Helper()
	for _, d := range diags {
		t.Errorf("diagnostic: %s: %s", d.Summary, d.Detail)
	}
	if len(diags) > 0 {
		t.FailNow()
	}
}

// fleetConfigs are what the fleet's configuration sets, per resource type.
var fleetConfigs = map[string][]string{
	"astra_kubeconfig_credential": {"name", "kubeconfig"},
	"astra_cluster":               {"cloud_id", "credential_id", "labels"},
	"astra_managed_cluster":       {"cluster_id"},
}
