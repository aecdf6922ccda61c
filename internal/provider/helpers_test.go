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

// clusterDiscovered are astra_cluster's attributes that a new credential_id leaves unknown:
// what Astra Control discovers again on the cluster, and the PUT's metadata.
var clusterDiscovered = []string{
	"acp_version", "api_service_id", "cluster_creation_timestamp", "cluster_type", "cluster_version", "cluster_version_string",
	"default_storage_class", "in_use", "is_multizonal", "location", "managed_state", "managed_state_unready", "managed_timestamp",
	"namespaces", "protection_state", "protection_state_details", "restore_target_supported", "snapshot_supported", "state",
	"state_unready", "trident_managed_state", "trident_managed_state_allowed", "trident_managed_state_desired",
	"trident_managed_state_details", "trident_version",
}

// putMetadata are the metadata fields any PUT moves.
var putMetadata = []string{"metadata.modification_timestamp", "metadata.modified_by"}

func withPaths(a []string, b ...string) []string { return append(slices.Clone(a), b...) }
