package astra

import (
	"encoding/binary"
	"errors"
)

// A listed item is kept as its differences from the listing's first item (the
// dictionary): runs copied from the dictionary and literal runs. The items of one
// collection share their keys and most of their values, so a cluster keeps a sixth of its
// bytes, a credential two fifths (the IDs that differ). Deflate against the same dictionary
// kept a quarter to a third less, but set up its 640 kB of hash tables again for every item
// and decoded bit by bit: a fleet's steady plan spent 7% of the provider's CPU there (issue
// 48). Here an item is one pass over its bytes, with a 4 kB index of the dictionary built
// once per listing.
//
// The encoding is a sequence of operations, each a uvarint n<<1|op: op 0 is n literal
// bytes, which follow; op 1 copies n bytes of the dictionary from the offset, a uvarint,
// that follows.

const (
	indexBits = 10
	// minCopy is the shortest run worth a copy: a copy costs 2 to 4 bytes, and ending a
	// literal run for it 1 or 2 more.
	minCopy = 6
)

// dictIndex maps the hash of 4 bytes to the last offset in the dictionary where they start, +1 (0: none).
type dictIndex [1 << indexBits]int32

func hash4(b []byte) uint32 {
	return binary.LittleEndian.Uint32(b) * 2654435761 >> (32 - indexBits)
}

func indexDict(dict []byte) *dictIndex {
	var index dictIndex
	for i := 0; i+4 <= len(dict); i++ {
		index[hash4(dict[i:])] = int32(i + 1)
	}
	return &index
}

// matchLen is how many bytes a and b share from their start.
func matchLen(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// appendDelta appends item's encoding against dict (indexed by index) to dst.
func appendDelta(dst, item, dict []byte, index *dictIndex) []byte {
	literal := 0 // where the pending literal run starts
	// next is where the dictionary continues after the last copy, shifted by what the item
	// held since: a value of the same length that differs (an ID, a time) is followed by
	// the same text in both, which the hash of the 4 bytes after it may not point to.
	next := -1
	for i := 0; i+minCopy <= len(item); {
		bestAt, bestLen := -1, 0
		if next >= 0 && next < len(dict) {
			bestAt, bestLen = next, matchLen(item[i:], dict[next:])
		}
		if at := int(index[hash4(item[i:])]) - 1; at >= 0 && at != bestAt {
			if n := matchLen(item[i:], dict[at:]); n > bestLen {
				bestAt, bestLen = at, n
			}
		}
		if bestLen < minCopy {
			i++
			if next >= 0 {
				next++
			}
			continue
		}
		dst = appendLiteral(dst, item[literal:i])
		dst = binary.AppendUvarint(dst, uint64(bestLen)<<1|1)
		dst = binary.AppendUvarint(dst, uint64(bestAt))
		i += bestLen
		literal, next = i, bestAt+bestLen
	}
	return appendLiteral(dst, item[literal:])
}

func appendLiteral(dst, run []byte) []byte {
	if len(run) == 0 {
		return dst
	}
	dst = binary.AppendUvarint(dst, uint64(len(run))<<1)
	return append(dst, run...)
}

var errBadDelta = errors.New("not an encoding of an item of this size against this dictionary")

// decodeDelta decodes what appendDelta encoded into exactly size bytes.
func decodeDelta(packed, dict []byte, size int) ([]byte, error) {
	out := make([]byte, 0, size)
	for len(packed) > 0 {
		op, k := binary.Uvarint(packed)
		if k <= 0 {
			return nil, errBadDelta
		}
		packed = packed[k:]
		n := op >> 1
		if n > uint64(size-len(out)) {
			return nil, errBadDelta // longer than recorded
		}
		if op&1 == 0 {
			if n > uint64(len(packed)) {
				return nil, errBadDelta
			}
			out, packed = append(out, packed[:n]...), packed[n:]
			continue
		}
		at, k := binary.Uvarint(packed)
		if k <= 0 || at > uint64(len(dict)) || n > uint64(len(dict))-at {
			return nil, errBadDelta
		}
		out, packed = append(out, dict[at:at+n]...), packed[k:]
	}
	if len(out) != size {
		return nil, errBadDelta // shorter than recorded
	}
	return out, nil
}
