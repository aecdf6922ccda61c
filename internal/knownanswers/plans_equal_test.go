package knownanswers

import (
	"maps"
	"math/rand"
	"slices"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/astra-control/terraform-provider-astra/internal/testutil"
)

// planTestType has one of every kind of attribute.
var planTestType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
	"s":  tftypes.String,
	"n":  tftypes.Number,
	"b":  tftypes.Bool,
	"l":  tftypes.List{ElementType: tftypes.String},
	"st": tftypes.Set{ElementType: tftypes.Object{AttributeTypes: map[string]tftypes.Type{"k": tftypes.String, "v": tftypes.Number}}},
	"m":  tftypes.Map{ElementType: tftypes.Number},
	"o":  tftypes.Object{AttributeTypes: map[string]tftypes.Type{"x": tftypes.String}},
}}

// TestPlannedIsPriorMatchesEqual: prior, a plan made from it by setting some attributes
// (to the values they had, or to others), and plannedIsPrior against tftypes' Equal.
func TestPlannedIsPriorMatchesEqual(t *testing.T) {
	seed := time.Now().UnixNano()
	t.Logf("random seed %d", seed)
	g := testutil.RandomValues{Rand: rand.New(rand.NewSource(seed))}
	names := slices.Sorted(maps.Keys(planTestType.AttributeTypes))
	equal, differ := 0, 0
	for range 2000 {
		prior := g.Value(planTestType, false)
		var before map[string]tftypes.Value
		if prior.As(&before) != nil || before == nil {
			continue
		}
		planned := maps.Clone(before)
		var set []string
		for _, name := range names {
			switch g.Rand.Intn(4) {
			case 0: // another value, maybe the same
				planned[name] = g.Value(planTestType.AttributeTypes[name], false)
			case 1: // null, as a write-only attribute is planned
				planned[name] = tftypes.NewValue(planTestType.AttributeTypes[name], nil)
			default:
				continue
			}
			set = append(set, name)
		}
		plan := tftypes.NewValue(planTestType, planned)
		want := plan.Equal(prior)
		if got := plannedIsPrior(plan, prior, true, set); got != want {
			t.Fatalf("seed %d: plannedIsPrior %v, Equal %v\nprior %v\nplan  %v", seed, got, want, prior, plan)
		}
		if got := plannedIsPrior(plan, prior, false, nil); got != want {
			t.Fatalf("seed %d: plannedIsPrior (proposed not prior) %v, Equal %v", seed, got, want)
		}
		if want {
			equal++
		} else {
			differ++
		}
	}
	if equal == 0 || differ == 0 {
		t.Fatalf("seed %d: %d plans equal to prior, %d not: want some of each", seed, equal, differ)
	}
}
