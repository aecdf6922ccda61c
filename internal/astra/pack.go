package astra

import (
	"bytes"
	"compress/flate"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"
)

// Shared listings are kept packed. A fleet's listing is the provider's largest live
// memory: 1000 clusters, their managed clusters and their credentials are 3.6 MB of JSON,
// and the Go heap grows to twice what is live. The items of one collection carry the same
// fields and mostly the same values, so each is deflated against the listing's first item
// (the dictionary): 11-27% of their size, for about 20 ms per 1000 items to pack and 5 ms
// to unpack. The packed items lie end to end in a few 32 kB blocks, and a cached item is
// where its bytes are: 3000 small allocations and their map slots were as large again.

const (
	// packLevel is the lowest level that uses the dictionary (BestSpeed ignores it).
	packLevel = 2
	// blockSize keeps each block a small object for the allocator (at most 32 kB).
	blockSize = 32 << 10
)

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
// them end to end: a deflater costs about 1 MB to set up, worth it for a whole collection,
// not for a few objects read by ID.
type packer struct {
	plain bool
	into  *listing
	w     *flate.Writer
	buf   bytes.Buffer
}

func (p *packer) pack(raw json.RawMessage) (packedItem, error) {
	if p.into == nil {
		p.into = &listing{}
		if !p.plain {
			p.into.dict = bytes.Clone(raw)
		}
	}
	if p.plain {
		return p.into.add(raw, len(raw)), nil
	}
	p.buf.Reset()
	if p.w == nil {
		var err error
		if p.w, err = flate.NewWriterDict(&p.buf, packLevel, p.into.dict); err != nil {
			return packedItem{}, err
		}
	} else {
		p.w.Reset(&p.buf)
	}
	if _, err := p.w.Write(raw); err != nil {
		return packedItem{}, err
	}
	if err := p.w.Close(); err != nil {
		return packedItem{}, err
	}
	return p.into.add(p.buf.Bytes(), len(raw)), nil
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

// inflaters keeps flate readers for reuse: a new one costs about 40 kB.
var inflaters sync.Pool

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
	data := bytes.NewReader(packed)
	r, _ := inflaters.Get().(io.ReadCloser)
	if resetter, ok := r.(flate.Resetter); !ok {
		r = flate.NewReaderDict(data, p.from.dict)
	} else if err := resetter.Reset(data, p.from.dict); err != nil {
		return nil, err
	}
	defer inflaters.Put(r)
	out := make([]byte, p.size)
	if _, err := io.ReadFull(r, out); err != nil {
		return nil, fmt.Errorf("astra: unpacking a listed item: %w", err)
	}
	if n, _ := r.Read(make([]byte, 1)); n != 0 {
		return nil, fmt.Errorf("astra: unpacking a listed item: longer than %d bytes", p.size)
	}
	return out, nil
}
