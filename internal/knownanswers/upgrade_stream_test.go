package knownanswers

import (
	"bytes"
	"encoding/json"
	"maps"
	"math/rand"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// streamTestType is planTestType (every kind of attribute) with deeper collections: an
// object holding a list, a map of objects.
var streamTestType = func() tftypes.Object {
	attrs := maps.Clone(planTestType.AttributeTypes)
	attrs["g"] = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"x": tftypes.String, "y": tftypes.List{ElementType: tftypes.Number}}}
	attrs["h"] = tftypes.Map{ElementType: tftypes.Object{AttributeTypes: map[string]tftypes.Type{"z": tftypes.Bool}}}
	return tftypes.Object{AttributeTypes: attrs}
}()

// TestStreamMsgPackIsTheTree: on random JSON of the type's shape (mostly as the CLIs write
// it: keys in order; now and then keys out of order, duplicated, missing or unknown, a value
// of another kind), where the stream answers, the tree's transcoding answers the same bytes;
// and the stream answers the states as the CLIs write them.
func TestStreamMsgPackIsTheTree(t *testing.T) {
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewSource(seed))
	streamed, treeOnly := 0, 0
	for range 5000 {
		var b strings.Builder
		typedJSON(r, &b, streamTestType, 0)
		raw := []byte(b.String())
		if !json.Valid(raw) {
			t.Fatalf("seed %d: the generator wrote invalid JSON %q", seed, raw)
		}
		switch s, ok := sameAsTree(t, raw, streamTestType); {
		case ok && s:
			streamed++
		case ok:
			treeOnly++
		}
	}
	for _, s := range realisticStates[:1] {
		if _, ok := streamMsgPack(clusterStateType(t, []byte(s)), []byte(s)); !ok {
			t.Errorf("the stream left a state as the CLI writes it to the tree: %s", s)
		}
	}
	// About 1000 of the 5000 are streamed and as many go to the tree only (a standard
	// deviation of about 30): the bounds are far below, so only a path never taken fails.
	if streamed < 600 || treeOnly < 600 {
		t.Errorf("seed %d: %d answered by the stream, %d by the tree only: want both paths taken", seed, streamed, treeOnly)
	}
	t.Logf("%d answered by the stream, %d by the tree only", streamed, treeOnly)
}

// FuzzStreamMsgPack: the stream answers only valid JSON, and only what the tree answers,
// alike.
func FuzzStreamMsgPack(f *testing.F) {
	for _, c := range readJSONCases {
		f.Add([]byte(c))
	}
	r := rand.New(rand.NewSource(1))
	for range 20 {
		var b strings.Builder
		typedJSON(r, &b, streamTestType, 0)
		f.Add([]byte(b.String()))
	}
	f.Add([]byte(`{"s":"x"} x`))
	f.Add([]byte(`{"n":01}`))
	f.Add([]byte("{\"s\":\"\x01\"}"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		sameAsTree(t, raw, streamTestType)
	})
}

// sameAsTree fails the test when the stream answers raw otherwise than the tree; it tells
// whether the stream answered, and whether any did.
func sameAsTree(t *testing.T, raw []byte, typ tftypes.Object) (stream, answered bool) {
	t.Helper()
	got, gotOK := streamMsgPack(typ, raw)
	if !json.Valid(raw) {
		if gotOK {
			t.Fatalf("%q: the stream answered JSON that is not valid: %x", raw, got)
		}
		return false, false
	}
	want, wantOK := treeMsgPack(typ, raw)
	if gotOK && (!wantOK || !bytes.Equal(got, want)) {
		t.Fatalf("%q: the stream answered %x, the tree %x (%v)", raw, got, want, wantOK)
	}
	return gotOK, wantOK
}

// clusterStateType is an object type of strings and a few collections, with raw's top-level
// keys: enough for the realistic astra_cluster state to stream.
func clusterStateType(t *testing.T, raw []byte) tftypes.Object {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{}}
	for k, v := range m {
		switch {
		case k == "labels":
			typ.AttributeTypes[k] = tftypes.Map{ElementType: tftypes.String}
		case k == "namespaces" || k == "state_unready":
			typ.AttributeTypes[k] = tftypes.List{ElementType: tftypes.String}
		case k == "metadata":
			typ.AttributeTypes[k] = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"created_by": tftypes.String, "creation_timestamp": tftypes.String,
				"labels": tftypes.List{ElementType: tftypes.Map{ElementType: tftypes.String}}, "modification_timestamp": tftypes.String}}
		case k == "timeouts":
			typ.AttributeTypes[k] = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"create": tftypes.String}}
		case len(v) > 0 && (v[0] == '-' || v[0] >= '0' && v[0] <= '9'):
			typ.AttributeTypes[k] = tftypes.Number
		default:
			typ.AttributeTypes[k] = tftypes.String
		}
	}
	return typ
}

// typedJSON writes a random JSON value of typ, with the surprises the tree and the stream
// must agree on.
func typedJSON(r *rand.Rand, b *strings.Builder, typ tftypes.Type, depth int) {
	space := func() {
		for range r.Intn(2) {
			b.WriteByte(" \t\n\r"[r.Intn(4)])
		}
	}
	space()
	defer space()
	switch n := r.Intn(40); {
	case n == 0:
		b.WriteString("null")
		return
	case n == 1 || depth > 3: // a value of another kind, or too deep
		randomJSON(r, b, 4)
		return
	}
	switch t := typ.(type) {
	case tftypes.Object:
		names := make([]string, 0, len(t.AttributeTypes))
		for k := range t.AttributeTypes {
			if r.Intn(8) > 0 { // now and then missing
				names = append(names, k)
			}
		}
		if r.Intn(10) == 0 {
			names = append(names, []string{"unknown", "0", "zz", "a0", "é"}[r.Intn(5)])
		}
		slices.Sort(names)
		typedMembers(r, b, names, func(k string) {
			if et, ok := t.AttributeTypes[k]; ok {
				typedJSON(r, b, et, depth+1)
			} else {
				randomJSON(r, b, 3)
			}
		})
	case tftypes.Map:
		var keys []string
		for range r.Intn(4) {
			keys = append(keys, []string{"a", "b", "c", "", "é", `\u0061`, "a b"}[r.Intn(7)])
		}
		keys = slices.Compact(slices.Sorted(slices.Values(keys)))
		typedMembers(r, b, keys, func(string) { typedJSON(r, b, t.ElementType, depth+1) })
	case tftypes.List:
		typedElements(r, b, func() { typedJSON(r, b, t.ElementType, depth+1) })
	case tftypes.Set:
		typedElements(r, b, func() { typedJSON(r, b, t.ElementType, depth+1) })
	default:
		switch {
		case typ.Is(tftypes.String):
			b.WriteString(randomString(r))
		case typ.Is(tftypes.Number):
			b.WriteString(randomNumber(r))
		default:
			b.WriteString([]string{"true", "false"}[r.Intn(2)])
		}
	}
}

// typedMembers writes an object of keys (given in order: now and then two swapped or one
// repeated), value writing each key's value.
func typedMembers(r *rand.Rand, b *strings.Builder, keys []string, value func(key string)) {
	if len(keys) > 1 && r.Intn(12) == 0 {
		i := r.Intn(len(keys) - 1)
		keys[i], keys[i+1] = keys[i+1], keys[i]
	}
	if len(keys) > 0 && r.Intn(15) == 0 {
		keys = append(keys, keys[len(keys)-1])
	}
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + k + `"`)
		b.WriteByte(':')
		value(k)
	}
	b.WriteByte('}')
}

func typedElements(r *rand.Rand, b *strings.Builder, value func()) {
	b.WriteByte('[')
	for i := range r.Intn(4) {
		if i > 0 {
			b.WriteByte(',')
		}
		value()
	}
	b.WriteByte(']')
}
