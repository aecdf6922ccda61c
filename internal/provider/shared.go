package provider

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

// Helpers every object uses: value tests, plan-time problems, API version comparison and
// the schema pieces the resources and data sources share. What one object alone needs
// stays in that object's files.

// isSet reports whether a value is known and not null: an argument the configuration gives.
func isSet(v interface {
	IsNull() bool
	IsUnknown() bool
}) bool {
	return !v.IsNull() && !v.IsUnknown()
}

// known reports whether a configuration value can be checked now: unknown values are
// checked again at apply time, when they are known.
func known(v interface{ IsUnknown() bool }) bool { return !v.IsUnknown() }

// attrProblem is a plan-time error on one argument.
type attrProblem struct {
	attr, summary, detail string
}

// addProblems reports each problem on its argument, so the CLI points at the line.
func addProblems(diags *diag.Diagnostics, problems []attrProblem) {
	for _, p := range problems {
		diags.AddAttributeError(path.Root(p.attr), p.summary, p.detail)
	}
}

// withoutProblem drops the problem with this attribute and summary.
func withoutProblem(problems []attrProblem, attr, summary string) []attrProblem {
	out := problems[:0:0]
	for _, p := range problems {
		if p.attr != attr || p.summary != summary {
			out = append(out, p)
		}
	}
	return out
}

// versionAtLeast compares cluster resource versions "1.N".
func versionAtLeast(version, minimum string) bool {
	return minorVersion(version) >= minorVersion(minimum)
}

func minorVersion(v string) int {
	_, minor, _ := strings.Cut(v, ".")
	n, err := strconv.Atoi(minor)
	if err != nil {
		return -1
	}
	return n
}

// sortedStrings reads a set for a request in a stable order.
func sortedStrings(v types.Set) []string {
	out := attrs.Strings(v)
	slices.Sort(out)
	return out
}

// Sentences the attribute descriptions end with, the same for every object.
// attrs.ComputedForDataSource drops them from a data source's copy.
const (
	forcesReplacement = attrs.ForcesReplacement
	updatedInPlace    = attrs.UpdatedInPlace
)

// keepsServiceValue is appended to the description of an Optional+Computed argument.
const keepsServiceValue = attrs.KeepsServiceValue

// computedString, computedBool and computedStrings are attributes only the service sets.
func computedString(desc string) schema.StringAttribute {
	return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
}

func computedBool(desc string) schema.BoolAttribute {
	return schema.BoolAttribute{Computed: true, MarkdownDescription: desc}
}

func computedStrings(desc string) schema.ListAttribute {
	return schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: desc}
}

// objectString reads one string of a known nested object; "" when absent.
func objectString(o types.Object, name string) string {
	if o.IsNull() || o.IsUnknown() {
		return ""
	}
	s, _ := o.Attributes()[name].(types.String)
	return attrs.StringOrEmpty(s)
}

// waitAndRecord waits, from the answer already recorded, until ready says the object is
// there, then records the last object it saw (a failed one too, with its reasons); a
// failed or timed-out wait adds summary with the object's last state and aftermath.
func waitAndRecord[T any](ctx context.Context, schedule astra.Schedule, timeout time.Duration, answer *T,
	get func(context.Context) (*T, error), ready func(*T) (bool, error), record func(*T), diags *diag.Diagnostics,
	summary, aftermath string) {
	waitCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	last, err := astra.WaitFrom(waitCtx, schedule, answer, get, ready)
	if last != nil {
		record(last)
	}
	if err != nil {
		addWaitError(diags, summary, err, timeout, aftermath)
	}
}
