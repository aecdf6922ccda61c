package knownanswers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
	"github.com/astra-control/terraform-provider-astra/internal/provider"
)

// recordedStates are the managed resources' JSON states of the bench's recorded fleet (a
// real CLI's `show -json`), by type, with the provider's schemas' types.
func recordedStates(tb testing.TB) (map[string][][]byte, map[string]tftypes.Object) {
	tb.Helper()
	raw, err := os.ReadFile("../bench/echo/testdata/state.json")
	if err != nil {
		tb.Fatal(err)
	}
	var shown struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Mode   string          `json:"mode"`
					Type   string          `json:"type"`
					Values json.RawMessage `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal(raw, &shown); err != nil {
		tb.Fatal(err)
	}
	server, err := providerserver.NewProtocol6WithError(provider.New("test")())()
	if err != nil {
		tb.Fatal(err)
	}
	schemas, err := server.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		tb.Fatal(err)
	}
	states, types := map[string][][]byte{}, map[string]tftypes.Object{}
	for _, r := range shown.Values.RootModule.Resources {
		if r.Mode != "managed" {
			continue
		}
		typ, ok := schemas.ResourceSchemas[r.Type].ValueType().(tftypes.Object)
		if !ok {
			tb.Fatalf("%s: no object type", r.Type)
		}
		states[r.Type] = append(states[r.Type], r.Values)
		types[r.Type] = typ
	}
	return states, types
}

// TestKnownUpgrades_recordedStatesUnchanged: the scanner's transcoding of real states is
// byte for byte the json.Decoder reader's.
func TestKnownUpgrades_recordedStatesUnchanged(t *testing.T) {
	states, types := recordedStates(t)
	if len(states["astra_cluster"]) == 0 {
		t.Fatal("the recording holds no astra_cluster")
	}
	for typ, list := range states {
		for i, raw := range list {
			got, gotOK := knownanswers.StateMsgPack(types[typ], raw)
			want, wantOK := knownanswers.StateMsgPackReference(types[typ], raw)
			if !gotOK || !wantOK || !bytes.Equal(got, want) {
				t.Errorf("%s #%d: answered %v (reference %v):\n got %x\nwant %x", typ, i, gotOK, wantOK, got, want)
			}
		}
	}
}

// BenchmarkStateMsgPack: a recorded astra_cluster state's transcoding, as the known
// upgrades take it (the stream), by the scanner's tree, and by the json.Decoder reader the
// scanner replaced.
func BenchmarkStateMsgPack(b *testing.B) {
	states, types := recordedStates(b)
	raw, typ := states["astra_cluster"][0], types["astra_cluster"]
	for _, c := range []struct {
		name      string
		transcode func(tftypes.Object, []byte) ([]byte, bool)
	}{{"stream", knownanswers.StateMsgPack}, {"tree", withValidation(knownanswers.TreeMsgPack)}, {"decoder", knownanswers.StateMsgPackReference}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				if _, ok := c.transcode(typ, raw); !ok {
					b.Fatal("not answered")
				}
			}
		})
	}
}

// withValidation is transcode after json.Valid, as stateMsgPack calls it.
func withValidation(transcode func(tftypes.Object, []byte) ([]byte, bool)) func(tftypes.Object, []byte) ([]byte, bool) {
	return func(typ tftypes.Object, raw []byte) ([]byte, bool) {
		if !json.Valid(raw) {
			return nil, false
		}
		return transcode(typ, raw)
	}
}
