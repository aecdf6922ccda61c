package knownanswers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/vmihailenco/msgpack/v5"
)

// readJSONDecoder is readJSON as it was, a json.Decoder read token by token: the reference
// the scanner must agree with.
func readJSONDecoder(dec *json.Decoder) (any, bool) {
	tok, err := dec.Token()
	if err != nil {
		return nil, false
	}
	switch tok {
	case json.Delim('{'):
		m := map[string]any{}
		for dec.More() {
			key, err := dec.Token()
			name, ok := key.(string)
			if err != nil || !ok {
				return nil, false
			}
			if _, dup := m[name]; dup {
				return nil, false
			}
			if m[name], ok = readJSONDecoder(dec); !ok {
				return nil, false
			}
		}
		_, err := dec.Token()
		return m, err == nil
	case json.Delim('['):
		list := []any{}
		for dec.More() {
			v, ok := readJSONDecoder(dec)
			if !ok {
				return nil, false
			}
			list = append(list, v)
		}
		_, err := dec.Token()
		return list, err == nil
	}
	return tok, true // string, json.Number, bool or nil
}

// referenceReadJSON reads raw as stateMsgPack read it before the scanner.
func referenceReadJSON(raw []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return readJSONDecoder(dec)
}

// stateMsgPackReference is stateMsgPack with the reference reader.
func stateMsgPackReference(typ tftypes.Object, raw []byte) ([]byte, bool) {
	if !json.Valid(raw) {
		return nil, false
	}
	v, ok := referenceReadJSON(raw)
	if !ok {
		return nil, false
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, false
	}
	var buf bytes.Buffer
	if !writeMsgPack(msgpack.NewEncoder(&buf), typ, v) {
		return nil, false
	}
	return buf.Bytes(), true
}

// sameAsReference fails t when readJSON and the reference read raw differently.
func sameAsReference(t *testing.T, raw []byte) {
	t.Helper()
	got, gotOK := readJSON(raw)
	want, wantOK := referenceReadJSON(raw)
	if gotOK != wantOK || !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\n got %#v %v\nwant %#v %v", raw, got, gotOK, want, wantOK)
	}
}

// readJSONCases are hand-made documents where a scanner could part from encoding/json.
var readJSONCases = []string{
	`{}`, `[]`, `""`, `null`, `true`, `false`, `0`, `-0`, `" a "`,
	` { } `, "\t\r\n[\n]\n", ` {"a" : [ 1 , 2 ] , "b":{ "c" :null} } `,
	`{"s":"plain ascii"}`,
	`{"s":"\"quoted\" \\ \/ \b\f\n\r\t"}`,
	`{"s":"\u00e9t\u00e9 \ud83d\ude00"}`,       // surrogate pair
	`{"s":"lone \ud83d high"}`,                 // lone high surrogate: U+FFFD
	`{"s":"lone \ude00 low"}`,                  // lone low surrogate
	`{"s":"\ud83d\ud83d"}`,                     // two highs
	`{"s":"\ud83d\u0041"}`,                     // a high then a letter
	`{"s":"\u0000\u001f\u007f\u0080\uffff"}`,   // edges
	"{\"s\":\"caf\xc3\xa9\"}",                  // UTF-8 as it is
	"{\"s\":\"bad \xff\xfe bytes\"}",           // invalid UTF-8: U+FFFD each
	"{\"s\":\"cut \xe2\x82\"}",                 // a cut sequence
	"{\"s\":\"\xed\xa0\x80\"}",                 // an encoded surrogate
	"{\"\xff\":1}",                             // invalid UTF-8 in a key
	`{"\u0061":1,"b":2}`, `{"a":1,"\u0061":2}`, // a duplicate only once unquoted
	"{\"\xff\":1,\"\xfe\":2}",                                                   // both keys become U+FFFD
	`{"a":1,"a":1}`, `{"o":{"x":[{"k":1,"k":2}]}}`, `[[[{"d":{"d":0,"d":0}}]]]`, // duplicates at depth
	`{"a":{},"b":{"a":1}}`, // the same key in other objects is no duplicate
	`{"n":12345678901234567890123456789012345678901234567890}`,
	`{"n":-12345678901234567890.000000000000000000001}`,
	`{"n":1e400,"m":-1E-400,"o":1.5e+10,"p":0.1,"q":-0.0,"r":2E0}`,
	`[1,-1,0.5,-0.5e-5,9223372036854775807,-9223372036854775808,18446744073709551616]`,
	`{"l":[[],[{}],{"x":[]}],"e":{"":""}}`,
	`{"":1,"":2}`, // the empty key duplicated
	`["\\", "\\\\", "\\\"", "\"\\"]`,
	`{"k\"ey":"v\\"}`,
}

func TestReadJSONMatchesTheReference(t *testing.T) {
	for _, c := range readJSONCases {
		if !json.Valid([]byte(c)) {
			t.Fatalf("case %q is not valid JSON", c)
		}
		sameAsReference(t, []byte(c))
	}
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewSource(seed))
	for range 3000 {
		var b strings.Builder
		randomJSON(r, &b, 0)
		raw := []byte(b.String())
		if !json.Valid(raw) {
			t.Fatalf("seed %d: the generator wrote invalid JSON %q", seed, raw)
		}
		sameAsReference(t, raw)
	}
}

// randomJSON writes a random valid JSON value with random whitespace, odd strings and
// numbers, and now and then a duplicated key.
func randomJSON(r *rand.Rand, b *strings.Builder, depth int) {
	space := func() {
		for range r.Intn(3) {
			b.WriteByte(" \t\n\r"[r.Intn(4)])
		}
	}
	space()
	kind := r.Intn(8)
	if depth > 4 && kind < 2 {
		kind += 2
	}
	switch kind {
	case 0:
		b.WriteByte('{')
		var keys []string
		for i := range r.Intn(5) {
			if i > 0 {
				b.WriteByte(',')
			}
			key := randomString(r)
			if len(keys) > 0 && r.Intn(30) == 0 {
				key = keys[r.Intn(len(keys))]
			}
			keys = append(keys, key)
			space()
			b.WriteString(key)
			space()
			b.WriteByte(':')
			randomJSON(r, b, depth+1)
		}
		space()
		b.WriteByte('}')
	case 1:
		b.WriteByte('[')
		for i := range r.Intn(5) {
			if i > 0 {
				b.WriteByte(',')
			}
			randomJSON(r, b, depth+1)
		}
		space()
		b.WriteByte(']')
	case 2, 3:
		b.WriteString(randomString(r))
	case 4, 5:
		b.WriteString(randomNumber(r))
	case 6:
		b.WriteString([]string{"true", "false"}[r.Intn(2)])
	default:
		b.WriteString("null")
	}
	space()
}

// randomString is a quoted JSON string of plain letters, escapes, surrogates (paired or
// not), UTF-8 and invalid bytes.
func randomString(r *rand.Rand) string {
	pieces := []string{"a", "b", "k", " ", "é", "😀", "\xff", "\xc3", "\xed\xa0\x80", `\"`, `\\`, `\/`, `\n`, `\t`, `\u0041`, `\u00e9`,
		`\ud83d`, `\ude00`, `\ud83d\ude00`, `\u0000`, `\uFFFD`}
	var b strings.Builder
	b.WriteByte('"')
	n := r.Intn(4)
	if r.Intn(3) == 0 {
		n = r.Intn(3) // mostly plain: a few short keys, often repeated
		for range n {
			b.WriteByte("abc"[r.Intn(3)])
		}
	} else {
		for range n {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
	}
	b.WriteByte('"')
	return b.String()
}

// randomNumber is a JSON number: signed, fractional, with an exponent, or very long.
func randomNumber(r *rand.Rand) string {
	var b strings.Builder
	if r.Intn(2) == 0 {
		b.WriteByte('-')
	}
	if r.Intn(4) == 0 {
		b.WriteByte('0')
	} else {
		b.WriteByte(byte('1' + r.Intn(9)))
		for range r.Intn(25) {
			b.WriteByte(byte('0' + r.Intn(10)))
		}
	}
	if r.Intn(3) == 0 {
		b.WriteByte('.')
		for range 1 + r.Intn(5) {
			b.WriteByte(byte('0' + r.Intn(10)))
		}
	}
	if r.Intn(4) == 0 {
		b.WriteString([]string{"e", "E", "e+", "e-", "E-"}[r.Intn(5)])
		fmt.Fprint(&b, r.Intn(500))
	}
	return b.String()
}

func FuzzReadJSON(f *testing.F) {
	for _, c := range readJSONCases {
		f.Add([]byte(c))
	}
	for _, s := range realisticStates {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if json.Valid(raw) {
			sameAsReference(t, raw)
		}
	})
}

// realisticStates are states as the CLI stores them (attributes of an astra_cluster and an
// astra_managed_cluster, keys sorted, as Terraform and OpenTofu write them).
var realisticStates = []string{
	`{"acc_host":null,"api_service_id":"76916bee-e043-5d98-a4c2-ddc4086ed7b4","cloud_id":"49c14ba1-2e62-4243-a102-6abb0b2101de","cluster_creation_timestamp":"2026-11-02T08:46:44.319364Z","cluster_type":"kubernetes","cluster_version":"1.27","cluster_version_string":"v1.27.4","credential_id":"d5450692-0612-4527-a346-92efec2c6b79","id":"0c8e1a51-8a2b-4b6c-9d3e-2f1a4b5c6d7e","labels":{"env":"prod","team":"storage"},"managed_state":"managed","metadata":{"created_by":"8f14e45f-ceea-467f-a2a3-8a5f0c1e2d3b","creation_timestamp":"2026-11-02T08:46:44Z","labels":[],"modification_timestamp":"2026-11-02T08:47:10Z"},"name":"prod-east-1","namespaces":["default","kube-system","trident"],"private_route_id":null,"protection_state":"full","state":"running","state_unready":[],"timeouts":null,"tpv":0.5,"version":"1.2"}`,
	"{\n  \"name\": \"caf\u00e9 \\u00e9\\ud83d\\ude00\",\n  \"count\": -12,\n  \"ratio\": 1e-3,\n  \"big\": 123456789012345678901234567890,\n  \"tags\": {\"a\": \"\", \"b\": \"\\\"\"},\n  \"list\": [true, false, null, [], {}]\n}\n",
}
