package provider

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

// protectionPolicyModel is the astra_protection_policy resource.
type protectionPolicyModel struct {
	ID                types.String `tfsdk:"id"`
	AppID             types.String `tfsdk:"app_id"`
	Name              types.String `tfsdk:"name"`
	Granularity       types.String `tfsdk:"granularity"`
	Minute            types.Int64  `tfsdk:"minute"`
	Hour              types.Int64  `tfsdk:"hour"`
	DayOfWeek         types.Int64  `tfsdk:"day_of_week"`
	DayOfMonth        types.Int64  `tfsdk:"day_of_month"`
	SnapshotRetention types.Int64  `tfsdk:"snapshot_retention"`
	BackupRetention   types.Int64  `tfsdk:"backup_retention"`
	BucketID          types.String `tfsdk:"bucket_id"`
	Enabled           types.Bool   `tfsdk:"enabled"`
	IntervalMinutes   types.Int64  `tfsdk:"interval_minutes"`
	Replicate         types.Bool   `tfsdk:"replicate"`
	Metadata          types.Object `tfsdk:"metadata"`
}

// protectionPolicyAPIFields maps the API's field names in invalidFields to attributes.
var protectionPolicyAPIFields = map[string]string{
	"name": "name", "granularity": "granularity", "minute": "minute", "hour": "hour", "dayOfWeek": "day_of_week",
	"dayOfMonth": "day_of_month", "snapshotRetention": "snapshot_retention", "backupRetention": "backup_retention",
	"bucketID": "bucket_id", "enabled": "enabled", "recurrenceRule": "interval_minutes", "replicate": "replicate",
}

// granularityUses says which of hour, day_of_week and day_of_month a granularity uses
// (actoolkit's rules; minute is used by all).
var granularityUses = map[string][]string{
	"hourly":  nil,
	"daily":   {"hour"},
	"weekly":  {"hour", "day_of_week"},
	"monthly": {"hour", "day_of_month"},
	"custom":  nil, // every interval_minutes (customProblems)
}

// granularityProblem is one plan-time error of the granularity rules.
type granularityProblem struct {
	attribute, summary, detail string
}

// granularityProblems checks hour, day_of_week and day_of_month against the granularity:
// each one it uses is required, each one it does not is refused. Unknown values are
// checked at apply.
func granularityProblems(granularity string, values map[string]types.Int64) []granularityProblem {
	uses, ok := granularityUses[granularity]
	if !ok {
		return nil
	}
	var out []granularityProblem
	for _, name := range []string{"hour", "day_of_week", "day_of_month"} {
		v := values[name]
		used := containsName(uses, name)
		switch {
		case used && v.IsNull():
			out = append(out, granularityProblem{name, "Missing " + name,
				fmt.Sprintf("%s %s policy needs %s (%s). Set %s.", capitalize(article(granularity)), granularity, name, granularityWhen(granularity), name)})
		case !used && !v.IsNull():
			out = append(out, granularityProblem{name, "Argument not used by " + article(granularity) + " " + granularity + " policy",
				fmt.Sprintf("%s is not used by %s %s policy (%s). Remove %s, or choose a granularity that uses it.",
					name, article(granularity), granularity, granularityWhen(granularity), name)})
		}
	}
	return out
}

// article is "an" before a word said with a vowel sound ("an hourly"), "a" otherwise.
func article(word string) string {
	if strings.HasPrefix(word, "hour") || (word != "" && strings.ContainsRune("aeiou", rune(word[0]))) {
		return "an"
	}
	return "a"
}

func capitalize(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

func granularityWhen(g string) string {
	switch g {
	case "hourly":
		return "it runs every hour at minute"
	case "daily":
		return "it runs every day at hour:minute"
	case "weekly":
		return "it runs on day_of_week at hour:minute"
	case "custom":
		return "it runs every interval_minutes"
	}
	return "it runs on day_of_month at hour:minute"
}

func containsName(list []string, name string) bool {
	for _, s := range list {
		if s == name {
			return true
		}
	}
	return false
}

func (m protectionPolicyModel) timeValues() map[string]types.Int64 {
	return map[string]types.Int64{"hour": m.Hour, "day_of_week": m.DayOfWeek, "day_of_month": m.DayOfMonth}
}

// addGranularityProblems adds each problem as an attribute error.
func addGranularityProblems(problems []granularityProblem, add func(path.Path, string, string)) {
	for _, p := range problems {
		add(path.Root(p.attribute), p.summary, p.detail)
	}
}

func number(v types.Int64) string {
	if v.IsNull() || v.IsUnknown() {
		return ""
	}
	return strconv.FormatInt(v.ValueInt64(), 10)
}

// protectionPolicyRequest is the POST body of a planned policy: the numbers as the
// strings the API wants, and only the fields the granularity uses.
func protectionPolicyRequest(plan protectionPolicyModel) astra.AppScheduleFields {
	g := plan.Granularity.ValueString()
	uses := granularityUses[g]
	only := func(name string, v types.Int64) string {
		if !containsName(uses, name) {
			return ""
		}
		return number(v)
	}
	minute := number(plan.Minute)
	switch {
	case g == "custom":
		minute = "" // a custom schedule runs by its rule: minute goes into its DTSTART
	case minute == "":
		minute = "0"
	}
	out := astra.AppScheduleFields{
		Name: plan.Name.ValueString(), Enabled: attrs.APIBool(plan.Enabled), Granularity: g, Minute: minute,
		Hour: only("hour", plan.Hour), DayOfWeek: only("day_of_week", plan.DayOfWeek), DayOfMonth: only("day_of_month", plan.DayOfMonth),
		SnapshotRetention: number(plan.SnapshotRetention), BackupRetention: number(plan.BackupRetention),
		BucketID: attrs.StringOrEmpty(plan.BucketID), RecurrenceRule: recurrenceRule(plan.Minute, plan.IntervalMinutes),
	}
	if plan.Replicate.ValueBool() {
		out.Replicate = attrs.APIBool(plan.Replicate)
	}
	return out
}

// recurrenceRule is interval_minutes as the spec's rule (schedule 1.3 recurrenceRule: a UTC
// DTSTART in the past, FREQ MINUTELY and INTERVAL only), starting at minute past midnight
// on 2022-01-01 as NetApp's toolkit sends it; "" without an interval.
func recurrenceRule(minute, interval types.Int64) string {
	if interval.IsNull() || interval.IsUnknown() {
		return ""
	}
	m := int64(0)
	if !minute.IsNull() && !minute.IsUnknown() {
		m = minute.ValueInt64()
	}
	return fmt.Sprintf("DTSTART:20220101T00%02d00Z\nRRULE:FREQ=MINUTELY;INTERVAL=%d", m, interval.ValueInt64())
}

// intervalOf reads interval_minutes back from a rule (FREQ=MINUTELY, or HOURLY as older
// toolkits sent); null when there is none.
func intervalOf(rule string) types.Int64 {
	var freq string
	interval := int64(1)
	found := false
	for _, line := range strings.Split(rule, "\n") {
		line = strings.TrimPrefix(strings.TrimSpace(line), "RRULE:")
		for _, part := range strings.Split(line, ";") {
			k, v, ok := strings.Cut(part, "=")
			switch {
			case !ok:
			case strings.EqualFold(k, "FREQ"):
				freq, found = strings.ToUpper(v), true
			case strings.EqualFold(k, "INTERVAL"):
				if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 {
					interval = n
				}
			}
		}
	}
	switch {
	case !found:
		return types.Int64Null()
	case freq == "HOURLY":
		return types.Int64Value(interval * 60)
	case freq == "MINUTELY":
		return types.Int64Value(interval)
	}
	return types.Int64Null()
}

// customProblems: a custom policy needs interval_minutes, and only a custom one takes it.
// A granularity the schema's validator refuses (e.g. "") gets that error alone.
func customProblems(granularity string, interval types.Int64) []granularityProblem {
	if _, ok := granularityUses[granularity]; !ok {
		return nil
	}
	switch {
	case granularity == "custom" && interval.IsNull():
		return []granularityProblem{{"interval_minutes", "Missing interval_minutes",
			"A custom policy runs every interval_minutes minutes: set interval_minutes (5 for a replication schedule every 5 minutes)."}}
	case granularity != "custom" && !interval.IsNull() && !interval.IsUnknown():
		return []granularityProblem{{"interval_minutes", "Argument not used by " + article(granularity) + " " + granularity + " policy",
			fmt.Sprintf("interval_minutes is used only by a custom policy (%s). Remove interval_minutes, or set granularity = \"custom\".",
				granularityWhen(granularity))}}
	}
	return nil
}

// applyProtectionPolicyPlan sets, on the schedule as just read, what the plan changes
// (planForFreshCopy: an unknown value keeps the read one). A number the granularity does
// not use is null in a valid plan and is sent absent.
func applyProtectionPolicyPlan(current *astra.AppSchedule, plan protectionPolicyModel) {
	setString := func(dst *string, v types.String) {
		if !v.IsUnknown() {
			*dst = attrs.StringOrEmpty(v)
		}
	}
	setNumber := func(dst *string, v types.Int64) {
		if !v.IsUnknown() {
			*dst = number(v)
		}
	}
	setString(&current.Name, plan.Name)
	setNumber(&current.Minute, plan.Minute)
	setNumber(&current.Hour, plan.Hour)
	setNumber(&current.DayOfWeek, plan.DayOfWeek)
	setNumber(&current.DayOfMonth, plan.DayOfMonth)
	setNumber(&current.SnapshotRetention, plan.SnapshotRetention)
	setNumber(&current.BackupRetention, plan.BackupRetention)
	setString(&current.BucketID, plan.BucketID)
	if !plan.IntervalMinutes.IsUnknown() && !plan.IntervalMinutes.IsNull() {
		current.RecurrenceRule = recurrenceRule(plan.Minute, plan.IntervalMinutes)
	}
	if strings.EqualFold(current.Granularity, "custom") {
		current.Minute = "" // in the rule's DTSTART (protectionPolicyRequest)
	}
	if !plan.Replicate.IsUnknown() && !plan.Replicate.IsNull() {
		current.Replicate = attrs.APIBool(plan.Replicate)
	}
	if !plan.Enabled.IsUnknown() {
		current.Enabled = attrs.APIBool(plan.Enabled)
	}
}

// apiNumber reads a number the API sends as a string; absent, "*" (what actoolkit sends for
// an unused field) or unreadable is null.
func apiNumber(s string) types.Int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return types.Int64Null()
	}
	return types.Int64Value(n)
}

// protectionPolicyFrom converts the service's schedule for state.
func protectionPolicyFrom(appID string, s *astra.AppSchedule) protectionPolicyModel {
	m := protectionPolicyModel{
		ID: types.StringValue(s.ID), AppID: types.StringValue(appID), Name: types.StringValue(s.Name),
		Granularity: types.StringValue(s.Granularity), Minute: apiNumber(s.Minute), Hour: apiNumber(s.Hour),
		DayOfWeek: apiNumber(s.DayOfWeek), DayOfMonth: apiNumber(s.DayOfMonth),
		SnapshotRetention: apiNumber(s.SnapshotRetention), BackupRetention: apiNumber(s.BackupRetention),
		BucketID: attrs.OptionalString(s.BucketID), Enabled: types.BoolValue(s.Enabled == nil || s.Enabled.Value()),
		IntervalMinutes: types.Int64Null(), Replicate: types.BoolValue(s.Replicate != nil && s.Replicate.Value()),
		Metadata: attrs.MetadataValue(s.Metadata),
	}
	if strings.EqualFold(s.Granularity, "custom") {
		m.IntervalMinutes = intervalOf(s.RecurrenceRule)
	}
	if m.Minute.IsNull() {
		m.Minute = types.Int64Value(0)
	}
	return m
}
