package knownanswers_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand"
	"os"
	"reflect"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	msgpack "github.com/vmihailenco/msgpack/v5"
	"github.com/vmihailenco/msgpack/v5/msgpcode"

	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
	"github.com/astra-control/terraform-provider-astra/internal/provider"
	"github.com/astra-control/terraform-provider-astra/internal/testutil"
)

// The known answers' msgpack decoder against the library's (tftypes.ValueFromMsgPack,
// through DynamicValue.Unmarshal), which it stands in for.

// resourceSchemas are the provider's resource schemas, as the CLI reads them.
func resourceSchemas(tb testing.TB) map[string]*tfprotov6.Schema {
	tb.Helper()
	server, err := providerserver.NewProtocol6WithError(provider.New("test")())()
	if err != nil {
		tb.Fatal(err)
	}
	resp, err := server.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || len(resp.Diagnostics) > 0 {
		tb.Fatalf("schema: %v %s", err, testutil.DiagnosticsText(resp.Diagnostics))
	}
	return resp.ResourceSchemas
}

// decoded is what a decoder made of some bytes: a value and its re-encoding, an error, or
// a panic.
type decoded struct {
	value    tftypes.Value
	err      error
	panicked any
	encoded  []byte // the value encoded again, or why it could not be
}

func decodeWith(decode func(*tfprotov6.DynamicValue, tftypes.Type) (tftypes.Value, error), dv *tfprotov6.DynamicValue, typ tftypes.Type) (d decoded) {
	defer func() { d.panicked = recover() }()
	d.value, d.err = decode(dv, typ)
	if d.err == nil && printable(d.value) {
		again, err := tfprotov6.NewDynamicValue(typ, d.value)
		if err != nil {
			d.encoded = []byte("re-encoding failed: " + err.Error())
		} else {
			d.encoded = again.MsgPack
		}
	}
	return d
}

// printable tells whether v's numbers are printable in reasonable time: the library
// encodes a number in full decimal ('f'), which takes minutes for 1e400000.
func printable(v tftypes.Value) bool {
	ok := true
	_ = tftypes.Walk(v, func(_ *tftypes.AttributePath, v tftypes.Value) (bool, error) {
		var n big.Float
		if v.Type().Is(tftypes.Number) && v.IsKnown() && !v.IsNull() && v.As(&n) == nil {
			if e := n.MantExp(nil); e > 20000 || e < -20000 {
				ok = false
			}
		}
		return ok, nil
	})
	return ok
}

// hugeLength tells whether data holds a 32-bit array or map header (anywhere) declaring
// more items than data has bytes: both decoders allocate the declared length up front
// (the library's make([]Value, 0, length)), which the fuzzer would spend its time on.
func hugeLength(data []byte) bool {
	for i := 0; i+5 <= len(data); i++ {
		if data[i] == msgpcode.Array32 || data[i] == msgpcode.Map32 {
			if n := int(data[i+1])<<24 | int(data[i+2])<<16 | int(data[i+3])<<8 | int(data[i+4]); n > len(data) {
				return true
			}
		}
	}
	return false
}

// sameAsLibrary fails unless both decoders panic, fail with the same message, or decode
// the same value that re-encodes to the same bytes.
func sameAsLibrary(t *testing.T, what string, data []byte, typ tftypes.Type) {
	t.Helper()
	dv := &tfprotov6.DynamicValue{MsgPack: data}
	fast := decodeWith(knownanswers.DecodeValue, dv, typ)
	lib := decodeWith(func(dv *tfprotov6.DynamicValue, typ tftypes.Type) (tftypes.Value, error) { return dv.Unmarshal(typ) }, dv, typ)
	switch {
	case (fast.panicked != nil) != (lib.panicked != nil):
		t.Fatalf("%s: %x: panic %v, the library's %v", what, data, fast.panicked, lib.panicked)
	case fast.panicked != nil:
	case (fast.err != nil) != (lib.err != nil) || fast.err != nil && fast.err.Error() != lib.err.Error():
		t.Fatalf("%s: %x: error %v, the library's %v", what, data, fast.err, lib.err)
	case fast.err != nil:
	case !fast.value.Type().Equal(lib.value.Type()) || !fast.value.Equal(lib.value):
		t.Fatalf("%s: %x: decoded %s (%s), the library %s (%s)", what, data, fast.value, fast.value.Type(), lib.value, lib.value.Type())
	case !reflect.DeepEqual(canonicalMsgPack(t, fast.encoded), canonicalMsgPack(t, lib.encoded)):
		t.Fatalf("%s: %x: re-encoded %x, the library's %x", what, data, fast.encoded, lib.encoded)
	}
}

// canonicalMsgPack is msgpack's items with maps as sorted entries: the library encodes a
// map in Go's random order, so two encodings of one value may differ in their bytes only
// there. An extension (an unknown value) stays its bytes.
func canonicalMsgPack(t *testing.T, data []byte) []any {
	t.Helper()
	dec := msgpack.NewDecoder(bytes.NewReader(data))
	var item func() any
	item = func() any {
		code, err := dec.PeekCode()
		if err != nil {
			t.Fatalf("re-encoding %x: %v", data, err)
		}
		switch {
		case msgpcode.IsExt(code):
			raw, err := dec.DecodeRaw()
			if err != nil {
				t.Fatalf("re-encoding %x: %v", data, err)
			}
			return fmt.Sprintf("ext %x", []byte(raw))
		case code != msgpcode.Nil && (msgpcode.IsFixedMap(code) || code == msgpcode.Map16 || code == msgpcode.Map32):
			n, _ := dec.DecodeMapLen()
			entries := make([][2]any, n)
			for i := range entries {
				entries[i] = [2]any{item(), item()}
			}
			sort.Slice(entries, func(i, j int) bool { return fmt.Sprint(entries[i][0]) < fmt.Sprint(entries[j][0]) })
			return entries
		case msgpcode.IsFixedArray(code) || code == msgpcode.Array16 || code == msgpcode.Array32:
			n, _ := dec.DecodeArrayLen()
			elems := make([]any, n)
			for i := range elems {
				elems[i] = item()
			}
			return elems
		}
		v, err := dec.DecodeInterface()
		if err != nil {
			t.Fatalf("re-encoding %x: %v", data, err)
		}
		return v
	}
	var out []any
	for {
		if _, err := dec.PeekCode(); err != nil {
			return out
		}
		out = append(out, item())
	}
}

// wideNumbers makes random values' numbers (0 to 99) any number: negative, huge,
// fractional, more precise than a float64, so that every number encoding is drawn.
func wideNumbers(r *rand.Rand, v tftypes.Value) tftypes.Value {
	out, err := tftypes.Transform(v, func(_ *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if !v.Type().Is(tftypes.Number) || !v.IsKnown() || v.IsNull() {
			return v, nil
		}
		var f *big.Float
		switch r.Intn(6) {
		case 0:
			f = new(big.Float).SetInt64(r.Int63() - r.Int63())
		case 1:
			f = new(big.Float).SetUint64(r.Uint64())
		case 2:
			f = big.NewFloat(r.NormFloat64() * math.Pow(10, float64(r.Intn(40)-20)))
		case 3:
			f, _, _ = big.ParseFloat(strconv.Itoa(r.Int())+"."+strconv.Itoa(r.Int())+"e"+strconv.Itoa(r.Intn(800)-400), 10, 512, big.ToNearestEven)
		case 4:
			f = big.NewFloat(float64(-r.Intn(40)))
		default:
			return v, nil
		}
		return tftypes.NewValue(tftypes.Number, f), nil
	})
	if err != nil {
		panic(err)
	}
	return out
}

func msgpackSeed(t *testing.T) int64 {
	seed := time.Now().UnixNano()
	if s := os.Getenv("MSGPACK_DECODE_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseInt(s, 10, 64); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("seed %d (replay with MSGPACK_DECODE_SEED=%d)", seed, seed)
	return seed
}

func TestMsgPackDecodeMatchesTheLibrary(t *testing.T) {
	schemas := resourceSchemas(t)
	names := make([]string, 0, len(schemas))
	for name := range schemas {
		names = append(names, name)
	}
	sort.Strings(names)
	r := rand.New(rand.NewSource(msgpackSeed(t)))
	g := testutil.RandomValues{Rand: r}
	fastDecodes := 0
	for _, name := range names {
		typ := schemas[name].ValueType()
		for i := range 200 {
			unknowns := i%2 == 0
			v := wideNumbers(r, g.Value(typ, unknowns))
			dv, err := tfprotov6.NewDynamicValue(typ, v)
			if err != nil {
				t.Fatal(err)
			}
			sameAsLibrary(t, fmt.Sprintf("%s value %d", name, i), dv.MsgPack, typ)
			if v.IsFullyKnown() {
				if !knownanswers.DecodesFast(dv.MsgPack, typ) {
					t.Fatalf("%s value %d: a known value was left to the library: %s", name, i, v)
				}
				fastDecodes++
			}
			// Every prefix of a value: truncated input.
			if i%20 == 0 {
				for n := range len(dv.MsgPack) {
					sameAsLibrary(t, fmt.Sprintf("%s value %d cut at %d", name, i, n), dv.MsgPack[:n], typ)
				}
			}
		}
	}
	if fastDecodes < len(names)*50 {
		t.Fatalf("only %d values decoded without the library", fastDecodes)
	}
	t.Run("hand-made", testHandMadeMsgPack)
}

// handType is a type with one of every kind the fast decoder takes, and some it leaves.
var handType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
	"s":  tftypes.String,
	"n":  tftypes.Number,
	"b":  tftypes.Bool,
	"l":  tftypes.List{ElementType: tftypes.String},
	"st": tftypes.Set{ElementType: tftypes.Number},
	"m":  tftypes.Map{ElementType: tftypes.Number},
	"o":  tftypes.Object{AttributeTypes: map[string]tftypes.Type{"x": tftypes.String}},
}}

// enc is msgpack written by hand, item by item: an int is a code byte's value, a []byte
// raw bytes, anything else encoded by the msgpack library as it chooses.
func enc(t *testing.T, items ...any) []byte {
	t.Helper()
	var buf bytes.Buffer
	e := msgpack.NewEncoder(&buf)
	for _, item := range items {
		var err error
		switch item := item.(type) {
		case int:
			err = buf.WriteByte(byte(item))
		case []byte:
			_, err = buf.Write(item)
		case nil:
			err = e.EncodeNil()
		default:
			err = e.Encode(item)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

// handObject is handType's object with attribute name's value replaced by the raw
// encoding value (every other attribute null).
func handObject(t *testing.T, name string, value []byte) []byte {
	t.Helper()
	names := []string{"b", "l", "m", "n", "o", "s", "st"}
	out := enc(t, 0x80|len(names))
	for _, n := range names {
		out = append(out, enc(t, n)...)
		if n == name {
			out = append(out, value...)
		} else {
			out = append(out, 0xc0)
		}
	}
	return out
}

func testHandMadeMsgPack(t *testing.T) {
	number := func(b ...any) []byte { return handObject(t, "n", enc(t, b...)) }
	f32 := make([]byte, 4)
	bits := math.Float32bits(1.1)
	f32[0], f32[1], f32[2], f32[3] = byte(bits>>24), byte(bits>>16), byte(bits>>8), byte(bits)
	cases := map[string][]byte{
		"null object":           {0xc0},
		"all null":              handObject(t, "", nil),
		"uint64":                number(0xcf, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}),
		"uint8":                 number(0xcc, 200),
		"uint16":                number(0xcd, []byte{0x12, 0x34}),
		"int8":                  number(0xd0, 0x80),
		"int64 min":             number(0xd3, []byte{0x80, 0, 0, 0, 0, 0, 0, 0}),
		"negative fixnum":       number(0xe0),
		"positive fixnum":       number(0x7f),
		"float32":               number(0xca, f32),
		"float64":               number(float64(-2.5e-300)),
		"float64 +Inf":          number(math.Inf(1)),
		"float64 NaN":           number(math.NaN()),
		"float64 -0":            number(math.Copysign(0, -1)),
		"number as string":      number("12345678901234567890123456789012345678901234567890.000000000000000000000000000001"),
		"huge number string":    number("1e4000"),
		"tiny number string":    number("-1e-4000"),
		"hex number string":     number("0x1p-2"),
		"bad number string":     number("twelve"),
		"empty number string":   number(""),
		"number as bin":         number(0xc4, 2, []byte("42")),
		"number as bool":        number(true),
		"number as array":       number(0x91, 1),
		"string as bin":         handObject(t, "s", enc(t, 0xc4, 3, []byte("abc"))),
		"string as int":         handObject(t, "s", enc(t, 7)),
		"invalid utf-8 string":  handObject(t, "s", enc(t, 0xa2, []byte{0xff, 0xfe})),
		"bool as int":           handObject(t, "b", enc(t, 1)),
		"bool":                  handObject(t, "b", enc(t, false)),
		"empty list":            handObject(t, "l", enc(t, 0x90)),
		"list of null":          handObject(t, "l", enc(t, 0x92, nil, "a")),
		"list as array16":       handObject(t, "l", enc(t, 0xdc, []byte{0, 1}, "a")),
		"list as map":           handObject(t, "l", enc(t, 0x81, "a", "b")),
		"list with unknown":     handObject(t, "l", enc(t, 0x91, 0xd4, 0, 0)),
		"empty set":             handObject(t, "st", enc(t, 0x90)),
		"set with duplicates":   handObject(t, "st", enc(t, 0x93, 1, 1, nil)),
		"set of null":           handObject(t, "st", enc(t, 0x91, nil)),
		"empty map":             handObject(t, "m", enc(t, 0x80)),
		"map of null":           handObject(t, "m", enc(t, 0x82, "a", nil, "b", 2)),
		"map repeated key":      handObject(t, "m", enc(t, 0x82, "a", 1, "a", 2)),
		"map nil key":           handObject(t, "m", enc(t, 0x81, nil, 1)),
		"map int key":           handObject(t, "m", enc(t, 0x81, 5, 1)),
		"map bin key":           handObject(t, "m", enc(t, 0x81, 0xc4, 1, []byte("k"), 1)),
		"map as array":          handObject(t, "m", enc(t, 0x90)),
		"nested object":         handObject(t, "o", enc(t, 0x81, "x", "y")),
		"nested object null x":  handObject(t, "o", enc(t, 0x81, "x", nil)),
		"nested object missing": handObject(t, "o", enc(t, 0x80)),
		"nested object extra":   handObject(t, "o", enc(t, 0x82, "x", "y", "z", "w")),
		"nested object unknown": handObject(t, "o", enc(t, 0x81, "y", "w")),
		"nested as array":       handObject(t, "o", enc(t, 0x91, "x")),
		"unknown":               {0xd4, 0, 0},
		"unknown attribute":     handObject(t, "s", enc(t, 0xd4, 0, 0)),
		"refined unknown":       handObject(t, "s", enc(t, 0xc7, 3, 0x0c, 0x81, 0x01, 0xc2)),
		"bad extension":         handObject(t, "s", enc(t, 0xc7, 9, 0x0c)),
		"trailing bytes":        append(handObject(t, "s", enc(t, "v")), 0xc0, 0xff, 0x01),
		"trailing garbage only": append([]byte{0xc0}, 0xc1),
		"reserved code":         {0xc1},
		"empty input":           {},
		"object missing":        enc(t, 0x81, "s", "v"),
		"object extra":          append(enc(t, 0x88), handObject(t, "", nil)[1:]...),
		"object unknown key":    enc(t, 0x87, "s", nil, "n", nil, "b", nil, "l", nil, "st", nil, "m", nil, "zz", nil),
		"object repeated key":   enc(t, 0x87, "s", nil, "n", nil, "b", nil, "l", nil, "st", nil, "m", nil, "s", nil),
		"object as array":       {0x90},
		"object as string":      enc(t, "object"),
	}
	names := make([]string, 0, len(cases))
	for name := range cases {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		sameAsLibrary(t, name, cases[name], handType)
	}
	for _, name := range []string{"uint64", "float32", "negative fixnum", "number as string", "list of null", "map of null", "empty set", "trailing bytes"} {
		if !knownanswers.DecodesFast(cases[name], handType) {
			t.Errorf("%s: left to the library", name)
		}
	}
	// A dynamic type anywhere is the library's; so are tuples.
	for _, typ := range []tftypes.Type{
		tftypes.DynamicPseudoType,
		tftypes.List{ElementType: tftypes.DynamicPseudoType},
		tftypes.Tuple{ElementTypes: []tftypes.Type{tftypes.String}},
	} {
		v := tftypes.NewValue(tftypes.String, "a")
		if typ.Is(tftypes.List{}) {
			v = tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{v})
		} else if typ.Is(tftypes.Tuple{}) {
			v = tftypes.NewValue(typ, []tftypes.Value{v})
		}
		dv, err := tfprotov6.NewDynamicValue(typ, v)
		if err != nil {
			t.Fatal(err)
		}
		sameAsLibrary(t, typ.String(), dv.MsgPack, typ)
	}
}

// clusterState is a realistic astra_cluster state: every attribute known.
func clusterState(tb testing.TB) (tftypes.Type, []byte) {
	tb.Helper()
	typ := resourceSchemas(tb)["astra_cluster"].ValueType()
	g := testutil.RandomValues{Rand: rand.New(rand.NewSource(1))}
	for {
		v := g.Value(typ, false)
		dv, err := tfprotov6.NewDynamicValue(typ, v)
		if err != nil {
			tb.Fatal(err)
		}
		if len(dv.MsgPack) > 400 {
			return typ, dv.MsgPack
		}
	}
}

func FuzzMsgPackDecode(f *testing.F) {
	typ, state := clusterState(f)
	f.Add(state)
	f.Add([]byte{0xc0})
	g := testutil.RandomValues{Rand: rand.New(rand.NewSource(2))}
	for range 4 {
		dv, err := tfprotov6.NewDynamicValue(typ, g.Value(typ, true))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(dv.MsgPack)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if hugeLength(data) {
			t.Skip("a declared length the library would allocate")
		}
		sameAsLibrary(t, "fuzz", data, typ)
	})
}

func BenchmarkMsgPackDecode(b *testing.B) {
	typ, state := clusterState(b)
	dv := &tfprotov6.DynamicValue{MsgPack: state}
	b.Run("known-answers", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := knownanswers.DecodeValue(dv, typ); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("library", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := dv.Unmarshal(typ); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestMsgPackStrings: the scan of a state's identity attributes finds them as the state
// holds them, and refuses every state where one is not a known, non-empty string.
func TestMsgPackStrings(t *testing.T) {
	identity := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"app_id": tftypes.String, "id": tftypes.String}}
	state := tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"app_id": tftypes.String, "id": tftypes.String, "name": tftypes.String,
		"labels": tftypes.Map{ElementType: tftypes.String}, "count": tftypes.Number,
	}}
	with := func(appID, id tftypes.Value) []byte {
		dv, err := tfprotov6.NewDynamicValue(state, tftypes.NewValue(state, map[string]tftypes.Value{
			"app_id": appID, "id": id, "name": tftypes.NewValue(tftypes.String, "id"),
			"labels": tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, "x")}),
			"count":  tftypes.NewValue(tftypes.Number, 3),
		}))
		if err != nil {
			t.Fatal(err)
		}
		return dv.MsgPack
	}
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	cases := []struct {
		name string
		b    []byte
		want map[string]string
	}{
		{name: "both known", b: with(str("a1"), str("b2")), want: map[string]string{"app_id": "a1", "id": "b2"}},
		{name: "one empty", b: with(str(""), str("b2"))},
		{name: "one null", b: with(tftypes.NewValue(tftypes.String, nil), str("b2"))},
		{name: "one unknown", b: with(str("a1"), tftypes.NewValue(tftypes.String, tftypes.UnknownValue))},
		{name: "cut short", b: with(str("a1"), str("b2"))[:5]},
		{name: "not a map", b: []byte{0xc0}},
		{name: "nothing"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := knownanswers.MsgPackStrings(c.b, identity)
			if ok != (c.want != nil) || (ok && !reflect.DeepEqual(got, c.want)) {
				t.Fatalf("got %v %v, want %v", got, ok, c.want)
			}
		})
	}
}

// TestCLIMsgPack: the encoding of a state as the CLI sends it back is the library's
// encoding with each map's keys in order: for random values of every resource type, it
// decodes to what the library's encoding decodes to, its maps' keys come in order, and where no map has two keys
// it is the library's bytes. Sets of more than one element and unknown values are refused.
func TestCLIMsgPack(t *testing.T) {
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewSource(seed)) //nolint:gosec // test data
	labels := tftypes.Map{ElementType: tftypes.String}
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"id": tftypes.String, "n": tftypes.Number, "b": tftypes.Bool, "labels": labels,
		"list": tftypes.List{ElementType: tftypes.Number}, "set": tftypes.Set{ElementType: tftypes.String},
	}}
	numbers := []*big.Float{big.NewFloat(0), big.NewFloat(-3), big.NewFloat(1.5), big.NewFloat(1e300), big.NewFloat(math.Inf(1)),
		new(big.Float).SetPrec(200).Quo(big.NewFloat(1), big.NewFloat(3))}
	for i := 0; i < 200; i++ {
		keys := map[string]tftypes.Value{}
		for k := range rng.Intn(5) {
			keys[strconv.Itoa(rng.Intn(100))+"k"+strconv.Itoa(k)] = tftypes.NewValue(tftypes.String, strconv.Itoa(rng.Int()))
		}
		var list []tftypes.Value
		for range rng.Intn(3) {
			list = append(list, tftypes.NewValue(tftypes.Number, numbers[rng.Intn(len(numbers))]))
		}
		set := []tftypes.Value{}
		if rng.Intn(2) == 0 {
			set = append(set, tftypes.NewValue(tftypes.String, "one"))
		}
		v := tftypes.NewValue(typ, map[string]tftypes.Value{
			"id": tftypes.NewValue(tftypes.String, strconv.Itoa(i)), "n": tftypes.NewValue(tftypes.Number, numbers[rng.Intn(len(numbers))]),
			"b": tftypes.NewValue(tftypes.Bool, rng.Intn(2) == 0), "labels": tftypes.NewValue(labels, keys),
			"list": tftypes.NewValue(tftypes.List{ElementType: tftypes.Number}, list), "set": tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, set),
		})
		if rng.Intn(5) == 0 {
			v = tftypes.NewValue(typ, nil)
		}
		got, ok := knownanswers.CLIMsgPack(v)
		if !ok {
			t.Fatalf("refused %s", v)
		}
		library, err := tfprotov6.NewDynamicValue(typ, v)
		if err != nil {
			t.Fatal(err)
		}
		back, err := (&tfprotov6.DynamicValue{MsgPack: got}).Unmarshal(typ)
		want, err2 := library.Unmarshal(typ)
		if err != nil || err2 != nil || !back.Equal(want) {
			t.Fatalf("%s decodes to %s, the library's encoding to %s (%v, %v)", v, back, want, err, err2)
		}
		if len(keys) < 2 && !bytes.Equal(library.MsgPack, got) {
			t.Fatalf("%s: %x, the library's %x", v, got, library.MsgPack)
		}
		if !v.IsNull() && len(keys) > 1 {
			dec := msgpack.NewDecoder(bytes.NewReader(got))
			var decoded map[string]any
			if err := dec.Decode(&decoded); err != nil {
				t.Fatal(err)
			}
			// The map's keys in the order written: find them in the bytes.
			var order []string
			for k := range decoded["labels"].(map[string]any) {
				order = append(order, k)
			}
			sort.Slice(order, func(a, b int) bool { return bytes.Index(got, []byte(order[a])) < bytes.Index(got, []byte(order[b])) })
			if !sort.StringsAreSorted(order) {
				t.Fatalf("labels written in the order %v", order)
			}
		}
	}
	two := tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, []tftypes.Value{tftypes.NewValue(tftypes.String, "a"), tftypes.NewValue(tftypes.String, "b")})
	unknown := tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	for _, refused := range []tftypes.Value{two, unknown} {
		if _, ok := knownanswers.CLIMsgPack(refused); ok {
			t.Errorf("%s: encoded, want refused", refused)
		}
	}
}

// TestSentIdentityStrings: the IDs are taken from an identity only when it holds exactly
// the identity's attributes, each a known non-empty string.
func TestSentIdentityStrings(t *testing.T) {
	identity := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"app_id": tftypes.String, "id": tftypes.String}}
	wider := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"app_id": tftypes.String, "id": tftypes.String, "name": tftypes.String}}
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	sent := func(typ tftypes.Object, v map[string]tftypes.Value) *tfprotov6.ResourceIdentityData {
		dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, v))
		if err != nil {
			t.Fatal(err)
		}
		return &tfprotov6.ResourceIdentityData{IdentityData: &dv}
	}
	null, err := tfprotov6.NewDynamicValue(identity, tftypes.NewValue(identity, nil))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		sent *tfprotov6.ResourceIdentityData
		want map[string]string
	}{
		{name: "exactly the attributes", sent: sent(identity, map[string]tftypes.Value{"app_id": str("a1"), "id": str("b2")}),
			want: map[string]string{"app_id": "a1", "id": "b2"}},
		{name: "another attribute besides", sent: sent(wider, map[string]tftypes.Value{"app_id": str("a1"), "id": str("b2"), "name": str("n")})},
		{name: "one empty", sent: sent(identity, map[string]tftypes.Value{"app_id": str(""), "id": str("b2")})},
		{name: "one unknown", sent: sent(identity, map[string]tftypes.Value{"app_id": str("a1"), "id": tftypes.NewValue(tftypes.String, tftypes.UnknownValue)})},
		{name: "null", sent: &tfprotov6.ResourceIdentityData{IdentityData: &null}},
		{name: "as JSON", sent: &tfprotov6.ResourceIdentityData{IdentityData: &tfprotov6.DynamicValue{JSON: []byte(`{"app_id":"a1","id":"b2"}`)}}},
		{name: "none"},
		{name: "no data", sent: &tfprotov6.ResourceIdentityData{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := knownanswers.SentIdentityStrings(c.sent, identity)
			if ok != (c.want != nil) || (ok && !reflect.DeepEqual(got, c.want)) {
				t.Fatalf("got %v %v, want %v", got, ok, c.want)
			}
		})
	}
}
