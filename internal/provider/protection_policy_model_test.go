package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

func TestGranularityProblems(t *testing.T) {
	n := types.Int64Value
	null := types.Int64Null()
	cases := []struct {
		granularity    string
		hour, dow, dom types.Int64
		want           []string // "attribute: summary"
	}{
		{"hourly", null, null, null, nil},
		{"hourly", n(3), null, null, []string{"hour: Argument not used by an hourly policy"}},
		{"daily", null, null, null, []string{"hour: Missing hour"}},
		{"daily", n(1), n(2), n(3), []string{"day_of_week: Argument not used by a daily policy", "day_of_month: Argument not used by a daily policy"}},
		{"weekly", n(1), null, null, []string{"day_of_week: Missing day_of_week"}},
		{"weekly", n(1), n(0), null, nil},
		{"monthly", n(1), n(2), n(31), []string{"day_of_week: Argument not used by a monthly policy"}},
		{"monthly", n(1), null, null, []string{"day_of_month: Missing day_of_month"}},
	}
	for _, c := range cases {
		var got []string
		for _, p := range granularityProblems(c.granularity, map[string]types.Int64{"hour": c.hour, "day_of_week": c.dow, "day_of_month": c.dom}) {
			got = append(got, p.attribute+": "+p.summary)
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s %v/%v/%v: %v, want %v", c.granularity, c.hour, c.dow, c.dom, got, c.want)
		}
	}
}

func TestProtectionPolicyRequestSendsOnlyTheGranularitysFields(t *testing.T) {
	plan := protectionPolicyModel{
		Name: types.StringValue("p"), Granularity: types.StringValue("weekly"), Minute: types.Int64Value(5),
		Hour: types.Int64Value(2), DayOfWeek: types.Int64Value(7), DayOfMonth: types.Int64Value(9),
		SnapshotRetention: types.Int64Value(7), BackupRetention: types.Int64Value(0), BucketID: types.StringUnknown(),
		Enabled: types.BoolValue(false),
	}
	got := protectionPolicyRequest(plan)
	want := astra.AppScheduleFields{Name: "p", Enabled: astra.BoolPtr(false), Granularity: "weekly", Minute: "5", Hour: "2",
		DayOfWeek: "7", SnapshotRetention: "7", BackupRetention: "0"}
	if got.Name != want.Name || got.Enabled.Value() || got.Minute != want.Minute || got.Hour != want.Hour ||
		got.DayOfWeek != want.DayOfWeek || got.DayOfMonth != "" || got.SnapshotRetention != "7" || got.BackupRetention != "0" || got.BucketID != "" {
		t.Errorf("request %+v, want %+v", got, want)
	}
	plan.Granularity = types.StringValue("hourly")
	if got := protectionPolicyRequest(plan); got.Hour != "" || got.DayOfWeek != "" || got.Minute != "5" {
		t.Errorf("hourly request %+v", got)
	}
}

func TestProtectionPolicyFromReadsStringsAndStars(t *testing.T) {
	m := protectionPolicyFrom("app", &astra.AppSchedule{ID: "s", Name: "p", Granularity: "hourly", Minute: "15", Hour: "*",
		SnapshotRetention: "7", BackupRetention: "0", Enabled: astra.BoolPtr(false)})
	if m.Minute.ValueInt64() != 15 || !m.Hour.IsNull() || !m.DayOfWeek.IsNull() || m.SnapshotRetention.ValueInt64() != 7 ||
		m.BackupRetention.ValueInt64() != 0 || m.Enabled.ValueBool() || !m.BucketID.IsNull() || m.AppID.ValueString() != "app" {
		t.Errorf("model %+v", m)
	}
	if m := protectionPolicyFrom("app", &astra.AppSchedule{Granularity: "hourly"}); m.Minute.ValueInt64() != 0 || !m.Enabled.ValueBool() {
		t.Errorf("defaults: minute %v enabled %v", m.Minute, m.Enabled)
	}
}

func TestAppConverters(t *testing.T) {
	a := &astra.App{ID: "a", Name: "web", ClusterID: "c", State: "ready", ProtectionState: "none",
		NamespaceScopedResources: []astra.NamespaceScope{{Namespace: "default", LabelSelectors: []string{"app=web"}}},
		Metadata:                 astra.Metadata{Labels: []astra.Label{{Name: astra.ReadOnlyLabelPrefix + "x", Value: "y"}, {Name: "team", Value: "a"}}}}
	v := appFrom(a, appValues{Labels: types.MapNull(types.StringType)})
	if len(v.Labels.Elements()) != 1 || len(v.ClusterScopedResources.Elements()) != 0 || v.AppDetectedType.ValueString() != "" {
		t.Errorf("appFrom: %+v", v)
	}
	req := appCreateRequest(v)
	if req.Name != "web" || len(req.NamespaceScopedResources) != 1 || req.NamespaceScopedResources[0].LabelSelectors[0] != "app=web" ||
		len(req.Labels) != 1 || req.Labels[0].Name != "team" {
		t.Errorf("appCreateRequest: %+v", req)
	}
	v.Name = types.StringValue("web-2")
	v.Labels = types.MapValueMust(types.StringType, map[string]attr.Value{"team": types.StringValue("b")})
	applyAppPlan(a, v)
	if len(a.Metadata.Labels) != 2 || a.Metadata.Labels[1] != (astra.Label{Name: "team", Value: "b"}) || a.Name != "web-2" ||
		len(a.NamespaceScopedResources) != 1 {
		t.Errorf("applyAppPlan keeps the read-only labels and the scope and sets the planned name and labels: %+v", a)
	}
	// Unknown (not changed by the plan): the app keeps what it was read with.
	a.Metadata.Labels = append(a.Metadata.Labels, astra.Label{Name: "writer", Value: "w"})
	applyAppPlan(a, appValues{Name: types.StringUnknown(), Labels: types.MapUnknown(types.StringType)})
	if len(a.Metadata.Labels) != 3 || a.Name != "web-2" {
		t.Errorf("applyAppPlan with nothing planned changed the app: %+v", a)
	}
}

// applyProtectionPolicyPlan changes what the plan changes and keeps the rest of the
// schedule as read: its labels, replicate, unknown members, and the fields the plan leaves
// unknown (bucket_id left out of the configuration).
func TestApplyProtectionPolicyPlan(t *testing.T) {
	s := &astra.AppSchedule{ID: "s", Name: "p", Granularity: "daily", Minute: "0", Hour: "2", SnapshotRetention: "7",
		BackupRetention: "3", BucketID: "moved-by-someone", Replicate: astra.BoolPtr(false),
		Metadata: astra.Metadata{Labels: []astra.Label{{Name: "owner", Value: "ops"}}}}
	plan := protectionPolicyModel{
		Name: types.StringUnknown(), Minute: types.Int64Unknown(), Hour: types.Int64Value(4), DayOfWeek: types.Int64Unknown(),
		DayOfMonth: types.Int64Unknown(), SnapshotRetention: types.Int64Value(9), BackupRetention: types.Int64Unknown(),
		BucketID: types.StringUnknown(), Enabled: types.BoolValue(false),
	}
	applyProtectionPolicyPlan(s, plan)
	if s.Name != "p" || s.Minute != "0" || s.Hour != "4" || s.SnapshotRetention != "9" || s.BackupRetention != "3" ||
		s.BucketID != "moved-by-someone" || s.Enabled == nil || s.Enabled.Value() || len(s.Metadata.Labels) != 1 || s.Replicate == nil {
		t.Errorf("schedule after the plan: %+v", s)
	}
}
