package provider

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"

	"github.com/hashicorp/terraform-plugin-testing/plancheck"
)

// expectUnknownExactly is a plan check that the planned change of addr leaves exactly the
// given attribute paths unknown ("metadata.modification_timestamp" for a nested one): no
// other value shows as "(known after apply)", and each given one does.
func expectUnknownExactly(addr string, paths ...string) plancheck.PlanCheck {
	want := slices.Clone(paths)
	sort.Strings(want)
	return unknownExactly{addr: addr, want: want}
}

type unknownExactly struct {
	addr string
	want []string
}

func (c unknownExactly) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != c.addr || rc.Change == nil {
			continue
		}
		var got []string
		collectUnknown("", rc.Change.AfterUnknown, &got)
		sort.Strings(got)
		if !slices.Equal(got, c.want) {
			resp.Error = fmt.Errorf("%s: unknown after apply %v, want exactly %v", c.addr, got, c.want)
		}
		return
	}
	resp.Error = fmt.Errorf("%s: no planned change", c.addr)
}

// collectUnknown lists the paths Terraform's JSON plan marks true in after_unknown. A
// wholly unknown object or list is one path; its members are not listed.
func collectUnknown(prefix string, v any, out *[]string) {
	join := func(k string) string {
		if prefix == "" {
			return k
		}
		return prefix + "." + k
	}
	switch x := v.(type) {
	case bool:
		if x {
			*out = append(*out, prefix)
		}
	case map[string]any:
		for k, e := range x {
			collectUnknown(join(k), e, out)
		}
	case []any:
		for i, e := range x {
			collectUnknown(join(strconv.Itoa(i)), e, out)
		}
	}
}

// putMetadata are the metadata fields any PUT moves.
var putMetadata = []string{"metadata.modification_timestamp", "metadata.modified_by"}

func withPaths(a []string, b ...string) []string { return append(slices.Clone(a), b...) }
