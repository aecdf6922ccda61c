package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// TestProtectionPolicy_custom: a custom policy is sent as the spec's rule and read back;
// the rules name interval_minutes; replicate is sent only when true, so the bodies of
// existing policies do not change.
func TestProtectionPolicy_custom(t *testing.T) {
	rule := recurrenceRule(types.Int64Value(3), types.Int64Value(5))
	if rule != "DTSTART:20220101T000300Z\nRRULE:FREQ=MINUTELY;INTERVAL=5" {
		t.Errorf("rule %q", rule)
	}
	for in, want := range map[string]int64{rule: 5, "RRULE:FREQ=HOURLY;INTERVAL=4": 240, "DTSTART:20220101T000500Z\nRRULE:FREQ=MINUTELY;INTERVAL=10": 10} {
		if got := intervalOf(in); got.ValueInt64() != want {
			t.Errorf("intervalOf(%q) = %v, want %d", in, got, want)
		}
	}
	if !intervalOf("").IsNull() || !intervalOf("RRULE:FREQ=DAILY").IsNull() {
		t.Errorf("a rule without a minutely or hourly interval is not null")
	}
	if p := customProblems("custom", types.Int64Null()); len(p) != 1 || p[0].attribute != "interval_minutes" {
		t.Errorf("custom without interval: %+v", p)
	}
	if p := customProblems("hourly", types.Int64Value(5)); len(p) != 1 || p[0].attribute != "interval_minutes" {
		t.Errorf("hourly with interval: %+v", p)
	}
	// A granularity the validator refuses is left to it: no second error, no panic (the
	// differential found `granularity = ""` crashing the provider).
	for _, g := range []string{"", "yearly"} {
		if p := customProblems(g, types.Int64Value(5)); len(p) != 0 {
			t.Errorf("customProblems(%q) = %v, want none", g, p)
		}
	}
	if p := customProblems("custom", types.Int64Value(5)); len(p) != 0 {
		t.Errorf("custom with interval: %+v", p)
	}
	if p := granularityProblems("custom", map[string]types.Int64{"hour": types.Int64Value(2)}); len(p) != 1 || p[0].attribute != "hour" {
		t.Errorf("custom with an hour: %+v", p)
	}
	plan := protectionPolicyModel{Name: types.StringValue("r"), Granularity: types.StringValue("custom"), Minute: types.Int64Value(0),
		IntervalMinutes: types.Int64Value(5), Replicate: types.BoolValue(true), SnapshotRetention: types.Int64Value(2),
		BackupRetention: types.Int64Value(0), Enabled: types.BoolValue(true)}
	body := protectionPolicyRequest(plan)
	if body.RecurrenceRule == "" || body.Replicate == nil || !body.Replicate.Value() || body.Hour != "" {
		t.Errorf("custom body %+v", body)
	}
	plan.Granularity, plan.IntervalMinutes, plan.Replicate = types.StringValue("hourly"), types.Int64Null(), types.BoolValue(false)
	if body := protectionPolicyRequest(plan); body.RecurrenceRule != "" || body.Replicate != nil {
		t.Errorf("an hourly body gained custom members: %+v", body)
	}
	read := protectionPolicyFrom("app", &astra.AppSchedule{ID: "s", Granularity: "custom", RecurrenceRule: rule, Minute: "0"})
	if read.IntervalMinutes.ValueInt64() != 5 || read.Replicate.ValueBool() {
		t.Errorf("read back %+v", read)
	}
}
