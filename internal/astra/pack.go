package astra

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// Shared listings are kept packed. A fleet's listing is the provider's largest live
// memory: 1000 clusters, their managed clusters and their credentials are 3.6 MB of JSON,
// and the Go heap grows to twice what is live. The items of one collection carry the same
// fields and mostly the same values, so each is kept as its differences from the listing's
// first item (the dictionary, delta.go). The packed items lie end to end in a few 32 kB
// blocks, and a cached item is where its bytes are: 3000 small allocations and their map
// slots were as large again.

// blockSize keeps each block a small object for the allocator (at most 32 kB).
const blockSize = 32 << 10

// listing is what one listing round packed.
type listing struct {
	dict   []byte   // the first item, as listed
	blocks [][]byte // the packed items, end to end
	at     time.Time
	seq    uint64
}

// packedItem is one item of a listing: its packed bytes blocks[block][off:off+n], size
// bytes once unpacked.
type packedItem struct {
	from                *listing
	block, off, n, size uint32
}

// packer packs the items of one listing as they are decoded. A plain packer only lays
// them end to end: indexing the dictionary is worth it for a whole collection, not for a
// few objects read by ID.
type packer struct {
	plain bool
	into  *listing
	index *dictIndex
	buf   []byte
}

func (p *packer) pack(raw json.RawMessage) packedItem {
	if p.into == nil {
		p.into = &listing{}
		if !p.plain {
			p.into.dict = bytes.Clone(raw)
			p.index = indexDict(p.into.dict)
		}
	}
	if p.plain {
		return p.into.add(raw, len(raw))
	}
	p.buf = appendDelta(p.buf[:0], raw, p.into.dict, p.index)
	return p.into.add(p.buf, len(raw))
}

// add lays packed (size bytes unpacked) after the listing's other items.
func (l *listing) add(packed []byte, size int) packedItem {
	blocks := l.blocks
	if len(blocks) == 0 || len(blocks[len(blocks)-1])+len(packed) > cap(blocks[len(blocks)-1]) {
		blocks = append(blocks, make([]byte, 0, max(blockSize, len(packed))))
	}
	last := len(blocks) - 1
	off := len(blocks[last])
	blocks[last] = append(blocks[last], packed...)
	l.blocks = blocks
	return packedItem{from: l, block: uint32(last), off: uint32(off), n: uint32(len(packed)), size: uint32(size)}
}

// unpack returns the item as it was listed.
func (p packedItem) unpack() (json.RawMessage, error) {
	if p.from == nil {
		return nil, fmt.Errorf("astra: unpacking a listed item: no listing")
	}
	packed := p.from.blocks[p.block][p.off : p.off+p.n : p.off+p.n]
	if p.from.dict == nil { // a plain listing's item, shared by its readers, who only decode it
		if p.n != p.size {
			return nil, fmt.Errorf("astra: unpacking a listed item: %d bytes, not %d", p.n, p.size)
		}
		return packed, nil
	}
	out, err := decodeDelta(packed, p.from.dict, int(p.size))
	if err != nil {
		return nil, fmt.Errorf("astra: unpacking a listed item: %w", err)
	}
	return out, nil
}
