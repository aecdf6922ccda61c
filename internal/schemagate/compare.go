package schemagate

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// dateLayout spells deprecated_since. A deprecated name lives at least six months from
// that date (and two minor releases, and is removed only in a major release).
const dateLayout = "2006-01-02"

// Options of a comparison.
type Options struct {
	// Now dates new deprecations and decides whether a deprecation is old enough.
	Now time.Time
	// Major allows removing names deprecated for at least six months: set only while
	// preparing a major release.
	Major bool
}

// Change is one difference between the snapshot and the provider's schema.
type Change struct {
	Where string // "resource astra_cluster attribute name"
	What  string // what changed and why it matters to users
	Fix   string // what to do; empty for compatible changes
}

func (c Change) String() string {
	if c.Fix == "" {
		return c.Where + ": " + c.What
	}
	return c.Where + ": " + c.What + "\n    what to do: " + c.Fix
}

// Result of a comparison: Breaking changes fail the gate whatever happens; Compatible
// ones (additions, relaxed rules, new deprecations) only mean the snapshot is out of date.
type Result struct {
	Breaking   []Change
	Compatible []Change
}

// Report is the gate's verdict in words, empty when the snapshot matches.
func (r Result) Report() string {
	var b strings.Builder
	if len(r.Breaking) > 0 {
		fmt.Fprintf(&b, "%d change(s) would break users' configurations or state (docs/guides/stability.md):\n", len(r.Breaking))
		for _, c := range r.Breaking {
			b.WriteString("  - " + c.String() + "\n")
		}
	}
	if len(r.Compatible) > 0 {
		fmt.Fprintf(&b, "%d compatible change(s) are not in the snapshot yet; run `make schema-snapshot` and commit the snapshot:\n", len(r.Compatible))
		for _, c := range r.Compatible {
			b.WriteString("  - " + c.String() + "\n")
		}
	}
	return b.String()
}

// Fixes, shared by the rules that need them.
const (
	fixRemoved = "put it back. To retire or rename it, keep it with a DeprecationMessage naming its replacement, " +
		"add a \"Deprecated\" entry to CHANGELOG.md, and remove it only in a major release, at least two minor " +
		"releases and six months later."
	fixRemovedResource = "put it back. To rename it, register the old type name too (same schema) with a DeprecationMessage " +
		"naming the new one; to retire it, deprecate it first (DeprecationMessage and CHANGELOG.md) and remove it only in a major release."
	fixType = "keep the type. Add an attribute with the new type, deprecate this one, and if state changes shape " +
		"raise the resource's schema version with a state upgrader."
)

// Compare checks the provider's current schema (cur) against the committed snapshot (old).
func Compare(old, cur *Snapshot, opts Options) Result {
	var r Result
	r.blocks(opts, "provider", map[string]*Block{"": old.Provider}, map[string]*Block{"": cur.Provider})
	r.blocks(opts, "resource", old.Resources, cur.Resources)
	r.blocks(opts, "data source", old.DataSources, cur.DataSources)
	r.blocks(opts, "list resource", old.ListResources, cur.ListResources)
	r.blocks(opts, "action", old.Actions, cur.Actions)
	r.identities(old.Identities, cur.Identities)
	return r
}

func (r *Result) breaking(where, what, fix string) {
	r.Breaking = append(r.Breaking, Change{Where: where, What: what, Fix: fix})
}

func (r *Result) compatible(where, what string) {
	r.Compatible = append(r.Compatible, Change{Where: where, What: what})
}

func (r *Result) blocks(opts Options, kind string, old, cur map[string]*Block) {
	for _, name := range unionKeys(old, cur) {
		o, c := old[name], cur[name]
		where := strings.TrimSpace(kind + " " + name)
		switch {
		case o == nil && c == nil:
			continue
		case o == nil:
			r.compatible(where, "added")
			continue
		case c == nil:
			if !o.Beta {
				r.removal(opts, where, o.Deprecated, o.DeprecatedSince, fixRemovedResource)
			} else {
				r.compatible(where, "removed (beta)")
			}
			continue
		}
		if c.Version < o.Version {
			r.breaking(where, fmt.Sprintf("schema version went down from %d to %d: state written by the newer provider can no longer be read", o.Version, c.Version),
				"never lower a schema version; raise it and add a state upgrader instead.")
		} else if c.Version > o.Version {
			r.compatible(where, fmt.Sprintf("schema version raised from %d to %d", o.Version, c.Version))
		}
		r.deprecationChange(where, o.Deprecated, c.Deprecated)
		r.attributes(opts, where, o, c)
	}
}

func (r *Result) attributes(opts Options, where string, ob, cb *Block) {
	for _, p := range unionKeys(ob.Attributes, cb.Attributes) {
		o, c := ob.Attributes[p], cb.Attributes[p]
		at := where + " attribute " + p
		switch {
		case o == nil:
			r.added(at, p, ob, c)
		case c == nil:
			if o.Beta {
				r.compatible(at, "removed (beta)")
			} else if !removedWithParent(p, ob, cb) {
				r.removal(opts, at, o.Deprecated, o.DeprecatedSince, fixRemoved)
			}
		case o.Beta:
			ov, cv := *o, *c
			ov.DeprecatedSince, cv.DeprecatedSince = "", ""
			if ov != cv {
				r.compatible(at, "changed (beta)")
			}
		default:
			r.attributeChange(at, o, c)
		}
	}
}

// removedWithParent is true when an ancestor of p is gone too: the ancestor is reported.
func removedWithParent(p string, ob, cb *Block) bool {
	for parent := parentPath(p); parent != ""; parent = parentPath(parent) {
		if ob.Attributes[parent] != nil && cb.Attributes[parent] == nil {
			return true
		}
	}
	return false
}

func parentPath(p string) string {
	if i := strings.LastIndex(p, "."); i >= 0 {
		return p[:i]
	}
	return ""
}

func (r *Result) added(at, p string, ob *Block, c *Attribute) {
	// Inside a new nested attribute or block only the new parent matters.
	if parent := parentPath(p); parent != "" && ob.Attributes[parent] == nil {
		return
	}
	if c.Required && !c.Beta {
		r.breaking(at, "new required argument: every existing configuration lacks it",
			"make it optional (a default or a computed value can stand in for the old behaviour).")
		return
	}
	r.compatible(at, "added")
}

func (r *Result) removal(opts Options, where, deprecated, since, fix string) {
	if deprecated == "" {
		r.breaking(where, "removed (or renamed) without a deprecation period", fix)
		return
	}
	sinceDate, err := time.Parse(dateLayout, since)
	if err != nil {
		r.breaking(where, fmt.Sprintf("removed, but the snapshot has no valid deprecated_since date (%q)", since),
			"put it back and run `make schema-snapshot` so the deprecation is dated.")
		return
	}
	until := sinceDate.AddDate(0, 6, 0)
	switch {
	case opts.Now.Before(until):
		r.breaking(where, fmt.Sprintf("removed %s; it was deprecated on %s and must stay until at least %s (and two minor releases)",
			opts.Now.Format(dateLayout), since, until.Format(dateLayout)),
			"put it back until then; remove it in the first major release after that date.")
	case !opts.Major:
		r.breaking(where, fmt.Sprintf("removed in a minor release (deprecated since %s)", since),
			"deprecated names are removed only in a major release: put it back, or, while preparing the major release, run `make schema-check SCHEMA_GATE_MAJOR=1`.")
	default:
		r.compatible(where, fmt.Sprintf("removed in a major release after its deprecation on %s", since))
	}
}

func (r *Result) deprecationChange(where, old, cur string) {
	switch {
	case old == "" && cur != "":
		r.compatible(where, "deprecated: "+cur)
	case old != "" && cur == "":
		r.compatible(where, "no longer deprecated")
	case old != cur:
		r.compatible(where, "deprecation message changed: "+cur)
	}
}

func (r *Result) attributeChange(at string, o, c *Attribute) {
	before := len(r.Breaking)
	if o.Type != c.Type {
		r.breaking(at, fmt.Sprintf("type changed from %s to %s: configurations and state written for the old type no longer fit", o.Type, c.Type), fixType)
	}
	if !o.Required && c.Required {
		r.breaking(at, "changed from optional to required: configurations that omit it stop working",
			"keep it optional (a default or a computed value can stand in).")
	}
	if o.Computed && !c.Computed {
		r.breaking(at, "no longer computed: the value the provider filled in is dropped, and configurations that omit it now plan a change",
			"keep it computed.")
	}
	if (o.Optional || o.Required) && !c.Optional && !c.Required {
		r.breaking(at, "can no longer be set: configurations that set it stop working",
			"keep it settable; if the value is now ignored, say so with a DeprecationMessage.")
	}
	if o.Sensitive && !c.Sensitive {
		r.breaking(at, "no longer sensitive: its value would show in plans and CLI output",
			"keep it sensitive.")
	}
	if o.WriteOnly != c.WriteOnly {
		r.breaking(at, fmt.Sprintf("write-only changed from %t to %t: references to it and the state that holds it change meaning", o.WriteOnly, c.WriteOnly),
			"leave this attribute as it is and add a separate argument (as kubeconfig_wo sits beside kubeconfig).")
	}
	if c.MinItems > o.MinItems {
		r.breaking(at, fmt.Sprintf("needs at least %d block(s) instead of %d: configurations with fewer stop working", c.MinItems, o.MinItems),
			"keep the minimum.")
	}
	if c.MaxItems != 0 && (o.MaxItems == 0 || c.MaxItems < o.MaxItems) {
		r.breaking(at, fmt.Sprintf("allows at most %d block(s) (was %d, 0 = unlimited): configurations with more stop working", c.MaxItems, o.MaxItems),
			"keep the maximum.")
	}
	if len(r.Breaking) > before {
		return
	}
	r.deprecationChange(at, o.Deprecated, c.Deprecated)
	if o.Beta != c.Beta {
		r.compatible(at, fmt.Sprintf("beta changed from %t to %t", o.Beta, c.Beta))
	}
	ov, cv := *o, *c
	ov.Deprecated, cv.Deprecated, ov.DeprecatedSince, cv.DeprecatedSince, ov.Beta, cv.Beta = "", "", "", "", false, false
	if ov != cv {
		r.compatible(at, fmt.Sprintf("relaxed: %s", describe(c)))
	}
}

func describe(a *Attribute) string {
	var flags []string
	for _, f := range []struct {
		on   bool
		name string
	}{{a.Required, "required"}, {a.Optional, "optional"}, {a.Computed, "computed"}, {a.Sensitive, "sensitive"}, {a.WriteOnly, "write-only"}} {
		if f.on {
			flags = append(flags, f.name)
		}
	}
	return a.Type + " " + strings.Join(flags, ", ")
}

func (r *Result) identities(old, cur map[string]*Identity) {
	for _, name := range unionKeys(old, cur) {
		o, c := old[name], cur[name]
		where := "resource " + name + " identity"
		switch {
		case o == nil:
			r.compatible(where, "added")
			continue
		case c == nil:
			r.breaking(where, "removed: imports by identity and identities in state stop working",
				"put the identity back; an identity lives as long as its resource.")
			continue
		}
		if c.Version < o.Version {
			r.breaking(where, fmt.Sprintf("identity version went down from %d to %d", o.Version, c.Version),
				"never lower an identity version.")
		} else if c.Version > o.Version {
			r.compatible(where, fmt.Sprintf("identity version raised from %d to %d", o.Version, c.Version))
		}
		for _, a := range unionKeys(o.Attributes, c.Attributes) {
			oa, ca := o.Attributes[a], c.Attributes[a]
			at := where + " attribute " + a
			switch {
			case oa == nil && ca.RequiredForImport:
				r.breaking(at, "new attribute required for import: existing import blocks lack it",
					"make it optional_for_import.")
			case oa == nil && c.Version == o.Version:
				r.breaking(at, "added without a new identity version: identities already in state lack it, and the next refresh fails with \"Unexpected Identity Change\"",
					"raise the identity version and give the resource an identity upgrader.")
			case oa == nil:
				r.compatible(at, "added")
			case ca == nil:
				r.breaking(at, "removed: identities in state and import blocks that name it stop working",
					"put it back; identity attributes never change within a major release.")
			case *oa != *ca:
				r.breaking(at, fmt.Sprintf("changed from %s to %s: identities in state and import blocks no longer fit", identityString(oa), identityString(ca)),
					"put it back as it was; identity attributes never change within a major release.")
			}
		}
	}
}

func identityString(a *IdentityAttribute) string {
	switch {
	case a.RequiredForImport:
		return a.Type + " required for import"
	case a.OptionalForImport:
		return a.Type + " optional for import"
	}
	return a.Type
}

// Update is the snapshot to commit for cur: deprecations keep the date the snapshot first
// recorded them, new ones are dated opts.Now.
func Update(old, cur *Snapshot, opts Options) *Snapshot {
	out := *cur
	today := opts.Now.Format(dateLayout)
	date := func(oldDep, oldSince, curDep string) string {
		switch {
		case curDep == "":
			return ""
		case oldDep != "" && oldSince != "":
			return oldSince
		}
		return today
	}
	stamp := func(oldBlocks, curBlocks map[string]*Block) {
		for name, c := range curBlocks {
			var o *Block
			if oldBlocks != nil {
				o = oldBlocks[name]
			}
			if o == nil {
				o = &Block{}
			}
			c.DeprecatedSince = date(o.Deprecated, o.DeprecatedSince, c.Deprecated)
			for p, a := range c.Attributes {
				oa := o.Attributes[p]
				if oa == nil {
					oa = &Attribute{}
				}
				a.DeprecatedSince = date(oa.Deprecated, oa.DeprecatedSince, a.Deprecated)
			}
		}
	}
	var oldProvider, oldResources, oldDataSources, oldLists, oldActions map[string]*Block
	if old != nil {
		oldProvider = map[string]*Block{"": old.Provider}
		oldResources, oldDataSources, oldLists, oldActions = old.Resources, old.DataSources, old.ListResources, old.Actions
	}
	stamp(oldProvider, map[string]*Block{"": out.Provider})
	stamp(oldResources, out.Resources)
	stamp(oldDataSources, out.DataSources)
	stamp(oldLists, out.ListResources)
	stamp(oldActions, out.Actions)
	return &out
}

func unionKeys[V any](a, b map[string]V) []string {
	seen := map[string]bool{}
	for k := range a {
		seen[k] = true
	}
	for k := range b {
		seen[k] = true
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
