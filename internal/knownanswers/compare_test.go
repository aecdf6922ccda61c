package knownanswers_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
	"github.com/astra-control/terraform-provider-astra/internal/testutil"
)

// Comparing answers with the framework's: as values (the protocol's encoding has no fixed
// order), diagnostics without correlation IDs.
// answer is what a plan or a read answers besides the replacements, for answerDiff.
type answer struct {
	state    *tfprotov6.DynamicValue
	identity *tfprotov6.ResourceIdentityData
	private  []byte
	diags    []*tfprotov6.Diagnostic
	deferred bool
}

// answerDiff compares two answers as values (state, identity, private state, diagnostics
// without correlation IDs, deferral): the differences, none when alike.
func answerDiff(typ, identity tftypes.Type, got, want answer) []string {
	var out []string
	if d := valueDiff(typ, got.state, want.state); d != "" {
		out = append(out, "state: "+d)
	}
	if d := identityDiffAs(identity, got.identity, want.identity); d != "" {
		out = append(out, "identity: "+d)
	}
	if !samePrivate(got.private, want.private) {
		out = append(out, fmt.Sprintf("private: %q, want %q", got.private, want.private))
	}
	if a, b := diagnosticsWithPaths(got.diags), diagnosticsWithPaths(want.diags); a != b {
		out = append(out, fmt.Sprintf("diagnostics: %q, want %q", a, b))
	}
	if got.deferred != want.deferred {
		out = append(out, "deferred differs")
	}
	return out
}

// diagnosticsWithPaths is comparableDiagnostics with each one's severity and attribute path.
func diagnosticsWithPaths(diags []*tfprotov6.Diagnostic) string {
	var out strings.Builder
	for _, d := range diags {
		at := "-"
		if d.Attribute != nil {
			at = d.Attribute.String()
		}
		fmt.Fprintf(&out, "%s at %s: %s", d.Severity, at, comparableDiagnostics([]*tfprotov6.Diagnostic{d}))
	}
	return out.String()
}

// planDiff compares two plans as values: "" when alike. A plan the framework refuses is
// only its diagnostics: the CLI stops there, and the framework's planned state is then
// whatever it had reached (it plans attributes in map order and stops at the first error).
func planDiff(typ, identity tftypes.Type, got, want *tfprotov6.PlanResourceChangeResponse) string {
	of := func(r *tfprotov6.PlanResourceChangeResponse) answer {
		if hasError(want.Diagnostics) {
			return answer{diags: r.Diagnostics}
		}
		return answer{r.PlannedState, r.PlannedIdentity, r.PlannedPrivate, r.Diagnostics, r.Deferred != nil}
	}
	out := answerDiff(typ, identity, of(got), of(want))
	if a, b := pathsText(got.RequiresReplace), pathsText(want.RequiresReplace); a != b && !hasError(want.Diagnostics) {
		out = append(out, fmt.Sprintf("replace: %s, want %s", a, b))
	}
	return strings.Join(out, "; ")
}

// readDiff compares two reads as values: "" when alike.
func readDiff(typ, identity tftypes.Type, got, want *tfprotov6.ReadResourceResponse) string {
	of := func(r *tfprotov6.ReadResourceResponse) answer {
		return answer{r.NewState, r.NewIdentity, r.Private, r.Diagnostics, r.Deferred != nil}
	}
	return strings.Join(answerDiff(typ, identity, of(got), of(want)), "; ")
}

func pathsText(paths []*tftypes.AttributePath) string {
	var out []string
	for _, p := range paths {
		out = append(out, p.String())
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

func describePlan(req *tfprotov6.PlanResourceChangeRequest, typ tftypes.Type) string {
	prior, _ := req.PriorState.Unmarshal(typ)
	config, _ := req.Config.Unmarshal(typ)
	proposed, _ := req.ProposedNewState.Unmarshal(typ)
	return fmt.Sprintf("prior %s\nconfig %s\nproposed %s\nprivate %q", prior, config, proposed, req.PriorPrivate)
}

// correlationID is the part of an API error that differs between two identical requests.
var correlationID = regexp.MustCompile(`\[correlation ID [^\]]*\]`)

// comparableDiagnostics is the diagnostics' text without the service's correlation IDs:
// the two servers send the same request twice, and each answer has its own.
func comparableDiagnostics(diags []*tfprotov6.Diagnostic) string {
	return correlationID.ReplaceAllString(testutil.DiagnosticsText(diags), "[correlation ID]")
}

// stringAttribute is the known string attribute name of an object, "" if there is none.
func stringAttribute(object tftypes.Value, name string) string {
	var attrs map[string]tftypes.Value
	var s string
	if object.IsNull() || !object.IsKnown() || object.As(&attrs) != nil || attrs[name].As(&s) != nil {
		return ""
	}
	return s
}

// identityAttributes are the string attributes of object the identity type names.
func identityAttributes(identity tftypes.Type, object tftypes.Value) map[string]string {
	out := map[string]string{}
	if typ, ok := identity.(tftypes.Object); ok {
		for name := range typ.AttributeTypes {
			out[name] = stringAttribute(object, name)
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// valueDiff compares two encoded values as values (the encoding has no fixed map order):
// "" when equal.
func valueDiff(typ tftypes.Type, got, want *tfprotov6.DynamicValue) string {
	if got == nil || want == nil {
		if got == nil && want == nil {
			return ""
		}
		return fmt.Sprintf("one is missing: got %v, want %v", got != nil, want != nil)
	}
	a, errA := got.Unmarshal(typ)
	b, errB := want.Unmarshal(typ)
	if errA != nil || errB != nil {
		return fmt.Sprintf("decode: %v, %v", errA, errB)
	}
	if !a.Equal(b) {
		return fmt.Sprintf("got %s, want %s", a, b)
	}
	return ""
}

// identityDiffAs is identityDiff for identities of type typ.
func identityDiffAs(typ tftypes.Type, got, want *tfprotov6.ResourceIdentityData) string {
	var a, b *tfprotov6.DynamicValue
	if got != nil {
		a = got.IdentityData
	}
	if want != nil {
		b = want.IdentityData
	}
	return valueDiff(typ, a, b)
}

// samePrivate compares private states as the documents they hold: the framework re-encodes
// what it passes through.
//
// The seal of bytes (knownanswers.AnswerBytesKey) is left out: the known reads add it, and
// the framework passes on whatever the request held. It decides only which way the next
// read goes, and compareRead compares the read that follows a known one too.
func samePrivate(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	var x, y map[string]json.RawMessage
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	delete(x, knownanswers.AnswerBytesKey)
	delete(y, knownanswers.AnswerBytesKey)
	return reflect.DeepEqual(x, y)
}
