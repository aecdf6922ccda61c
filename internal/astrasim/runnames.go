package astrasim

import (
	"crypto/sha256"
	"strconv"
	"strings"
	"time"
)

// Names the system gives snapshots and backups ("If not specified, or when snapshots are
// initiated by a schedule, the system assigns a name"). Both forms follow what NetApp's
// toolkit documentation shows the service answering: an on-demand snapshot named
// "wordpress-snapshot-20220523161542" (app, kind, UTC time), a policy's backup
// "hourly-cpesy-g82fd" (the policy's name and five random characters). Names are DNS-1123
// labels, as the schema requires.

// dnsLabel turns a name into a DNS-1123 label of at most limit characters: lower case,
// runs of other characters as one "-", no "-" at either end; fallback when nothing is left.
func dnsLabel(name string, limit int, fallback string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	out := b.String()
	if len(out) > limit {
		out = strings.TrimRight(out[:limit], "-")
	}
	if out == "" {
		return fallback
	}
	return out
}

// onDemandName is "<app>-<kind>-<UTC yyyymmddhhmmss>", with "-2", "-3"... when taken.
func onDemandName(a *app, kind string, now time.Time, taken func(string) bool) string {
	stamp := now.UTC().Format("20060102150405")
	base := dnsLabel(a.Name, 63-len(kind)-len(stamp)-2-3, "app") + "-" + kind + "-" + stamp
	name := base
	for i := 2; taken(name); i++ {
		name = base + "-" + strconv.Itoa(i)
	}
	return name
}

// scheduledName is "<policy>-<five characters>", derived from the seed and the object's
// sequence number so that runs are reproducible.
func scheduledName(seed int64, policy string, seq int) string {
	h := sha256.Sum256([]byte(strconv.FormatInt(seed, 10) + "/run-name/" + strconv.Itoa(seq)))
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	suffix := make([]byte, 5)
	for i := range suffix {
		suffix[i] = alphabet[int(h[i])%len(alphabet)]
	}
	return dnsLabel(policy, 57, "schedule") + "-" + string(suffix)
}
