// Package crdcheck says whether Kubernetes would accept a Trident protect custom resource
// the renderer emits, as an API server checks one, so far as Go without an API server can.
// Only the tests import it.
//
// Two sources of rules (see README.md):
//   - always, our own table (table.go): the fields the renderer emits, with their types,
//     required ones, enums, patterns, lengths, item counts and the rules on updates, as
//     Trident protect 26.05's CRDs state them, written down by hand; a field not in the
//     table is refused (the API server would drop it);
//   - also, when the chart's CRD files are at hand (TRIDENT_PROTECT_CRDS, or
//     ../shared/reference/trident-protect-crds beside the repository), their
//     openAPIV3Schema with kin-openapi and their CEL rules by Go twins (chart.go).
//
// Both check ObjectMeta too: the name a DNS subdomain, the namespace a DNS label, nothing
// else set. Not covered: defaulting, CEL's cost limits.
package crdcheck

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
)

// APIVersion is the API version of every kind here.
const APIVersion = "protect.trident.netapp.io/v1"

// EnvCRDs names the directory of the chart's CRD files (the chart's templates/crd).
const EnvCRDs = "TRIDENT_PROTECT_CRDS"

// sharedCRDs is where CI keeps the chart's CRD files, relative to the repository root.
const sharedCRDs = "../shared/reference/trident-protect-crds"

// OwnTable is the name of the check by our own table.
const OwnTable = "own table"

// Check is one source of rules.
type Check struct {
	Name  string
	rules interface {
		refusals(kind string, obj map[string]any) []string
		updateRefusals(kind string, old, cur map[string]any) []string
	}
}

// Refusals is why the API server would refuse to create obj, by this check's rules.
func (c Check) Refusals(obj map[string]any) []string {
	value, ok := jsonValue(obj).(map[string]any)
	if !ok {
		return []string{fmt.Sprintf("not an object: %v", obj)}
	}
	errs := objectMetaRefusals(value)
	kind, _ := value["kind"].(string)
	return append(errs, c.rules.refusals(kind, value)...)
}

// UpdateRefusals is why the API server would refuse to update old into cur: the rules of
// create, and those on updates.
func (c Check) UpdateRefusals(old, cur map[string]any) []string {
	errs := c.Refusals(cur)
	o, _ := jsonValue(old).(map[string]any)
	n, _ := jsonValue(cur).(map[string]any)
	kind, _ := n["kind"].(string)
	return append(errs, c.rules.updateRefusals(kind, o, n)...)
}

var (
	chartOnce sync.Once
	chart     *chartCRDs
	chartErr  error
	logged    sync.Map // top-level test name: the sources were said
)

// Checks are the sources of rules at hand: our table, and the chart's CRDs when found. The
// test t is told once which, and fails if the CRDs named cannot be read.
func Checks(t testing.TB) []Check {
	t.Helper()
	chartOnce.Do(func() {
		if dir := crdDir(); dir != "" {
			if chart, chartErr = loadChartCRDs(dir); chartErr != nil {
				chartErr = fmt.Errorf("%s (from %s, or else %s): %w", dir, EnvCRDs, sharedCRDs, chartErr)
			}
		}
	})
	if chartErr != nil {
		t.Fatalf("crdcheck: the chart's CRDs: %v", chartErr)
	}
	checks := []Check{{Name: OwnTable, rules: ownTable{}}}
	say := "crdcheck: checked against our own constraint table only (Trident protect 26.05); to check against the chart's CRDs too, run with " +
		EnvCRDs + "=<chart>/templates/crd (see internal/tridentprotect/crdcheck/README.md)"
	if chart != nil {
		checks = append(checks, Check{Name: "chart CRDs", rules: chart})
		say = "crdcheck: checked against our own constraint table and the CRDs in " + chart.dir
	}
	if _, done := logged.LoadOrStore(strings.SplitN(t.Name(), "/", 2)[0], true); !done {
		t.Log(say)
	}
	return checks
}

// crdDir is the directory of the chart's CRD files, or "" when there is none.
func crdDir() string {
	if dir := os.Getenv(EnvCRDs); dir != "" {
		return dir
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			shared := filepath.Join(dir, sharedCRDs)
			if st, err := os.Stat(shared); err == nil && st.IsDir() {
				return shared
			}
			return ""
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

// Refusals is why the API server would refuse to create obj, by every check at hand, each
// reason prefixed by its check's name.
func Refusals(t testing.TB, obj map[string]any) []string {
	t.Helper()
	var errs []string
	for _, c := range Checks(t) {
		errs = append(errs, prefixed(c.Name, c.Refusals(obj))...)
	}
	return errs
}

// UpdateRefusals is why the API server would refuse to update old into cur, by every
// check at hand.
func UpdateRefusals(t testing.TB, old, cur map[string]any) []string {
	t.Helper()
	var errs []string
	for _, c := range Checks(t) {
		errs = append(errs, prefixed(c.Name, c.UpdateRefusals(old, cur))...)
	}
	return errs
}

func prefixed(name string, errs []string) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = name + ": " + e
	}
	return out
}

// Kinds are the kinds the renderer emits, sorted.
func Kinds() []string {
	var out []string
	for k := range table {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

var (
	dnsSubdomain = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
	dnsLabel     = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
)

// objectMetaRefusals: what Kubernetes requires of every object, and what the renderer
// promises (apiVersion v1, a name and a namespace, nothing else in metadata).
func objectMetaRefusals(value map[string]any) []string {
	var errs []string
	if value["apiVersion"] != APIVersion {
		errs = append(errs, fmt.Sprintf("apiVersion %v is not %s", value["apiVersion"], APIVersion))
	}
	meta, _ := value["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	namespace, _ := meta["namespace"].(string)
	if len(name) > 253 || !dnsSubdomain.MatchString(name) {
		errs = append(errs, fmt.Sprintf("metadata.name %q is not a DNS subdomain", name))
	}
	if len(namespace) > 63 || !dnsLabel.MatchString(namespace) {
		errs = append(errs, fmt.Sprintf("metadata.namespace %q is not a DNS label", namespace))
	}
	for key := range meta {
		if key != "name" && key != "namespace" {
			errs = append(errs, "metadata."+key+" is not rendered by design")
		}
	}
	return errs
}

// jsonValue is v through JSON, as the object travels to the API server (every number a
// float64).
func jsonValue(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}
