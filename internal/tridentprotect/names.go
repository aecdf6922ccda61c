package tridentprotect

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"
)

// maxNameLength keeps every name an RFC 1123 label (63), the strictest rule Kubernetes
// applies to object names, so a name is valid whatever Trident protect derives from it.
const maxNameLength = 63

// sanitizeName turns an Astra name into an RFC 1123 label: lower case, every run of
// other characters a single '-', no '-' at either end, at most 63 characters; fallback
// when nothing is left.
func sanitizeName(name, fallback string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	out := truncateName(b.String(), maxNameLength)
	if out == "" {
		return fallback
	}
	return out
}

func truncateName(name string, n int) string {
	if len(name) > n {
		name = name[:n]
	}
	return strings.TrimRight(name, "-")
}

// nameRequest asks for a name: base is the sanitized Astra name, key what tells the
// object apart (its Astra ID, else its name).
type nameRequest struct {
	base string
	key  string
}

// assignNames gives each request a name unique among them. A base only one request has is
// used as it is; a shared one gets "-" and a hash of the key on every request that shares
// it, not only the later ones, so the names do not depend on the order the estate came in.
func assignNames(reqs []nameRequest) []string {
	out := make([]string, len(reqs))
	count := map[string]int{}
	for _, r := range reqs {
		count[r.base]++
	}
	for i, r := range reqs {
		out[i] = r.base
		if count[r.base] > 1 {
			out[i] = withSuffix(r.base, hashOf(r.key, 5))
		}
	}
	// A suffixed name can still meet another object's own name, or two keys can share
	// a short hash: a longer hash, then (identical keys) a counter in key order.
	for _, width := range []int{12, 0} {
		dups := duplicates(out)
		if len(dups) == 0 {
			break
		}
		idx := make([]int, 0, len(dups))
		for i := range out {
			if dups[out[i]] {
				idx = append(idx, i)
			}
		}
		sort.SliceStable(idx, func(a, b int) bool { return reqs[idx[a]].key < reqs[idx[b]].key })
		for n, i := range idx {
			if width > 0 {
				out[i] = withSuffix(reqs[i].base, hashOf(reqs[i].key, width))
			} else {
				out[i] = withSuffix(reqs[i].base, hashOf(reqs[i].key, 12)+"-"+strconv.Itoa(n+1))
			}
		}
	}
	return out
}

func duplicates(names []string) map[string]bool {
	seen := map[string]int{}
	for _, n := range names {
		seen[n]++
	}
	dups := map[string]bool{}
	for n, c := range seen {
		if c > 1 {
			dups[n] = true
		}
	}
	return dups
}

func withSuffix(base, suffix string) string {
	return truncateName(base, maxNameLength-1-len(suffix)) + "-" + suffix
}

func hashOf(key string, n int) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])[:n]
}

// keyOf is what tells an object apart when names collide: its ID, else its name.
func keyOf(id, name string) string {
	if id != "" {
		return id
	}
	return name
}

// assignByDomain names requests uniquely within each domain (a kind's namespace).
func assignByDomain(domains []string, reqs []nameRequest) []string {
	groups := map[string][]int{}
	for i, d := range domains {
		groups[d] = append(groups[d], i)
	}
	out := make([]string, len(reqs))
	for _, idx := range groups {
		sub := make([]nameRequest, len(idx))
		for j, i := range idx {
			sub[j] = reqs[i]
		}
		for j, name := range assignNames(sub) {
			out[idx[j]] = name
		}
	}
	return out
}
