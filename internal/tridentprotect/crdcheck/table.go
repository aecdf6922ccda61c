package crdcheck

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
)

// Our own statement of what Trident protect 26.05's API server accepts in the fields the
// renderer emits, written from its CRDs (chart trident-protect 100.2605.0, see README.md).
// It covers those fields only: a field not listed here is one the renderer must not emit.

// shape is the JSON type a field must have.
type shape int

const (
	text   shape = iota // a string
	flag                // a boolean
	whole               // an integer
	list                // a list; its items are at path+"[]"
	object              // an object whose fields are listed
	dict                // an object of any keys; each value is at path+".*"
	opaque              // anything (metadata: checked by objectMetaRefusals)
)

// rule is what the table says about one field. Its path is dotted from the object's root,
// "[]" standing for each item of a list and "*" for each value of a dict.
type rule struct {
	path     string
	is       shape
	required bool // present whenever the object holding it is
	enum     []string
	pattern  *regexp.Regexp
	minLen   int // characters
	maxLen   int // characters; 0: no limit
	maxItems int // 0: no limit
	minItems int
	atLeast  *int // integers
	// Updates (the CRDs' transition rules): the value cannot change once set, or once set
	// to something other than ""; fixedPresence: it can be neither added nor removed.
	immutable, immutableOnceSet, fixedPresence bool
}

type opt func(*rule)

var (
	required         opt = func(r *rule) { r.required = true }
	immutable        opt = func(r *rule) { r.immutable = true }
	immutableOnceSet opt = func(r *rule) { r.immutableOnceSet = true }
	fixedPresence    opt = func(r *rule) { r.fixedPresence = true }
)

func oneOf(v ...string) opt { return func(r *rule) { r.enum = v } }
func matches(re string) opt { return func(r *rule) { r.pattern = regexp.MustCompile(re) } }
func chars(lo, hi int) opt  { return func(r *rule) { r.minLen, r.maxLen = lo, hi } }
func items(lo, hi int) opt  { return func(r *rule) { r.minItems, r.maxItems = lo, hi } }
func atLeast(n int) opt     { return func(r *rule) { r.atLeast = &n } }
func f(path string, is shape, opts ...opt) rule {
	r := rule{path: path, is: is}
	for _, o := range opts {
		o(&r)
	}
	return r
}

// Every kind has these at its root; the API server requires a spec of each of ours.
func root(spec ...rule) []rule {
	return append([]rule{f("apiVersion", text), f("kind", text), f("metadata", opaque), f("spec", object, required)}, spec...)
}

// A Kubernetes label selector, as the Application's scopes take it at path.
func labelSelector(path string) []rule {
	return []rule{
		f(path, object),
		f(path+".matchLabels", dict), f(path+".matchLabels.*", text),
		f(path+".matchExpressions", list), f(path+".matchExpressions[]", object),
		f(path+".matchExpressions[].key", text, required),
		f(path+".matchExpressions[].operator", text, required),
		f(path+".matchExpressions[].values", list), f(path+".matchExpressions[].values[]", text),
	}
}

// Retention counts are decimal strings without leading zeros (Schedule, 26.05 CRD).
var count = []opt{matches(`^(0|[1-9][0-9]*)$`), chars(0, 63)}

var table = map[string][]rule{
	"AppVault": root(
		// providerType and providerConfig required (AppVault CRD, 26.05).
		f("spec.providerType", text, required),
		f("spec.providerConfig", object, required),
		// s3: bucketName and endpoint required; secure a "true"/"false" string.
		f("spec.providerConfig.s3", object),
		f("spec.providerConfig.s3.bucketName", text, required),
		f("spec.providerConfig.s3.endpoint", text, required),
		f("spec.providerConfig.s3.secure", text, oneOf("true", "false")),
		// gcp: bucketName and projectID required.
		f("spec.providerConfig.gcp", object),
		f("spec.providerConfig.gcp.bucketName", text, required),
		f("spec.providerConfig.gcp.projectID", text, required),
		// azure: accountName, bucketName and endpoint required.
		f("spec.providerConfig.azure", object),
		f("spec.providerConfig.azure.accountName", text, required),
		f("spec.providerConfig.azure.bucketName", text, required),
		f("spec.providerConfig.azure.endpoint", text, required),
		// providerCredentials: a map of credential name to a Secret's name and key, both required.
		f("spec.providerCredentials", dict),
		f("spec.providerCredentials.*", object),
		f("spec.providerCredentials.*.valueFromSecret", object, required),
		f("spec.providerCredentials.*.valueFromSecret.name", text, required),
		f("spec.providerCredentials.*.valueFromSecret.key", text, required),
		f("spec.dataMoverPasswordSecretRef", text),
	),
	"Application": append(append(root(
		// includedNamespaces: each entry's namespace required, 2 to 63 characters of a-z, 0-9
		// and "-", beginning and ending with a letter or digit (so never one letter); the
		// list cannot change after creation (Application CRD, 26.05).
		f("spec.includedNamespaces", list, immutable),
		f("spec.includedNamespaces[]", object),
		f("spec.includedNamespaces[].namespace", text, required, matches(`^[a-z0-9][a-z0-9-]*[a-z0-9]$`), chars(1, 63)),
		// includedClusterScopedResources: cannot change, be added or be removed after creation.
		f("spec.includedClusterScopedResources", list, immutable, fixedPresence),
		f("spec.includedClusterScopedResources[]", object),
		f("spec.includedClusterScopedResources[].groupVersionKind", object),
		f("spec.includedClusterScopedResources[].groupVersionKind.group", text),
		f("spec.includedClusterScopedResources[].groupVersionKind.version", text),
		f("spec.includedClusterScopedResources[].groupVersionKind.kind", text),
	), labelSelector("spec.includedNamespaces[].labelSelector")...),
		labelSelector("spec.includedClusterScopedResources[].labelSelector")...),
	"Schedule": root(
		// applicationRef, granularity and both retentions required (Schedule CRD, 26.05).
		f("spec.applicationRef", text, required),
		f("spec.appVaultRef", text),
		f("spec.granularity", text, required, oneOf("Hourly", "Daily", "Weekly", "Monthly", "Custom")),
		f("spec.enabled", flag),
		f("spec.snapshotRetention", text, append([]opt{required}, count...)...),
		f("spec.backupRetention", text, append([]opt{required}, count...)...),
		f("spec.backupReclaimPolicy", text, oneOf("Retain", "Delete")),
		// The time fields are free strings in the CRD; the renderer checks their ranges.
		f("spec.minute", text), f("spec.hour", text), f("spec.dayOfWeek", text), f("spec.dayOfMonth", text),
		// dataMover: not rendered, but immutable once set: kept so that an update test sees it.
		f("spec.dataMover", text, oneOf("Kopia", "Restic", "CBS"), immutableOnceSet),
	),
	"ExecHook": root(
		// applicationRef, stage, action and hookSource required (ExecHook CRD, 26.05).
		f("spec.applicationRef", text, required),
		f("spec.stage", text, required, oneOf("Pre", "Post")),
		f("spec.action", text, required, oneOf("Snapshot", "Backup", "Restore", "Failover")),
		f("spec.enabled", flag),
		// hookSource: the base64 script, at most 131072 characters.
		f("spec.hookSource", text, required, chars(0, 131072)),
		// At most 127 arguments and 10 matching criteria.
		f("spec.arguments", list, items(0, 127)), f("spec.arguments[]", text),
		f("spec.matchingCriteria", list, items(0, 10)),
		f("spec.matchingCriteria[]", object),
		f("spec.matchingCriteria[].type", text),
		f("spec.matchingCriteria[].value", text),
		f("spec.timeout", whole, atLeast(1)),
	),
}

// exactlyOne: an Application names its scope by namespaces or by virtual machines, never
// both nor neither (Application CRD, 26.05). The renderer emits namespaces only, so
// includedVirtualMachines is not in the table: emitting it is refused as a stray field too.
var exactlyOne = map[string][2]string{"Application": {"includedNamespaces", "includedVirtualMachines"}}

// ownTable checks obj (as JSON decodes it) against table.
type ownTable struct{}

func (ownTable) refusals(kind string, obj map[string]any) []string {
	rules, ok := table[kind]
	if !ok {
		return []string{fmt.Sprintf("kind %q is not in our table", kind)}
	}
	byPath := map[string]rule{}
	for _, r := range rules {
		byPath[r.path] = r
	}
	var errs []string
	checkObject(byPath, rules, "", "", obj, &errs)
	if pair, ok := exactlyOne[kind]; ok {
		spec, _ := obj["spec"].(map[string]any)
		_, a := spec[pair[0]]
		_, b := spec[pair[1]]
		if a == b {
			errs = append(errs, fmt.Sprintf("spec: exactly one of %s and %s must be given", pair[0], pair[1]))
		}
	}
	return errs
}

// checkObject checks the fields of m, an object at generic path gen (shown as at).
func checkObject(byPath map[string]rule, rules []rule, gen, at string, m map[string]any, errs *[]string) {
	join := func(a, b string) string {
		if a == "" {
			return b
		}
		return a + "." + b
	}
	for _, r := range rules {
		if r.required && parentOf(r.path) == gen {
			if _, ok := m[r.path[len(join(gen, "")):]]; !ok {
				*errs = append(*errs, join(at, r.path[len(join(gen, "")):])+" is required")
			}
		}
	}
	for _, k := range sortedKeys(m) {
		g := join(gen, k)
		if p, ok := byPath[gen]; ok && p.is == dict {
			g = join(gen, "*")
		}
		r, ok := byPath[g]
		if !ok {
			*errs = append(*errs, join(at, k)+" is not a field our table knows (the API server would drop it)")
			continue
		}
		checkValue(byPath, rules, r, g, join(at, k), m[k], errs)
	}
}

func parentOf(path string) string {
	if i := strings.LastIndex(path, "."); i >= 0 {
		return path[:i]
	}
	return ""
}

func checkValue(byPath map[string]rule, rules []rule, r rule, gen, at string, v any, errs *[]string) {
	bad := func(format string, a ...any) { *errs = append(*errs, at+" "+fmt.Sprintf(format, a...)) }
	switch r.is {
	case opaque:
	case text:
		s, ok := v.(string)
		if !ok {
			bad("must be a string, not %T", v)
			return
		}
		n := len([]rune(s))
		switch {
		case len(r.enum) > 0 && !contains(r.enum, s):
			bad("%q is none of %s", s, strings.Join(r.enum, ", "))
		case r.maxLen > 0 && n > r.maxLen:
			bad("has %d characters, more than %d", n, r.maxLen)
		case n < r.minLen:
			bad("has %d characters, fewer than %d", n, r.minLen)
		case r.pattern != nil && !r.pattern.MatchString(s):
			bad("%q does not match %s", s, r.pattern)
		}
	case flag:
		if _, ok := v.(bool); !ok {
			bad("must be true or false, not %T", v)
		}
	case whole:
		x, ok := v.(float64)
		if !ok || x != float64(int64(x)) {
			bad("must be an integer, not %v", v)
		} else if r.atLeast != nil && x < float64(*r.atLeast) {
			bad("is %v, less than %d", v, *r.atLeast)
		}
	case list:
		l, ok := v.([]any)
		if !ok {
			bad("must be a list, not %T", v)
			return
		}
		if r.maxItems > 0 && len(l) > r.maxItems {
			bad("has %d items, more than %d", len(l), r.maxItems)
		}
		if len(l) < r.minItems {
			bad("has %d items, fewer than %d", len(l), r.minItems)
		}
		if ir, ok := byPath[gen+"[]"]; ok {
			for i, e := range l {
				checkValue(byPath, rules, ir, gen+"[]", fmt.Sprintf("%s[%d]", at, i), e, errs)
			}
		}
	case object, dict:
		m, ok := v.(map[string]any)
		if !ok {
			bad("must be an object, not %T", v)
			return
		}
		checkObject(byPath, rules, gen, at, m, errs)
	}
}

// updateRefusals: the table's rules on an update of old into cur (both as JSON decodes them).
func (ownTable) updateRefusals(kind string, old, cur map[string]any) []string {
	var errs []string
	for _, r := range table[kind] {
		if !r.immutable && !r.immutableOnceSet && !r.fixedPresence {
			continue
		}
		o, hadIt := lookup(old, r.path)
		c, hasIt := lookup(cur, r.path)
		switch {
		case r.fixedPresence && hadIt != hasIt:
			errs = append(errs, r.path+" can be neither added nor removed after creation")
		case !hadIt || !hasIt:
		case r.immutable && !reflect.DeepEqual(o, c):
			errs = append(errs, r.path+" cannot change after creation")
		case r.immutableOnceSet && o != "" && !reflect.DeepEqual(o, c):
			errs = append(errs, r.path+" cannot change once set")
		}
	}
	return errs
}

// lookup finds the value at a path without "[]" or "*".
func lookup(m map[string]any, path string) (any, bool) {
	var v any = m
	for _, k := range strings.Split(path, ".") {
		o, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = o[k]; !ok {
			return nil, false
		}
	}
	return v, true
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
