package astrasim

import "strings"

// opContains is how the directory searches (ldapUsers, ldapGroups) read `in`: a partial,
// case-insensitive match of the whole quoted value, not membership of a comma-separated
// list. The spec documents only eq, lt, gt, lte and gte; NetApp's actoolkit sends
// `email in 'bob'` for its "partial (in) match" and `dn in '<a whole DN, commas and all>'`
// to find one group before `create group`, then keeps the exact match itself (research
// notes §4.13, §4.15). The other collections keep the list reading (`id in 'a,b'`).
const opContains = "contains"

// partialIn rewrites the `in` terms of a directory search into opContains.
func (lq *listQuery) partialIn() {
	for i, c := range lq.filters {
		if c.op == "in" {
			lq.filters[i].op, lq.filters[i].values = opContains, []string{strings.Join(c.values, ",")}
		}
	}
}

// containsFold reports whether have holds want, ignoring case as LDAP substring matches do.
func containsFold(have, want string) bool {
	return strings.Contains(strings.ToLower(have), strings.ToLower(want))
}
