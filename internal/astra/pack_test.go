package astra

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"testing"
)

func TestPackedItemsUnpackAsListed(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	items := map[string]json.RawMessage{}
	listed := 0
	for i := range 200 {
		id := fmt.Sprintf("%08x-0000-4000-8000-%012x", rng.Uint32(), i)
		raw := json.RawMessage(fmt.Sprintf(`{"type":"application/astra-cluster","version":"1.6","id":%q,"name":"fleet-%d",`+
			`"state":"running","labels":[{"name":"team","value":"t%d"}],"metadata":{"createdBy":%q}}`, id, i, rng.Intn(9), id))
		items[id] = raw
		listed += len(raw)
	}
	items["odd"] = json.RawMessage(`[1,2,3]`) // nothing like the others still round-trips

	packed := packAll(t, items)
	if len(packed) != len(items) {
		t.Fatalf("packed %d items of %d", len(packed), len(items))
	}
	kept := 0
	for id, p := range packed {
		got, err := p.unpack()
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if string(got) != string(items[id]) {
			t.Fatalf("%s: unpacked %s, listed %s", id, got, items[id])
		}
		kept += int(p.n)
	}
	var from *listing
	for _, p := range packed {
		if from == nil {
			from = p.from
		}
		if p.from != from {
			t.Fatal("the items of one listing are packed into two")
		}
	}
	held := len(from.dict)
	for _, b := range from.blocks {
		held += len(b)
		if cap(b) > blockSize {
			t.Errorf("a block of %d bytes, want at most %d", cap(b), blockSize)
		}
	}
	if held*3 > listed {
		t.Errorf("the listing holds %d bytes for %d listed: want under a third", held, listed)
	}
	if kept*3 > listed {
		t.Errorf("packed items hold %d bytes of %d listed: want under a third", kept, listed)
	}
}

func TestPackedItemUnpackRefusesATruncatedItem(t *testing.T) {
	packed := packAll(t, map[string]json.RawMessage{
		"a": json.RawMessage(`{"id":"a","name":"one"}`),
		"b": json.RawMessage(`{"id":"b","name":"two"}`),
	})
	for _, p := range packed {
		p.size++
		if _, err := p.unpack(); err == nil {
			t.Fatal("an item shorter than recorded unpacked without error")
		}
		p.size -= 2
		if _, err := p.unpack(); err == nil {
			t.Fatal("an item longer than recorded unpacked without error")
		}
	}
}

// packAll packs items as one listing.
func packAll(t *testing.T, items map[string]json.RawMessage) map[string]packedItem {
	t.Helper()
	var p packer
	out := map[string]packedItem{}
	for id, raw := range items {
		out[id] = p.pack(raw)
	}
	return out
}

func TestPlainPackerLaysItemsEndToEnd(t *testing.T) {
	p := packer{plain: true}
	items := []string{`{"id":"a"}`, `{"id":"b","name":"two"}`, ""}
	var packed []packedItem
	for _, raw := range items {
		packed = append(packed, p.pack(json.RawMessage(raw)))
	}
	if p.index != nil || p.into.dict != nil {
		t.Fatal("a plain packer indexed a dictionary")
	}
	for i, item := range packed {
		got, err := item.unpack()
		if err != nil || string(got) != items[i] {
			t.Fatalf("item %d: %q (%v), want %q", i, got, err, items[i])
		}
		if cap(got) != len(got) {
			t.Fatalf("item %d: capacity %d past its %d bytes: an append would overwrite the next item", i, cap(got), len(got))
		}
	}
}
