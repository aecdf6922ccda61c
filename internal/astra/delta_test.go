package astra

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzDelta: every item round-trips against every dictionary, and any bytes decode to an
// error or to exactly the recorded size, never a panic.
func FuzzDelta(f *testing.F) {
	f.Add([]byte(`{"id":"a","name":"one","state":"running"}`), []byte(`{"id":"b","name":"two","state":"running"}`))
	f.Add([]byte(`{"id":"748a5fde-ce0e-4f0e-a0fb-3234d364ae55"}`), []byte(`{"id":"9e6922d0-79bb-4666-b0fc-c4608761dd6d"}`))
	f.Add([]byte(""), []byte("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"))
	f.Add([]byte("abc"), []byte(""))
	f.Fuzz(func(t *testing.T, dict, item []byte) {
		packed := appendDelta(nil, item, dict, indexDict(dict))
		got, err := decodeDelta(packed, dict, len(item))
		if err != nil || !bytes.Equal(got, item) {
			t.Fatalf("%q against %q: decoded %q (%v)", item, dict, got, err)
		}
		// The item's own bytes read as an encoding: whatever comes out is of the size asked.
		if out, err := decodeDelta(item, dict, len(dict)); err == nil && len(out) != len(dict) {
			t.Fatalf("decoded %d bytes, asked for %d", len(out), len(dict))
		}
	})
}

func TestDeltaRefusesWhatItDidNotEncode(t *testing.T) {
	dict := []byte(`{"id":"a","name":"one","state":"running"}`)
	item := []byte(`{"id":"b","name":"one","state":"running"}`)
	packed := appendDelta(nil, item, dict, indexDict(dict))
	if len(packed) >= len(item)/2 {
		t.Fatalf("an item nearly the dictionary packed to %d bytes of %d", len(packed), len(item))
	}
	cases := map[string]struct {
		packed []byte
		size   int
	}{
		"shorter than recorded":    {packed, len(item) + 1},
		"longer than recorded":     {packed, len(item) - 1},
		"cut short":                {packed[:len(packed)-1], len(item)},
		"an op cut in its varint":  {[]byte{0x80}, 1},
		"literal past the end":     {[]byte{10 << 1, 'a'}, 10},
		"copy past the dictionary": {[]byte{5<<1 | 1, byte(len(dict) - 2)}, 5},
		"copy offset cut":          {[]byte{5<<1 | 1}, 5},
	}
	for name, c := range cases {
		if out, err := decodeDelta(c.packed, dict, c.size); !errors.Is(err, errBadDelta) {
			t.Errorf("%s: decoded %q (%v), want errBadDelta", name, out, err)
		}
	}
}
