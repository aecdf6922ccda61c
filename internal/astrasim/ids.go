package astrasim

import (
	"crypto/sha1"
	"crypto/sha256"
	"fmt"
	"regexp"
	"strconv"
)

// The three forms type_astra_identifier accepts: UUIDv4, UUIDv5 and the all-zero UUID.
var identifierPattern = regexp.MustCompile(`^([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}|0{8}-0{4}-0{4}-0{4}-0{12})$`)

// nullUUID is what the service uses as createdBy for objects it creates itself.
const nullUUID = "00000000-0000-0000-0000-000000000000"

func isIdentifier(s string) bool { return identifierPattern.MatchString(s) }

// derivedUUID4 is a UUIDv4 that depends only on the seed and a label, so seeded objects
// keep their IDs from run to run and generated ones never collide after a restart.
func derivedUUID4(seed int64, label string) string {
	h := sha256.Sum256([]byte(strconv.FormatInt(seed, 10) + "/" + label))
	b := h[:16]
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return formatUUID(b)
}

// urlNamespace is RFC 4122's namespace for URLs.
var urlNamespace = [16]byte{0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8}

// uuid5 is the RFC 4122 name-based (SHA-1) UUID of name in the URL namespace; the
// simulator derives a cluster's apiServiceID from its API server URL with it.
func uuid5(name string) string {
	h := sha1.New()
	h.Write(urlNamespace[:])
	h.Write([]byte(name))
	b := h.Sum(nil)[:16]
	b[6] = b[6]&0x0f | 0x50
	b[8] = b[8]&0x3f | 0x80
	return formatUUID(b)
}

func formatUUID(b []byte) string {
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func itoa(n int) string { return strconv.Itoa(n) }
